"""Finished Subastral games built by hand, for the tests of tests/rules/subastral/."""

from __future__ import annotations

from itertools import count

import rules


GAME = rules.get_game("subastral")


def column(biome: str, height: int, players: int = 5) -> list[str]:
    """``height`` cards of ``biome``, taking the copies of numbers 1-6 in turn."""
    copies = dict(zip(GAME.cards.kind_names, GAME.cards.copies[players]))
    cards = []
    for n in count():
        name = f"{biome}-{n % 6 + 1}"
        if copies[name] > cards.count(name):
            cards.append(name)
        if len(cards) == height:
            return cards


def finished(*journals: list[list[str]]):
    """A finished 5-player game whose first seats have these journals (the others have none)."""
    journals = list(journals) + [[] for _ in range(5 - len(journals))]
    return GAME.decode({
        "game": "subastral", "version": "1.0", "variants": {"disturbance": False},
        "state": {
            "players": 5, "start_player": 0, "seat": 4, "round": 0, "phase": "over", "played_cloud": None,
            "end_triggered": True, "last_round": 0, "deck": [],
            "clouds": {str(n): [] for n in range(1, 7)}, "hands": [[] for _ in range(5)],
            "journals": journals, "pending": [], "passes": [None] * 5,
        },
    })

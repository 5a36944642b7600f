"""Stellar positions and finished games built by hand, for the tests of tests/rules/stellar/."""

from __future__ import annotations

import rules


GAME = rules.get_game("stellar")
SLOTS = GAME.cards.telescope.slot_names
TYPES = ["planet", "moon", "asteroid", "interstellar_cloud", "black_hole", "satellite"]
ROW = ["moon-1-3stars", "asteroid-2-2stars", "black_hole-3-2stars", "moon-4-1star", "asteroid-5-1star"]


def telescope(**cards) -> dict:
    """A telescope with the given slots filled (keyword ``top_1`` is slot ``top-1``)."""
    return {slot: cards.get(slot.replace("-", "_")) for slot in SLOTS}


def notebook(*cards) -> dict:
    stacks = {t: [] for t in TYPES}
    for card in cards:
        stacks["satellite" if card == "satellite" else card.rsplit("-", 2)[0]].append(card)
    return stacks


def position(*, phase="take", seat=0, start_player=0, round=0, deck=("planet-5-1star", "planet-2-2stars", "moon-5-0stars"),
             discard=(), box=(), row=ROW, hands=(("planet-4-1star", "moon-2-2stars"), ("asteroid-1-3stars", "black_hole-1-3stars")),
             starters=((), ()), telescopes=None, notebooks=None, pending=None, satellite_taken=False, shuffles=0,
             variants=None) -> dict:
    return {
        "game": "stellar", "version": "1.0", "variants": dict(variants or {}),
        "state": {
            "players": 2, "seed": 1, "shuffles": shuffles, "start_player": start_player, "seat": seat,
            "round": round, "phase": phase, "deck": list(deck), "discard": list(discard), "box": list(box),
            "row": {str(i + 1): card for i, card in enumerate(row)},
            "hands": [list(h) for h in hands], "starters": [list(p) for p in starters],
            "telescopes": telescopes or [telescope(top_1="planet-3-1star"), telescope(top_1="moon-3-1star")],
            "notebooks": notebooks or [notebook("asteroid-3-1star"), notebook("black_hole-3-1star")],
            "pending": pending, "satellite_taken": satellite_taken,
        },
    }


def load(**zones):
    return GAME.decode(position(**zones))


def state_json(state):
    return GAME.encode(state)["state"]


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def over(telescopes, notebooks) -> object:
    """A finished game with these telescopes and notebooks."""
    return GAME.decode({
        "game": "stellar", "version": "1.0", "variants": {},
        "state": {
            "players": 2, "seed": 0, "shuffles": 0, "start_player": 0, "seat": 1, "round": 11, "phase": "over",
            "deck": [], "discard": [], "box": [], "row": {str(n): None for n in range(1, 6)},
            "hands": [[], []], "starters": [[], []], "telescopes": telescopes, "notebooks": notebooks,
            "pending": None, "satellite_taken": False,
        },
    })

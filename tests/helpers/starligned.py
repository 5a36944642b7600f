"""Starligned positions and finished games built by hand, for the tests of tests/rules/starligned/."""

from __future__ import annotations

import pytest

import rules
from rules.starligned import PlayCard


GAME = rules.get_game("starligned")
CARDS = GAME.cards
RED = [c for i, c in enumerate(CARDS.ids) if CARDS.red[i]]
WHITE = [c for i, c in enumerate(CARDS.ids) if not CARDS.red[i]]


def card_id(name: str) -> str:
    return name[:-1] if name.endswith("r") else name


def position(*, players=2, rows=None, hands=None, phase="play", moons=None, moon_supply=None, chosen=None,
             start_player=0, resolver=None, pending=None, ignored=(), stopped=False, stage=None, round=None,
             deck=None, discard=(), variants=None, fill=True) -> dict:
    """A position file. Stage and round follow from the row length (rows hold the cards played so far,
    plus this round's once revealed); with ``fill`` the hands are topped up to their size for the
    round (six, less one per card played this stage) from the unused cards of the player count, and
    every other card of that count is in the deck."""
    rows = [list(r) for r in (rows or [[]] * players)]
    played = len(rows[0]) - (0 if phase == "play" else 1)
    if stage is None:
        stage, round = (1, 4) if phase == "over" else divmod(played, 5)
    elif round is None:
        round = played - 5 * stage
    chosen = list(chosen or [None] * players)
    moons = [[list(p) for p in m] for m in (moons or [[]] * players)]
    in_play = RED if players < 4 else list(CARDS.ids)
    used = {card_id(c) for zone in (rows, hands or [], [discard], [[c for c in chosen if isinstance(c, str)]])
            for pile in zone for c in pile}
    free = [c for c in in_play if c not in used]
    if fill:
        given, hands = hands or [[]] * players, []
        for seat in range(players):
            size = 0 if phase == "over" else 6 - round - (0 if phase == "play" and chosen[seat] is None else 1)
            top_up = max(0, size - len(given[seat]))
            hands.append(list(given[seat]) + free[:top_up])
            del free[:top_up]
    if deck is None:
        deck = free
    return {
        "game": "starligned", "version": "1.0", "variants": dict(variants or {}),
        "state": {
            "players": players, "seed": 7, "start_player": start_player, "stage": stage, "round": round,
            "phase": phase, "deck": list(deck), "box": [] if players >= 4 else list(WHITE), "discard": list(discard),
            "hands": [list(h) for h in hands], "rows": rows, "moons": moons,
            "moon_supply": CARDS.moon_cards - sum(len(m) for m in moons) if moon_supply is None else moon_supply,
            "chosen": chosen, "resolver": resolver, "pending": pending, "ignored": list(ignored), "stopped": stopped,
        },
    }


def load(**zones):
    return GAME.decode(position(**zones))


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def reveal(state, *cards):
    """Phase 1: every seat, in seat order, puts down the named card (the action names the card's id;
    it is played as it is held)."""
    return play(state, *((seat, PlayCard(card=card_id(card))) for seat, card in enumerate(cards)))


def refused(state, seat, action, *, rule: str, says: str = "") -> rules.IllegalAction:
    before = GAME.encode(state)
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert rule in caught.value.rule, caught.value.rule
    assert says in caught.value.reason, caught.value.reason
    assert GAME.encode(state) == before
    return caught.value


def finished(rows, *, moons=None, players=None):
    """A game over with these rows of ten cards (every other card in the deck)."""
    players = players or len(rows)
    return GAME.decode(position(players=players, phase="over", rows=rows, moons=moons, hands=[[]] * players))


def other_rows(used, count, players=4):
    """``count`` rows of ten cards of a ``players`` game that nobody else uses, high halves up."""
    free = [c for c in (RED if players < 4 else CARDS.ids) if c not in {card_id(u) for u in used}]
    return [free[10 * i:10 * i + 10] for i in range(count)]


# The rulebook's example, right to left: 6 + 9 + (2x1) + (0x10) + 5 + 2 + 4 + 7 + (2x10) + 6 = 61.
# Left to right: S105 6 move, S106 10 exchange (doubled by S208), S208 7 x2, S302r 4 move,
# S102r 2 rotate telescope, S204r 5 stop, S205 10 exchange (zeroed by S210r), S210r 1 x0 (doubled by
# S211), S211 9 x2, S303 6 move. S210 and S211 have white centre stars: a four-player game.
EXAMPLE = ["S105", "S106", "S208", "S302r", "S102r", "S204r", "S205", "S210r", "S211", "S303"]

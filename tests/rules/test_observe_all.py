"""The all-seeing observation, ``observe(state, ALL)`` (docs/protocol.md, "Observations").

For every game, player count and seeded position: what a seat (or a spectator) sees, ``ALL`` shows
the same way; ``ALL`` holds every card of the game (``inventory``) and every hidden zone the
position file holds, decks in draw order; a spectator sees no hand.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

import rules
from rules.protocol import ALL, acts, sees
from tests.helpers.seeded_games import positions

#: Where ``observe(state, ALL)`` shows each hidden zone (a path into the observation, ``{s}`` = every
#: seat) and where the position file holds the same cards, in the same order.
HIDDEN_ZONES = {
    "subastral": [("deck.cards", "deck"), ("hands.{s}.cards", "hands.{s}")],
    "stellar": [("deck.cards", "deck"), ("box.cards", "box"), ("hands.{s}.cards", "hands.{s}"),
                ("starters.{s}.cards", "starters.{s}"), ("telescopes.{s}", "telescopes.{s}"), ("pending", "pending")],
    "jump_gate": [("deck.cards", "deck"), ("unused.cards", "unused"), ("hands.{s}.cards", "hands.{s}"),
                  ("hidden.{s}.cards", "hidden.{s}")],
    "starligned": [("deck.cards", "deck"), ("discard.cards.*.card", "discard"), ("hands.{s}.cards.*.card", "hands.{s}")],
    "biome_blitz": [(f"decks.{deck}.{zone}_cards", f"decks.{deck}.{zone}") for deck in ("resource", "animal", "ecosystem")
                    for zone in ("deck", "discard")] + [("hands.{s}.cards", "hands.{s}")],
}

#: Values by which a seat's observation marks a card it may not see (the card is in ``ALL``'s).
HIDDEN_MARKS = ({"hidden": True}, {"face_down": None})


def at(data, path: str):
    """``data`` at a dotted path; ``*`` maps the rest of the path over a list."""
    head, _, rest = path.partition(".")
    if head == "*":
        return [at(item, rest) if rest else item for item in data]
    data = data[int(head)] if isinstance(data, list) else data[head]
    return at(data, rest) if rest else data


def agrees(seen, everything, where: str = "") -> None:
    """``everything`` shows all that ``seen`` shows, the same way: each field of ``seen`` is in
    ``everything`` with an agreeing value; a card ``seen`` marks as hidden is named there.

    ``everything`` holds no hidden mark anywhere (``check_position`` checks that first), so a part of
    ``seen`` equal to it (one comparison, in C) holds none either and agrees as a whole."""
    if seen == everything:
        return
    if seen in HIDDEN_MARKS:
        assert everything is not None, f"{where}: ALL hides a card too"
        return
    if isinstance(seen, dict):
        assert isinstance(everything, dict), where
        for key, value in seen.items():
            assert key in everything, f"{where}.{key} is missing from ALL's observation"
            agrees(value, everything[key], f"{where}.{key}")
    elif isinstance(seen, list):
        assert isinstance(everything, list) and len(everything) == len(seen), where
        for index, (a, b) in enumerate(zip(seen, everything)):
            agrees(a, b, f"{where}[{index}]")
    else:
        assert seen == everything, f"{where}: {seen!r} seen, {everything!r} in ALL's observation"


def nodes(data):
    """Every value in ``data``, nested dicts' and lists' included (not keys)."""
    stack = [data]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def strings(data) -> Counter:
    """Every string value in ``data`` (not keys), counted."""
    return Counter(item for item in nodes(data) if isinstance(item, str))


def hidden_marks(data) -> list:
    """Every value in ``data`` that marks a card as hidden (:data:`HIDDEN_MARKS`)."""
    return [item for item in nodes(data) if isinstance(item, dict) and item in HIDDEN_MARKS]


def check_position(game, state) -> None:
    everything = game.observe(state, ALL)
    json.dumps(everything)
    assert not hidden_marks(everything), "ALL's observation marks a card as hidden"
    assert everything["viewer"] == ALL and everything["legal_actions"] == []
    events = game.events(state)
    assert everything["events"] == [event.seen_by(ALL) for event in events]
    # Every card on the table is named in ALL's observation (its zones, not its events).
    table = {key: value for key, value in everything.items() if key not in ("events", "legal_actions")}
    missing = Counter(game.inventory(state)) - strings(table)
    assert not missing, f"cards ALL's observation does not show: {dict(missing)}"
    # The hidden zones, as the position file has them (decks in draw order).
    position = game.encode(state)["state"]
    for shown, stored in HIDDEN_ZONES[game.id]:
        for seat in range(state.players) if "{s}" in shown else (None,):
            assert at(everything, shown.format(s=seat)) == at(position, stored.format(s=seat)), (shown, seat)
    for viewer in (None, *range(state.players)):
        seen = game.observe(state, viewer)
        assert seen["viewer"] == viewer
        agrees({k: v for k, v in seen.items() if k not in ("viewer", "legal_actions", "events")},
               {k: v for k, v in everything.items() if k not in ("viewer", "legal_actions", "events")})
        for event, shown, full in zip(events, seen["events"], everything["events"]):
            if event.visible_to is None or viewer in event.visible_to:
                assert shown == full
            else:
                assert (shown["kind"], shown["seat"]) == (full["kind"], full["seat"]) and "cards" not in shown
        if viewer is None:
            assert all("cards" not in hand for hand in seen["hands"]), "a spectator sees a hand"


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_observe_all_shows_what_every_seat_sees_and_every_hidden_card(game_id):
    checked = 0
    for index, (game, state, _) in enumerate(positions(game_id, seeds=2)):
        if index % 2 == 0 or game.is_over(state):       # every other position, and every end
            check_position(game, state)
            checked += 1
    assert checked > 50


def test_all_is_a_viewpoint_no_seat_has():
    """``ALL`` is no seat number and no spectator: the helpers tell it apart from both."""
    assert ALL not in (None, *range(10)) and isinstance(ALL, str)
    assert sees(ALL, 0) and sees(2, 2) and not sees(None, 0) and not sees(1, 0)
    assert acts(0) and not acts(None) and not acts(ALL)


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_seat_observation_hides_what_all_shows(game_id):
    """The seats' observations stay as they were: no seat sees another's hand or a deck's order."""
    game = rules.get_game(game_id)
    state = game.new_game(game.player_counts[0], 5)
    everything = game.observe(state, ALL)
    for seat in (None, *range(state.players)):
        seen = game.observe(state, seat)
        for other, hand in enumerate(seen["hands"]):
            assert ("cards" in hand) == (other == seat)
        assert strings(seen) != strings(everything)
        decks = [seen["deck"]] if "deck" in seen else [seen["decks"][d] for d in seen["decks"]]
        assert all("cards" not in deck and "deck_cards" not in deck for deck in decks)

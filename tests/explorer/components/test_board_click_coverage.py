"""Play by clicking the table (issue #22, item 8), measured over played games of every game: which of
the moves offered to the seat to move a click (or two: a card, then its slot) on its board can choose.

The board's HTML is read as the page's click handler reads it (explorer/components/board_clicks.py):
each element with ``data-card``, ``data-slot``... is a place to click, and a place marked
``data-whole`` (a market slot) is clicked as a whole, the card in it included. Only moves that touch
nothing on the table (a button's "pass", "propose the trade") may be left to the move list.
"""

from __future__ import annotations

import random
from collections import Counter
from html.parser import HTMLParser

import pytest

from explorer.boards.registry import BOARDS
from explorer.components.board_clicks import FIELDS, matching
from explorer.core.session import GameSession
from rules.registry import get_game

VOID = {"area", "base", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}
#: Per game: the kinds of move no place on the table stands for (chosen in the move list), and the
#: least share of offered moves a click must reach (measured: see the closing figures of issue #22).
BUTTONS_ONLY = {
    "subastral": ({"open_column"}, 0.95),
    "stellar": ({"choose_starters", "clear_row"}, 0.95),
    "starligned": ({"moon", "rotate_telescope"}, 0.95),
    "biome_blitz": ({"trade_ask", "trade_cancel", "trade_propose", "trade_answer"}, 0.85),
    "jump_gate": ({"research", "pass", "draw", "mark"}, 0.65),
}


class Places(HTMLParser):
    """The attribute sets a click on the board can report, in the page's order."""

    def __init__(self):
        super().__init__()
        self.found: list[dict[str, str]] = []
        self._inside_whole: list[bool] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        marks = {name: attrs[f"data-{name}"] for name in FIELDS if attrs.get(f"data-{name}")}
        if marks and not any(self._inside_whole) and marks not in self.found:
            self.found.append(marks)
        if tag not in VOID:
            self._inside_whole.append("data-whole" in attrs)

    def handle_endtag(self, tag):
        if tag not in VOID and self._inside_whole:
            self._inside_whole.pop()


def places(html: str) -> list[dict[str, str]]:
    parser = Places()
    parser.feed(html)
    return parser.found


def reached(offers, encode, clicks) -> set[str]:
    """The offered moves one click, or a click after another, selects (in turn, for a thing several touch)."""
    got = set()
    for click in clicks:
        got.update(repr(action) for _, action in matching(offers, encode, click))
        for before in clicks:
            if before is not click:
                got.update(repr(action) for _, action in matching(offers, encode, click, before=before))
    return got


@pytest.mark.parametrize("game", list(BUTTONS_ONLY))
def test_a_click_on_the_board_reaches_every_move_that_touches_the_table(game):
    spec = get_game(game)
    players = 3 if 3 in spec.player_counts else spec.player_counts[0]
    session = GameSession(game=game, players=players, seed=1)
    board = BOARDS[game](session=session, lang="en")
    rng, offered, hit, missed = random.Random(1), 0, 0, Counter()
    for _ in range(160):
        state = session.state
        if spec.is_over(state):
            break
        seat = spec.to_move(state)[0]
        session.viewing_seat = seat              # the board as that seat's page draws it
        offers = [(seat, action) for action in spec.legal_actions(state, seat)]
        got = reached(offers, spec.encode_action, places(board.draw(session, "en")))
        for _, action in offers:
            offered += 1
            if repr(action) in got:
                hit += 1
            else:
                missed[spec.encode_action(action)["type"]] += 1
        session.viewing_seat = None
        session.play(seat, rng.choice(offers)[1])
    buttons, least = BUTTONS_ONLY[game]
    assert set(missed) <= buttons, f"{game}: moves on the table no click reaches: {dict(missed)}"
    assert hit / offered >= least, f"{game}: a click reaches {hit} of {offered} offered moves"


def test_a_market_slot_is_clicked_as_a_whole_and_a_kind_names_the_moves_a_place_is_for():
    html = ('<div data-seat="1"><div class="bb-slot" data-whole data-slot="2" data-kind="forage forage_pick">'
            '<span data-card="leaf">leaf</span></div><span data-card="water">w</span></div>')
    assert places(html) == [{"seat": "1"}, {"slot": "2", "kind": "forage forage_pick"}, {"card": "water"}]
    offers = [(0, "forage-2"), (0, "discover-2"), (0, "pick-2")]
    moves = {"forage-2": {"type": "forage", "slot": 2}, "discover-2": {"type": "discover", "deck": "animal", "slot": 2},
             "pick-2": {"type": "forage_pick", "slot": 2}}
    chosen = matching(offers, moves.get, {"slot": "2", "kind": "forage forage_pick"})
    assert [action for _, action in chosen] == ["forage-2", "pick-2"]

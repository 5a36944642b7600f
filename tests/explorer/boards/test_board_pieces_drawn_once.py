"""A board draws each piece (a card, a marker, a ship) once per way it is drawn and reuses its markup
on later moves: the pieces are Jinja macros of ``templates/<game>_pieces.html`` (``markup.macro``), and
a Jinja macro call per piece per move was most of a board's time. The cache keys hold everything a
piece's markup is made of (the observed card and what its card file prints), so a reused piece is
exactly the piece that would be drawn."""

from __future__ import annotations

import importlib

import pytest

import rules
from explorer.core.session import GameSession

BOARDS = {"stellar": (2, "stellar_html"), "starligned": (4, "starligned_html"),
          "jump_gate": (4, "jump_gate_html"), "biome_blitz": (4, "biome_blitz_html"), "subastral": (4, "SubastralBoard")}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_a_redrawn_position_draws_no_piece_again(game, monkeypatch):
    players, draw_name = BOARDS[game]
    board = importlib.import_module(f"explorer.boards.{game}")
    session = GameSession(game=game, players=players, seed=3)
    draw = getattr(board, draw_name)
    if isinstance(draw, type):                  # (a board class: its draw, the HTML the pane shows)
        draw = draw(session=session).draw
    session.autoplay("greedy", then_goto=12)
    first = {lang: draw(session, lang) for lang in ("en", "ja")}

    def no_macro(*args, **kwargs):
        raise AssertionError(f"{game}: a piece drawn before was drawn again ({args})")

    monkeypatch.setattr(board, "macro", no_macro)
    for lang in ("en", "ja"):
        assert draw(session, lang) == first[lang]


def test_a_jump_gate_resource_is_drawn_from_its_own_component_file():
    from explorer.boards.jump_gate import resource_slot

    standard = resource_slot("gem-3", lambda card: {"group": "gem", "group_name": "Gem (red)", "number": 3}, 2)
    other = resource_slot("gem-3", lambda card: {"group": "ore", "group_name": "Ore (blue)", "number": 1}, 2)
    assert "Gem" in standard and "res-gem" in standard and "jg-bh-icon" not in standard
    assert "Ore" in other and "res-ore" in other and "jg-bh-icon" in other


def test_a_stellar_card_is_drawn_from_its_own_card_file():
    from explorer.boards.stellar import card_markup

    class Session:
        def __init__(self, info):
            self.card_info = lambda card: info

    one = card_markup(Session({"group": "planet", "label": "2", "stars": 2}), "planet-2-2stars")
    other = card_markup(Session({"group": "nebula", "label": "7", "stars": 1}), "planet-2-2stars")
    assert "kind-planet" in one and "<b>2</b>" in one and "★★" in one
    assert "kind-nebula" in other and "<b>7</b>" in other and "★★" not in other


def test_a_template_reads_a_boards_dict_by_its_items():
    from explorer.web.markup import environment

    template = environment().from_string("{{ c.items }}|{{ c.name }}|{{ 'ok' if c.missing is not defined }}|{{ s.upper() }}")
    assert template.render(c={"items": "3 cards", "name": "<b>"}, s="x") == "3 cards|&lt;b&gt;|ok|X"


@pytest.mark.parametrize("lang, said", [("en", "Step 0 / 0 · no moves yet"), ("ja", "0手目 / 全0手・まだ手はありません")])
@pytest.mark.parametrize("game", rules.GAMES)
def test_a_line_without_moves_says_so_beside_its_step_counter(game, lang, said):
    """An outside review: "Step 0 / 0" before any move read as a fault. A line without moves (a new
    game a person begins, a what-if position) says so; a line with moves keeps its counter alone."""
    from explorer.boards.registry import board_for
    from tests.helpers.board_html import parse

    session = GameSession(game=game, players=2 if game == "stellar" else 3, seed=3)
    board = board_for(session, lang)
    assert parse(board.html()).one("step-counter").text == said
    session.autoplay("random", then_goto=0, until_over=False)
    assert session.log and "no moves yet" not in board.html() and "まだ手はありません" not in board.html()

"""A card's words stay on the card, in Japanese and in English. The pages break Japanese between
phrases (``page_layout.css``), and a card's one-phrase name (ブラックホール, チャパラル) ran past Stellar's
and Subastral's cards until their words were let break anywhere again. In English, the one-line cards
of a Stellar notebook and a Subastral journal ("1 interstellar cloud ★★★", "5 chaparral") ran past
their fixed widths until they were let grow with their words. Each board drawn from a few played
positions, at a laptop's and a phone's width, with the page's own stylesheets.

And more generally, on every board, a text stays inside the box it is drawn in (the nearest element
with a border or a background: a card, a slot, a zone): a Stellar card whose Japanese words take three
lines (ブラック / ホール / ★★★) had its number out of its top, and Subastral's deck note
(ゲーム終了カードは...) ran past the table's edge."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from explorer.boards.registry import BOARDS
from explorer.boards.stellar import StellarBoard
from explorer.boards.subastral import SubastralBoard
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from rules.registry import get_game
from tools.page_check import findings, read_stable

#: The cards (``selector``) whose text reaches past their box: their text, at most five.
WORDS_OFF_THE_CARD_JS = """(selector) => [...document.querySelectorAll(selector)].filter((card) => {
  const box = card.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(card);
  return [...range.getClientRects()].some((r) => r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5));
}).map((card) => card.textContent.trim()).slice(0, 5)"""


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game, board, selector", [("stellar", StellarBoard, ".st-card"), ("subastral", SubastralBoard, ".card")])
def test_a_card_keeps_its_words_on_the_card(page: Page, game, board, selector, lang):
    css = stylesheet(f"boards/{game}").replace(":host", "body") + stylesheet("page_layout")
    checked = 0
    for seed in (1, 2, 3):
        session = GameSession(game=game, players=max(get_game(game).player_counts), seed=seed)   # (the teacher: all face up)
        session.autoplay("random", limit=15)
        for width in (1000, 370):
            page.set_viewport_size({"width": width + 40, "height": 900})
            page.set_content(f'<html lang="{lang}"><head><meta charset="utf-8"><style>{css}</style></head>'
                             f'<body style="width: {width}px">{board.draw(None, session, lang)}</body></html>')
            checked += page.locator(selector).count()
            assert page.evaluate(WORDS_OFF_THE_CARD_JS, selector) == [], (seed, width)
    assert checked > 60


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(BOARDS))
def test_every_text_stays_inside_its_box(page: Page, game, lang):
    css = stylesheet(f"boards/{game}").replace(":host", "body") + stylesheet("page_layout")
    drawn = 0
    for seed, moves in ((1, 15), (2, 60)):
        session = GameSession(game=game, players=max(get_game(game).player_counts), seed=seed)   # (the teacher: all face up)
        session.autoplay("random", limit=moves)
        for width in (1000, 370):
            page.set_viewport_size({"width": width + 40, "height": 900})
            page.set_content(f'<html lang="{lang}"><head><meta charset="utf-8"><style>{css}</style></head>'
                             f'<body style="width: {width}px">{BOARDS[game].draw(None, session, lang)}</body></html>')
            drawn += page.locator("body *").count()
            # (the tour's own check of a text past its box: tools/page_check.py, "spill")
            found = findings(read_stable(page, width + 40), lang, (width + 40, 900))
            assert [line for line in found if line.startswith("spill:")] == [], (seed, moves, width)
    assert drawn > 400


def test_a_jump_gate_card_code_stays_on_one_line_in_the_event_log(page: Page):
    """The log broke "J5-" / "L~" at the code's hyphen, as a line breaks after any hyphen: each code is
    kept whole (``timeline.unbroken_codes``), on a log as narrow as a phone's."""
    from explorer.components.timeline import CODE, EventLog

    session = GameSession(game="jump_gate", players=4, seed=3)
    session.autoplay("random", limit=60)
    log = EventLog(session=session, lang="en")
    html = log.html()
    codes = CODE.findall(html)
    assert len(codes) > 10 and html.count('<span class="code">') == len(codes)
    css = stylesheet("components/event_log").replace(":host", "body")
    page.set_viewport_size({"width": 300, "height": 900})
    for width in (180, 230, 280):
        page.set_content(f'<html lang="en"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: {width}px">{html}</body></html>')
        lines = page.evaluate("() => [...document.querySelectorAll('.code')].map((c) => c.getClientRects().length)")
        assert len(lines) == len(codes) and set(lines) == {1}, width


def test_a_jump_gate_black_hole_mark_stays_inside_its_tile(page: Page):
    """A face-up resource's black-hole mark sat 4 px over its tile's corner, onto the planet's land code
    above it: it is drawn inside the corner."""
    css = stylesheet("boards/jump_gate").replace(":host", "body") + stylesheet("page_layout")
    marks = []
    for seed in (1, 2, 3):
        session = GameSession(game="jump_gate", players=4, seed=seed)
        session.autoplay("random", limit=80)
        page.set_viewport_size({"width": 1040, "height": 900})
        page.set_content(f'<html lang="en"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: 1000px">{BOARDS["jump_gate"].draw(None, session, "en")}</body></html>')
        marks += page.evaluate("""() => [...document.querySelectorAll('.jg-bh-icon')].map((mark) => {
            const r = mark.getBoundingClientRect(), tile = mark.parentElement.getBoundingClientRect();
            return r.left >= tile.left && r.right <= tile.right && r.top >= tile.top && r.bottom <= tile.bottom; })""")
    assert len(marks) >= 5 and all(marks), marks


@pytest.mark.parametrize("width", [1000, 370])
def test_a_long_name_from_a_card_file_stays_inside_the_biome_blitz_board(page: Page, width):
    """A card file may name a card with 300 letters and no space (its texts take up to 1,000 characters):
    an outside tester's Biome Blitz board grew to 3,078 px, the last compete's line and the markets
    pushing the other cards off the page. The names wrap inside the board instead."""
    from explorer.cardfiles import standard_file

    data = standard_file("biome_blitz")
    for card in data["animals"]:
        card["name"] = f"{card['id']}-" + "W" * 300
    from rules.replay import record

    game = get_game("biome_blitz").with_card_file(data)
    session = GameSession(game="biome_blitz", players=2, seed=3)
    session.load(record(game, 2, 3, None, [], state=game.new_game(2, 3)))      # (as the explorer opens a file's game)
    session.autoplay("random", limit=400)
    shown = 0
    css = stylesheet("boards/biome_blitz").replace(":host", "body") + stylesheet("page_layout")
    page.set_viewport_size({"width": width + 40, "height": 900})
    for step in range(0, session.cursor + 1, 10):
        session.goto(step)
        html = BOARDS["biome_blitz"].draw(None, session, "en")
        if "W" * 300 not in html:
            continue
        shown += 1
        page.set_content(f'<html lang="en"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: {width}px; margin: 0">{html}</body></html>')
        widest = page.evaluate("() => Math.max(...[...document.querySelectorAll('body *')].map((e) => e.getBoundingClientRect().right))")
        assert widest <= width + 1, (step, widest)
    assert shown > 5 and "bb-compete" in html

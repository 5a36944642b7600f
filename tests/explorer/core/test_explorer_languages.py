"""The explorer in Japanese: the sidebar, the picker's buttons, the event log and the board speak it,
for every game (the model; tests/browser/test_browser_languages.py checks the page)."""

from __future__ import annotations

import re

import pytest

import rules
from explorer.pages.app import ExplorerApp
from explorer.components.picker import HUMAN
from explorer.core.session import GameSession

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("game", rules.GAMES)
def test_the_explorer_speaks_japanese(game):
    session = GameSession(game=game, seed=5)
    app = ExplorerApp(session=session, lang="ja")
    assert app.controls["game"].name == "ゲーム" and app.controls["view_as"].name == "視点"
    app._new_human_game()
    # Play a few moves as Player 1 from the picker (bots answer): every button is named in Japanese.
    for _ in range(4):
        if app.picker.mode != "choose":
            break
        labels = app.picker.labels()
        assert labels and all(JAPANESE.search(label) for label in labels), labels
        app.picker.click(0)
        assert app.picker.confirm()
    assert session.log
    log = app.log_view.lines()
    items = re.findall(r"<li>(.*?)<a", log)
    assert items and all(JAPANESE.search(item) for item in items), items[:5]
    assert "手目" in log and 'lang=ja#rule-' in log
    assert JAPANESE.search(app.board.html())
    # The same session in English still reads as before.
    english = ExplorerApp(session=session, lang="en")
    assert "Step 1" in english.log_view.lines() and english.controls["game"].name == "Game"


ID = re.compile(r"\b[a-z]+_[a-z_]+\b")      # before_refill, per_card, own_type


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", [game for game in rules.GAMES if any(
    not isinstance(variant.default, bool) for variant in rules.get_game(game).variants)])
def test_variant_settings_are_words_not_ids(game, lang):
    """The sidebar's choices, the lines of play and the lobby name a variant's setting in words
    ("per ecosystem card", "生態系カード1枚ごと"), never its id (``per_card``); the value chosen is still the id."""
    from explorer.components.timeline import BranchesPanel
    session = GameSession(game=game, seed=5)
    app = ExplorerApp(session=session, lang=lang)
    selects = [w for name, w in app.controls.items() if name.startswith("variant:") and hasattr(w, "options")
               and isinstance(w.options, dict)]
    assert selects
    for select in selects:
        assert not any(ID.search(label) for label in select.options), select.options
        if lang == "ja":
            assert all(JAPANESE.search(label) for label in select.options), select.options
        assert select.value in select.options.values()
    line = BranchesPanel(session=session, lang=lang).current_line.object
    assert not ID.search(line.replace("current-line", "")), line
    if lang == "ja":
        assert all(JAPANESE.search(label) for label in select.options)

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

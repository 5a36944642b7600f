"""The card editor's page and the explorer's ``cards=`` address: a game dealt with a saved card file,
found by its name in the card library (never a path), and refused with the reason otherwise."""

from __future__ import annotations

import pytest

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.pages.app import addressed_session
from explorer.pages.cards_page import create_page
from explorer.web.shell import PAGES, page_href


@pytest.fixture
def library(tmp_path, monkeypatch):
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "cards"))
    library = CardLibrary()
    data = standard_file("biome_blitz")
    data["animals"][0]["stars"] = 1
    library.save("biome_blitz", "weak first", data)
    return library


def test_the_explorer_deals_new_games_with_a_saved_card_file(library):
    session, notice = addressed_session({"game": "biome_blitz", "cards": "weak first", "players": "3"}.get, "en")
    assert notice is None and session.players == 3 and session.cursor == 0 and session.log
    assert session.spec.cards.animals[0].stars == 1
    assert session.replay()["cards"]["animals"][0]["stars"] == 1       # the replay carries the file
    session.seed = 12                                                   # a new deal keeps the edited cards
    assert session.spec.cards.animals[0].stars == 1


@pytest.mark.parametrize("name, reason", [("../../etc/passwd", "not a simple name"), ("ghost", "no saved biome_blitz card file"),
                                          ("<img src=x>", "not a simple name")])
def test_a_card_file_the_library_has_not_is_refused_with_the_reason(library, name, reason):
    session, notice = addressed_session({"game": "biome_blitz", "cards": name}.get, "en")
    assert reason in notice and session.spec.cards.is_standard
    _, notice = addressed_session({"game": "biome_blitz", "cards": name}.get, "ja")
    assert "標準のカード" in notice


def test_the_page_opens_on_the_addressed_game_and_is_in_the_sites_pages(library):
    page = create_page(lang="ja", library=library)
    assert page.editor.game == "biome_blitz" and page.editor.lang == "ja"
    assert page.editor.saved_select.options == ["weak first"]
    assert "cards" in PAGES and page_href("cards", "ja") == "/cards?lang=ja"


@pytest.mark.parametrize("lang, said", [("en", "which is not here"), ("ja", "ここにありません")])
def test_an_addressed_game_that_is_not_one_opens_biome_blitz_and_says_so_as_text(library, lang, said):
    page = create_page(lang=lang, library=library, game="<img src=x onerror=alert(1)>")
    assert page.editor.game == "biome_blitz" and said in page.editor.notice
    shown = page.editor.notice_pane.object
    assert "&lt;img src=x" in shown and "<img" not in shown


@pytest.mark.parametrize("lang, edited", [("en", "Biome Blitz cards, edited (not the standard file)"),
                                          ("ja", "Biome Blitzのカード（編集済み、標準ファイルとは異なる）")])
def test_the_explorer_says_an_edited_file_is_not_the_standard_one_and_its_language_switch_keeps_it(library, lang, edited):
    from explorer.pages.app import ExplorerApp
    session, _ = addressed_session({"game": "biome_blitz", "cards": "weak first"}.get, lang)
    # The editor keeps the file's name, the standard file's: the board said "standard cards" all the same.
    assert session.replay()["cards"]["name"] == standard_file("biome_blitz")["name"]
    app = ExplorerApp(session=session, lang=lang, card_file="weak first")
    assert edited in app.board.html()
    switch = app.template.language_switch.object
    assert "cards=weak+first" in switch and "game=biome_blitz" in switch
    session.seed = 5                                       # a new deal keeps the file, and the switch keeps it
    assert "cards=weak+first" in app.template.language_switch.object
    session.game = "subastral"                             # another game has its standard cards
    switch = app.template.language_switch.object
    assert "game=subastral" in switch and "cards=" not in switch
    assert ("standard cards" if lang == "en" else "標準カード") in app.board.html()

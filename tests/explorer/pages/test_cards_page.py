"""The card editor's page and the explorer's ``cards=`` address: a game dealt with a saved card file,
found by its name in the card library (never a path), and refused with the reason otherwise."""

from __future__ import annotations

import pytest

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from rules import InvalidPosition
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
    assert page.editor.saved_select.options == ["weak first"] and page.editor.saved_select.value == "weak first"
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


def test_a_file_too_small_for_the_usual_players_deals_the_nearest_count_it_can_or_says_why(library):
    """A Jump Gate file of 12 NavComp cards deals 2 players, not 4 (two hands of 5 need 10, four need 20).
    The editor's link names no player count: the page opens at the nearest count the file deals. Asked
    for 4, it says why not and shows the standard cards. (It used to fail to open: a blank page.)"""
    from tests.helpers.endless import endless_jump_gate_cards

    library.save("jump_gate", "few navcomp", endless_jump_gate_cards())
    session, notice = addressed_session({"game": "jump_gate", "cards": "few navcomp", "seed": "1"}.get, "en")
    assert notice is None and session.players == 2 and session.spec.cards.name == "Jump Gate with 12 NavComp cards"
    session, notice = addressed_session({"game": "jump_gate", "cards": "few navcomp", "players": "4"}.get, "en")
    assert "have 12 NavComp cards; 4 hands of 5 need 20" in notice and "The standard cards are shown" in notice
    assert session.players == 4 and session.spec.cards.is_standard


@pytest.mark.parametrize("lang, said", [("en", "That game cannot be dealt, so the setting went back: cards: components "),
                                        ("ja", "そのゲームは配れないため、設定を元に戻しました")], ids=["en", "ja"])
def test_more_players_than_the_card_file_can_deal_changes_nothing_and_says_why(library, lang, said):
    """The players slider moved to 4 with a file that deals only 2: the game, its moves and the slider stay
    as they were, and the picker says why (the session's count used to change to 4 with the 2-player
    game still shown)."""
    from explorer.pages.app import ExplorerApp
    from tests.helpers.endless import endless_jump_gate_cards

    library.save("jump_gate", "few navcomp", {**endless_jump_gate_cards(), "name": "<b>few</b>"})
    session, _ = addressed_session({"game": "jump_gate", "cards": "few navcomp", "seed": "1"}.get, lang)
    app = ExplorerApp(session=session, lang=lang)
    log, state = list(session.log), session.state
    app.controls["players"].value = 4
    assert isinstance(session.setup_refused, InvalidPosition)
    assert (session.players, app.controls["players"].value, session.log, session.state) == (2, 2, log, state)
    assert said in app.picker.message and "4" in app.picker.message
    assert "&lt;b&gt;few&lt;/b&gt;" in app.picker.message and "<b>" not in app.picker.message   # (the file's name, as text)
    session.seed = 3                                    # a deal that can be made clears it
    assert session.setup_refused is None and session.players == 2


def _served_page(address: dict[str, str], library: CardLibrary):
    """The card editor's page a browser gets for ``address``, served (without a server)."""
    from panel.io.state import set_curdoc
    from tests.helpers.served import FakeLoop, load_document, served_document

    document = served_document(FakeLoop(), address)
    with set_curdoc(document):
        page = create_page(library=library)
    load_document(document)
    page.document = document
    return page


def test_the_language_switch_carries_the_draft(library):
    """The language switch opened the other language on the standard cards: a designer's unsaved
    edits were gone. Its link now names the page's draft by a key (``explorer.core.carry``); the page
    it opens goes on with a copy of it, the game's verdict and the table shown included, and, after
    the first page closed, with the draft as it was left."""
    from tests.helpers.served import address_once_ready, close_document, switch_address

    english = _served_page({"game": "biome_blitz", "lang": "en"}, library)
    editor = english.editor
    deck = editor.deck
    assert editor.edit(deck, 1, "name", "My own ant") and editor.edit(deck, 2, "stars", -1)
    assert editor.problem is not None and editor.select(4)
    address = switch_address(english.language_switch.object, "ja")
    assert set(address) == {"game", "resume", "lang"}
    japanese_page = _served_page(address, library)
    japanese = japanese_page.editor
    assert japanese.lang == "ja" and japanese.game == "biome_blitz" and japanese.data == editor.data
    assert (japanese.deck, japanese.row) == (editor.deck, editor.row) and japanese.changes() == editor.changes()
    assert japanese.problem is not None and japanese.problem.where == editor.problem.where
    assert "My own ant" in japanese.table.value.to_string() and not japanese.notice
    # The page opened by the key names its own key in its address (a reload: its own draft).
    own = switch_address(japanese_page.language_switch.object, "en")["resume"]
    assert own != address["resume"]
    assert address_once_ready(japanese_page.document) == f"?game=biome_blitz&resume={own}&lang=ja"
    japanese.start_standard()
    assert editor.changes() and not japanese.changes()                   # each page its own copy
    close_document(english.document)
    editor.start_standard()                                             # (closed: nothing reaches the kept draft)
    kept_page = _served_page(address, library)
    kept = kept_page.editor
    assert kept.changes() and kept.problem is not None and kept.row == 4      # as the page left it
    for page in (japanese_page, kept_page):
        close_document(page.document)


@pytest.mark.parametrize("lang, said", [("en", "does not keep for the card editor"), ("ja", "カードエディター用として保存されていません")])
def test_a_key_no_page_has_opens_the_standard_cards_and_says_why(library, lang, said):
    from tests.helpers.served import close_document, switch_address

    explorer = _served_explorer({"game": "stellar"})       # (a key the explorer gave: a game, no draft)
    key = switch_address(explorer.template.language_switch.object, "ja")["resume"]
    for resume in ("<img src=x onerror=alert(1)>", "A" * 22, key):
        page = _served_page({"game": "stellar", "resume": resume, "lang": lang}, library)
        assert said in page.editor.notice and not page.editor.changes() and page.editor.game == "stellar"
        close_document(page.document)
    # A refused key and a refused game: both said.
    page = _served_page({"game": "chess", "resume": "A" * 22, "lang": lang}, library)
    assert said in page.editor.notice and "chess" in page.editor.notice
    close_document(page.document)
    close_document(explorer.document)


def _served_explorer(address: dict[str, str]):
    from panel.io.state import set_curdoc
    from explorer.pages.app import create_app
    from tests.helpers.served import FakeLoop, served_document

    document = served_document(FakeLoop(), address)
    with set_curdoc(document):
        app = create_app().explorer
    app.document = document
    return app

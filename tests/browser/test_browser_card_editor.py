"""The card editor in real Chromium: a Biome Blitz animal edited in its table, the game's message at
the field for a value it refuses, the file saved under a name, listed, loaded again, and opened in the
explorer dealt with the edited card."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.pages.app import create_app
from explorer.pages.cards_page import create_page
from tests.helpers.explorer_page import shot, wait_until
from tests.helpers.workshop_pages import FORGE_JS, edit_cell, tick_row, watch_tables

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 30_000


@pytest.fixture
def served(serve_app, tmp_path, monkeypatch):
    """``(url, editors, library)``: the card editor's URL, the server-side editor of every page opened,
    and the card library (a fresh folder) it saves in, where a served explorer finds it too."""
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "cards"))
    library = CardLibrary(tmp_path / "cards")
    editors = []

    def factory():
        template = create_page(library=library)
        editors.append(template.editor)
        return template

    return serve_app(factory, path="cards"), editors, library


def test_a_biome_blitz_animal_is_edited_checked_saved_listed_and_loaded_again(page: Page, served, serve_app):
    url, editors, library = served
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url + "?lang=en")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.", timeout=LOAD_TIMEOUT)
    editor = editors[-1]
    animals = page.locator(".cards-table .tabulator-row")
    expect(page.locator(".cards-decks .bk-btn.bk-active")).to_have_text("animals")
    crocodile = standard_file("biome_blitz")["animals"][1]
    expect(animals.nth(1).locator('[tabulator-field="id"]')).to_have_text(crocodile["id"])

    # A value the game refuses: its own message, beside the table, at the animal and field.
    edit_cell(page, "cards-table", 1, "stars", "-1")
    expect(page.locator(".cards-status")).to_contain_text("must be a whole number from 0 to 99, not -1")
    problem = page.locator(".cards-deck-problem .cards-field-problem")
    expect(problem).to_contain_text(f"{crocodile['id']} · stars")
    expect(problem).to_have_attribute("data-row", "1")
    expect(page.locator(".cards-save button")).to_be_disabled()
    shot(page, "card-editor-refused")

    # A value it accepts: the change shows in the diff, and the file is saved under a name.
    edit_cell(page, "cards-table", 1, "stars", str(crocodile["stars"] - 1))
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.")
    expect(page.locator(".cards-diff")).to_contain_text(f"animals[{crocodile['id']}].stars")
    wait_until(lambda: editor.data["animals"][1]["stars"] == crocodile["stars"] - 1, what="the edit to reach the server")
    page.locator(".cards-name input").fill("cheaper crocodile")
    page.locator(".cards-name input").press("Enter")
    page.locator(".cards-save button").click()
    expect(page.locator(".cards-notice")).to_contain_text("Saved as “cheaper crocodile”.")
    assert library.load("biome_blitz", "cheaper crocodile")["animals"][1]["stars"] == crocodile["stars"] - 1
    expect(page.locator(".cards-saved select option")).to_have_text(["cheaper crocodile"])
    link = page.locator("a.cards-open-explorer")
    expect(link).to_have_attribute("href", "/explorer?game=biome_blitz&cards=cheaper+crocodile&lang=en")

    # The explorer deals with the saved file: its board says the cards are edited (the file still bears the
    # standard file's name), and its language switch keeps the file.
    explorer = page.context.new_page()
    explorer.goto(serve_app(create_app, path="explorer") + "?game=biome_blitz&cards=cheaper+crocodile&lang=en")
    expect(explorer.locator(".bb-board")).to_contain_text("Biome Blitz cards, edited (not the standard file)",
                                                          timeout=LOAD_TIMEOUT)
    switch = explorer.locator(".language-switch a.lang-ja")
    expect(switch).to_have_attribute("href", re.compile(r"^\?game=biome_blitz&resume=[\w-]{22}&cards=cheaper\+crocodile&lang=ja$"))
    switch.click()
    expect(explorer.locator(".bb-board")).to_contain_text("Biome Blitzのカード（編集済み、標準ファイルとは異なる）",
                                                          timeout=LOAD_TIMEOUT)
    explorer.close()

    # Another deck, and back.
    page.locator(".cards-decks button", has_text="ecosystems").click()
    expect(page.locator(".cards-table .tabulator-row").first.locator('[tabulator-field="id"]')).to_have_text(
        standard_file("biome_blitz")["ecosystems"][0]["id"])
    page.locator(".cards-decks button", has_text="animals").click()
    expect(animals.nth(1).locator('[tabulator-field="id"]')).to_have_text(crocodile["id"])

    # Back to the standard cards, then the saved file loaded again.
    page.locator(".cards-standard button").click()
    expect(page.locator(".cards-no-changes")).to_be_visible()
    expect(animals.nth(1).locator('[tabulator-field="stars"]')).to_have_text(str(crocodile["stars"]))
    page.locator(".cards-load button").click()
    expect(animals.nth(1).locator('[tabulator-field="stars"]')).to_have_text(str(crocodile["stars"] - 1))
    expect(page.locator(".cards-diff")).to_contain_text(f"animals[{crocodile['id']}].stars")
    shot(page, "card-editor-saved")

    # A text from the file is shown as text, never as markup.
    edit_cell(page, "cards-table", 0, "name", "<b>bold</b>")
    expect(animals.nth(0).locator('[tabulator-field="name"]')).to_have_text("<b>bold</b>")
    expect(animals.nth(0).locator('[tabulator-field="name"] b')).to_have_count(0)
    expect(page.locator(".cards-diff")).to_contain_text("<b>bold</b>")
    expect(page.locator(".cards-diff b")).to_have_count(0)
    # The language switch carries the draft (it opened the standard cards: the edits were gone).
    page.locator(".language-switch a.lang-ja").click()
    expect(page.locator(".cards-game")).to_contain_text("ゲーム", timeout=LOAD_TIMEOUT)
    expect(animals.nth(0).locator('[tabulator-field="name"]')).to_have_text("<b>bold</b>")
    expect(animals.nth(1).locator('[tabulator-field="stars"]')).to_have_text(str(crocodile["stars"] - 1))
    japanese = editors[-1]
    assert japanese.lang == "ja" and japanese.data == editor.data and japanese is not editor
    # ... and keeps the game shown.
    page.locator(".cards-game select").select_option(label="Subastral")
    expect(page.locator(".language-switch a.lang-en")).to_have_attribute(
        "href", re.compile(r"^\?game=subastral&resume=[\w-]{22}&lang=en$"))


# (A value forged outside a menu's options is refused by Panel itself, which logs it: "... not in list".)
@pytest.mark.server_errors(r"not in list")
def test_messages_forged_in_the_browser_change_nothing(page: Page, served):
    url, editors, library = served
    page.goto(url + "?lang=en")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.", timeout=LOAD_TIMEOUT)
    editor = editors[-1]
    # A game that is not one: the page stays on its game and file.
    assert page.evaluate(FORGE_JS, ["cards-game", "value", "<img src=x onerror=alert(1)>"])
    page.locator(".cards-standard button").click()          # (a round trip: the forged value has arrived before it)
    expect(page.locator(".cards-no-changes")).to_be_visible()
    assert editor.game == "biome_blitz" and editor.data == standard_file("biome_blitz")
    # A file the game refuses, then Save enabled and a hostile name typed from the console: refused.
    edit_cell(page, "cards-table", 1, "stars", "-1")
    expect(page.locator(".cards-save button")).to_be_disabled()
    assert page.evaluate(FORGE_JS, ["cards-save", "disabled", False])
    page.locator(".cards-name input").fill("mine")
    page.locator(".cards-name input").press("Enter")
    page.locator(".cards-save button").click()
    expect(page.locator(".cards-notice")).to_contain_text("only a card file the game accepts can be saved")
    assert library.names("biome_blitz") == []
    edit_cell(page, "cards-table", 1, "stars", "3")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.")
    assert page.evaluate(FORGE_JS, ["cards-name", "value", "../../escape"])
    page.locator(".cards-save button").click()
    expect(page.locator(".cards-notice")).to_contain_text("is not a simple name")
    assert library.names("biome_blitz") == [] and not (library.root.parent / "escape.json").exists()
    # A saved file's name that is a path, sent as the list's choice: refused, the draft kept.
    data = editor.data
    assert page.evaluate(FORGE_JS, ["cards-saved", "value", "../../etc/passwd"])
    page.locator(".cards-load button").click()
    expect(page.locator(".cards-notice")).to_contain_text("Not done:")
    assert editor.data == data


def test_a_single_card_is_a_table_and_an_ability_parameter_is_marked_in_its_form(page: Page, served):
    url, editors, library = served
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url + "?lang=en&game=stellar")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.", timeout=LOAD_TIMEOUT)
    editor = editors[-1]
    watch_tables(page)
    # Stellar's satellites: one row, no Add/Duplicate/Remove, the game's message at the field changed.
    page.locator(".cards-decks button", has_text="satellites").click()
    rows = page.locator(".cards-table .tabulator-row")
    expect(rows).to_have_count(1)
    expect(rows.first.locator('[tabulator-field="copies"]')).to_have_text(str(standard_file("stellar")["satellites"]["copies"]))
    expect(page.locator(".cards-add button")).to_be_hidden()
    edit_cell(page, "cards-table", 0, "copies", "-1")
    problem = page.locator(".cards-deck-problem .cards-field-problem")
    expect(problem).to_have_attribute("data-key", "copies")
    expect(problem).to_contain_text("satellites · copies: 'satellites' must be {number: 1-5, copies: 0-99}")
    wait_until(lambda: editor.data["satellites"]["copies"] == -1, what="the edit to reach the server")

    # A Biome Blitz ability without the parameter its effect needs: the form's field marked, the message beside it.
    page.locator(".cards-game select").select_option(label="Biome Blitz")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.")
    # (the first animal's abilities drawn before the click: a click on the table as it was meets another row)
    first = standard_file("biome_blitz")["animals"][0]["abilities"][0]
    ability_rows = page.locator(".cards-sub-table .tabulator-row")
    expect(ability_rows.first.locator('[tabulator-field="name"]')).to_have_text(first["name"])
    wait_until(lambda: editor.game == "biome_blitz" and editor.sub_deck == ("animals", 0, "abilities"),
               what="the first animal's abilities")
    tick_row(page, "cards-sub-table", 0)
    wait_until(lambda: editor.sub_row == 0, what="the ability chosen")
    # The ability's texts show whole in their boxes (an outside tester: the second line was cut in half).
    for key in ("text", "text_ja"):
        box = page.locator(f".ability-{key} textarea")
        expect(box).to_have_value(first[key])
        assert box.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1"), key
    count = page.locator(".ability-count input")
    expect(count).to_have_value("1")
    count.fill("")
    count.press("Enter")
    page.locator(".ability-apply button").click()
    expect(page.locator(".ability-problem")).to_contain_text("effect 'draw' needs the parameter 'count'")
    expect(page.locator(".ability-invalid input")).to_have_css("border-top-color", "rgb(176, 42, 55)")
    expect(page.locator(".cards-sub-problem .cards-field-problem")).to_have_attribute("data-key", "count")
    assert "count" not in editor.data["animals"][0]["abilities"][0]
    shot(page, "card-editor-ability-parameter")


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_japanese_editor_reads_as_japanese_and_fits_the_screen(page: Page, served, width, height):
    """The page's words in Japanese (the file's keys, ids and names are the file's own: marked so), nothing
    covering anything else or cut by the screen, the counts per card folded and unfolded."""
    from tools.page_check import findings, read_stable

    url, editors, library = served
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url + "?lang=ja&game=subastral")
    expect(page.locator(".cards-status")).to_contain_text("ゲームはこのカードファイルを受け入れます", timeout=LOAD_TIMEOUT)
    assert findings(read_stable(page, width), "ja", (width, height)) == []
    # Each row's checkbox whole in its 40 px column (the theme's padding cut it, an ellipsis beside it).
    boxes = page.locator(".tabulator-row .tabulator-cell:has(> input[type=checkbox])")
    expect(boxes.first).to_be_visible()
    assert boxes.evaluate_all("cells => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length") == 0
    page.locator(".cards-per-card summary").click()
    expect(page.locator(".cards-per-card table")).to_be_visible()
    assert findings(read_stable(page, width), "ja", (width, height)) == []
    # Jump Gate's four tables, named in Japanese with their keys: on a phone they take two lines (they ran
    # 664 px wide on one).
    page.goto(url + "?lang=ja&game=jump_gate")
    expect(page.locator(".cards-decks button", has_text="資源の種類（resource_types）")).to_be_visible(timeout=LOAD_TIMEOUT)
    assert findings(read_stable(page, width), "ja", (width, height)) == []


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_an_uploads_refusal_shows_where_the_file_was_chosen(page: Page, served, tmp_path, width, height):
    """On a phone the file controls come after the whole table (content first): a refused upload is said
    under them too, within a screen of the upload; on a wide screen only at the top, beside them."""
    url, editors, library = served
    (tmp_path / "broken.json").write_text('{"animals": [')
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url + "?lang=ja")
    expect(page.locator(".cards-status")).to_contain_text("ゲームはこのカードファイルを受け入れます", timeout=LOAD_TIMEOUT)
    upload = page.locator(".cards-upload input[type=file]")
    upload.set_input_files(str(tmp_path / "broken.json"))
    expect(page.locator(".cards-notice .cards-refusal")).to_be_visible()
    refusal = page.locator(".cards-notice .cards-refusal").inner_text()
    echo = page.locator(".cards-file-echo")
    if width < 820:
        expect(echo.locator(".cards-refusal")).to_have_text(refusal)
        expect(echo).to_contain_text("ゲームはこのカードファイルを受け入れます")   # the file shown is still the one accepted
        chooser, said = page.locator(".cards-upload").bounding_box(), echo.bounding_box()
        assert 0 < said["y"] - chooser["y"] < height, (chooser, said)
        assert page.locator(".cards-notice").bounding_box()["y"] < chooser["y"] - 1000    # (why: the top is far)
        shot(page, "card-editor-phone-upload-refused")
    else:
        expect(echo).to_be_hidden()


def test_a_key_from_an_uploaded_file_is_a_column_title_as_text(page: Page, served, tmp_path):
    """A file the game accepts may carry keys of its own (an extra satellites field, an extra number): shown
    as column titles, they stay text (Tabulator writes a title as HTML)."""
    import json

    url, editors, library = served
    hostile = "<img src=x onerror=window.__pwned=1>"
    data = standard_file("stellar")
    data["satellites"] = {**data["satellites"], hostile: 1}
    (tmp_path / "keys.json").write_text(json.dumps(data))
    page.goto(url + "?lang=en&game=stellar")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.", timeout=LOAD_TIMEOUT)
    page.locator(".cards-upload input[type=file]").set_input_files(str(tmp_path / "keys.json"))
    wait_until(lambda: editors[-1].data.get("satellites", {}).get(hostile) == 1, what="the upload")
    page.locator(".cards-decks button", has_text="satellites").click()
    expect(page.locator(".cards-table .tabulator-col-title", has_text=hostile)).to_have_count(1)
    expect(page.locator(".cards-table img")).to_have_count(0)
    assert page.evaluate("() => window.__pwned") is None

"""``tools/page_check.py``'s judgement of a read page (the tour's and the browser tests'), on pages
written by hand: a text is cut when the screen cuts it, not when a scrolling table inside the screen
clips its next column; the words a page shows as a file wrote them are no English prose."""

from tools.page_check import findings


def box(text, full, rects, id=1):
    return {"id": id, "text": text, "full": full, "rects": rects, "control": False, "tag": "div",
            "where": "div", "ancestors": []}


def page(*boxes, texts=()):
    return {"width": 390, "inner": 390, "wide": [], "boxes": list(boxes), "texts": list(texts)}


def test_a_text_the_screen_cuts_is_found_and_one_a_table_clips_is_not():
    # The screen's edge cuts it: drawn up to 390 of its 372-446 px.
    assert findings(page(box("name_ja", [372, 0, 446, 10], [[372, 0, 390, 10]])), "en", (390, 844)) == [
        "cut: 'name_ja' spans 372-446 px (div)"]
    # A scrolling table inside the screen (its edge at 378 px) clips it: scrolled to, not cut.
    assert findings(page(box("name_ja", [372, 0, 446, 10], [[372, 0, 378, 10]])), "en", (390, 844)) == []
    # Past the left edge, drawn from 0.
    assert findings(page(box("x", [-20, 0, 30, 10], [[0, 0, 30, 10]])), "en", (390, 844)) == ["cut: 'x' spans -20-30 px (div)"]


def test_a_japanese_page_with_english_prose_is_found():
    assert findings(page(texts=["カードエディター", "Add a card"]), "ja", (390, 844)) == ["english: Add, card"]
    assert findings(page(texts=["カードエディター"]), "ja", (390, 844)) == []


def test_a_japanese_line_that_begins_with_a_prolonged_sound_mark_is_a_layout_finding():
    data = {**page(), "lineStarts": ["、プレイヤー2、プレイヤ|ー3、プレイヤー"]}
    assert findings(data, "ja", (390, 844)) == ["linebreak: a line begins with 'ー' in '、プレイヤー2、プレイヤ|ー3、プレイヤー'"]


def test_a_text_past_its_box_is_a_layout_finding_naming_the_sides():
    data = {**page(), "spills": [{"text": "1 interstellar cloud ★★★", "where": "div.stack > span.st-card", "by": [5, 6, 0, -2]}]}
    assert findings(data, "en", (390, 844)) == [
        "spill: '1 interstellar cloud ★★★' runs past its box (left 5 px, right 6 px; div.stack > span.st-card)"]

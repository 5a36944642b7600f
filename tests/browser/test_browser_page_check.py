"""``tools/page_check.py`` reading a page drawn by Chromium (the tour's and the browser tests' checks):
a text past the edge of its card is a finding, and so is one past the start of a scrolling box (no
scrolling reaches it); one scrolled to inside a scrolling box, or inside its card, is not."""

from __future__ import annotations

from playwright.sync_api import Page

from tools.page_check import findings, read_stable

PAGE = """<html lang="en"><head><meta charset="utf-8"></head><body style="margin: 0">
<div style="display: flex; gap: 20px; padding: 20px">
  <span class="card" style="width: 64px; border: 1px solid #000; white-space: nowrap; display: inline-block">1 interstellar cloud ★★★</span>
  <span class="card" style="width: 64px; border: 1px solid #000; display: inline-block">2 moon</span>
  <div class="list" style="width: 64px; height: 30px; overflow: auto; background: #eee">
    <span style="white-space: nowrap">a long line that scrolls sideways</span></div>
  <div class="centred" style="width: 60px; overflow-x: auto; background: #eee; display: flex; justify-content: center">
    <span style="white-space: nowrap">past the start</span></div>
  <div class="shadow-host"></div>
</div>
<script>
  const root = document.querySelector('.shadow-host').attachShadow({mode: 'open'});
  root.innerHTML = '<span class="inner" style="display: inline-block; width: 40px; background: #fd0; white-space: nowrap">chaparral 5</span>';
</script></body></html>"""


def test_a_text_past_its_card_is_found_and_a_scrolled_or_fitting_one_is_not(page: Page):
    page.set_viewport_size({"width": 600, "height": 300})
    page.set_content(PAGE)
    spills = [line for line in findings(read_stable(page, 600), "en", (600, 300)) if line.startswith("spill:")]
    assert [line.split(" runs past")[0] for line in spills] == [
        "spill: '1 interstellar cloud ★★★'", "spill: 'past the start'", "spill: 'chaparral 5'"]
    assert "right " in spills[0] and "span.card" in spills[0] and "span.inner" in spills[2]
    # (centred in a scrolling box narrower than it: its start is past the box's, where no scrolling reaches)
    assert "(left " in spills[1] and "right" not in spills[1] and "div.centred" in spills[1]

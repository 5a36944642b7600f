"""Flipping a variant tells what changed, in real Chromium (issue #22, item 6): "every move still
legal" with each player's score at the end of the line before and after, in the page's language.

The cut line's notice is checked in test_browser_stepper.py; the texts, both languages and both
cases, in tests/explorer/components/test_variant_change_texts.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import LOAD_TIMEOUT, shot, wait_until
from tests.helpers.tiers import quick_once

pytestmark = pytest.mark.browser

#: What the note says, per language: its opening words and how it names a player.
SAID = {"en": ("Variants changed: Disturbance variant off → on.", "Every move of this line is still legal", "Player {n} "),
        "ja": ("バリアントを変更しました：擾乱バリアント オフ → オン。", "この手順のすべての手が有効です", "プレイヤー{n} ")}


@pytest.mark.parametrize("lang", quick_once(sorted(SAID), "en"))
def test_a_flip_that_leaves_every_move_legal_says_so_with_the_scores(page: Page, served, lang):
    url, apps = served
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{url}?lang={lang}")
    expect(page.locator(".step-counter")).to_be_visible(timeout=LOAD_TIMEOUT)
    session = apps[-1].session
    assert session.log, "the explorer opens on a played line"
    note = page.locator(".variant-change")
    expect(note).to_be_hidden()
    page.locator(".variant-disturbance input").check()
    wait_until(lambda: session.variant_change is not None, what="the replay under the new rules")
    change = session.variant_change
    heading, legal, player = SAID[lang]
    expect(note).to_be_visible()
    expect(note).to_contain_text(heading)
    expect(note).to_contain_text(legal)
    unchanged = change["before"]["scores"] == change["after"]["scores"]      # (then each score is said once)
    for seat, (before, after) in enumerate(zip(change["before"]["scores"], change["after"]["scores"])):
        expect(note).to_contain_text(f"{player.format(n=seat + 1)}{before}" + ("" if unchanged else f" → {after}"))
    expect(page.locator(".replay-problem")).to_be_hidden()
    shot(page, f"variant-change-{lang}")

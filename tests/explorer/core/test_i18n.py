"""Interface texts: every key in both languages with the same placeholders; the page language from
``?lang=``, then the browser's Accept-Language, then English."""

from __future__ import annotations

import html
import re
import string

import pytest

from explorer.core.i18n import choose, text, texts
from rules.rulebook import LANGUAGES


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_text_key_exists_in_both_languages_with_the_same_placeholders():
    en, ja = texts("en"), texts("ja")
    assert set(en) == set(ja), f"only English: {set(en) - set(ja)}; only Japanese: {set(ja) - set(en)}"
    for key in en:
        assert en[key].strip() and ja[key].strip(), key
        assert placeholders(en[key]) == placeholders(ja[key]), key


def test_the_interface_texts_are_split_into_the_same_files_in_both_languages():
    from explorer.core.i18n import LOCALES
    parts = {lang: sorted(p.name for p in (LOCALES / lang).glob("*.json")) for lang in LANGUAGES}
    assert parts["en"] == parts["ja"]


def test_a_text_is_filled_in_and_a_missing_key_is_an_error():
    assert text("rules.heading", "ja", game="Subastral") == "Subastral：ルール"
    assert text("rules.heading", "en", game="Subastral") == "Subastral: the rules"
    with pytest.raises(KeyError):
        text("no.such.key", "en")
    with pytest.raises(KeyError):
        texts("fr")


@pytest.mark.parametrize("requested, accept, expected", [
    ("ja", None, "ja"), ("JA", "en", "ja"), ("en", "ja", "en"), ("ja-JP", None, "ja"),
    (None, "ja,en-US;q=0.7", "ja"), (None, "fr-FR,ja;q=0.9,en;q=0.8", "ja"), (None, "en-GB,ja;q=0.5", "en"),
    (None, "de, fr", "en"), ("xx", "ja", "ja"), (None, None, "en"), (None, "ja;q=bad,en;q=0.2", "en"),
    ("ja_JP", None, "ja"), (None, "jam,ja;q=0.1", "ja"), ("jam", "en", "en"), (None, "zh-Hant-TW, ja-JP;q=0.3", "ja"),
])
def test_the_page_language(requested, accept, expected):
    assert choose(requested, accept) == expected
    assert expected in LANGUAGES


#: English texts that count with a plural noun and never count one (or count in an abbreviation).
NEVER_ONE = {"explorer.players_fixed", "tutorial.steps", "jump_gate_board.points", "timeline.note.count"}


def test_an_english_text_that_counts_things_has_its_form_for_one():
    """"Deck: 1 cards" on a Stellar board near the end of its deck (an outside tester): a text counting
    with a plural noun has a ``_one`` form, which :func:`counted_text` picks for 1 (``.one``/``.other``
    pairs are the boards' own way to the same end)."""
    from explorer.core.i18n import counted_text, texts
    english = texts("en")
    missing = [key for key, value in english.items()
               if re.search(r"\{(n|count)\}\s+[a-z]+s\b", value) and not key.endswith(("_one", "_many", ".other"))
               and f"{key}_one" not in english and key not in NEVER_ONE]
    assert missing == []
    assert counted_text("stellar_board.deck_cards", "en", 1, count=1) == "1 card"
    assert counted_text("stellar_board.deck_cards", "en", 2, count=2) == "2 cards"
    assert counted_text("subastral_board.deck", "ja", 1, count=1) == "デッキ：1枚"


@pytest.mark.parametrize("value", ["http://e.vil/", "see www.example.com now", "mail a@b.com", "example.com",
                                   "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>", "3.5 at e.g. 9:30"])
def test_a_literal_text_shows_as_its_characters_in_a_markdown_pane(value):
    """A value shown with ``literal`` in a Markdown pane is no element and no link: the panes' Markdown
    made links of bare addresses itself (``/explorer?game=http://e.vil/`` showed a link to it in the
    refusal, and a card named so in the advisor's line; an outside tester)."""
    from panel.pane.markup import Markdown

    from explorer.core.i18n import literal
    shown = Markdown._get_parser("markdown-it", ()).render(literal(value))
    assert "<a " not in shown and "<img" not in shown, shown
    assert shown == f"<p>{html.escape(value, quote=False)}</p>\n"

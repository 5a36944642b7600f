"""The rules pages, and the rule links of the event log and of illegal-move messages."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import rules
from explorer.core.links import refusal_markdown, rules_href
from explorer.pages.rules_page import create_rules_page, rules_html
from explorer.core.session import GameSession
from explorer.components.timeline import EventLog
from rules.protocol import IllegalAction
from rules.rulebook import LANGUAGES, rulebook
from tools.page_check import findings


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES)
def test_a_rules_page_has_a_section_per_rule_in_teaching_order(game, lang):
    html = rules_html(game, lang)
    book = rulebook(game)
    anchors = re.findall(r'<section class="rule" id="rule-([a-z0-9_]+)"', html)
    assert anchors == [rule.id for rule in book.rules]
    for rule in book.rules:
        assert rule.text[lang].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;") in html
    # Every game is one click away; the other language too, by the header's switch, the page's game
    # kept (the page had a second language switch of its own, an outside review found).
    for other in rules.GAMES:
        assert rules_href(other, lang).replace("&", "&amp;") in html
    assert 'class="languages"' not in html and "lang-" not in html
    switch = create_rules_page(game, lang).language_switch.object
    for other in LANGUAGES:
        assert other == lang or f'href="?game={game}&amp;lang={other}"' in switch
    # Each rule's source: the original text's section titles, said to be the original's, without its
    # wiki markup ("==ゲームの目的==") or bullets.
    sources = re.findall(r'<section class="rule" .*?<p class="source">(.*?)</p>', html, re.S)
    assert len(sources) == len(book.rules)
    assert all("==" not in source and "●" not in source for source in sources)
    assert sum(("original rules: " if lang == "en" else "原文：") in source for source in sources) == \
        sum(bool(rule.sections) for rule in book.rules) > 0


@pytest.mark.parametrize("bot", ["greedy", "random"])
@pytest.mark.parametrize("game", rules.GAMES)
def test_every_event_of_the_log_links_to_its_rule(game, bot):
    """Greedy and random bots meet different events (random ones: eight more kinds in Biome Blitz;
    greedy ones: Stellar's clear, Starligned's ignored card, Biome Blitz's peek)."""
    session = GameSession(game=game, seed=3)
    session.autoplay(bot)
    for lang in LANGUAGES:
        lines = EventLog(session=session, lang=lang).lines()
        items = re.findall(r"<li>(.*?)</li>", lines)
        assert items and all('class="rule-link"' in item for item in items)
        for rule_id in set(re.findall(r'data-rule="([^"]+)"', lines)):
            assert f"lang={lang}#rule-{rule_id}" in lines


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES)
def test_an_illegal_move_is_explained_with_the_rule_that_forbids_it(game, lang):
    spec = rules.get_game(game)
    state = spec.new_game(spec.player_counts[0], 1, None)
    mover = spec.to_move(state)[0]
    other = next(seat for seat in range(spec.player_counts[0]) if seat != mover)
    with pytest.raises(IllegalAction) as caught:
        spec.apply(state, other, spec.legal_actions(state, mover)[0])
    message = refusal_markdown(game, caught.value, lang)
    rule = rulebook(game).for_refusal(caught.value.rule)
    assert rule is not None, caught.value.rule
    assert f"[{rule.title[lang]}]({rules_href(game, lang, rule.id)})" in message and rule.summary[lang] in message
    assert caught.value.reason_in(lang) in message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_explorer_links_the_game_s_rules_and_switches_language(lang):
    from explorer.pages.app import ExplorerApp
    from explorer.core.i18n import text

    app = ExplorerApp(session=GameSession(game="stellar", seed=2), lang=lang)
    links = app.rules_links.object
    assert rules_href("stellar", lang).replace("&", "&amp;") in links
    assert text("explorer.rules_link", lang, game="Stellar") in links
    # The header's language switch leads to the page in the other language, with the game shown.
    other = next(code for code in LANGUAGES if code != lang)
    assert f'href="?game=stellar&amp;lang={other}"' in app.template.language_switch.object
    app.session.game = "biome_blitz"
    assert rules_href("biome_blitz", lang).replace("&", "&amp;") in app.rules_links.object
    assert f'href="?game=biome_blitz&amp;lang={other}"' in app.template.language_switch.object
    assert app.log_view.lang == app.picker.lang == lang


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES)
def test_a_rules_page_lists_every_switch_with_its_source_and_default(game, lang):
    from explorer.pages.rules_page import switch_value
    from explorer.core.session import variant_label, variant_note

    html = rules_html(game, lang)
    assert '<a href="#switches">' in html and '<h2 id="switches">' in html
    spec = rules.get_game(game)
    anchors = re.findall(r'<section class="switch" id="switch-([a-z0-9_]+)"', html)
    assert anchors == [variant.name for variant in spec.variants]
    for variant in spec.variants:
        section = html.split(f'id="switch-{variant.name}"', 1)[1].split("</section>", 1)[0]
        assert variant_label(game, variant.name, lang).replace("'", "&#x27;") in section
        # What it changes and where the question comes from, in the page's language.
        note = variant_note(game, variant.name, lang)
        assert note.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;") in section
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff]", note), f"{game}/{variant.name} has no Japanese note"
        else:
            assert variant.source in note
        assert switch_value(game, variant.name, variant.default, lang) in section.split('class="switch-default">', 1)[1]


class PageTexts(HTMLParser):
    """A page's texts as the screenshot check reads them: each element's own text, on its own line."""

    def __init__(self, page: str):
        super().__init__()
        self.texts: list[str] = []
        self.feed(page)

    def handle_data(self, data):
        if data.strip():
            self.texts.append(" ".join(data.split()))


def word_findings(texts: list[str], lang: str) -> list[str]:
    """What ``tools/page_check.py`` says of these texts' words (``id``, ``english``), no browser needed."""
    data = {"width": 1366, "inner": 1366, "boxes": [], "texts": texts, "wide": []}
    return findings(data, lang, (1366, 768))


@pytest.mark.parametrize("game", rules.GAMES)
def test_a_japanese_rules_page_shows_no_english_words(game):
    """The whole page, not only its first screen (the tour sees what a screenshot shows): the source's
    title in Japanese (Jump Gate's was the wiki page's name, "Gamehelpjumpgate (Board Game Arena)"), a
    switch's setting by its Japanese label (Stellar's said 「three」, the setting's id), and the
    command-line option --variant as it is typed."""
    texts = PageTexts(rules_html(game, "ja")).texts
    assert word_findings(texts, "ja") == []
    source = next(t for t in texts if t.startswith("日本語のルール文"))
    assert rulebook(game).source in source and re.search(r"[\u3040-\u30ff]", rulebook(game).source)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES)
def test_a_rule_names_a_switch_setting_by_its_label_not_its_id(game, lang):
    """A rule that tells which setting to choose quotes it as the sidebar and the switches' section
    call it ("the face-down value 3", 「裏向きの値 3」), never by the engine's id ("three")."""
    from explorer.core.session import variant_value_label

    quoted = {"en": '"{}"', "ja": "「{}」"}[lang]
    for variant in rules.get_game(game).variants:
        for choice in variant.choices:
            if isinstance(choice, bool) or variant_value_label(game, variant.name, choice, lang) == str(choice):
                continue
            for rule in rulebook(game).rules:
                for words in (rule.title[lang], rule.summary[lang], rule.text[lang]):
                    assert quoted.format(choice) not in words, (rule.id, choice)


def test_the_page_check_reads_a_command_line_option_as_typed_not_as_english():
    """The one exception the rules page needs: ``--variant`` (the switches' introduction tells where
    else a switch is set) is typed as it is; the same word as prose is still English."""
    assert word_findings(["コマンドラインの --variant で変更できます"], "ja") == []
    assert word_findings(["（コマンドラインの --variant）"], "ja") == []
    assert word_findings(["コマンドラインの variant で変更できます"], "ja") == ["english: variant"]
    assert word_findings(["the--variant"], "ja") == ["english: the, variant"]
    assert word_findings(["--Variant settings"], "ja") == ["english: Variant, settings"]

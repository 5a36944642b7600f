"""A game's rules page, ``/rules?game=<id>&lang=<en|ja>``: its rulebook (``rules/rulebook.py``) in
teaching order, one anchored section per rule (``#rule-<id>``), each with where it comes from (the
rules text's headings, the rulings). The event log and the illegal-move messages link here."""

from __future__ import annotations

from html import escape as esc

import panel as pn

import rules
from explorer.core.i18n import literal, text
from explorer.core.links import rule_reference, rules_href
from explorer.core.session import variant_label, variant_note, variant_value_label
from explorer.core.stylesheets import stylesheet
from explorer.web.request import LONG_WORDS_WRAP, page_language, query_arg, shown_value
from explorer.web.shell import FIND_IN_PAGE_JS, PageTemplate, use_page_design
from rules.rulebook import LANGUAGES, rulebook

RULES_CSS = stylesheet("rules")


def rules_html(game: str, lang: str) -> str:
    """The whole rules page of ``game`` in ``lang`` as HTML."""
    book = rulebook(game)
    title = rules.get_game(game).title
    games = " ".join(
        f'<a class="{"chosen" if other == game else ""}" href="{esc(rules_href(other, lang))}">'
        f'{esc(rules.get_game(other).title)}</a>' for other in rules.GAMES)
    toc = "".join(f'<li><a href="#chapter-{esc(chapter.id)}">{esc(chapter.title[lang])}</a></li>'
                  for chapter in book.chapters)
    toc += f'<li><a href="#switches">{esc(text("rules.switches", lang))}</a></li>'
    parts = [f'<div class="rules-page" lang="{lang}"><nav class="games">{games}</nav>',
             # (no language links of its own: the header's language switch, on every page, keeps the game)
             f'<h1>{esc(text("rules.heading", lang, game=title))}</h1>',
             f'<p class="source">{esc(text("rules.source_note", lang, source=book.source))}</p>',
             f'<ol class="toc">{toc}</ol>']
    for chapter in book.chapters:
        parts.append(f'<h2 id="chapter-{esc(chapter.id)}">{esc(chapter.title[lang])}</h2>')
        for rule in chapter.rules:
            parts.append(
                f'<section class="rule" id="rule-{esc(rule.id)}"><h3>{esc(rule.title[lang])}</h3>'
                f'<p class="summary">{esc(rule.summary[lang])}</p><p>{esc(rule.text[lang])}</p>'
                f'<p class="source">{esc(text("rules.from", lang, where=rule_reference(game, rule, lang)))}</p>'
                '</section>')
    parts.append(switches_html(game, lang))
    parts.append("</div>")
    return "".join(parts)


def switch_value(game: str, name: str, value, lang: str) -> str:
    """A switch's setting as the page says it: on/off for a yes-or-no switch, else the choice in words
    (``variant_value_label``: "right after the take", "取った直後")."""
    if isinstance(value, bool):
        return text("rules.switch_on" if value else "rules.switch_off", lang)
    return variant_value_label(game, name, value, lang)


def switches_html(game: str, lang: str) -> str:
    """The game's switches (published variants and the readings we chose where the text is debatable):
    each with what it changes, its source, its choices and the default the engine plays."""
    spec = rules.get_game(game)
    parts = [f'<h2 id="switches">{esc(text("rules.switches", lang))}</h2>',
             f'<p>{esc(text("rules.switches_intro" if spec.variants else "rules.no_switches", lang))}</p>']
    for variant in spec.variants:
        choices = ", ".join(switch_value(game, variant.name, choice, lang) for choice in variant.choices)
        parts.append(
            f'<section class="switch" id="switch-{esc(variant.name)}"><h3>{esc(variant_label(game, variant.name, lang))}</h3>'
            f'<p class="switch-default">{esc(text("rules.switch_default", lang, value=switch_value(game, variant.name, variant.default, lang), choices=choices))}</p>'
            f'<p>{esc(variant_note(game, variant.name, lang))}</p></section>')
    return "".join(parts)


class FragmentTarget(pn.custom.JSComponent):
    """Brings the part of the page the address's fragment names (``#rule-<id>``, ``#switches``) into view
    and marks it (class ``targeted``), and again when the fragment changes. The page's sections are
    drawn inside a pane's shadow root, where the browser's own jump to a fragment and CSS's ``:target``
    find nothing: every link to a rule, from the explorer's log and from a refused move, opened the
    rules page at its top (an outside tester). It sends nothing back to the server."""

    _esm = FIND_IN_PAGE_JS + """
    export function render({ el }) {
      let marked = null;
      function go() {                    // true once done (or nothing to do)
        let id = "";
        try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (error) { return true; }
        if (!id) return true;
        const target = find(document, (element) => element.id === id);
        if (!target) return false;
        if (marked) marked.classList.remove("targeted");
        target.classList.add("targeted");
        marked = target;
        target.scrollIntoView({ block: "start" });
        return true;
      }
      let tries = 0;                     // (the rules' pane may be drawn after this mark: looked for again)
      const attempt = () => { if (!go() && ++tries < 300) setTimeout(attempt, 100); };
      attempt();
      window.addEventListener("hashchange", go);
    }
    """

    def __init__(self, **params):
        super().__init__(height=0, margin=0, sizing_mode="stretch_width", **params)


def create_rules_page(game: str | None = None, lang: str | None = None) -> pn.template.BaseTemplate:
    """The page for ``/rules``: the game and language from the address (or the browser's language)."""
    use_page_design()
    lang = lang or page_language()
    game = game or query_arg("game") or rules.GAMES[0]
    if game not in rules.GAMES:
        body = pn.pane.Alert(literal(text("rules.unknown_game", lang, game=shown_value(game), games=", ".join(rules.GAMES))),
                             alert_type="warning", css_classes=["rules-refused"], styles=LONG_WORDS_WRAP)
    else:
        body = pn.pane.HTML(rules_html(game, lang), stylesheets=[RULES_CSS], sizing_mode="stretch_width",
                            css_classes=["rules-pane"])
    return PageTemplate(page="rules", lang=lang, switch={"game": game if game in rules.GAMES else None},
                        title=text("rules.page_title", lang), main=[FragmentTarget(), body])

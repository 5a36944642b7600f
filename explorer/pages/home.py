"""The home page, ``/``: what the tool is for, the four ways in (tutorials, explorer, analysis,
tables) and each game with its goal and its tutorial, explorer and rules pages."""

from __future__ import annotations

from html import escape as esc

import panel as pn

import rules
from explorer.core.i18n import text
from explorer.core.links import explorer_path, rules_href, tutorial_href
from explorer.core.stylesheets import stylesheet
from explorer.pages.tutorial import available as tutorials_available
from explorer.web.request import page_language
from explorer.web.shell import PageTemplate, page_href, use_page_design
from rules.rulebook import rulebook

HOME_CSS = stylesheet("home")
#: The ways in, in the order the page shows them (each a page of the header).
WAYS = ("tutorial", "explorer", "analysis", "tables")


def player_counts(counts: tuple[int, ...]) -> str:
    """``2`` for one count, ``2–5`` for a run of them, ``2, 4`` otherwise."""
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))


def game_card_html(game: str, lang: str) -> str:
    spec = rules.get_game(game)
    goal = rulebook(game).rules[0].summary[lang]
    links = [f'<a class="home-explorer" href="{esc(explorer_path())}?game={game}&amp;lang={lang}">'
             f'{esc(text("home.link.explorer", lang))}</a>',
             f'<a class="home-rules" href="{esc(rules_href(game, lang))}">{esc(text("home.link.rules", lang))}</a>']
    if game in tutorials_available():
        links.insert(0, f'<a class="home-tutorial" href="{esc(tutorial_href(game, lang))}">'
                        f'{esc(text("home.link.tutorial", lang))}</a>')
    return (f'<section class="card game-card" data-game="{game}"><h3>{esc(spec.title)}</h3>'
            f'<p class="players">{esc(text("home.players", lang, counts=player_counts(spec.player_counts)))}</p>'
            f'<p>{esc(goal)}</p><div class="links">{"".join(links)}</div></section>')


def home_html(lang: str) -> str:
    ways = "".join(f'<section class="card way-card"><h3><a class="way-{way}" href="{esc(page_href(way, lang))}">'
                   f'{esc(text(f"home.{way}.title", lang))}</a></h3><p>{esc(text(f"home.{way}.text", lang))}</p></section>'
                   for way in WAYS)
    games = "".join(game_card_html(game, lang) for game in rules.GAMES)
    return (f'<div class="home"><h1>{esc(text("home.heading", lang))}</h1><p class="lead">{esc(text("home.lead", lang))}</p>'
            f'<h2>{esc(text("home.ways", lang))}</h2><div class="cards ways">{ways}</div>'
            f'<h2>{esc(text("home.games", lang))}</h2><div class="cards games">{games}</div></div>')


def create_home_page(lang: str | None = None) -> pn.template.BaseTemplate:
    use_page_design()
    lang = lang or page_language()
    body = pn.pane.HTML(home_html(lang), stylesheets=[HOME_CSS], sizing_mode="stretch_width", css_classes=["home-pane"])
    return PageTemplate(page="home", lang=lang, title=text("home.page_title", lang), main=[body])

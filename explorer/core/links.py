"""The addresses the pages link to each other by: a game's rules page (at one rule), a tutorial step,
the explorer, a table's seat and creator links; and an illegal move's explanation linked to its rule.

Plain strings from ``rules`` and the texts (no Panel), so boards, components and pages all link alike.
Each path can be moved by an environment variable (``*_PATH_ENV``) when the pages are served elsewhere.
"""

from __future__ import annotations

import os
from html import escape as esc
from urllib.parse import urlencode

import rules
from explorer.core.i18n import literal, text
from rules.protocol import IllegalAction
from rules.rulebook import Rule, rulebook


#: Where the rules pages are served (``make serve`` and ``rules-explorer serve``: /rules).
RULES_PATH_ENV = "RULES_EXPLORER_RULES_PATH"


def rules_path() -> str:
    """Where the rules pages are served now (``$RULES_EXPLORER_RULES_PATH``, default ``/rules``)."""
    return os.environ.get(RULES_PATH_ENV) or "/rules"


def rules_href(game: str, lang: str, rule: str | None = None) -> str:
    """The address of a game's rules page (at one rule's section if ``rule``)."""
    return f"{rules_path()}?{urlencode({'game': game, 'lang': lang})}" + (f"#rule-{rule}" if rule else "")


def rule_reference(game: str, rule: Rule, lang: str) -> str:
    """``Subastral · 手番 / ステップ2 · ruling 3``: where ``rule`` comes from, in ``lang``."""
    return rule.reference(rules.get_game(game).title, lang)


def rule_link_html(game: str, rule: Rule, lang: str, css: str = "rule-link") -> str:
    """A small link to ``rule`` on its game's rules page (opens beside the explorer)."""
    title = f"{rule.summary[lang]} ({rule_reference(game, rule, lang)})"
    return (f'<a class="{css}" href="{esc(rules_href(game, lang, rule.id))}" target="rules" '
            f'title="{esc(title)}" data-rule="{esc(rule.id)}">{esc(rule.title[lang])}</a>')


def refusal_markdown(game: str, error, lang: str) -> str:
    """An illegal move's explanation for a page (Markdown): the reason, then the rule that forbids it,
    linked to its section of the rules page (the engine's rule text when the rulebook has none). The
    reason is shown as its text (:func:`literal`): it may quote a card file's names, which anyone may write."""
    rule = rulebook(game).for_refusal(getattr(error, "rule", None))
    reason = literal(error.reason_in(lang) if isinstance(error, IllegalAction) else str(error))
    if rule is None:
        return reason if not getattr(error, "rule", None) else f"{reason} (rule: {literal(error.rule)})"
    return (f"{reason}  \n" + text("refusal.rule", lang, title=f"[{rule.title[lang]}]({rules_href(game, lang, rule.id)})",
                                     summary=rule.summary[lang]) + f" ({rule_reference(game, rule, lang)})")


#: Where the tutorials are served (``make serve`` and ``rules-explorer serve``: /tutorial).
TUTORIAL_PATH_ENV = "RULES_EXPLORER_TUTORIAL_PATH"


def tutorial_href(game: str, lang: str, step: int | None = None) -> str:
    """A game's tutorial, at ``step`` as the page numbers it (from 1) if given."""
    path = os.environ.get(TUTORIAL_PATH_ENV) or "/tutorial"
    return f"{path}?game={game}&lang={lang}" + ("" if step is None else f"&step={step}")


def tutorial_index_href(lang: str) -> str:
    """The list of tutorials."""
    return f"{os.environ.get(TUTORIAL_PATH_ENV) or '/tutorial'}?lang={lang}"


#: Where the explorer is served, for the review links (``rules-explorer serve`` and ``make serve``: /explorer).
EXPLORER_PATH_ENV = "RULES_EXPLORER_EXPLORER_PATH"


def explorer_path() -> str:
    return os.environ.get(EXPLORER_PATH_ENV) or "/explorer"


def seat_link(table_id: str, token: str | None = None, origin: str = "", path: str = "/tables") -> str:
    return f"{origin}{path}?table={table_id}" + (f"&seat={token}" if token else "")


def creator_page_link(table_id: str, token: str, origin: str = "", path: str = "/tables") -> str:
    """The creator's link: end the table, give a seat a new link (only its digest is stored)."""
    return f"{origin}{path}?table={table_id}&creator={token}"

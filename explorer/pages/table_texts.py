"""The texts the playtest tables' pages share (the lobby, a table's page, the creator's page)."""

from __future__ import annotations

import html

from explorer.core.i18n import text
from explorer.core.session import player_label

esc = html.escape


def t(key: str, lang: str = "en", **values) -> str:
    """An interface text of the tables' pages (``explorer/locales/<lang>/tables.json``)."""
    return text(f"tables.{key}", lang, **values)


def seat_name(seat: int, lang: str = "en") -> str:
    """"Player 1" / "プレイヤー1": how the tables' pages name a seat (0-based) in ``lang``."""
    return player_label(seat) if lang == "en" else t("player", lang, n=seat + 1)


def card_file_html(card_name: str | None, lang: str = "en", before: str = " · ") -> str:
    """Which card file a table plays, for its pages: the name its saved file had when the table was
    made (escaped: a name is typed by a person), after ``before``; nothing for the standard cards
    (the pages of a standard table read as they always did)."""
    if card_name is None:
        return ""
    return (f'{before}<span class="table-cards" data-cards="{esc(card_name)}">'
            f'{t("cards_played", lang, name=f"<b>{esc(card_name)}</b>")}</span>')

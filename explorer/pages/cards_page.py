"""/cards, the card editor: a game's card file edited in the browser, checked by the game, saved in
the card library (``explorer/cardfiles.py``) and opened in the explorer (``/explorer?game=...&cards=NAME``).

The editor itself is :class:`explorer.components.card_editor.CardEditor`; this module puts it in the
site's template, in the address's language (``?lang=``) and for the address's game (``?game=``, one of
the registered games; for anything else the page opens on Biome Blitz and says why, the text escaped).
Its language switch carries the draft (``&resume=KEY``, ``explorer.core.carry``).
"""

from __future__ import annotations

import html

import panel as pn

import rules
from explorer.cardfiles import CardLibrary, served_library
from explorer.components.card_editor import CardEditor, Draft
from explorer.core.carry import CARRIED
from explorer.core.i18n import text
from explorer.web.request import carry_key, page_language, query_arg, shown_value
from explorer.web.shell import HEADING_CSS, PageTemplate, use_page_design


def create_page(lang: str | None = None, library: CardLibrary | None = None,
                game: str | None = None) -> pn.template.BaseTemplate:
    """The served page (``page.editor`` is its :class:`CardEditor`) for ``game`` (default: the address's)."""
    use_page_design()
    lang = lang or page_language()
    game = game if game is not None else query_arg("game")
    resume = query_arg("resume")
    draft = CARRIED.find(resume, Draft) if resume is not None else None
    if draft is not None:
        game = draft.game
    editor = CardEditor(library=library or served_library(), lang=lang, game=game if game in rules.GAMES else "biome_blitz")
    notices = []
    if draft is not None:
        editor.take_draft(draft)
    elif resume is not None:
        notices.append(text("workshop.address.resume", lang))
    if game is not None and game not in rules.GAMES:
        notices.append(text("workshop.address.game", lang, game=shown_value(game), games=", ".join(rules.GAMES)))
    if notices:
        editor.notice = " ".join(notices)
        editor.refresh()
    intro = pn.pane.HTML(f"<h2>{html.escape(text('workshop.heading', lang))}</h2>"
                         f"<p>{html.escape(text('workshop.intro', lang))}</p>", sizing_mode="stretch_width",
                         stylesheets=[HEADING_CSS])
    token = carry_key(editor.draft)
    template = PageTemplate(page="cards", lang=lang, title=text("workshop.page_title", lang),
                            switch={"game": editor.game, "resume": token},
                            sidebar=[editor.controls], main=[intro, editor.main], sidebar_width=300)
    # The language switch opens the other language on the game shown, with the draft.
    editor.param.watch(lambda event: template.keep_in_switch(game=event.new, resume=token), "game")
    template.editor = editor
    return template

"""What every game's board shares: :class:`HtmlBoard`, the Panel part of a board drawn as HTML, and the
fallback board of a game without one of its own."""

from __future__ import annotations

import html

import panel as pn
import param

import rules
from explorer.core.i18n import text
from explorer.core.session import GameSession, player_label
from explorer.core.viewpoint import role_of


def card_set_words(game: str, card_set: dict, lang: str = "en", standard: bool = True) -> tuple[str, str]:
    """The card list's name and provenance as the board says them in ``lang``. The game's own standard
    list is named in the page's language ("Subastral standard cards", "Subastralの標準カード"); a card
    file of one's own keeps its name as written, but one that still bears the standard file's name
    while it is not that file (``standard`` False: the card editor's edits keep the name) says it is
    edited. A provenance the locale files know is said in words ("仮定")."""
    name, provenance = str(card_set.get("name", "")), str(card_set.get("provenance", ""))
    spec = rules.get_game(game)
    if name == getattr(spec.standard_cards(), "name", None):
        name = text("cards.standard" if standard else "cards.edited", lang, game=spec.title)
    try:
        provenance = text(f"cards.provenance.{provenance}", lang)
    except KeyError:
        pass
    return name, provenance


def ended_early_line(view: dict, lang: str = "en") -> str | None:
    """What a board says in place of whose turn it is where the line was ended before its game's end
    (``GameSession.ended_early``: a playtest table its creator ended), else None."""
    return text("board.ended_early", lang) if view.get("ended_early") else None


def step_counter(step: int, moves: int, lang: str = "en") -> str:
    """Every board's step counter: "Step 3 / 40", and on a line without moves "Step 0 / 0 · no moves yet"
    (a new game a person begins, a what-if position)."""
    return text("board.step", lang, step=step, total=moves) + ("" if moves else text("board.no_moves_yet", lang))


def own_seat(view: dict) -> int | None:
    """The seat whose own hand a board draws again at the top of its table, where its player sees it
    while choosing (Biome Blitz's and Jump Gate's boards, whose seat panels are below the fold): the
    viewing seat, when its observation shows its hand; None for the teacher and spectators."""
    viewer = view["viewer"]
    if role_of(view) != "seat" or "cards" not in view["hands"][viewer]:
        return None
    return viewer


class HtmlBoard(pn.viewable.Viewer):
    """A game's board: one HTML pane, redrawn whenever the viewed state, the viewing seat, the replay's
    notice, the selected action or the language changes. A board sets ``GAME`` (its game id) and
    ``CSS`` (its stylesheet, ``stylesheet("boards/<game>")``: the file ``explorer/web/css/boards/<game>.css``)
    and draws the session's view in :meth:`draw`; when the page swaps in another game's board, this
    one is retired and draws nothing."""

    GAME = ""
    CSS = ""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default="en", objects=["en", "ja"], doc="The language of the board's texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(self.html, stylesheets=[self.CSS], sizing_mode="stretch_width",
                                  css_classes=["board"], margin=(0, 5))

    @param.depends("session.state", "session.log", "session.viewing_seat", "session.replay_problem",
                   "session.selected_action", "session.ended_early", "lang")
    def html(self) -> str:
        if self.session.game != self.GAME:
            return ""
        return self.draw(self.session, self.lang)

    def draw(self, session: GameSession, lang: str) -> str:
        """The board's HTML for the session's viewpoint, its texts in ``lang``."""
        raise NotImplementedError

    def __panel__(self):
        return self._pane


class ObservationBoard(pn.viewable.Viewer):
    """Fallback for a game without its own board: the observation as readable JSON."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default="en", objects=["en", "ja"], doc="The language of the board's texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.JSON(self.view, depth=3, sizing_mode="stretch_width")

    @param.depends("session.state", "session.viewing_seat")
    def view(self) -> dict:
        return self.session.view()

    @param.depends("session.state", "session.log")
    def header(self) -> str:
        session = self.session
        note = (f"{session.spec.title} has no board view of its own yet: this is what "
                f"{player_label(session.viewing_seat)} sees, as the rules engine reports it.")
        return (f'<span class="step-counter">{html.escape(step_counter(session.cursor, len(session.log), self.lang))}</span> '
                f'<span class="board-note">{html.escape(note)}</span>')

    def __panel__(self):
        return pn.Column(pn.pane.HTML(self.header, margin=(0, 5)), self._pane, sizing_mode="stretch_width")

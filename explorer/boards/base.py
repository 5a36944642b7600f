"""What every game's board shares: the fallback board of a game without one of its own."""

from __future__ import annotations

import html

import panel as pn
import param

from explorer.core.session import GameSession, player_label


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
        return (f'<span class="step-counter">Step {session.cursor} / {len(session.log)}</span> '
                f'<span class="board-note">{html.escape(note)}</span>')

    def __panel__(self):
        return pn.Column(pn.pane.HTML(self.header, margin=(0, 5)), self._pane, sizing_mode="stretch_width")

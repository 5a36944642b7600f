"""Who a page shows the game to: one seat, a spectator, or the teacher who sees everything.

A page's viewpoint is one :class:`Viewpoint`; every view of the page (board, timeline, plots,
scores) asks the rules for ``observe(state, viewpoint.observer)`` through the page's session, never
for a state's hidden zones; the plots ask for ``deck_knowledge`` the same way
(``GameSession.deck_knowledge``, checked by :meth:`Viewpoint.check` as an observation is). Hidden
information is decided once, by the rules (``rules.protocol.ALL`` and each game's ``observe``);
this module only says who may ask for what:

- a seat (``0``, ``1``, ...) sees what ``observe(state, seat)`` shows;
- a spectator (:data:`SPECTATOR`, ``None``) sees ``observe(state, None)``: no hand at all;
- the teacher (:data:`ALL`) sees ``observe(state, ALL)``, everything. Only a page that allows a
  teacher may use it: the explorer. A shared table's page (a seat's or a spectator's) never does,
  and a :class:`Viewpoint` for ``ALL`` made without ``teacher_page=True`` is refused; such a page
  may not ask what another seat sees either (:meth:`Viewpoint.check`).

Plain Python (no Panel), so the sessions of the explorer and the tables share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from rules.protocol import ALL

#: The spectator's viewpoint: what everybody at the table sees, no hand at all.
SPECTATOR = None

Observer = Union[int, str, None]


class ViewpointRefused(ValueError):
    """A viewpoint the page may not take: ``ALL`` on a page without a teacher, or no such seat."""


@dataclass(frozen=True)
class Viewpoint:
    """The one point of view of a page: ``observer`` is what ``observe`` is asked with (a seat,
    :data:`SPECTATOR` or :data:`ALL`); ``teacher_page`` says whether the page allows the teacher."""

    observer: Observer
    teacher_page: bool = False

    def __post_init__(self):
        observer = self.observer
        if observer == ALL:
            if not self.teacher_page:
                raise ViewpointRefused("only the teacher's page (the explorer) may see everything; "
                                       "a seat's or a spectator's page never does")
        elif observer is not SPECTATOR and (type(observer) is not int or observer < 0):
            raise ViewpointRefused(f"a viewpoint is a seat (0, 1, ...), a spectator or the teacher, not {observer!r}")

    @classmethod
    def of(cls, viewing_seat: int | None, *, teacher: bool) -> "Viewpoint":
        """A session's viewpoint: ``viewing_seat`` None is the teacher where the page has one
        (``teacher``), else a spectator."""
        return cls(ALL if viewing_seat is None and teacher else viewing_seat, teacher_page=teacher)

    @property
    def sees_all(self) -> bool:
        return self.observer == ALL

    @property
    def seat(self) -> int | None:
        """The seat seen from; None for a spectator and for the teacher."""
        return self.observer if type(self.observer) is int else None

    @property
    def role(self) -> str:
        """``"teacher"``, ``"spectator"`` or ``"seat"``: which status text a view shows."""
        return "teacher" if self.sees_all else "spectator" if self.observer is SPECTATOR else "seat"

    def check(self, observer: Observer) -> Observer:
        """``observer`` if a view of this page may ask ``observe`` with it, else :class:`ViewpointRefused`:
        the teacher's page may ask for any seat, a spectator or ``ALL`` (it views as any of them);
        any other page only for its own viewpoint."""
        Viewpoint(observer, teacher_page=self.teacher_page)
        if not self.teacher_page and observer != self.observer:
            raise ViewpointRefused(f"this page shows the game to {self.role} {self.observer!r}; "
                                   f"it may not ask what {observer!r} sees")
        return observer


def role_of(observation: dict) -> str:
    """Whose observation this is, from its ``viewer``: ``"teacher"``, ``"spectator"`` or ``"seat"``."""
    viewer = observation.get("viewer")
    return "teacher" if viewer == ALL else "spectator" if viewer is None else "seat"

"""Notes pinned to moves: who may write one, what it may say, and who may read it (issue #24, item 3).

A note is ``{"step", "seat", "text", "at"}`` (the replay format's ``notes``, docs/formats.md):
``step`` the step it is pinned to (0: the deal), ``seat`` who wrote it (a seat, or ``"teacher"``),
``text`` what it says (plain text: every page escapes it), ``at`` when (seconds since 1970).
A playtest table keeps its notes in its database (:mod:`explorer.tables.store`), the explorer in
its session (:class:`explorer.core.session.GameSession`); both check and show them with this module.

**Who may read a note** (:func:`note_visible`, the one rule): once the game has ended, everybody.
Before, the note's author, the teacher, and a viewer whose view of that move shows what the
author's showed: the same events, or every event of the move (the teacher's view). A note on a
move everybody sees in full (a card taken from the table) is everybody's; a note on a hidden draw
is, until the end, read only by those who saw that draw as its author did (the drawer's note: the
drawer's alone).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from explorer.core.i18n import text
from rules.protocol import ALL, shown
from rules.replay import NOTE_LIMIT, TEACHER
from rules.rulebook import LANGUAGES
from rules.showable import text_problem

__all__ = ["NOTE_LIMIT", "TEACHER", "NoteRefused", "check_note", "note_visible", "author_label", "observer_of"]


class NoteRefused(ValueError):
    """A note that is not pinned: what was wrong, in every language (``texts``); nothing changed."""

    def __init__(self, key: str, **values: Any):
        self.texts = {lang: text(f"timeline.note.refused.{key}", lang, **values) for lang in LANGUAGES}
        self.key = key
        super().__init__(self.texts["en"])

    def problem_in(self, lang: str) -> str:
        return self.texts.get(lang, self.texts["en"])


def check_note(step: Any, note_text: Any, steps: int) -> tuple[int, str]:
    """``(step, text)`` of a note to pin on a line of ``steps`` moves, its text stripped; NoteRefused
    (naming the problem) for a step that is not a whole number from 0 to ``steps`` (a move that
    does not exist yet), or a text that is not text, blank, longer than :data:`NOTE_LIMIT`, or that
    ``rules.showable.text_problem`` refuses (as a card file's texts): one that shows nothing, has too
    many lines, stacks too many marks on a character, or holds a character that reorders what is shown,
    a control character or half a character. (A replay file's notes are read as they were pinned:
    ``rules.replay.read``.)"""
    if type(step) is not int or not 0 <= step <= steps:
        raise NoteRefused("step", step=shown(step), steps=steps)
    if not isinstance(note_text, str):
        raise NoteRefused("not_text")
    cleaned = note_text.strip()
    if not cleaned:
        raise NoteRefused("empty")
    if len(cleaned) > NOTE_LIMIT:
        raise NoteRefused("too_long", limit=NOTE_LIMIT, length=len(cleaned))
    problem = text_problem(cleaned)
    if problem is not None:
        raise NoteRefused(problem[0], **problem[1])
    return step, cleaned


def observer_of(author: int | str) -> int | str:
    """The viewpoint a note's author had: its seat, or :data:`~rules.protocol.ALL` for the teacher."""
    return ALL if author == TEACHER else author


def note_visible(note: Mapping[str, Any], viewer: int | str | None, ended: bool,
                 events: Callable[[int, int | str | None], Any]) -> bool:
    """Whether ``viewer`` (a seat, ``None`` for a spectator, ``ALL`` for the teacher) may read ``note``
    (see the module docstring). ``events(step, observer)``: the events ``observe`` gives ``observer``
    for the move that led to ``step`` (asked only when the answer depends on them)."""
    if ended or viewer == ALL:
        return True
    author = note["seat"]
    if viewer == author:
        return True
    step = note["step"]
    seen = events(step, viewer)
    return seen == events(step, observer_of(author)) or seen == events(step, ALL)


def author_label(author: int | str, lang: str = "en") -> str:
    """"Player 2" / "Teacher": who wrote a note, in ``lang``."""
    if author == TEACHER:
        return text("timeline.note.teacher", lang)
    return text("explorer.player", lang, n=int(author) + 1)

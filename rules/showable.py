"""Text that shows what it holds: the one check for text a person writes and other people read on our
pages (a note pinned to a move, ``rules.replay``; a card file's names and texts, ``rules.protocol``).

Pages escape such text, so it never becomes HTML; this module refuses what escaping lets through:

- a character that reorders what is shown (:data:`REORDERING`): ``"\\u202eevil"`` shows "live", so a
  text holding one could show other words than it holds;
- a control character but a line break or a tab: shown as nothing, or breaking the text around it;
- half of a character (a lone surrogate, which a browser can send): it can be neither stored nor shown;
- a text that shows nothing though it is not empty (only spaces, invisible characters and marks);
- more than :data:`LINES` lines (a note of 1,990 line breaks stood 29,000 pixels tall in every
  viewer's log), or more than :data:`STACKED_MARKS` combining marks on one character (drawn as a tower
  over the lines around it: "Zalgo" text).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Final

#: Characters that change the order in which the text around them is shown (bidirectional embeddings,
#: overrides and isolates).
REORDERING: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: The most lines a text may have: a note is a remark on a move, a card's text a few sentences.
LINES: Final = 20
#: The most combining marks (accents, vowel signs, tone marks) a text may stack on one character.
#: Writing stacks a few (Vietnamese two, Thai three, Hebrew with its points and cantillation four or
#: five); a run of dozens is drawn over the lines above and below it.
STACKED_MARKS: Final = 8
#: Characters that show as nothing though Unicode counts them as letters or symbols: the Hangul
#: fillers and the braille blank.
BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: The Unicode categories of characters that show as nothing on their own: separators (spaces, line
#: and paragraph separators), controls (line breaks, tabs), format characters (zero-width space,
#: joiners) and combining marks.
SHOWS_NOTHING: Final = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})


def unshowable(text: str) -> tuple[str, str] | None:
    """The first character of ``text`` no shown text may hold, as ``(why, "U+202E")``: ``"reorders"`` for
    one that reorders what is shown (:data:`REORDERING`), ``"control"`` for a control character but a
    line break or a tab (NUL, escape, DEL...), ``"broken"`` for a lone surrogate; else None."""
    for character in text:
        if character in REORDERING:
            return "reorders", f"U+{ord(character):04X}"
        category = unicodedata.category(character)
        if category == "Cc" and character not in "\n\r\t":
            return "control", f"U+{ord(character):04X}"
        if category == "Cs":
            return "broken", f"U+{ord(character):04X}"
    return None


def shows_nothing(text: str) -> bool:
    """Does ``text`` show nothing at all (an empty text does not)? Only spaces, line breaks, invisible
    characters and marks with nothing under them (:data:`BLANKS`, :data:`SHOWS_NOTHING`)."""
    return all(character in BLANKS or unicodedata.category(character) in SHOWS_NOTHING for character in text)


def text_problem(text: str) -> tuple[str, dict[str, Any]] | None:
    """What keeps ``text`` from showing what it holds, as a message key and its values, or None:
    ``"reorders"``, ``"control"`` or ``"broken"`` (:func:`unshowable`; ``code``), ``"blank"`` (:func:`shows_nothing`,
    for a text that is not empty), ``"lines"`` (more than :data:`LINES`; ``lines``, ``limit``) or
    ``"stacked"`` (more than :data:`STACKED_MARKS` marks on one character; ``code`` of the first mark
    too many, ``limit``). How long a text may be is each kind of text's own rule."""
    found = unshowable(text)
    if found is not None:
        return found[0], {"code": found[1]}
    if text and shows_nothing(text):
        return "blank", {}
    lines = len(text.splitlines())
    if lines > LINES:
        return "lines", {"lines": lines, "limit": LINES}
    stacked = 0
    for character in text:
        category = unicodedata.category(character)
        if category in ("Mn", "Me"):
            stacked += 1
            if stacked > STACKED_MARKS:
                return "stacked", {"code": f"U+{ord(character):04X}", "limit": STACKED_MARKS}
        elif category != "Cf":      # (a joiner between marks draws nothing: the marks still stack)
            stacked = 0
    return None

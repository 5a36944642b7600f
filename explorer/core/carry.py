"""A page's work carried to the same page in another language.

The language switch is a link: following it opens a new page, which knew nothing of the old one, so
a line played by hand in the explorer reopened as a fresh bot game, and the card editor's draft as
the standard cards. Their links now name the page's work with ``resume=TOKEN``: a random key (128
bits, :func:`secrets.token_urlsafe`) that the server gave that page and keeps beside it. The new page
finds the work behind the key and opens a copy of it: for the explorer, the line and where its cursor
stands, the lines kept aside, who plays each seat, the bot and the point of view (:class:`Carried`);
for the card editor, its draft (``explorer.components.card_editor.Draft``). Each page works on its
own copy from then on.

A key leads to its page's work while the page is open, and to the work as the page left it for
:data:`KEEP_SECONDS` after the page closed (at most :data:`KEEP_CLOSED` closed pages, the oldest
let go first); never across a restart of the server. A key no one was given, or given by another
kind of page, leads nowhere: the page then says the work could not be carried over and opens as its
address says.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from explorer.core.session import GameSession, Line
from rules.protocol import dumps, load_json

#: What a page carries (its own kind of snapshot).
Work = TypeVar("Work")

#: How long a closed page's game is kept for its key (seconds).
KEEP_SECONDS = 3600.0
#: How many closed pages' games are kept at most.
KEEP_CLOSED = 256
#: What a key looks like (``secrets.token_urlsafe(16)``: 22 letters, digits, ``-`` and ``_``).
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")


@dataclass(frozen=True)
class Carried:
    """What a page's game is, to open it again: the line as a replay file (its start, card file,
    variants, moves and notes; as JSON text, a copy that no page's later change reaches), the
    cursor, the lines kept aside, who plays each seat, the bot that plays when none is named, the
    point of view, and the saved card file the address named (kept in the new page's own links)."""

    replay: str
    cursor: int
    branches: tuple[Line, ...]
    seat_players: Mapping[int, str]
    bot: str
    viewing_seat: int | None
    card_file: str | None = None


def snapshot(session: GameSession, card_file: str | None = None) -> Carried:
    """``session`` as it is now."""
    return Carried(replay=dumps(session.replay()), cursor=session.cursor, branches=tuple(session.branches),
                   seat_players=dict(session.seat_players), bot=session.bot, viewing_seat=session.viewing_seat,
                   card_file=card_file)


def restored(carried: Carried) -> GameSession:
    """A new session holding the game ``carried`` holds. Raises what :meth:`GameSession.load` raises
    should the line no longer load (it loaded when it was played)."""
    replay = load_json(carried.replay, what="replay")
    session = GameSession(game=replay["game"])     # (the game's usual deal: load replaces it)
    session.load(replay, cursor=carried.cursor)
    session.branches = list(carried.branches)
    session.seat_players = dict(carried.seat_players)
    session.bot = carried.bot
    session.viewing_seat = carried.viewing_seat
    return session


class CarryStore:
    """Keys to pages' work (see the module's text). ``clock`` gives seconds (tests pass their own)."""

    def __init__(self, *, keep_seconds: float = KEEP_SECONDS, keep_closed: int = KEEP_CLOSED,
                 clock: Callable[[], float] = time.monotonic):
        self.keep_seconds, self.keep_closed, self._clock = keep_seconds, keep_closed, clock
        self._open: dict[str, Callable[[], object]] = {}
        self._closed: OrderedDict[str, tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, source: Callable[[], object]) -> str:
        """A new key for an open page; ``source()`` gives its work as it is when asked (a snapshot
        that the page's later changes do not reach)."""
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._open[token] = source
        return token

    def close(self, token: str) -> None:
        """The page of ``token`` closed: its work as it is now is kept for a while (see the module's text)."""
        with self._lock:
            source = self._open.pop(token, None)
        if source is None:
            return
        carried = source()
        with self._lock:
            self._closed[token] = (self._clock(), carried)
            self._let_go()

    def find(self, token: object, kind: type[Work]) -> Work | None:
        """The work of ``kind`` behind ``token`` (what an address sent: any text), or None when no page
        has it, or another kind of page."""
        if not isinstance(token, str) or not TOKEN.fullmatch(token):
            return None
        with self._lock:
            source = self._open.get(token)
            if source is None:
                self._let_go()
                kept = self._closed.get(token)
                found = kept[1] if kept is not None else None
        if source is not None:
            found = source()
        return found if isinstance(found, kind) else None

    def __len__(self) -> int:
        """The pages kept: open and closed."""
        return len(self._open) + len(self._closed)

    def _let_go(self) -> None:
        oldest = self._clock() - self.keep_seconds
        while self._closed and (len(self._closed) > self.keep_closed or next(iter(self._closed.values()))[0] < oldest):
            self._closed.popitem(last=False)


#: The server's keys (one process serves every page: ``make serve``).
CARRIED = CarryStore()

"""Biome Blitz's most frequent log entries, made once, for speed only.

A state's log is a tuple of tuples (see ``rules.py``); the direct paths log a few kinds of entries at
almost every apply: a resource taken or drawn, a resource revealed, the next turn; and a trade's
steps, a third of a playout's decisions or more (half of them at 6 players), log one entry each. Those
built from small numbers (a seat, a resource symbol, a market slot, a turn number) are made here once
and shared: the same values, without building them again at each apply.

Each is kept as a one-entry log (``Log``: a tuple of entries of any length), joined to others with
``+``, never as a bare entry: an entry's type is a tuple of four, and mypyc keeps a value of a
fixed-length tuple type unboxed, as a C struct, so compiled code would take a shared entry apart and
build it again, a new tuple, wherever it went into a log.
"""

from __future__ import annotations

from typing import Final

from rules.biome_blitz.cards import RESOURCE
from rules.biome_blitz.state import MARKET, LogEntry
from rules.protocol import Seat

SEATS: Final = 6           # the most players
SYMBOLS: Final = 4         # resource symbols: leaf, water, meat, wild
TURNS: Final = 4096        # turn entries are kept below this turn number

#: A state's log (``State.log``), or the entries an apply adds to it.
Log = tuple[LogEntry, ...]

#: (("take", seat, (symbol,), slot),): a forage takes a face-up resource; by seat, symbol, slot (1-3).
TAKE: Final[tuple[tuple[tuple[Log, ...], ...], ...]] = tuple(
    tuple(tuple((("take", seat, (symbol,), slot),) for slot in range(MARKET + 1)) for symbol in range(SYMBOLS))
    for seat in range(SEATS))
#: (("draw", seat, (symbol,), "forage"),): a forage draws the resource deck's top; by seat, symbol.
DRAW: Final[tuple[tuple[Log, ...], ...]] = tuple(tuple((("draw", seat, (symbol,), "forage"),) for symbol in range(SYMBOLS))
                                                 for seat in range(SEATS))
#: (("reveal", None, (RESOURCE, symbol), slot),): a resource fills a market slot; by symbol, slot (1-3).
REVEAL: Final[tuple[tuple[Log, ...], ...]] = tuple(
    tuple((("reveal", None, (RESOURCE, symbol), slot),) for slot in range(MARKET + 1)) for symbol in range(SYMBOLS))
#: (("wild_ends", seat, (), None),): a face-up wild ended the seat's forage.
WILD_ENDS: Final[tuple[Log, ...]] = tuple((("wild_ends", seat, (), None),) for seat in range(SEATS))
# A trade's steps, each the whole log of its apply (one entry): by seat, then as said.
#: (("trade_start", seat, (), partner),): an offer begins; by seat, partner.
TRADE_START: Final[tuple[tuple[Log, ...], ...]] = tuple(tuple((("trade_start", seat, (), partner),) for partner in range(SEATS)) for seat in range(SEATS))
#: (("trade_give", seat, (symbol,), partner),): a card added to those given; by seat, symbol, partner.
TRADE_GIVE: Final[tuple[tuple[tuple[Log, ...], ...], ...]] = tuple(
    tuple(tuple((("trade_give", seat, (symbol,), partner),) for partner in range(SEATS)) for symbol in range(SYMBOLS))
    for seat in range(SEATS))
#: (("trade_ask", seat, (symbol,), partner),): a card added to those asked for; by seat, symbol, partner.
TRADE_ASK: Final[tuple[tuple[tuple[Log, ...], ...], ...]] = tuple(
    tuple(tuple((("trade_ask", seat, (symbol,), partner),) for partner in range(SEATS)) for symbol in range(SYMBOLS))
    for seat in range(SEATS))
#: (("trade_cancel", seat, (), partner),): the offer withdrawn; by seat, partner.
TRADE_CANCEL: Final[tuple[tuple[Log, ...], ...]] = tuple(tuple((("trade_cancel", seat, (), partner),) for partner in range(SEATS)) for seat in range(SEATS))
#: (("trade_answer", seat, (), (asker, accept)),): the partner's answer; by seat, asker, accept (0 or 1).
TRADE_ANSWER: Final[tuple[tuple[tuple[Log, ...], ...], ...]] = tuple(
    tuple(tuple((("trade_answer", seat, (), (asker, accept)),) for accept in (False, True)) for asker in range(SEATS))
    for seat in range(SEATS))
#: (("turn", seat, (), number),): a turn begins; per seat, by number (made up to the highest reached).
TURN: Final[tuple[list[Log], ...]] = tuple([] for _ in range(SEATS))


def turn(seat: Seat, number: int) -> Log:
    """The log (("turn", seat, (), number),), made for the numbers up to ``number`` the first time."""
    row = TURN[seat]
    if number < len(row):
        return row[number]
    if number >= TURNS:
        return (("turn", seat, (), number),)
    row.extend((("turn", seat, (), n),) for n in range(len(row), number + 1))
    return row[number]

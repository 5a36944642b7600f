"""Which cards each seat takes, buys or plays: one reader per game, from the state's own log.

Every game keeps in ``state.log`` the records of its last ``apply`` (what ``game.events`` words for
people). A sweep keeps each decision's records (a reference to the state's tuple) and reads a game's
records once it has ended, to count, per card, how often it was used per game and the final scores of
the seats that used it (``Tally.add_card_uses`` in ``play/sweep.py``). A reader takes a state of the
game (for its card set, the same all game long) and records; ``card_uses(game_id, state)`` reads the
last decision's. (Read as each decision was made, a generator started and a dict built each time, the
uses took 10% of a greedy sweep, 6% read at the end: 300 paired 4-player Subastral deals with greedy
bots, compiled, on one core, took 1.50 s and 1.44 s with them, 1.35 s without.) Wording the records as
events costs three to five times a whole game, so each game's reader names the cards the way its
events do (``rules/<game>/game.py``, ``_event``) without the words:

* Subastral: a card ``played`` onto a cloud (``play``) and the cards ``taken`` from a cloud (``take``);
* Stellar: a card ``taken`` from the row or the deck (``take``, ``second``, ``second_drawn``) and a card
  ``played`` into the telescope or the notebook (``telescope``, ``notebook``, the last round's
  ``final_chosen``); the starting pair is left out (dealt, not chosen);
* Starligned: the card each seat reveals (``played``), by its id (either side up);
* Jump Gate: the resources ``taken`` (``gain``) and the NavComp cards ``played`` to jump, scan,
  harvest and claim (two at a claim);
* Biome Blitz: the animals and ecosystems ``bought`` (``discover``) and the face-up resources ``taken``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rules.biome_blitz.position import card_name as biome_blitz_card
from rules.biome_blitz.cards import SYMBOLS as BIOME_BLITZ_SYMBOLS

#: What a seat does with a card, in the order the tables show them.
USES = ("taken", "bought", "played")

#: One use: ``(seat, use, card id)``.
CardUse = tuple[int, str, str]


#: A game's log records (each decision's ``state.log``, one after another).
Records = Iterable[Any]


def _subastral(state: Any, records: Records) -> Iterator[CardUse]:
    uses, name = {"play": "played", "take": "taken"}, state.cards.card_name
    for kind, seat, kinds, _cloud, _extra in records:
        if kind in uses:
            for k in kinds:
                yield seat, uses[kind], name(k)


def _stellar(state: Any, records: Records) -> Iterator[CardUse]:
    uses = {"take": "taken", "second": "taken", "second_drawn": "taken", "telescope": "played",
            "notebook": "played", "final_chosen": "played"}
    name = state.cards.card_name
    for kind, seat, kinds, _extra in records:
        if kind in uses:
            for k in kinds:
                yield seat, uses[kind], name(k)


def _starligned(state: Any, records: Records) -> Iterator[CardUse]:
    ids = state.cards.ids
    for kind, seat, entries, _extra in records:
        if kind == "reveal":
            for e in entries:
                yield seat, "played", ids[e // 2]      # (an entry is a card and its side)


def _jump_gate(state: Any, records: Records) -> Iterator[CardUse]:
    comps = state.comps
    for kind, seat, kinds, extra in records:
        if kind == "gain":
            for k in kinds:
                yield seat, "taken", comps.resource_names[k]
        elif kind in ("jump", "scan", "harvest"):
            yield seat, "played", comps.navcomp_names[extra[1]]
        elif kind == "claim":
            for used in extra[1:3]:
                yield seat, "played", comps.navcomp_names[used]


def _biome_blitz(state: Any, records: Records) -> Iterator[CardUse]:
    for kind, seat, items, _extra in records:
        if kind == "discover":
            deck, card = items
            yield seat, "bought", biome_blitz_card(state.cards, deck, card)
        elif kind == "take":
            yield seat, "taken", BIOME_BLITZ_SYMBOLS[items[0]]


#: Each game's reader: the card uses in ``records``, read with a state of the game (its card set).
READERS: dict[str, Callable[[Any, Records], Iterator[CardUse]]] = {
    "subastral": _subastral, "stellar": _stellar, "starligned": _starligned, "jump_gate": _jump_gate,
    "biome_blitz": _biome_blitz,
}


def card_uses(game_id: str, state: Any) -> list[CardUse]:
    """The cards the decision that left ``state`` took, bought or played, with the seat that did."""
    return list(READERS[game_id](state, state.log))

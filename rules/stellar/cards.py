"""Stellar's celestial cards and telescope layout, read from editable data files.

Follows the materials and special-card paragraphs of the rules text (天体カード, 6/0 カード,
サテライトカード) and docs/readings.md, "Stellar": five types (planet, moon, asteroid, interstellar cloud,
black hole), each card with a number and stars; one 6/0 per type (6 in the telescope, 6 or 0 in the
notebook); satellites are wild, number 2, no stars. The per-card list and the telescope geometry are
assumed models (``"provenance": "assumed"``, docs/formats.md, "Card file").

Copies of a card (same type, number and stars) play identically, so a card's name is
``"<type>-<number>-<stars>star(s)"`` (``"planet-3-1star"``, ``"moon-6/0-0stars"``) or
``"satellite"``, and zones hold card *kinds* (small integers inside the engine, names at every
boundary). Telescope slots are named by section and position: ``"top-1"`` (the apex) to
``"bottom-4"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final, Mapping

from rules.eventtexts import joined, say
from rules.fields import read_json_file
from rules.protocol import JSON, InvalidPosition

if TYPE_CHECKING:
    from rules.stellar.rules import _Actions

FORMAT = "stellar-cards/1"
TELESCOPE_FORMAT = "stellar-telescope/1"
SATELLITE = "satellite"
SIX_ZERO = "6/0"
#: The number a face-down telescope card counts (telescope rule).
FACE_DOWN_NUMBER = 3
#: The game's length and table (遊び: 11 rounds; 設定: a row of five, two cards dealt to each player);
#: ``state.py`` takes them from here, the card-file check needs them.
ROUNDS = 11
ROW_SLOTS: Final = 5
HAND_CARDS = 2
#: The most copies one card of a card file may have (the standard set has at most 5; a bound keeps a file
#: from asking for a deck no machine can hold).
MAX_COPIES = 99
PLAYER_COUNTS = (2,)

#: A card kind: the index of a card (all its copies) in a :class:`CardSet`'s per-kind tuples.
Card = int
#: A set of telescope slots as a bit mask: bit ``i`` is the slot of index ``i``.
SlotMask = int


def deck_cards_needed(players: int) -> int:
    """The cards besides the starters a full game of ``players`` needs in its deck (52 for two).

    Setup deals two to each hand and five to the row; each of the ``ROUNDS * players`` turns then
    moves two cards out of the row and the deck (the card taken and the second card) and refills
    the row from the deck, so before the last turn's second card the deck holds what is left of
    these. That card may have to be the deck's top card (its number's slot is the one just taken,
    or it is a 6/0), so one must be left: only the last turn's refill, which nothing uses, may fall
    short. The spare starters are not counted: ``fifth_starter_to_box`` puts them back in the box.
    """
    return HAND_CARDS * players + ROW_SLOTS + 2 * (ROUNDS * players - 1) + 1


def invalid(key: str, where: str | None, /, **values: object) -> InvalidPosition:
    """A malformed file's error, with the ``file.<key>`` text of ``data/events.json`` in every language
    (``problem`` is the English one); the caller raises it."""
    problems = say("stellar", f"file.{key}", **values)
    return InvalidPosition(problems["en"], where=where, problems=problems)


@dataclass(frozen=True, eq=False)
class CardType:
    id: str
    name: str
    name_ja: str


@dataclass(frozen=True, eq=False)
class Telescope:
    """The twelve telescope slots: names, sections and which slots share an edge."""

    slot_names: tuple[str, ...]
    section_of: tuple[int, ...]
    section_names: tuple[str, ...]
    section_bonus: tuple[int, ...]
    #: neighbours[slot]: bit mask of the slots that share an edge with it.
    neighbours: tuple[SlotMask, ...]
    raw: Mapping[str, JSON]

    @cached_property
    def slot_by_name(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.slot_names)}

    def slot(self, name: JSON, *, where: str) -> int:
        try:
            return self.slot_by_name[name]
        except (KeyError, TypeError):
            raise invalid("unknown_slot", where, slot=repr(name), slots=joined(self.slot_names)) from None

    @property
    def size(self) -> int:
        return len(self.slot_names)


@dataclass(frozen=True, eq=False)
class CardSet:
    """A validated card list; kinds 0..n-1, the satellite (if any) last."""

    name: str
    provenance: str
    source: str
    types: tuple[CardType, ...]
    kind_names: tuple[str, ...]
    #: type_of[kind]: index into ``types``, or ``len(types)`` for the satellite.
    type_of: tuple[int, ...]
    #: number_of[kind]: the printed number (6 for the 6/0 card).
    number_of: tuple[int, ...]
    six_zero: tuple[bool, ...]
    stars_of: tuple[int, ...]
    starter: tuple[bool, ...]
    copies: tuple[int, ...]
    telescope: Telescope
    raw: Mapping[str, JSON]

    @cached_property
    def action_table(self) -> _Actions:
        """The engine's action objects and lists for these cards (``rules.stellar.rules._Actions``), made
        on first use."""
        from rules.stellar.rules import _Actions     # (the engine builds on this module)
        return _Actions(self)

    @cached_property
    def kind_by_name(self) -> dict[str, Card]:
        return {name: kind for kind, name in enumerate(self.kind_names)}

    @property
    def satellite_type(self) -> int:
        return len(self.types)

    def is_satellite(self, kind: Card) -> bool:
        return self.type_of[kind] == len(self.types)

    def card_name(self, kind: Card) -> str:
        return self.kind_names[kind]

    def card_label(self, kind: Card) -> dict[str, str]:
        """A card as players name it, in each language: its type's name from the card file, its number
        and its stars ("Interstellar cloud 3 ★", "星間雲 3 ★"); a satellite by that word. (``card_name``
        is the id files and actions use: ``interstellar_cloud-3-1star``.)"""
        if self.is_satellite(kind):
            word = say("stellar", "term.satellite")
            return {"en": word["en"].capitalize(), "ja": word["ja"]}
        kind_type = self.types[self.type_of[kind]]
        number = SIX_ZERO if self.six_zero[kind] else str(self.number_of[kind])
        stars = f" {'★' * self.stars_of[kind]}" if self.stars_of[kind] else ""
        return {"en": f"{kind_type.name} {number}{stars}", "ja": f"{kind_type.name_ja or kind_type.name} {number}{stars}"}

    def kind(self, name: JSON, *, where: str) -> Card:
        try:
            return self.kind_by_name[name]
        except (KeyError, TypeError):
            raise invalid("unknown_card", where, name=repr(name), example=repr(self.kind_names[0])) from None

    def type_name(self, type_index: int) -> str:
        return "Satellite" if type_index == len(self.types) else self.types[type_index].name

    def type_id(self, type_index: int) -> str:
        return SATELLITE if type_index == len(self.types) else self.types[type_index].id

    @cached_property
    def starters(self) -> tuple[Card, ...]:
        return tuple(k for k in range(len(self.kind_names)) if self.starter[k])

    def deck(self) -> tuple[Card, ...]:
        """Every celestial card that is not a starter, in card-file order (built once: every new
        game asks)."""
        return self._deck

    @cached_property
    def _deck(self) -> tuple[Card, ...]:
        return tuple(k for k, n in enumerate(self.copies) if not self.starter[k] for _ in range(n))

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_cards().fingerprint


def card_name(type_id: str, number: int, six_zero: bool, stars: int) -> str:
    label = SIX_ZERO if six_zero else str(number)
    return f"{type_id}-{label}-{stars}star{'' if stars == 1 else 's'}"


def parse_telescope(data: JSON, *, where: str = "telescope file") -> Telescope:
    if not isinstance(data, Mapping) or data.get("format") != TELESCOPE_FORMAT:
        raise invalid("telescope_format", where, format=repr(TELESCOPE_FORMAT))
    sections = data.get("sections")
    slots = data.get("slots")
    if not isinstance(sections, Mapping) or not sections or not isinstance(slots, list) or len(slots) < 2:
        raise invalid("telescope_parts", where)
    section_ids = list(sections)
    names: list[str] = []
    section_of: list[int] = []
    places: list[tuple[int, int]] = []
    for i, slot in enumerate(slots):
        at = f"{where}: slots[{i}]"
        if not isinstance(slot, Mapping) or not isinstance(slot.get("name"), str) or slot["name"] in names:
            raise invalid("slot_name", at)
        row, x = slot.get("row"), slot.get("x")
        if type(row) is not int or type(x) is not int:
            raise invalid("slot_place", at)
        if slot.get("section") not in section_ids:
            raise invalid("slot_section", at, sections=joined(section_ids))
        names.append(slot["name"])
        section_of.append(section_ids.index(slot["section"]))
        places.append((row, x))
    neighbours: list[SlotMask] = []
    for row, x in places:
        mask = 0
        for j, (other_row, other_x) in enumerate(places):
            # Shared edge: side by side in a row, or overlapping spans in consecutive rows.
            if (other_row == row and abs(other_x - x) == 2) or (abs(other_row - row) == 1 and abs(other_x - x) < 2):
                mask |= 1 << j
        neighbours.append(mask)
    bonus: list[int] = []
    for sid in section_ids:
        value = sections[sid].get("bonus", 10) if isinstance(sections[sid], Mapping) else None
        if type(value) is not int:
            raise invalid("section_bonus", f"{where}: sections.{sid}")
        bonus.append(value)
    return Telescope(tuple(names), tuple(section_of), tuple(section_ids), tuple(bonus), tuple(neighbours), data)


def parse_cards(data: JSON, *, where: str = "card file", telescope: Telescope | None = None) -> CardSet:
    """Validate a card file's JSON and build the :class:`CardSet`."""
    if not isinstance(data, Mapping):
        raise invalid("card_file", where)
    if data.get("format") != FORMAT:
        raise invalid("card_format", where, expected=repr(FORMAT), found=repr(data.get("format")))
    types_data = data.get("types")
    if not isinstance(types_data, list) or not types_data:
        raise invalid("types", where)
    types: list[CardType] = []
    names: list[str] = []
    type_of: list[int] = []
    number_of: list[int] = []
    six_zero: list[bool] = []
    stars_of: list[int] = []
    starter: list[bool] = []
    copies: list[int] = []
    for index, entry in enumerate(types_data):
        at = f"{where}: types[{index}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise invalid("type_id", at)
        type_id = entry["id"]
        if "-" in type_id or type_id == SATELLITE or any(t.id == type_id for t in types):
            raise invalid("type_id_bad", at, id=repr(type_id))
        types.append(CardType(type_id, str(entry.get("name", type_id)), str(entry.get("name_ja", ""))))
        cards = entry.get("cards")
        if not isinstance(cards, list):
            raise invalid("type_cards", at)
        for card_index, card in enumerate(cards):
            card_at = f"{at}.cards[{card_index}]"
            if not isinstance(card, Mapping):
                raise invalid("card_entry", card_at)
            number, stars, count = card.get("number"), card.get("stars"), card.get("copies", 1)
            is_six_zero = number == SIX_ZERO
            if is_six_zero:
                number = 6
            elif type(number) is not int or not 1 <= number <= 5:
                raise invalid("card_number", card_at, value=repr(number))
            if type(stars) is not int or not 0 <= stars <= 9:
                raise invalid("card_stars", card_at, value=repr(stars))
            if type(count) is not int or not 1 <= count <= MAX_COPIES:
                raise invalid("card_copies", card_at, value=repr(count))
            is_starter = card.get("starter", False)
            if type(is_starter) is not bool or (is_starter and count != 1):
                raise invalid("card_starter", card_at)
            name = card_name(type_id, number, is_six_zero, stars)
            if name in names:
                raise invalid("card_twice", card_at, card=name)
            names.append(name)
            type_of.append(index)
            number_of.append(number)
            six_zero.append(is_six_zero)
            stars_of.append(stars)
            starter.append(is_starter)
            copies.append(count)
    satellites = data.get("satellites", {"number": 2, "copies": 0})
    if not isinstance(satellites, Mapping) or type(satellites.get("copies")) is not int \
            or not 0 <= satellites["copies"] <= MAX_COPIES \
            or type(satellites.get("number")) is not int or not 1 <= satellites["number"] <= 5:
        raise invalid("satellites", f"{where}: satellites")
    if satellites["copies"]:
        names.append(SATELLITE)
        type_of.append(len(types))
        number_of.append(satellites["number"])
        six_zero.append(False)
        stars_of.append(0)
        starter.append(False)
        copies.append(satellites["copies"])
    if sum(starter) < 4:
        raise invalid("starter_count", where, count=sum(starter))
    # A position always has a move: a deck that runs out leaves a seat with no row card to take.
    deck = sum(count for count, is_starter in zip(copies, starter) if not is_starter)
    players = max(PLAYER_COUNTS)
    if deck < deck_cards_needed(players):
        raise invalid("deck_too_small", where, count=deck, needed=deck_cards_needed(players), players=players,
                      rounds=ROUNDS)
    return CardSet(
        name=str(data.get("name", "unnamed card set")), provenance=str(data.get("provenance", "unknown")),
        source=str(data.get("source", "")), types=tuple(types), kind_names=tuple(names), type_of=tuple(type_of),
        number_of=tuple(number_of), six_zero=tuple(six_zero), stars_of=tuple(stars_of), starter=tuple(starter),
        copies=tuple(copies), telescope=telescope or standard_telescope(), raw=data,
    )


def load_cards(path: str | Path) -> CardSet:
    """Read a card file from disk (``rules-explorer ... --cards FILE`` and the explorer use this)."""
    return parse_cards(read_json_file(path), where=str(path))


#: The shipped telescope layout and card set, read when first asked for.
_standard_telescope: Telescope | None = None
_standard_cards: CardSet | None = None


def standard_telescope() -> Telescope:
    """The telescope layout shipped with the game (``data/telescope.json``)."""
    global _standard_telescope
    if _standard_telescope is None:
        text = resources.files("rules.stellar").joinpath("data/telescope.json").read_text(encoding="utf-8")
        _standard_telescope = parse_telescope(json.loads(text), where="rules/stellar/data/telescope.json")
    return _standard_telescope


def standard_cards() -> CardSet:
    """The card file shipped with the game (``data/cards.json``)."""
    global _standard_cards
    if _standard_cards is None:
        text = resources.files("rules.stellar").joinpath("data/cards.json").read_text(encoding="utf-8")
        _standard_cards = parse_cards(json.loads(text), where="rules/stellar/data/cards.json")
    return _standard_cards

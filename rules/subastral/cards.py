"""Subastral's biome cards, read from an editable card file.

Follows the card anatomy and deck-building paragraphs of the rules text and docs/readings.md,
"Subastral 1": every card has a biome and a number from 1 to 6 (its cloud), and a player-count marker;
a card is in the deck when its marker is at most the player count (unmarked = 2).

Copies of the same biome and number play identically, so a card's name is ``"<biome>-<number>"``
(``"taiga-4"``) and zones hold card *kinds*; the card file says how many copies of each kind the deck
has for each player count. Inside the engine a kind is a small integer (``biome_index * 6 +
number - 1``) so that states stay small and fast; names are used at every boundary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Mapping

from rules.eventtexts import say
from rules.fields import read_json_file
from rules.protocol import JSON, InvalidPosition

if TYPE_CHECKING:
    from rules.subastral.rules import _Actions

#: A card kind: ``biome_index * 6 + number - 1`` (or :data:`END_CARD` in a deck).
Card = int

NUMBERS = (1, 2, 3, 4, 5, 6)
PLAYER_COUNTS = (2, 3, 4, 5)
FORMAT = "subastral-cards/1"
#: The game-end card's place in a deck (it is not a biome card).
END_CARD: Final[Card] = -1
END_CARD_NAME = "END"


def invalid(key: str, where: str | None, **values: object) -> InvalidPosition:
    """A malformed file's problem from the template ``file.<key>`` of ``data/events.json`` in every
    language (the English is ``problem``); ``where`` is a field path, the same in every language.
    What the file says (a card, a value) is quoted as its ``repr``. Raise what it returns."""
    problems = say("subastral", f"file.{key}", **values)
    return InvalidPosition(problems["en"], where=where, problems=problems)


@dataclass(frozen=True, eq=False)
class Biome:
    id: str
    name: str
    name_ja: str
    dots: int


@dataclass(frozen=True, eq=False)
class CardSet:
    """A validated card list. Compare card sets with ``fingerprint``; they are shared, never copied."""

    name: str
    provenance: str
    source: str
    biomes: tuple[Biome, ...]
    #: copies[players][kind]: how many copies of each kind a deck for that player count holds.
    copies: Mapping[int, tuple[int, ...]]
    raw: Mapping[str, Any]

    # -- names and kinds -----------------------------------------------------------------------
    @cached_property
    def action_table(self) -> _Actions:
        """The engine's action objects and lists for these cards (``rules.subastral.rules._Actions``), made
        on first use."""
        from rules.subastral.rules import _Actions     # (the engine builds on this module)
        return _Actions(self)

    @cached_property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(f"{b.id}-{n}" for b in self.biomes for n in NUMBERS)

    @cached_property
    def kind_by_name(self) -> dict[str, Card]:
        return {name: kind for kind, name in enumerate(self.kind_names)}

    @cached_property
    def number_of(self) -> tuple[int, ...]:
        return tuple(n for _ in self.biomes for n in NUMBERS)

    @cached_property
    def biome_of(self) -> tuple[int, ...]:
        return tuple(b for b in range(len(self.biomes)) for _ in NUMBERS)

    def card_name(self, kind: Card) -> str:
        return END_CARD_NAME if kind == END_CARD else self.kind_names[kind]

    def kind(self, name: JSON, *, where: str) -> Card:
        """The kind of a card name, or a clear error naming the place it was found."""
        if name == END_CARD_NAME:
            raise invalid("end_card_elsewhere", where)
        try:
            return self.kind_by_name[name]
        except (KeyError, TypeError):
            raise invalid("unknown_card", where, card=repr(name), example=repr(self.kind_names[0])) from None

    def biome_name(self, biome: int) -> str:
        return self.biomes[biome].name

    def card_label(self, kind: Card) -> dict[str, str]:
        """A card as players name it, in each language: its biome's name from the card file and its
        number ("Savanna 3", "サバンナ 3"); the game-end card by that name. (``card_name`` is the id
        files and actions use: ``savanna-3``.)"""
        if kind == END_CARD:
            return say("subastral", "card.end")
        biome = self.biomes[self.biome_of[kind]]
        number = self.number_of[kind]
        return {"en": f"{biome.name} {number}", "ja": f"{biome.name_ja or biome.name} {number}"}

    # -- decks ---------------------------------------------------------------------------------
    def deck(self, players: int) -> tuple[Card, ...]:
        """The unshuffled deck for a player count, in card-file order."""
        return tuple(kind for kind, count in enumerate(self.copies[players]) for _ in range(count))

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_cards().fingerprint


def parse_cards(data: JSON, *, where: str = "card file") -> CardSet:
    """Validate a card file's JSON and build the :class:`CardSet`."""
    if not isinstance(data, Mapping):
        raise invalid("card_file_object", where)
    if data.get("format") != FORMAT:
        raise invalid("card_file_format", where, expected=repr(FORMAT), found=repr(data.get("format")))
    biomes_data = data.get("biomes")
    if not isinstance(biomes_data, list) or not biomes_data:
        raise invalid("biomes_list", where)
    biomes: list[Biome] = []
    per_card: list[tuple[int, int, int]] = []  # (biome index, number, min players)
    for index, entry in enumerate(biomes_data):
        at = f"{where}: biomes[{index}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise invalid("biome_id", at)
        biome_id = entry["id"]
        if "-" in biome_id or biome_id == END_CARD_NAME:
            raise invalid("biome_id_form", at, biome=repr(biome_id), end=repr(END_CARD_NAME))
        if any(b.id == biome_id for b in biomes):
            raise invalid("biome_twice", at, biome=repr(biome_id))
        dots = entry.get("dots", 0)
        if type(dots) is not int or not 0 <= dots <= 99:
            raise invalid("biome_dots", at)
        biomes.append(Biome(biome_id, str(entry.get("name", biome_id)), str(entry.get("name_ja", "")), dots))
        cards = entry.get("cards")
        if not isinstance(cards, list):
            raise invalid("biome_cards", at)
        for card_index, card in enumerate(cards):
            card_at = f"{at}.cards[{card_index}]"
            if not isinstance(card, Mapping):
                raise invalid("card_object", card_at)
            number, min_players = card.get("number"), card.get("min_players", 2)
            if type(number) is not int or number not in NUMBERS:
                raise invalid("card_number", card_at, number=repr(number))
            if type(min_players) is not int or min_players not in PLAYER_COUNTS:
                raise invalid("card_min_players", card_at, min_players=repr(min_players))
            per_card.append((index, number, min_players))
    copies: dict[int, tuple[int, ...]] = {}
    for players in PLAYER_COUNTS:
        counts = [0] * (len(biomes) * len(NUMBERS))
        for biome, number, min_players in per_card:
            if min_players <= players:
                counts[biome * len(NUMBERS) + number - 1] += 1
        copies[players] = tuple(counts)
    return CardSet(
        name=str(data.get("name", "unnamed card set")),
        provenance=str(data.get("provenance", "unknown")),
        source=str(data.get("source", "")),
        biomes=tuple(biomes),
        copies=copies,
        raw=data,
    )


def load_cards(path: str | Path) -> CardSet:
    """Read a card file from disk (``rules-explorer ... --cards FILE`` and the explorer use this)."""
    return parse_cards(read_json_file(path), where=str(path))


_standard: CardSet | None = None


def standard_cards() -> CardSet:
    """The card file shipped with the game (``data/cards.json``)."""
    global _standard
    if _standard is None:
        text = resources.files("rules.subastral").joinpath("data/cards.json").read_text(encoding="utf-8")
        _standard = parse_cards(json.loads(text), where="rules/subastral/data/cards.json")
    return _standard

"""Biome Blitz's cards, and the vocabulary animal abilities are written in (``data/cards.json``).

Three decks (the rules text, コンポーネント): resources (leaf, water, meat and wild), animals
and ecosystems. An animal has stars (points), a discover cost, a battle cost, power and defence, an
ecosystem symbol and abilities. The resource counts, the ecosystems and most of the roster are an
assumed placeholder model (docs/formats.md, "Card file") that designers are expected to edit, so the
abilities are data: each is a ``trigger`` (the rules text's ability icons) and an ``effect`` from the
vocabulary below, with the effect's parameters. A file using an unknown trigger, effect or
parameter is refused with a message that says which and where.

Names are printed in each language the interface speaks: an animal's and an ecosystem's ``name``
with ``name_ja``, an ability's ``name`` and ``text`` with ``name_ja`` and ``text_ja``
(a file without them shows the English on Japanese pages too). The ids (``"lion"``, ``"SAV"``) are
what files and actions use; players read the names (``card_label``, ``Ability.label``).

Vocabulary (``ABILITY_EFFECTS``: effect -> the triggers it may have, its parameters):

- ``draw`` (forage, discover, defeated, start_of_turn): draw ``count`` resource cards from the deck.
  ``on: "another_animal"`` (discover: only when the owner discovers another animal),
  ``whose: "any"`` (defeated: when any animal is defeated, not only this one), ``if_took: symbol``
  (forage: only when the forage took a card of that symbol).
- ``take_faceup`` (start_of_turn): take ``count`` face-up resource cards of ``symbol``, if shown.
- ``take_all_faceup`` (forage): an alternative forage — take every face-up card of ``symbol``, or
  with ``all_different: true`` all three face-up cards when they are three different symbols.
- ``peek`` (peek): at the start of the owner's turn, look at the top card of ``deck``
  (``resource``, ``animal``, ``ecosystem``, or ``choice``: the owner picks one).
- ``discount`` (discover): discoveries of ``target`` (``animal``, ``ecosystem`` or ``any``) cost
  ``amount`` fewer cards (of ``symbol`` if given, else of any symbol the cost has).
- ``substitute`` (discover): a discover cost of ``pay`` may be paid with ``using`` cards.
- ``explore_cost`` (explore): Explore costs ``count`` resource cards of any symbols.
- ``power`` (compete, dice): +``amount`` power when this animal attacks; ``vs_stars_at_least``
  (only against defenders worth that many stars), ``per_family`` (times the number of other animals
  of that family in the team), ``on_roll`` (only when the attack die shows that number).
- ``defence`` (defend): +``amount`` defence when this animal defends; ``vs_family`` (only against
  attackers of that family).
- ``win_on_roll`` (defend): when this animal defends and the attacker's die shows one of ``rolls``,
  the defender wins and the turn ends.
- ``reroll`` (dice): the owner may reroll this animal's die once per compete; ``side``: ``attack``,
  ``defend`` or ``any``; with ``on`` (a list of results) the reroll happens by itself on those results.
- ``immune`` (prevent): this animal cannot be chosen as defender — by attackers of power at most
  ``max_attacker_power``, or (``while_other_animals: true``) while its team has another animal.
- ``cancel_compete`` (prevent): when this animal is chosen as defender, its owner may discard
  ``count`` cards of ``symbol`` (wild cards do not count) to cancel the compete.
- ``steal`` (compete): after winning a compete, take ``count`` cards of ``symbol`` from the
  defender's owner (as many as they have; wild cards do not count).
- ``destroy_attacker`` (defeated): when this animal is defeated, the attacking animal is discarded too.
- ``extra_compete`` (compete): after winning, the owner may compete again this turn with this animal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, Mapping, overload

from rules.eventtexts import Texts, joined, say
from rules.fields import read_json_file
from rules.protocol import JSON, InvalidPosition

if TYPE_CHECKING:
    from rules.biome_blitz.fast.caches import Caches
    from rules.biome_blitz.fast.quick import Flags

FORMAT = "biome_blitz-cards/1"
# The symbols and decks below are ``Final``, defined here once and imported by every module of the
# rules: compiled code reads a ``Final`` number as the number it is, and any other module-level name
# by name at every use (with one copy per module, ``RESOURCE, ANIMAL, ECOSYSTEM = range(3)``, that
# was 6% of a compiled random playout's machine instructions; issue #23).
#: (A tuple of any length to the type checker: compiled code would keep a fixed-length one unboxed, and
#: build it again as a new tuple for every ``SYMBOLS.index``.)
SYMBOLS: Final[tuple[str, ...]] = ("leaf", "water", "meat", "wild")
LEAF: Final = 0
WATER: Final = 1
MEAT: Final = 2
WILD: Final = 3
PLAIN: Final = (LEAF, WATER, MEAT)

#: A resource card: its symbol, an index of ``SYMBOLS`` (``LEAF``, ``WATER``, ``MEAT``, ``WILD``).
Symbol = int
#: An animal card: its index in ``CardSet.animals`` (each physical card its own, copies too).
AnimalCard = int
#: An ecosystem card: its kind, an index in ``CardSet.ecosystems`` (the copies of a kind are alike).
EcosystemKind = int
#: A card of one deck: a ``Symbol``, an ``AnimalCard`` or an ``EcosystemKind``, as its deck says.
Card = int
#: A deck: 0 resource, 1 animal, 2 ecosystem (``DECKS``).
Deck = int
RESOURCE: Final = 0
ANIMAL: Final = 1
ECOSYSTEM: Final = 2
#: A cost: how many leaf, water and meat cards.
Cost = tuple[int, int, int]
#: An ability's parameter, of the kind the vocabulary gives it (``ABILITY_EFFECTS``): a whole number
#: or a symbol, die results, a name, or a yes/no.
AbilityParam = int | bool | str | tuple[int, ...]
TRIGGERS = ("forage", "discover", "compete", "defend", "explore", "dice", "peek", "prevent", "defeated", "start_of_turn")
DECKS = ("resource", "animal", "ecosystem")
GAME = "biome_blitz"

#: effect -> (allowed triggers, {parameter: kind}); kinds: "count" (whole number >= 1), "symbol"
#: (leaf/water/meat), "symbols" (list of 1-6), "bool", "text", or a tuple of allowed values.
ABILITY_EFFECTS: dict[str, tuple[tuple[str, ...], dict[str, str | tuple[str, ...]]]] = {
    "draw": (("forage", "discover", "defeated", "start_of_turn"),
             {"count": "count", "on": ("another_animal",), "whose": ("any",), "if_took": "symbol"}),
    "take_faceup": (("start_of_turn",), {"symbol": "symbol", "count": "count"}),
    "take_all_faceup": (("forage",), {"symbol": "symbol", "all_different": "bool"}),
    "peek": (("peek",), {"deck": DECKS + ("choice",)}),
    "discount": (("discover",), {"amount": "count", "symbol": "symbol", "target": ("animal", "ecosystem", "any")}),
    "substitute": (("discover",), {"pay": "symbol", "using": "symbol"}),
    "explore_cost": (("explore",), {"count": "count"}),
    "power": (("compete", "dice"), {"amount": "count", "vs_stars_at_least": "count", "per_family": "text", "on_roll": "roll"}),
    "defence": (("defend",), {"amount": "count", "vs_family": "text"}),
    "win_on_roll": (("defend",), {"rolls": "rolls"}),
    "reroll": (("dice",), {"side": ("attack", "defend", "any"), "on": "rolls"}),
    "immune": (("prevent",), {"max_attacker_power": "whole", "while_other_animals": "bool"}),
    "cancel_compete": (("prevent",), {"symbol": "symbol", "count": "count"}),
    "steal": (("compete",), {"symbol": "symbol", "count": "count"}),
    "destroy_attacker": (("defeated",), {}),
    "extra_compete": (("compete",), {}),
}
#: Parameters each effect must have.
REQUIRED = {"draw": ("count",), "take_faceup": ("symbol", "count"), "peek": ("deck",), "discount": ("amount", "target"),
            "substitute": ("pay", "using"), "explore_cost": ("count",), "power": ("amount",), "defence": ("amount",),
            "win_on_roll": ("rolls",), "reroll": ("side",), "cancel_compete": ("symbol", "count"),
            "steal": ("symbol", "count")}
ABILITY_KEYS = {"name", "name_ja", "trigger", "effect", "text", "text_ja", "provenance"}
ANIMAL_KEYS = {"id", "name", "name_ja", "family", "stars", "cost", "battle_cost", "power", "defence", "ecosystem",
               "abilities", "copies", "provenance"}


def _bad(key: str, where: str | None, /, **values: Any) -> InvalidPosition:
    """What is wrong with a file, in every language: the template ``file.<key>`` of ``data/events.json``,
    its placeholders filled with ``values`` (as ``say``). Raise it: ``raise _bad(...)``."""
    problems = say(GAME, f"file.{key}", **values)
    return InvalidPosition(problems["en"], where=where, problems=problems)


def printed(english: str, japanese: str) -> dict[str, str]:
    """A name or text in each language: the card file's ``*_ja`` where it has one, else the English."""
    return {"en": english, "ja": japanese or english}


@dataclass(frozen=True)
class Ability:
    name: str
    trigger: str
    effect: str
    params: Mapping[str, AbilityParam]
    text: str
    name_ja: str = ""
    text_ja: str = ""

    # The parameter ``key`` of the kind the vocabulary gives it (``ABILITY_EFFECTS``), None when the card
    # leaves it out. The parameters every effect that has them requires (``REQUIRED``) are never None.
    @overload
    def get(self, key: Literal["count", "amount", "pay", "using"]) -> int: ...
    @overload
    def get(self, key: Literal["symbol", "if_took", "vs_stars_at_least", "on_roll", "max_attacker_power"]) -> int | None: ...
    @overload
    def get(self, key: Literal["rolls"]) -> tuple[int, ...]: ...
    @overload
    def get(self, key: Literal["deck", "target", "side"]) -> str: ...
    @overload
    def get(self, key: Literal["whose", "per_family", "vs_family"]) -> str | None: ...
    @overload
    def get(self, key: Literal["all_different", "while_other_animals"]) -> bool | None: ...
    @overload
    def get(self, key: Literal["on"]) -> str | tuple[int, ...] | None: ...
    @overload
    def get(self, key: str, default: AbilityParam | None = None) -> AbilityParam | None: ...

    def get(self, key: str, default: AbilityParam | None = None) -> AbilityParam | None:
        return self.params.get(key, default)

    @property
    def label(self) -> dict[str, str]:
        """The ability's name in each language ("Quick Kick", "素早い蹴り")."""
        return printed(self.name, self.name_ja)

    @property
    def texts(self) -> dict[str, str]:
        """What the ability does, as the card prints it, in each language."""
        return printed(self.text, self.text_ja)


@dataclass(frozen=True, eq=False)
class Animal:
    id: str
    name: str
    family: str
    stars: int
    cost: Cost
    battle_cost: Cost
    power: int
    defence: int
    ecosystem: str
    abilities: tuple[Ability, ...]
    provenance: str
    name_ja: str = ""

    def with_effect(self, effect: str) -> tuple[Ability, ...]:
        return self._by_effect.get(effect, ())

    @cached_property
    def _by_effect(self) -> dict[str, tuple[Ability, ...]]:
        """The abilities per effect, in card order (asked for on every compete and start of turn)."""
        return {effect: tuple(a for a in self.abilities if a.effect == effect)
                for effect in {a.effect for a in self.abilities}}

    def ability(self, name: str) -> Ability | None:
        """The ability called ``name`` (the English name actions and logs give), if the card has one."""
        return next((a for a in self.abilities if a.name == name), None)


@dataclass(frozen=True, eq=False)
class Ecosystem:
    id: str
    name: str
    stars: int
    cost: Cost
    power: int
    defence: int
    name_ja: str = ""

    @property
    def label(self) -> dict[str, str]:
        """The ecosystem's name in each language ("Savanna", "サバンナ"); its id (``SAV``) is the symbol."""
        return printed(self.name, self.name_ja)


@dataclass(frozen=True, eq=False)
class CardSet:
    name: str
    provenance: str
    source: str
    #: Copies per symbol (leaf, water, meat, wild).
    resource_copies: tuple[int, int, int, int]
    #: Animal cards (unique, one per entry with its copies expanded: ids "<id>" or "<id>#2").
    animals: tuple[Animal, ...]
    animal_ids: tuple[str, ...]
    ecosystems: tuple[Ecosystem, ...]
    #: Ecosystem cards: kinds index ``ecosystems``; copies per kind.
    ecosystem_copies: tuple[int, ...]
    raw: Mapping[str, Any]

    @cached_property
    def animal_by_id(self) -> dict[str, int]:
        return {card_id: i for i, card_id in enumerate(self.animal_ids)}

    @cached_property
    def ecosystem_by_id(self) -> dict[str, int]:
        return {e.id: i for i, e in enumerate(self.ecosystems)}

    def card_label(self, deck: Deck, card: Card) -> Texts:
        """A card of deck ``deck`` (resource, animal, ecosystem) as players name it, in each language: a
        resource by its symbol ("leaf", "葉"), an animal or an ecosystem by its printed name ("Saltwater
        crocodile", "イリエワニ"; a second copy of an animal "African lion #2"). (``position.card_name``
        is the id files and actions use: ``crocodile``, ``SAV``.)"""
        if deck == 0:
            return say(GAME, f"term.{SYMBOLS[card]}")
        if deck == 2:
            return self.ecosystems[card].label
        animal = self.animals[card]
        copy = self.animal_ids[card].partition("#")[2]
        suffix = f" #{copy}" if copy else ""
        return {lang: name + suffix for lang, name in printed(animal.name, animal.name_ja).items()}

    def animal_label(self, card_id: str) -> Texts | str:
        """The animal card ``card_id`` (an id as actions spell it) by its printed name; an id this card set
        does not know as it is."""
        index = self.animal_by_id.get(card_id)
        return card_id if index is None else self.card_label(1, index)

    def ecosystem_label(self, ecosystem_id: str) -> Texts | str:
        """The ecosystem ``ecosystem_id`` (``SAV``) by its printed name; an id this card set does not know as it is."""
        index = self.ecosystem_by_id.get(ecosystem_id)
        return ecosystem_id if index is None else self.ecosystems[index].label

    def animal(self, name: JSON, *, where: str) -> AnimalCard:
        try:
            return self.animal_by_id[name]
        except (KeyError, TypeError):
            raise _bad("unknown_animal", where, name=repr(name), animals=joined(self.animal_ids[:6])) from None

    def ecosystem(self, name: JSON, *, where: str) -> EcosystemKind:
        try:
            return self.ecosystem_by_id[name]
        except (KeyError, TypeError):
            raise _bad("unknown_ecosystem", where, name=repr(name), ecosystems=joined(self.ecosystem_by_id)) from None

    @cached_property
    def piles(self) -> tuple[tuple[Symbol, ...], tuple[AnimalCard, ...], tuple[EcosystemKind, ...]]:
        """The three decks before the shuffle: resources and ecosystems by their copies, animals one each."""
        return (tuple(s for s in range(4) for _ in range(self.resource_copies[s])), tuple(range(len(self.animals))),
                tuple(k for k, n in enumerate(self.ecosystem_copies) for _ in range(n)))

    @cached_property
    def speed_caches(self) -> Caches:
        """The speed code's remembered parts of action lists for these cards (``fast.caches.Caches``)."""
        from rules.biome_blitz.fast.caches import Caches     # (the speed code builds on this module)
        return Caches(self)

    @cached_property
    def speed_flags(self) -> Flags:
        """The speed code's view of each animal card's abilities (``fast.quick.Flags``)."""
        from rules.biome_blitz.fast.quick import flags_of     # (the speed code builds on this module)
        return flags_of(self)

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_cards().fingerprint


def symbol(value: JSON, where: str, *, wild: bool = False) -> Symbol:
    allowed = SYMBOLS if wild else SYMBOLS[:3]
    if value not in allowed:
        raise _bad("symbol", where, symbols=joined(allowed), value=repr(value))
    return SYMBOLS.index(value)


def _cost(data: JSON, where: str) -> Cost:
    if not isinstance(data, Mapping):
        raise _bad("cost", where)
    out = [0, 0, 0]
    for key, count in data.items():
        s = symbol(key, f"{where}.{key}")
        if type(count) is not int or not 0 <= count <= 20:
            raise _bad("cost_count", f"{where}.{key}", count=repr(count))
        out[s] = count
    return out[0], out[1], out[2]


def _text(entry: Mapping[str, JSON], key: str, where: str) -> str:
    """The optional text ``key`` of a card file's entry ("" when absent); anything but a non-empty text is refused."""
    value = entry.get(key, "")
    if not isinstance(value, str) or (key in entry and not value):
        raise _bad("text", f"{where}.{key}", value=repr(value))
    return value


def _whole(value: JSON, where: str, low: int = 0, high: int = 99) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad("whole", where, low=low, high=high, value=repr(value))
    return value


def parse_ability(data: JSON, where: str) -> Ability:
    """One ability checked against the vocabulary."""
    if not isinstance(data, Mapping):
        raise _bad("ability", where)
    trigger, effect = data.get("trigger"), data.get("effect")
    if trigger not in TRIGGERS:
        raise _bad("unknown_trigger", f"{where}.trigger", trigger=repr(trigger), triggers=joined(TRIGGERS))
    if effect not in ABILITY_EFFECTS:
        raise _bad("unknown_effect", f"{where}.effect", effect=repr(effect), effects=joined(ABILITY_EFFECTS))
    triggers, kinds = ABILITY_EFFECTS[effect]
    if trigger not in triggers:
        raise _bad("effect_trigger", f"{where}.trigger", effect=repr(effect), triggers=joined(triggers), trigger=repr(trigger))
    if not isinstance(data.get("name"), str) or not data["name"]:
        raise _bad("ability_name", f"{where}.name")
    params: dict[str, AbilityParam] = {}
    for key, value in data.items():
        if key in ABILITY_KEYS:
            continue
        if key not in kinds:
            raise _bad("no_parameter", f"{where}.{key}", effect=repr(effect), param=repr(key),
                       known=joined(kinds, empty={"en": "none", "ja": "なし"}))
        kind, at = kinds[key], f"{where}.{key}"
        if kind == "count":
            params[key] = _whole(value, at, 1)
        elif kind == "whole":
            params[key] = _whole(value, at, 0)
        elif kind == "roll":
            params[key] = _whole(value, at, 1, 6)
        elif kind == "symbol":
            params[key] = symbol(value, at)
        elif kind == "rolls":
            if not isinstance(value, list) or not value or len(set(value)) != len(value):
                raise _bad("rolls", at)
            params[key] = tuple(_whole(v, f"{at}[{i}]", 1, 6) for i, v in enumerate(value))
        elif kind == "bool":
            if type(value) is not bool:
                raise _bad("bool", at, value=repr(value))
            params[key] = value
        elif kind == "text":
            if not isinstance(value, str) or not value:
                raise _bad("text", at, value=repr(value))
            params[key] = value
        else:
            if value not in kind:
                raise _bad("one_of", at, choices=joined(kind), value=repr(value))
            params[key] = value
    for key in REQUIRED.get(effect, ()):
        if key not in params:
            raise _bad("needs_parameter", where, effect=repr(effect), param=repr(key))
    if effect == "take_all_faceup" and ("symbol" in params) == bool(params.get("all_different")):
        raise _bad("take_all_faceup", where)
    if effect == "immune" and not params:
        raise _bad("immune", where)
    return Ability(data["name"], trigger, effect, params, str(data.get("text", "")),
                   name_ja=_text(data, "name_ja", where), text_ja=_text(data, "text_ja", where))


def parse_cards(data: JSON, *, where: str = "card file") -> CardSet:
    """Validate a card file's JSON and build the :class:`CardSet`."""
    if not isinstance(data, Mapping):
        raise _bad("card_file", where)
    if data.get("format") != FORMAT:
        raise _bad("format", where, expected=repr(FORMAT), value=repr(data.get('format')))
    for key in ("resources", "ecosystems", "animals"):
        if not isinstance(data.get(key), list) or not data[key]:
            raise _bad("non_empty_list", where, field=repr(key))
    copies = [0, 0, 0, 0]
    for i, entry in enumerate(data["resources"]):
        at = f"{where}: resources[{i}]"
        if not isinstance(entry, Mapping):
            raise _bad("resource_entry", at)
        s = symbol(entry.get("symbol"), f"{at}.symbol", wild=True)
        copies[s] += _whole(entry.get("copies"), f"{at}.copies", 1, 200)
    ecosystems: list[Ecosystem] = []
    eco_copies: list[int] = []
    for i, entry in enumerate(data["ecosystems"]):
        at = f"{where}: ecosystems[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise _bad("ecosystem_id", at)
        if any(e.id == entry["id"] for e in ecosystems):
            raise _bad("ecosystem_twice", at, id=repr(entry['id']))
        ecosystems.append(Ecosystem(entry["id"], str(entry.get("name", entry["id"])), _whole(entry.get("stars"), f"{at}.stars"),
                                    _cost(entry.get("cost"), f"{at}.cost"), _whole(entry.get("power", 0), f"{at}.power"),
                                    _whole(entry.get("defence", 0), f"{at}.defence"), name_ja=_text(entry, "name_ja", at)))
        eco_copies.append(_whole(entry.get("copies", 1), f"{at}.copies", 1, 20))
    eco_ids = {e.id for e in ecosystems}
    animals: list[Animal] = []
    ids: list[str] = []
    for i, entry in enumerate(data["animals"]):
        at = f"{where}: animals[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"] or "#" in entry["id"]:
            raise _bad("animal_id", at)
        if not isinstance(entry.get("ecosystem"), str) or entry["ecosystem"] not in eco_ids:
            raise _bad("animal_ecosystem", f"{at}.ecosystem", ecosystems=joined(sorted(eco_ids)),
                       value=repr(entry.get('ecosystem')))
        unknown = set(entry) - ANIMAL_KEYS
        if unknown:
            raise _bad("animal_fields", at, unknown=joined(sorted(map(str, unknown))), fields=joined(sorted(ANIMAL_KEYS)))
        abilities = entry.get("abilities", [])
        if not isinstance(abilities, list):
            raise _bad("abilities_list", f"{at}.abilities")
        animal = Animal(
            id=entry["id"], name=str(entry.get("name", entry["id"])), family=str(entry.get("family", "")),
            stars=_whole(entry.get("stars"), f"{at}.stars"), cost=_cost(entry.get("cost"), f"{at}.cost"),
            battle_cost=_cost(entry.get("battle_cost", {}), f"{at}.battle_cost"),
            power=_whole(entry.get("power"), f"{at}.power"), defence=_whole(entry.get("defence"), f"{at}.defence"),
            ecosystem=entry["ecosystem"],
            abilities=tuple(parse_ability(a, f"{at}.abilities[{j}]") for j, a in enumerate(abilities)),
            provenance=str(entry.get("provenance", data.get("provenance", "unknown"))), name_ja=_text(entry, "name_ja", at))
        count = _whole(entry.get("copies", 1), f"{at}.copies", 1, 20)
        for copy in range(count):
            card_id = entry["id"] if copy == 0 else f"{entry['id']}#{copy + 1}"
            if card_id in ids:
                raise _bad("animal_twice", at, id=repr(entry['id']))
            ids.append(card_id)
            animals.append(animal)
    if sum(copies) < 20:
        raise _bad("resource_deck", where, count=sum(copies))
    return CardSet(name=str(data.get("name", "unnamed card set")), provenance=str(data.get("provenance", "unknown")),
                   source=str(data.get("source", "")), resource_copies=(copies[0], copies[1], copies[2], copies[3]),
                   animals=tuple(animals),
                   animal_ids=tuple(ids), ecosystems=tuple(ecosystems), ecosystem_copies=tuple(eco_copies), raw=data)


def load_cards(path: str | Path) -> CardSet:
    return parse_cards(read_json_file(path), where=str(path))


_standard: dict[str, CardSet] = {}


def standard_cards() -> CardSet:
    if "cards" not in _standard:
        text = resources.files("rules.biome_blitz").joinpath("data/cards.json").read_text(encoding="utf-8")
        _standard["cards"] = parse_cards(json.loads(text), where="rules/biome_blitz/data/cards.json")
    return _standard["cards"]

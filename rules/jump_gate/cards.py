"""Jump Gate's components, read from an editable data file (``data/components.json``).

The rules text names the parts: planet cards with three codes (a blue square
for Jump, a green circle for Scan, a yellow triangle for Land & Claim), NavComp cards carrying codes
(``~`` is wild), resource cards of eight types, some with the black-hole icon, and ten markers per
player. The totals are sourced; which planet has which codes, the NavComp deck and the resource mix
are an assumed model (docs/formats.md, "Card file"), so the file says ``"provenance": "assumed"`` and a
designer can load another with ``--cards``.

Cards that play identically share a *kind* (a small integer inside the engine, a name at every
boundary):
- a resource is named by its type, with ``-bh`` when it carries the black-hole icon (``"sand"``,
  ``"sand-bh"``);
- a NavComp card by its codes, in the order jump, scan, land: ``"J1-S3"``, ``"S6-L5"``, ``"J~-L1"``.
Planets are named by their id (``"PA"``).

Players read names, in each language the interface speaks: a planet's and a resource type's ``name``
with ``name_ja`` (a file without ``name_ja`` shows the English on Japanese pages too):
``planet_label``, ``resource_label``; a NavComp card by its codes (``navcomp_label``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, Mapping

from rules.eventtexts import joined, say
from rules.fields import read_json_file
from rules.protocol import JSON, InvalidPosition

if TYPE_CHECKING:
    from rules.jump_gate.rules import _Actions

FORMAT = "jump_gate-components/1"
WILD: Final = 0  # the code ``~`` inside the engine: it matches every number
SHAPES = ("jump", "scan", "land")
SHAPE_LETTER = {"jump": "J", "scan": "S", "land": "L"}
#: How each resource type scores (the scoring section of the rules text).
Scoring = Literal["fame", "sand", "water", "energel", "gem"]
SCORING_RULES: tuple[Scoring, ...] = ("fame", "sand", "water", "energel", "gem")
NO_CODE: Final = -1

#: A resource card's kind: an index of ``Components.resource_names`` (cards alike share one).
ResourceKind = int
#: A NavComp card's kind: an index of ``Components.navcomp_names``.
NavCompKind = int
#: A planet: an index of ``Components.planets`` (where it lies in a game's ring is its ring position).
PlanetIndex = int
#: A NavComp card's codes in the order jump, scan, land (``NO_CODE`` for none, ``WILD`` for ``~``).
Codes = tuple[int, int, int]


def bad_file(key: str, where: str | None, /, **values: object) -> InvalidPosition:
    """What is wrong with a file, from the template ``file.<key>`` of ``data/events.json`` in every
    language (the English is ``problem``); raise it. Field names, JSON keys, card ids and what the
    file says are quoted as they are written (a ``repr`` where the English quotes one)."""
    problems = say("jump_gate", f"file.{key}", **values)
    return InvalidPosition(problems["en"], where=where, problems=problems)


def printed(english: str, japanese: str) -> dict[str, str]:
    """A name in each language: the file's ``name_ja`` where it has one, else the English."""
    return {"en": english, "ja": japanese or english}


@dataclass(frozen=True, eq=False)
class ResourceType:
    id: str
    name: str
    name_ja: str
    scoring: Scoring

    @property
    def label(self) -> dict[str, str]:
        """The type's name in each language ("Gem (white)", "ジェム（白）")."""
        return printed(self.name, self.name_ja)


@dataclass(frozen=True, eq=False)
class Planet:
    id: str
    name: str
    #: Codes per shape (jump, scan, land): numbers 1 and up.
    jump: int
    scan: int
    land: int
    name_ja: str = ""

    @property
    def label(self) -> dict[str, str]:
        """The planet's name in each language ("Aurel", "オーレル"); its id (``PA``) is what files use."""
        return printed(self.name, self.name_ja)


@dataclass(frozen=True, eq=False)
class Components:
    """A validated component file. Resource kinds 0..r-1, NavComp kinds 0..n-1 (two name spaces)."""

    name: str
    provenance: str
    source: str
    types: tuple[ResourceType, ...]
    #: Resource kinds: type index, black-hole icon, copies, name.
    resource_type: tuple[int, ...]
    black_hole: tuple[bool, ...]
    resource_copies: tuple[int, ...]
    resource_names: tuple[str, ...]
    planets: tuple[Planet, ...]
    #: NavComp kinds: code per shape (NO_CODE when the card has none, WILD for ``~``), copies, name.
    codes: tuple[Codes, ...]
    navcomp_copies: tuple[int, ...]
    navcomp_names: tuple[str, ...]
    raw: Mapping[str, Any]

    @cached_property
    def action_table(self) -> _Actions:
        """The engine's action objects and lists for these cards (``rules.jump_gate.rules._Actions``), made
        on first use."""
        from rules.jump_gate.rules import _Actions     # (the engine builds on this module)
        return _Actions(self)

    @cached_property
    def resource_by_name(self) -> dict[str, ResourceKind]:
        return {name: kind for kind, name in enumerate(self.resource_names)}

    @cached_property
    def navcomp_by_name(self) -> dict[str, NavCompKind]:
        return {name: kind for kind, name in enumerate(self.navcomp_names)}

    @cached_property
    def planet_by_id(self) -> dict[str, PlanetIndex]:
        return {planet.id: index for index, planet in enumerate(self.planets)}

    def resource(self, name: JSON, *, where: str) -> ResourceKind:
        try:
            return self.resource_by_name[name]
        except (KeyError, TypeError):
            raise bad_file("unknown_resource", where, name=repr(name), names=joined(self.resource_names)) from None

    def navcomp(self, name: JSON, *, where: str) -> NavCompKind:
        try:
            return self.navcomp_by_name[name]
        except (KeyError, TypeError):
            raise bad_file("unknown_navcomp", where, name=repr(name), example=repr(self.navcomp_names[0])) from None

    def planet(self, name: JSON, *, where: str) -> PlanetIndex:
        try:
            return self.planet_by_id[name]
        except (KeyError, TypeError):
            raise bad_file("unknown_planet", where, name=repr(name), planets=joined(p.id for p in self.planets)) from None

    def planet_label(self, planet: PlanetIndex) -> dict[str, str]:
        """Planet ``planet`` (an index of ``planets``) as players name it, in each language."""
        return self.planets[planet].label

    def resource_label(self, kind: ResourceKind) -> dict[str, str]:
        """A resource card as players name it, in each language: its type's name, noting the black-hole
        icon ("Gem (white) with the black hole icon", "ジェム（白）（ブラックホール付き）"). (``resource_names``
        are the ids files use: ``gem_white-bh``.)"""
        names = self.types[self.resource_type[kind]].label
        if not self.black_hole[kind]:
            return names
        return {lang: say("jump_gate", "term.black_hole_resource", kind=name)[lang] for lang, name in names.items()}

    def navcomp_label(self, kind: NavCompKind) -> dict[str, str]:
        """A NavComp card as players read it, in each language: its codes in the order jump, scan, land
        ("Jump 1, Scan 3", "ジャンプ1、スキャン3"; ``~`` is wild). (``navcomp_names`` are the ids files use:
        ``J1-S3``.)"""
        return joined(say("jump_gate", f"editor.code.{shape}",
                          code={"en": code_text(code), "ja": "～" if code == WILD else str(code)})
                      for shape, code in zip(SHAPES, self.codes[kind]) if code != NO_CODE)

    def planet_code(self, planet: PlanetIndex, shape: int) -> int:
        p = self.planets[planet]
        return (p.jump, p.scan, p.land)[shape]

    def matches(self, card: NavCompKind, shape: int, code: int) -> bool:
        """Does NavComp ``card`` carry ``code`` (or ``~``) in ``shape`` (0 jump, 1 scan, 2 land)?"""
        own = self.codes[card][shape]
        return own == WILD or (own == code and own != NO_CODE)

    def resources(self) -> tuple[ResourceKind, ...]:
        """Every resource card, in file order."""
        return tuple(k for k, n in enumerate(self.resource_copies) for _ in range(n))

    def navcomp_deck(self) -> tuple[NavCompKind, ...]:
        return tuple(k for k, n in enumerate(self.navcomp_copies) for _ in range(n))

    def scoring_of(self, kind: ResourceKind) -> Scoring:
        return self.types[self.resource_type[kind]].scoring

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_components().fingerprint


def code_text(code: int) -> str:
    return "~" if code == WILD else str(code)


def navcomp_name(codes: Codes) -> str:
    return "-".join(f"{SHAPE_LETTER[shape]}{code_text(code)}" for shape, code in zip(SHAPES, codes) if code != NO_CODE)


def _code(value: JSON, where: str, *, wild: bool) -> int:
    if wild and value == "~":
        return WILD
    if type(value) is not int or not 1 <= value <= 99:
        allowed = {"en": "a whole number from 1 to 99" + (" or '~' (wild)" if wild else ""),
                   "ja": "1から99までの整数" + ("か'~'（ワイルド）" if wild else "")}
        raise bad_file("code", where, allowed=allowed, value=repr(value))
    return value


def _text(entry: Mapping[str, JSON], key: str, where: str) -> str:
    """The optional text ``key`` of a file's entry ("" when absent); anything but a non-empty text is refused."""
    if key not in entry:
        return ""
    value = entry[key]
    if not isinstance(value, str) or not value:
        raise bad_file("text", f"{where}.{key}", value=repr(value))
    return value


#: The most copies one card of a component file may have (the standard set has at most 9; a bound keeps a
#: file from asking for a deck no machine can hold).
MAX_COPIES = 99


def _copies(entry: Mapping[str, JSON], where: str) -> int:
    count = entry.get("copies", 1)
    if type(count) is not int or not 1 <= count <= MAX_COPIES:
        raise bad_file("copies", where, count=repr(count))
    return count


def parse_components(data: JSON, *, where: str = "component file") -> Components:
    """Validate a component file's JSON and build the :class:`Components`."""
    if not isinstance(data, Mapping):
        raise bad_file("components_object", where)
    if data.get("format") != FORMAT:
        raise bad_file("format", where, format=repr(FORMAT), value=repr(data.get('format')))
    for key in ("resource_types", "resources", "planets", "navcomp"):
        if not isinstance(data.get(key), list) or not data[key]:
            raise bad_file("non_empty_list", where, field=repr(key))

    types: list[ResourceType] = []
    type_index: dict[str, int] = {}
    for i, entry in enumerate(data["resource_types"]):
        at = f"{where}: resource_types[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"].isidentifier():
            raise bad_file("type_id", at)
        if entry["id"] in type_index:
            raise bad_file("type_twice", at, type=repr(entry['id']))
        if entry.get("scoring") not in SCORING_RULES:
            raise bad_file("scoring", at, rules=joined(SCORING_RULES), value=repr(entry.get('scoring')))
        type_index[entry["id"]] = len(types)
        types.append(ResourceType(entry["id"], str(entry.get("name", entry["id"])), _text(entry, "name_ja", at), entry["scoring"]))
    energel = [t for t in types if t.scoring == "energel"]
    if len(energel) not in (0, 2):
        raise bad_file("energel", f"{where}: resource_types", count=len(energel))

    resource_type: list[int] = []
    black_hole: list[bool] = []
    resource_copies: list[int] = []
    resource_names: list[str] = []
    for i, entry in enumerate(data["resources"]):
        at = f"{where}: resources[{i}]"
        if not isinstance(entry, Mapping) or entry.get("type") not in type_index:
            raise bad_file("resource_type", at, types=joined(type_index))
        icon = entry.get("black_hole", False)
        if type(icon) is not bool:
            raise bad_file("black_hole_flag", at, value=repr(icon))
        name = entry["type"] + ("-bh" if icon else "")
        if name in resource_names:
            raise bad_file("listed_twice", at, name=name)
        resource_type.append(type_index[entry["type"]])
        black_hole.append(icon)
        resource_copies.append(_copies(entry, at))
        resource_names.append(name)

    planets: list[Planet] = []
    planet_ids: set[str] = set()
    for i, entry in enumerate(data["planets"]):
        at = f"{where}: planets[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise bad_file("planet_id", at)
        if entry["id"] in planet_ids:
            raise bad_file("planet_twice", at, planet=repr(entry['id']))
        planet_ids.add(entry["id"])
        jump, scan, land = [_code(entry.get(shape), f"{at}.{shape}", wild=False) for shape in SHAPES]
        planets.append(Planet(entry["id"], str(entry.get("name", entry["id"])), jump, scan, land,
                              name_ja=_text(entry, "name_ja", at)))

    codes_of: list[Codes] = []
    navcomp_copies: list[int] = []
    navcomp_names: list[str] = []
    for i, entry in enumerate(data["navcomp"]):
        at = f"{where}: navcomp[{i}]"
        if not isinstance(entry, Mapping):
            raise bad_file("navcomp_object", at)
        unknown = set(entry) - {"jump", "scan", "land", "copies"}
        if unknown:
            raise bad_file("unknown_fields", at, fields=joined(sorted(map(str, unknown))))
        jump, scan, land = (_code(entry[shape], f"{at}.{shape}", wild=True) if entry.get(shape) is not None else NO_CODE
                            for shape in SHAPES)
        codes = (jump, scan, land)
        if all(code == NO_CODE for code in codes):
            raise bad_file("navcomp_no_code", at)
        name = navcomp_name(codes)
        if name in navcomp_names:
            raise bad_file("listed_twice", at, name=name)
        codes_of.append(codes)
        navcomp_copies.append(_copies(entry, at))
        navcomp_names.append(name)

    return Components(
        name=str(data.get("name", "unnamed components")), provenance=str(data.get("provenance", "unknown")),
        source=str(data.get("source", "")), types=tuple(types), resource_type=tuple(resource_type),
        black_hole=tuple(black_hole), resource_copies=tuple(resource_copies), resource_names=tuple(resource_names),
        planets=tuple(planets), codes=tuple(codes_of), navcomp_copies=tuple(navcomp_copies),
        navcomp_names=tuple(navcomp_names), raw=data,
    )


def load_components(path: str | Path) -> Components:
    """Read a component file from disk (``--cards FILE``)."""
    return parse_components(read_json_file(path), where=str(path))


_standard: dict[str, Components] = {}


def standard_components() -> Components:
    """The component file shipped with the game (``data/components.json``)."""
    if "components" not in _standard:
        text = resources.files("rules.jump_gate").joinpath("data/components.json").read_text(encoding="utf-8")
        _standard["components"] = parse_components(json.loads(text), where="rules/jump_gate/data/components.json")
    return _standard["components"]

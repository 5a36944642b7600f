"""Starligned's star cards, read from an editable data file (``data/cards.json``).

Each star card has two halves, each with a value and an effect; the upper half is the active one,
and rotating the card swaps them (the rules text, 星カード). A card also shows one half-moon on
its centre line, on its left or right edge; rotating the card moves it to the other edge, and two
neighbouring cards whose half-moons meet form a full moon. Cards with a red centre star are the
2-3 player deck. The sourced facts are the five constellations and the effect names; the card list
is an assumed model (docs/formats.md, "Card file"), so the file says ``"provenance": "assumed"``.

Every card is unique and named by its id (``"S101"``). Inside the engine a card *on the table or
in a hand* is an entry ``2 * card + rotated``: ``rotated`` is 1 when the low half is up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NoReturn

from rules.eventtexts import Texts, joined, say
from rules.fields import read_json_file
from rules.protocol import JSON, InvalidPosition

if TYPE_CHECKING:
    from rules.starligned.choices import _Actions     # (the engine builds on this module)

FORMAT = "starligned-cards/1"
#: Effects by phase: stop acts in phase 2, these in phase 3, x2 and x0 at the final scoring.
PHASE3_EFFECTS = ("swap", "move", "rotate_card", "rotate_telescope", "repeat", "exchange")
EFFECTS = ("stop",) + PHASE3_EFFECTS + ("x2", "x0")
LEFT, RIGHT = 0, 1

#: A star card: its number in the card file (``CardSet.ids[card]`` is its id, ``"S101"``).
Card = int
#: A card as it lies in a hand or a row, ``2 * card + rotated`` (``rotated``: 1 when the low half is up).
Entry = int


@dataclass(frozen=True, eq=False)
class CardSet:
    name: str
    provenance: str
    source: str
    constellation_ids: tuple[str, ...]
    constellation_names: tuple[str, ...]
    ids: tuple[str, ...]
    constellation: tuple[int, ...]
    red: tuple[bool, ...]
    #: value[entry] and effect[entry] for entry = 2 * card + rotated: the active half's.
    value: tuple[int, ...]
    effect: tuple[str, ...]
    #: moon_edge[entry]: LEFT or RIGHT, the edge the half-moon shows on in that orientation.
    moon_edge: tuple[int, ...]
    moon_cards: int
    direction_cards: int
    raw: Mapping[str, Any]

    @cached_property
    def action_table(self) -> _Actions:
        """The engine's action objects and lists for these cards (``rules.starligned.choices._Actions``), made
        on first use."""
        from rules.starligned.choices import _Actions     # (the engine builds on this module)
        return _Actions(self)

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {card_id: i for i, card_id in enumerate(self.ids)}

    def card_label(self, e: Entry) -> Texts:
        """The entry ``e`` (``2 * card + rotated``) as players read it off the card, in each language:
        the half that is up (value and effect), the other half (upside down, below), the
        constellation and the edge its half-moon shows on ("10 x0 (below: 1 x2) · Constellation 1 ·
        half-moon right"). A rotated card reads the other way up: its low half first, its half-moon on
        the other edge. (The id ``"S101"``/``"S101r"`` is what files and actions use; no card prints it.)"""
        c = e // 2
        names = self.raw.get("constellations", ()) if isinstance(self.raw, Mapping) else ()
        found = names[self.constellation[c]] if self.constellation[c] < len(names) else {}
        name = self.constellation_names[self.constellation[c]]
        ja = found.get("name_ja") if isinstance(found, Mapping) else None
        return say("starligned", "editor.card", value=self.value[e], effect=_printed_effect(self.effect[e]),
                   other_value=self.value[e ^ 1], other_effect=_printed_effect(self.effect[e ^ 1]),
                   constellation={"en": name, "ja": str(ja or name)},
                   side=say("starligned", "editor.card.left" if self.moon_edge[e] == LEFT else "editor.card.right"))

    def card(self, name: JSON, *, where: str) -> Card:
        try:
            return self.by_id[name]
        except (KeyError, TypeError):
            _bad("unknown_star_card", where, name=repr(name), example=repr(self.ids[0]))

    def deck(self, players: int) -> tuple[Card, ...]:
        """The cards in play: red-centre ones only with 2-3 players, every card with 4-5."""
        return tuple(i for i in range(len(self.ids)) if players >= 4 or self.red[i])

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_cards().fingerprint


def _bad(key: str, where: str | None, /, **values: object) -> NoReturn:
    """Refuse a malformed file, position or action in every language: the template ``file.<key>``
    of ``data/events.json`` filled with ``values``, at the field path ``where``."""
    problems = say("starligned", f"file.{key}", **values)
    raise InvalidPosition(problems["en"], where=where, problems=problems) from None


def _printed_effect(effect: str) -> Texts:
    """An effect as a card shows it: the multipliers by their sign ("x2"), the others by name."""
    return {"en": effect, "ja": effect} if effect in ("x2", "x0") else say("starligned", f"effect.{effect}")


def _half(data: JSON, where: str) -> tuple[int, str]:
    if not isinstance(data, Mapping) or set(data) != {"value", "effect"}:
        _bad("half", where)
    value, effect = data["value"], data["effect"]
    if type(value) is not int or not 0 <= value <= 99:
        _bad("half_value", f"{where}.value", value=repr(value))
    if effect not in EFFECTS:
        _bad("unknown_effect", f"{where}.effect", effect=repr(effect), effects=joined(EFFECTS))
    return value, effect


def parse_cards(data: JSON, *, where: str = "card file") -> CardSet:
    """Validate a card file's JSON and build the :class:`CardSet`."""
    if not isinstance(data, Mapping):
        _bad("card_file", where)
    if data.get("format") != FORMAT:
        _bad("card_format", where, expected=repr(FORMAT), actual=repr(data.get("format")))
    constellations = data.get("constellations")
    if not isinstance(constellations, list) or not constellations:
        _bad("constellations", where)
    c_ids, c_names = [], []
    for i, entry in enumerate(constellations):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or entry["id"] in c_ids:
            _bad("constellation_id", f"{where}: constellations[{i}]")
        c_ids.append(entry["id"])
        c_names.append(str(entry.get("name", entry["id"])))
    for key in ("moon_cards", "direction_cards"):
        if type(data.get(key)) is not int or data[key] < 0:
            _bad("whole_number_key", where, field=repr(key))
    if data["direction_cards"] < 5:
        _bad("direction_cards", where)
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        _bad("cards", where)
    ids, constellation, red, value, effect, moon_edge = [], [], [], [], [], []
    for i, entry in enumerate(cards):
        at = f"{where}: cards[{i}]"
        if not isinstance(entry, Mapping):
            _bad("card_object", at)
        expected = {"id", "constellation", "centre_star", "high", "low", "half_moon"}
        if set(entry) != expected:
            missing, unknown = expected - set(entry), set(entry) - expected
            nothing = {"en": "nothing", "ja": "なし"}
            _bad("card_keys", at, missing=joined(sorted(missing), nothing),
                 unknown=joined(sorted(map(str, unknown)), nothing))
        if not isinstance(entry["id"], str) or not entry["id"] or entry["id"] in ids:
            _bad("card_id", f"{at}.id", id=repr(entry["id"]))
        if entry["constellation"] not in c_ids:
            _bad("card_constellation", f"{at}.constellation", constellations=joined(c_ids))
        if entry["centre_star"] not in ("red", "white"):
            _bad("centre_star", f"{at}.centre_star")
        if entry["half_moon"] not in ("left", "right"):
            _bad("half_moon", f"{at}.half_moon")
        high, low = _half(entry["high"], f"{at}.high"), _half(entry["low"], f"{at}.low")
        edge = LEFT if entry["half_moon"] == "left" else RIGHT
        ids.append(entry["id"])
        constellation.append(c_ids.index(entry["constellation"]))
        red.append(entry["centre_star"] == "red")
        for half, side in ((high, edge), (low, 1 - edge)):
            value.append(half[0])
            effect.append(half[1])
            moon_edge.append(side)
    need = {2: 24, 3: 36}
    reds = sum(red)
    if reds < need[3]:
        _bad("red_cards", where, reds=reds)
    if len(ids) < 60:
        _bad("all_cards", where, count=len(ids))
    return CardSet(
        name=str(data.get("name", "unnamed card set")), provenance=str(data.get("provenance", "unknown")),
        source=str(data.get("source", "")), constellation_ids=tuple(c_ids), constellation_names=tuple(c_names),
        ids=tuple(ids), constellation=tuple(constellation), red=tuple(red), value=tuple(value), effect=tuple(effect),
        moon_edge=tuple(moon_edge), moon_cards=data["moon_cards"], direction_cards=data["direction_cards"], raw=data,
    )


def load_cards(path: str | Path) -> CardSet:
    return parse_cards(read_json_file(path), where=str(path))


_standard: dict[str, CardSet] = {}


def standard_cards() -> CardSet:
    """The card file shipped with the game (``data/cards.json``)."""
    if "cards" not in _standard:
        text = resources.files("rules.starligned").joinpath("data/cards.json").read_text(encoding="utf-8")
        _standard["cards"] = parse_cards(json.loads(text), where="rules/starligned/data/cards.json")
    return _standard["cards"]

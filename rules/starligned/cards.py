"""Starligned's star cards, read from an editable data file (``data/cards.json``).

Each star card has two halves, each with a value and an effect; the upper half is the active one,
and rotating the card swaps them (``starligned.ja.txt``, 星カード). A card also shows one half-moon on
its centre line, on its left or right edge; rotating the card moves it to the other edge, and two
neighbouring cards whose half-moons meet form a full moon. Cards with a red centre star are the
2-3 player deck. The sourced facts are the five constellations and the effect names; the card list
is an assumed model (CARD-DATA-RESEARCH.md 2.2), so the file says ``"provenance": "assumed"``.

Every card is unique and named by its id (``"S101"``). Inside the engine a card *on the table or
in a hand* is an entry ``2 * card + rotated``: ``rotated`` is 1 when the low half is up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from rules.fields import read_json_file
from rules.protocol import InvalidPosition

FORMAT = "starligned-cards/1"
#: Effects by phase: stop acts in phase 2, these in phase 3, x2 and x0 at the final scoring.
PHASE3_EFFECTS = ("swap", "move", "rotate_card", "rotate_telescope", "repeat", "exchange")
EFFECTS = ("stop",) + PHASE3_EFFECTS + ("x2", "x0")
LEFT, RIGHT = 0, 1


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
    def by_id(self) -> dict[str, int]:
        return {card_id: i for i, card_id in enumerate(self.ids)}

    def card(self, name: Any, *, where: str) -> int:
        try:
            return self.by_id[name]
        except (KeyError, TypeError):
            raise InvalidPosition(f"unknown star card {name!r}; cards are named by id, e.g. {self.ids[0]!r}", where=where) from None

    def deck(self, players: int) -> tuple[int, ...]:
        """The cards in play: red-centre ones only with 2-3 players, every card with 4-5."""
        return tuple(i for i in range(len(self.ids)) if players >= 4 or self.red[i])

    @cached_property
    def fingerprint(self) -> str:
        return json.dumps(self.raw, sort_keys=True, ensure_ascii=False)

    @property
    def is_standard(self) -> bool:
        return self.fingerprint == standard_cards().fingerprint


def _half(data: Any, where: str) -> tuple[int, str]:
    if not isinstance(data, Mapping) or set(data) != {"value", "effect"}:
        raise InvalidPosition("a half is {value, effect}", where=where)
    value, effect = data["value"], data["effect"]
    if type(value) is not int or not 0 <= value <= 99:
        raise InvalidPosition(f"value must be a whole number from 0 to 99, not {value!r}", where=f"{where}.value")
    if effect not in EFFECTS:
        raise InvalidPosition(f"unknown effect {effect!r}; effects are {', '.join(EFFECTS)}", where=f"{where}.effect")
    return value, effect


def parse_cards(data: Any, *, where: str = "card file") -> CardSet:
    """Validate a card file's JSON and build the :class:`CardSet`."""
    if not isinstance(data, Mapping):
        raise InvalidPosition("a card file is a JSON object", where=where)
    if data.get("format") != FORMAT:
        raise InvalidPosition(f"format must be {FORMAT!r}, not {data.get('format')!r}", where=where)
    constellations = data.get("constellations")
    if not isinstance(constellations, list) or not constellations:
        raise InvalidPosition("'constellations' must be a non-empty list", where=where)
    c_ids, c_names = [], []
    for i, entry in enumerate(constellations):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or entry["id"] in c_ids:
            raise InvalidPosition("each constellation needs a unique text 'id'", where=f"{where}: constellations[{i}]")
        c_ids.append(entry["id"])
        c_names.append(str(entry.get("name", entry["id"])))
    for key in ("moon_cards", "direction_cards"):
        if type(data.get(key)) is not int or data[key] < 0:
            raise InvalidPosition(f"{key!r} must be a whole number 0 or more", where=where)
    if data["direction_cards"] < 5:
        raise InvalidPosition("each of up to five players needs a direction card: 'direction_cards' must be 5 or more", where=where)
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise InvalidPosition("'cards' must be a non-empty list", where=where)
    ids, constellation, red, value, effect, moon_edge = [], [], [], [], [], []
    for i, entry in enumerate(cards):
        at = f"{where}: cards[{i}]"
        if not isinstance(entry, Mapping):
            raise InvalidPosition("a card is an object {id, constellation, centre_star, high, low, half_moon}", where=at)
        expected = {"id", "constellation", "centre_star", "high", "low", "half_moon"}
        if set(entry) != expected:
            missing, unknown = expected - set(entry), set(entry) - expected
            raise InvalidPosition(f"missing {', '.join(sorted(missing)) or 'nothing'}; unknown {', '.join(sorted(map(str, unknown))) or 'nothing'}",
                                  where=at)
        if not isinstance(entry["id"], str) or not entry["id"] or entry["id"] in ids:
            raise InvalidPosition(f"card id {entry['id']!r} is empty or repeated", where=f"{at}.id")
        if entry["constellation"] not in c_ids:
            raise InvalidPosition(f"constellation must be one of {', '.join(c_ids)}", where=f"{at}.constellation")
        if entry["centre_star"] not in ("red", "white"):
            raise InvalidPosition("centre_star is 'red' or 'white'", where=f"{at}.centre_star")
        if entry["half_moon"] not in ("left", "right"):
            raise InvalidPosition("half_moon (its edge with the high half up) is 'left' or 'right'", where=f"{at}.half_moon")
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
        raise InvalidPosition(f"2-3 players use the red-centre cards, 12 per player: the file has {reds}, 3 players need 36", where=where)
    if len(ids) < 60:
        raise InvalidPosition(f"4-5 players use every card, 12 per player: the file has {len(ids)}, 5 players need 60", where=where)
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

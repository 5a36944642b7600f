"""The card editor's model: a card file's decks as tables, edits checked before they are made, the
engine's message placed at its row and field, and the changes from the standard file.

Nothing here knows a game's file by hand. A card file (any game's, ``rules/<game>/cards.py``) is JSON
whose *decks* are the lists of objects in it: at the top (Biome Blitz's ``animals``, Jump Gate's
``planets``) and inside a deck's cards (an animal's ``abilities``, a Subastral biome's ``cards``). A deck
is addressed by its :data:`DeckPath` (``("animals",)``, ``("animals", 3, "abilities")``). A *single card*
is a one-row table: an object of plain values at the top (Stellar's ``satellites``, ``("satellites",)``),
and the file's own whole numbers and yes/no values (Starligned's ``moon_cards``, ``direction_cards``:
the table ``()``); it has no rows to add or remove. :func:`tables` lists both kinds. A table's columns
(:func:`columns`) are its cards' keys, an object's own keys spread out (``cost.leaf``), each of the kind
its values have. What a file's values may be is the engine's to say: every edit here only checks that
a value is of its column's kind (what the page's widgets send; anything else is a forged message and
is refused, changing nothing); the page then asks the game (``with_card_file``) and shows its message
where :func:`locate` places it. The documented vocabularies (Biome Blitz's triggers, effects and their
typed parameters, the symbols, the ids a card refers to) come from the game's ``cards`` module, read
by :func:`vocabulary`.

Every function returns new data and leaves its argument as it was (the page assigns, never mutates).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

#: A deck's place in a card file: keys and row numbers down to the list (``("animals", 3, "abilities")``).
DeckPath = tuple[str | int, ...]
#: The largest whole number a cell takes: the largest a browser holds exactly. Below it the game's own
#: check bounds each field, and its refusal names the field's bounds ("from 0 to 99"), not the editor's.
MAX_NUMBER = 2**53 - 1
#: The longest text a cell takes.
MAX_TEXT = 2_000
#: Kinds of columns: whole numbers, yes/no, texts, and anything else as JSON text (``[1, 2]``, ``"6/0"`` or 6).
KINDS = ("int", "bool", "text", "json")


class EditRefused(ValueError):
    """An edit that is not a value of its column, a row or column that is not there: nothing changed."""


@dataclass(frozen=True)
class Column:
    """One editable column: ``key`` (``stars``, ``cost.leaf``), its ``kind`` (:data:`KINDS`), and the
    values it may take when the file's vocabulary lists them (``choices``; empty: any of its kind)."""

    key: str
    kind: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Location:
    """Where the engine's message points: a deck, a row of it (None: the deck or the file), a column (None: the row)."""

    deck: DeckPath
    row: int | None = None
    key: str | None = None


@dataclass(frozen=True)
class Vocabulary:
    """What a game's card file documents: per column name, the values it takes (``choices``), and for
    decks of abilities, effect -> (its triggers, {parameter: kind}) with the parameters each must have."""

    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    effects: Mapping[str, tuple[tuple[str, ...], Mapping[str, Any]]] = field(default_factory=dict)
    required: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Columns of the file (``cost``) that are objects keyed by these names (``leaf``, ``water``, ``meat``).
    keyed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Keys of an ability that are not parameters (its name, trigger, effect, texts).
    ability_keys: frozenset[str] = frozenset()


# ---------------------------------------------------------------------------- reading a file
def get(data: Any, path: Sequence[str | int]) -> Any:
    for step in path:
        data = data[step]
    return data


def _is_deck(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _is_record(value: Any) -> bool:
    """One card's plain values in an object (Stellar's ``satellites``: ``{"number": 2, "copies": 5}``)."""
    return isinstance(value, dict) and bool(value) and all(
        item is None or isinstance(item, (bool, int, float, str)) for item in value.values())


def _is_number(value: Any) -> bool:
    return type(value) in (int, bool)


def file_numbers(data: Mapping[str, Any], standard: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The file's own whole numbers and yes/no values (Starligned's ``moon_cards``: 12), its table ``()``;
    one the ``standard`` file has and this one leaves out too (None: it can be given again)."""
    found = {key: value for key, value in data.items() if _is_number(value)}
    if standard is not None:
        found |= {key: None for key, value in standard.items() if _is_number(value) and key not in data}
    return found


def tables(data: Mapping[str, Any], standard: Mapping[str, Any] | None = None) -> list[DeckPath]:
    """Every table of the file in the file's order: its decks (:func:`decks`), its single cards
    (``("satellites",)``) and its own numbers (``()``, where the first of them is)."""
    listed = set(decks(data, standard))
    numbers = file_numbers(data, standard)
    out: list[DeckPath] = []
    for key, value in data.items():
        if (key,) in listed or _is_record(value):
            out.append((key,))
        elif key in numbers and () not in out:
            out.append(())
    return out + ([()] if numbers and () not in out else [])


def is_single(data: Mapping[str, Any], deck: DeckPath) -> bool:
    """Whether ``deck`` is a single card (a one-row table): the file's own numbers, or an object of plain values."""
    if deck == ():
        return True
    try:
        return _is_record(get(data, deck))
    except (KeyError, IndexError, TypeError):
        return False


def cards(data: Mapping[str, Any], deck: DeckPath) -> list[Any]:
    """A table's rows: a deck's cards; a single card (the file itself for ``()``) as its one row."""
    value = get(data, deck)
    return [value] if isinstance(value, Mapping) else value


def decks(data: Mapping[str, Any], standard: Mapping[str, Any] | None = None) -> list[DeckPath]:
    """The file's top-level decks (lists of objects), in the file's order; an empty list is one where the
    ``standard`` file has a deck (so an emptied deck can be filled again)."""
    return [(key,) for key, value in data.items()
            if _is_deck(value) or (value == [] and standard is not None and _is_deck(standard.get(key)))]


def not_a_card(data: Mapping[str, Any], standard: Mapping[str, Any]) -> str | None:
    """Where ``data`` holds something other than a card (an object) in a list where the ``standard``
    file keeps cards, top-level or inside a card (``"animals[0]"``, ``"animals[2].abilities[1]"``); None
    when it holds none. The editor shows such a list as a table, a card a row: it cannot show the rest."""
    for (key,) in decks(standard):
        rows = data.get(key)
        if not isinstance(rows, list):
            continue
        for i, card in enumerate(rows):
            if not isinstance(card, dict):
                return f"{key}[{i}]"
        inner_decks = nested_keys(data, (key,), standard)
        for i, card in enumerate(rows):
            for inner in inner_decks:
                found = card.get(inner)
                if isinstance(found, list):
                    j = next((j for j, item in enumerate(found) if not isinstance(item, dict)), None)
                    if j is not None:
                        return f"{key}[{i}].{inner}[{j}]"
    return None


def sub_decks(data: Mapping[str, Any], deck: DeckPath, row: int, standard: Mapping[str, Any] | None = None) -> list[DeckPath]:
    """The decks inside card ``row`` of ``deck`` (an animal's abilities, a biome's cards), an empty one
    too where cards of its kind hold a deck (in this file or the ``standard`` one: an animal without
    abilities can be given one)."""
    card = cards(data, deck)[row]
    nested = nested_keys(data, deck, standard)
    return [(*deck, row, key) for key, value in card.items() if isinstance(value, list) and key in nested]


def nested_keys(data: Mapping[str, Any], deck: DeckPath, standard: Mapping[str, Any] | None = None) -> set[str]:
    """The keys of ``deck``'s cards that hold decks of their own (shown as tables of their own), in this
    file or, for cards of the same kind, in the ``standard`` one (a single card holds none)."""
    if is_single(data, deck):
        return set()
    found = [*get(data, deck), *(_of_kind(standard, deck) if standard is not None else ())]
    return {key for row in found if isinstance(row, Mapping) for key, value in row.items() if _is_deck(value)}


def _of_kind(data: Any, deck: DeckPath) -> list[Any]:
    """The cards of ``data`` at ``deck``'s place whatever its rows (``("animals", 3, "abilities")``: every
    animal's abilities): what a deck's cards look like in another file."""
    found = [data]
    for step in deck:
        if isinstance(step, int):
            found = [item for value in found if isinstance(value, list) for item in value]
        else:
            found = [value[step] for value in found if isinstance(value, Mapping) and step in value]
    return [card for value in found if isinstance(value, list) for card in value if isinstance(card, Mapping)]


def _kind(values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if present and all(type(v) is int for v in present):
        return "int"
    if present and all(type(v) is bool for v in present):
        return "bool"
    if present and all(type(v) is str for v in present):
        return "text"
    return "json"


def columns(data: Mapping[str, Any], deck: DeckPath, vocabulary: Vocabulary = Vocabulary(),
            standard: Mapping[str, Any] | None = None) -> list[Column]:
    """The deck's columns: each key its cards have (in order of first use), an object spread into one
    column per key (``cost.leaf``), abilities' parameters left to the ability's own form; the file's own
    table ``()`` has its numbers (:func:`file_numbers`, of the kind the ``standard`` file gives one it leaves out)."""
    order: dict[str, list[Any]] = {}
    if deck == ():
        order = {key: [value if value is not None else (standard or {}).get(key)]
                 for key, value in file_numbers(data, standard).items()}
    else:
        rows = cards(data, deck)
        nested = nested_keys(data, deck, standard)
        is_abilities = bool(vocabulary.effects) and all("effect" in row for row in rows)
        for row in rows:
            for key, value in row.items():
                if key in nested or (is_abilities and key not in vocabulary.ability_keys):
                    continue
                if isinstance(value, dict) or key in vocabulary.keyed:
                    for sub in (*vocabulary.keyed.get(key, ()), *(value if isinstance(value, dict) else {})):
                        order.setdefault(f"{key}.{sub}", [])
                else:
                    order.setdefault(key, [])
        for row in rows:
            for key in order:
                order[key].append(_cell(row, key))
    out = []
    for key, values in order.items():
        choices = _choices(data, key, vocabulary)
        out.append(Column(key, "text" if choices and all(isinstance(c, str) for c in choices) else _kind(values), choices))
    return out


def _cell(row: Mapping[str, Any], key: str) -> Any:
    head, _, sub = key.partition(".")
    value = row.get(head)
    if sub:
        return value.get(sub) if isinstance(value, dict) else None
    return value


def _choices(data: Mapping[str, Any], key: str, vocabulary: Vocabulary) -> tuple[Any, ...]:
    name = key.rpartition(".")[2]
    found = vocabulary.choices.get(key, vocabulary.choices.get(name, ()))
    if isinstance(found, str):            # the ids of a deck of the file ("ecosystems" for an animal's ecosystem)
        return tuple(row["id"] for row in data.get(found, ()) if isinstance(row, dict) and "id" in row)
    return tuple(found)


def rows(data: Mapping[str, Any], deck: DeckPath, cols: Sequence[Column]) -> list[dict[str, Any]]:
    """The deck's cards as table rows: one value per column (None where a card leaves it out; JSON
    columns as their JSON text)."""
    out = []
    for card in cards(data, deck):
        row = {}
        for column in cols:
            value = _cell(card, column.key)
            row[column.key] = json.dumps(value, ensure_ascii=False) if column.kind == "json" and value is not None else value
        out.append(row)
    return out


def card_label(data: Mapping[str, Any], deck: DeckPath, row: int) -> str:
    """How a row is named on the page: its ``id`` or ``name`` when it has one, else its number (1-based); a
    single card by its place (``satellites``; ``""`` for the file's own numbers)."""
    if is_single(data, deck):
        return deck_name(deck)
    card = get(data, deck)[row]
    name = card.get("id", card.get("name"))
    return f"{name}" if isinstance(name, (str, int)) and not isinstance(name, bool) else f"#{row + 1}"


# ---------------------------------------------------------------------------- edits
def _rows_of(data: Mapping[str, Any], deck: DeckPath) -> list[Any]:
    """The rows of table ``deck`` (:func:`cards`), or EditRefused when the file has no such table."""
    try:
        found = get(data, deck)
    except (KeyError, IndexError, TypeError):
        raise EditRefused(f"no deck {deck_name(deck)} in this file") from None
    if not isinstance(found, list) and not is_single(data, deck):
        raise EditRefused(f"{deck_name(deck)} is not a deck")
    return cards(data, deck)


def _check_row(data: Mapping[str, Any], deck: DeckPath, row: Any) -> list[Any]:
    rows = _rows_of(data, deck)
    if type(row) is not int or not 0 <= row < len(rows):
        raise EditRefused(f"{deck_name(deck) or 'the file'} has no row {str(row)[:20]} (it has {len(rows)})")
    return rows


def _check_deck_of_rows(data: Mapping[str, Any], deck: DeckPath) -> None:
    """A single card is one entry of the file (the engine reads exactly one): no rows come or go."""
    if is_single(data, deck):
        raise EditRefused(f"{deck_name(deck) or 'the file'} is a single entry of the file: "
                          "it has no cards to add, duplicate or remove")


def _shown(value: Any) -> str:
    """A refused value as a refusal quotes it: as JSON writes it (``true``, ``1e+308``; Python's ``True``
    read as if the file said so), cut to 40 characters saying how long it was (a 309-digit number was
    quoted as its first 40 digits, as if they were the value sent)."""
    if isinstance(value, str):
        said = value
    else:
        try:
            said = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            said = str(value)
    return repr(said) if len(said) <= 40 else repr(said[:40] + "…") + f" ({len(said):,} characters)"


def _whole(key: str, value: Any, sent: Any) -> int:
    """``value`` if it is a whole number a browser holds exactly; the game's check then bounds it."""
    if type(value) is not int:
        raise EditRefused(f"{key} is a whole number, not {_shown(sent)}")
    if abs(value) > MAX_NUMBER:
        raise EditRefused(f"{key} is a whole number from -{MAX_NUMBER:,} to {MAX_NUMBER:,} (what a browser holds "
                          f"exactly), not {_shown(sent)}")
    return value


def checked_value(column: Column, value: Any) -> Any:
    """``value`` as column ``column`` holds it (None: the card leaves the key out), or :class:`EditRefused`."""
    if value is None or (isinstance(value, str) and not value.strip() and column.kind != "text"):
        return None
    if column.choices and column.kind != "json":
        if value not in column.choices:
            raise EditRefused(f"{column.key} is one of {', '.join(map(str, column.choices))}, not {_shown(value)}")
        return value
    if column.kind == "int":
        sent = value
        if type(value) is float and value.is_integer():
            value = int(value)
        if isinstance(value, str) and re.fullmatch(r"-?\d{1,16}", value.strip()):
            value = int(value)
        return _whole(column.key, value, sent)
    if column.kind == "bool":
        if type(value) is not bool:
            raise EditRefused(f"{column.key} is true or false, not {_shown(value)}")
        return value
    if not isinstance(value, str):
        raise EditRefused(f"{column.key} is a text, not {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise EditRefused(f"{column.key} is a text of at most {MAX_TEXT} characters, not {len(value):,}")
    if column.kind == "text":
        return value or None
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        raise EditRefused(f"{column.key} is written as JSON (a number, \"text\" or [list]), not {value[:40]!r}") from None


def set_field(data: Mapping[str, Any], deck: DeckPath, row: int, column: Column, value: Any) -> dict[str, Any]:
    """The file with card ``row`` of ``deck`` given ``value`` in ``column`` (None: the key left out)."""
    _check_row(data, deck, row)
    value = checked_value(column, value)
    out = copy.deepcopy(dict(data))
    card = cards(out, deck)[row]
    head, _, sub = column.key.partition(".")
    if sub:
        inner = dict(card.get(head) or {}) if isinstance(card.get(head, {}), dict) else {}
        if value is None:
            inner.pop(sub, None)
        else:
            inner[sub] = value
        card[head] = inner
    elif value is None:
        card.pop(head, None)
    else:
        card[head] = value
    return out


def set_card(data: Mapping[str, Any], deck: DeckPath, row: int, card: Mapping[str, Any]) -> dict[str, Any]:
    """The file with card ``row`` of ``deck`` replaced by ``card`` (the ability form's result)."""
    _check_deck_of_rows(data, deck)
    _check_row(data, deck, row)
    out = copy.deepcopy(dict(data))
    get(out, deck)[row] = copy.deepcopy(dict(card))
    return out


def _fresh_id(cards: Sequence[Mapping[str, Any]], base: str) -> str:
    """``base`` with ``_copy`` (``_copy2``, ...) that no card of the deck has: joined by ``_``, which every
    game's ids may hold (Subastral's biomes, Jump Gate's resource types and Stellar's types may not
    hold ``-``)."""
    taken = {card.get("id") for card in cards}
    stem = re.sub(r"[-_]copy\d*$", "", base)
    number = 1
    while True:
        candidate = f"{stem}_copy" if number == 1 else f"{stem}_copy{number}"
        if candidate not in taken:
            return candidate
        number += 1


def duplicate_row(data: Mapping[str, Any], deck: DeckPath, row: int) -> dict[str, Any]:
    """The file with a copy of card ``row`` right after it (a new ``id`` when the deck's cards have ids)."""
    _check_deck_of_rows(data, deck)
    _check_row(data, deck, row)
    out = copy.deepcopy(dict(data))
    cards = get(out, deck)
    card = copy.deepcopy(cards[row])
    if isinstance(card.get("id"), str):
        card["id"] = _fresh_id(cards, card["id"])
    cards.insert(row + 1, card)
    return out


def add_row(data: Mapping[str, Any], deck: DeckPath, standard: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The file with a new card at the end of ``deck``: a copy of its last card (a new ``id``), which the
    designer then changes (a blank card is no card any engine accepts); in an empty deck, a copy of the
    first card of its kind in the ``standard`` file (an animal's first ability: any animal's)."""
    _check_deck_of_rows(data, deck)
    rows = _rows_of(data, deck)
    if rows:
        return duplicate_row(data, deck, len(rows) - 1)
    model = _of_kind(standard, deck)[:1] if standard is not None else []
    if not model:
        raise EditRefused(f"{deck_name(deck)} is empty, and the standard file has no card of its kind to start from")
    out = copy.deepcopy(dict(data))
    get(out, deck).append(copy.deepcopy(dict(model[0])))
    return out


def remove_row(data: Mapping[str, Any], deck: DeckPath, row: int) -> dict[str, Any]:
    """The file without card ``row`` of ``deck`` (the engine says if a deck may not be empty)."""
    _check_deck_of_rows(data, deck)
    _check_row(data, deck, row)
    out = copy.deepcopy(dict(data))
    del get(out, deck)[row]
    return out


# ---------------------------------------------------------------------------- the engine's message, placed
_TOKEN = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def parse_where(where: str | None) -> list[str | int]:
    """``"cards: animals[3].cost.meat"`` -> ``["animals", 3, "cost", "meat"]`` (``"cards"``: [])."""
    if not where:
        return []
    _, colon, rest = where.partition(": ")
    if not colon:
        return []
    out: list[str | int] = []
    for match in _TOKEN.finditer(rest.strip()):
        out.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
    return out


def locate(data: Mapping[str, Any], where: str | None, problem: str = "",
           vocabulary: Vocabulary = Vocabulary(), standard: Mapping[str, Any] | None = None) -> Location:
    """Where the engine's ``where`` (and, when it names only a card, its message) points in the tables:
    the deepest deck on the path, the row, and the column (``cost.meat``; a key the message names when
    ``where`` stops at the card: see :func:`_named`). A single card is its table's row 0
    (``satellites``); a message on the whole file that names one of its own numbers (``'moon_cards'
    must be...``) points at that number in the table ``()``; any other, at the file (``Location(())``)."""
    path = parse_where(where)
    deck: DeckPath = ()
    row: int | None = None
    key: str | None = None
    i = 0
    while i < len(path):
        step = path[i]
        following = path[i + 1] if i + 1 < len(path) else None
        if isinstance(step, str) and isinstance(following, int):
            deck, row, key = (*deck, *((row,) if row is not None and deck else ()), step), following, None
            i += 2
            continue
        if i == 0 and isinstance(step, str) and isinstance(data, Mapping) and _is_record(data.get(step)):
            deck, row, key = (step,), 0, None
            i += 1
            continue
        key = ".".join(str(s) for s in path[i:])
        break
    if not deck:
        numbers = list(file_numbers(data, standard)) if isinstance(data, Mapping) else []
        if key is None:
            key = _named(problem, numbers, data, (), 0, standard)
        return Location((), 0, key) if key in numbers else Location(())
    try:
        cols = [c.key for c in columns(data, deck, vocabulary, standard)]
        card = cards(data, deck)[row] if row is not None else None
    except (KeyError, IndexError, TypeError):
        return Location(deck, row)
    if key is None and row is not None:
        effect = card.get("effect") if isinstance(card, Mapping) else None
        parameters = list(ability_parameters(vocabulary, effect)) if isinstance(effect, str) else []
        key = _named(problem, [c for c in cols if not c.startswith("name")] + parameters, data, deck, row, standard)
    if key is not None and key not in cols:
        key = next((c for c in cols if c.split(".")[0] == key.split(".")[0]), key)    # (else a parameter: the form's)
    return Location(deck, row, key)


def _named(problem: str, keys: Sequence[str], data: Mapping[str, Any], deck: DeckPath, row: int,
           standard: Mapping[str, Any] | None) -> str | None:
    """The key the engine's message names (``stars must be a whole number``): of several, one it quotes
    (``needs the parameter 'count'``), then one this file changed from the ``standard`` one (Stellar's
    ``'satellites' must be {number: 1-5, copies: 0 or more}`` when only copies changed), then the first."""
    def value(file: Any, key: str) -> Any:
        try:
            return _cell(cards(file, deck)[row], key)
        except (KeyError, IndexError, TypeError, AttributeError):
            return None
    named = []
    for key in dict.fromkeys(keys):
        word = re.escape(key.rpartition(".")[2])
        found = re.search(rf"(?<![\w.])'?{word}'?(?![\w])", problem)
        if found is not None:
            quoted = re.search(rf"(?<![\w.])'{word}'(?![\w])", problem) is not None
            changed = standard is not None and value(data, key) != value(standard, key)
            named.append((not quoted, not changed, found.start(), key))
    return min(named)[3] if named else None


def deck_name(deck: DeckPath) -> str:
    """``animals``, ``animals[3].abilities`` (as the engine's messages write paths)."""
    out = ""
    for step in deck:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


# ---------------------------------------------------------------------------- the difference from the standard file
def _id_key(items: Sequence[Any]) -> str | None:
    for key in ("id", "name"):
        values = [item.get(key) for item in items if isinstance(item, dict)]
        if len(values) == len(items) and all(isinstance(v, str) for v in values) and len(set(values)) == len(values):
            return key
    return None


def diff(standard: Any, edited: Any, path: str = "") -> list[dict[str, Any]]:
    """What ``edited`` changes from ``standard``: ``{"path", "change": "changed"|"added"|"removed",
    "old", "new"}`` per field or card, cards of a deck matched by ``id`` (else ``name``, else position)
    in both files: ``animals[lion].stars`` 4 -> 3, ``animals[lion_copy]`` added."""
    if isinstance(standard, dict) and isinstance(edited, dict):
        out = []
        for key in dict.fromkeys([*standard, *edited]):
            at = f"{path}.{key}" if path else str(key)
            if key not in edited:
                out.append({"path": at, "change": "removed", "old": standard[key], "new": None})
            elif key not in standard:
                out.append({"path": at, "change": "added", "old": None, "new": edited[key]})
            else:
                out += diff(standard[key], edited[key], at)
        return out
    if isinstance(standard, list) and isinstance(edited, list) and (_is_deck(standard) or _is_deck(edited)):
        key = _id_key(standard) if _is_deck(standard) else None
        missing = object()
        if key is not None and _id_key(edited) == key:       # cards matched by id, else by position
            old = {item[key]: item for item in standard}
            new = {item[key]: item for item in edited}
        else:
            old, new = dict(enumerate(standard)), dict(enumerate(edited))
        out = []
        for name in dict.fromkeys([*old, *new]):
            at = f"{path}[{name}]"
            before, after = old.get(name, missing), new.get(name, missing)
            if after is missing:
                out.append({"path": at, "change": "removed", "old": before, "new": None})
            elif before is missing:
                out.append({"path": at, "change": "added", "old": None, "new": after})
            else:
                out += diff(before, after, at)
        return out
    if standard == edited and type(standard) is type(edited):
        return []
    return [{"path": path, "change": "changed", "old": standard, "new": edited}]


# ---------------------------------------------------------------------------- abilities (typed parameters)
def ability_parameters(vocabulary: Vocabulary, effect: str) -> dict[str, Any]:
    """The parameters effect ``effect`` takes, each with its kind (``count``, ``symbol``, a tuple of values...)."""
    return dict(vocabulary.effects.get(effect, ((), {}))[1])


def build_ability(vocabulary: Vocabulary, old: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """An ability from the form's ``values`` (its name, trigger, effect, texts and the effect's parameters;
    None or "" leaves a parameter out), other keys of ``old`` (``provenance``) kept. Values of a kind
    the form cannot send are refused (:class:`EditRefused`); what the engine thinks of the rest is its to say."""
    effect = values.get("effect")
    if not isinstance(effect, str) or effect not in vocabulary.effects:      # (a list or dict is no key)
        raise EditRefused(f"effect is one of {', '.join(vocabulary.effects)}, not {_shown(effect)}")
    triggers, kinds = vocabulary.effects[effect]
    out: dict[str, Any] = {key: value for key, value in old.items() if key in vocabulary.ability_keys}
    for key in ("name", "name_ja", "text", "text_ja"):
        if key in values:
            value = values[key]
            if value is not None and not isinstance(value, str):
                raise EditRefused(f"{key} is a text, not {_shown(value)}")
            if value is not None and len(value) > MAX_TEXT:
                raise EditRefused(f"{key} is a text of at most {MAX_TEXT} characters, not {len(value):,}")
            if value:
                out[key] = value
            else:
                out.pop(key, None)
    trigger = values.get("trigger")
    if trigger not in triggers:
        trigger = triggers[0]            # (a trigger the new effect cannot have: its first one)
    out["trigger"], out["effect"] = trigger, effect
    for key, kind in kinds.items():
        value = values.get(key)
        if value is None or value == "" or value == []:
            continue
        out[key] = _parameter(key, kind, value)
    unknown = set(values) - set(kinds) - vocabulary.ability_keys
    if unknown:
        raise EditRefused(f"effect {effect!r} takes no parameter {sorted(map(str, unknown))[0][:40]!r}")
    return out


def _parameter(key: str, kind: Any, value: Any) -> Any:
    if isinstance(kind, tuple) or kind == "symbol":
        allowed = kind if isinstance(kind, tuple) else ("leaf", "water", "meat")
        if value not in allowed:
            raise EditRefused(f"{key} is one of {', '.join(allowed)}, not {_shown(value)}")
        return value
    if kind in ("count", "whole", "roll"):
        return _whole(key, value, value)
    if kind == "rolls":
        if not isinstance(value, list) or not all(type(v) is int and 1 <= v <= 6 for v in value):
            raise EditRefused(f"{key} is a list of die results 1 to 6")
        return sorted(set(value))
    if kind == "bool":
        if type(value) is not bool:
            raise EditRefused(f"{key} is true or false")
        return value
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise EditRefused(f"{key} is a text")
    return value


# ---------------------------------------------------------------------------- what each game documents
def vocabulary(game_id: str) -> Vocabulary:
    """The vocabulary a game's ``cards`` module documents for its card file (see its module docstring)."""
    if game_id == "biome_blitz":
        from rules.biome_blitz import cards
        return Vocabulary(choices={"symbol": cards.SYMBOLS, "ecosystem": "ecosystems", "trigger": cards.TRIGGERS,
                                   "effect": tuple(cards.ABILITY_EFFECTS)},
                          effects=cards.ABILITY_EFFECTS, required=cards.REQUIRED,
                          keyed={"cost": cards.SYMBOLS[:3], "battle_cost": cards.SYMBOLS[:3]},
                          ability_keys=frozenset(cards.ABILITY_KEYS))
    if game_id == "starligned":
        from rules.starligned import cards as starligned
        return Vocabulary(choices={"effect": starligned.EFFECTS, "constellation": "constellations"})
    if game_id == "jump_gate":
        from rules.jump_gate import cards as jump_gate
        return Vocabulary(choices={"type": "resource_types", "scoring": jump_gate.SCORING_RULES})
    return Vocabulary()

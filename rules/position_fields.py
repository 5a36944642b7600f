"""The pieces every game's :meth:`~rules.protocol.GameSpec.position_fields` is made of.

A game lists what a person edits in its position files (its decks, hands, rows, whose turn, the
round) as :class:`~rules.protocol.PositionField` values; the setup editor draws them as a form. The
words shared by every game (deck, hand, round...) are ``editor.*`` in ``rules/data/messages.json``;
a game's own zones (a cloud, a telescope) are named in its ``data/events.json``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.eventtexts import player, say_shared
from rules.protocol import JSON, AnyGame, PositionField, Seat

#: A text in every language: language -> text.
Texts = Mapping[str, str]
#: The keys from a position's ``"state"`` to a value (:attr:`~rules.protocol.PositionField.path`).
FieldPath = tuple[str | int, ...]


def seated(game: AnyGame, data: JSON) -> tuple[Mapping[str, JSON], list[JSON], int] | None:
    """The position's ``state``, its ``hands`` and its player count (``state.players`` when it is one
    of the game's counts, else the number of hands); None for data not shaped like a position (no
    list of hands): its game then lists no field."""
    state = data.get("state") if isinstance(data, Mapping) else None
    if not isinstance(state, Mapping):
        return None
    hands = state.get("hands")
    if not isinstance(hands, list) or not hands:
        return None
    players = state.get("players")
    if type(players) is not int or players not in game.player_counts:
        players = len(hands)
    return state, hands, players


def table() -> Texts:
    """The heading of what belongs to nobody: decks, rows, whose turn."""
    return say_shared("editor.table")


def cards(path: FieldPath, label: Texts, group: Texts, choices: Iterable[str], *, ordered: bool = False,
          note: Texts | None = None) -> PositionField:
    """A list of cards (a hand, a pile, a row): ``ordered`` when their order is part of the game."""
    return PositionField(path=path, kind="cards", label=label, group=group, cards=tuple(choices), ordered=ordered,
                         note=note)


def deck(path: FieldPath, choices: Iterable[str], label: Texts | None = None,
         group: Texts | None = None) -> PositionField:
    """A draw pile, top first (its order is the game's future)."""
    return cards(path, label or say_shared("editor.deck"), group or table(), choices, ordered=True,
                 note=say_shared("editor.deck.note"))


def hand(seat: Seat, choices: Iterable[str], path: FieldPath | None = None) -> PositionField:
    """``seat``'s hand (its order is not part of the game)."""
    return cards(path or ("hands", seat), say_shared("editor.hand", player=player(seat)), player(seat), choices)


def card(path: FieldPath, label: Texts, group: Texts, choices: Iterable[str], *,
         optional: bool = True) -> PositionField:
    """One card, or nothing (an empty slot) where ``optional``."""
    return PositionField(path=path, kind="card", label=label, group=group, cards=tuple(choices), optional=optional)


def seat(path: FieldPath, label: Texts, *, optional: bool = False, group: Texts | None = None) -> PositionField:
    """A seat's index: "Player 1" for the file's 0."""
    return PositionField(path=path, kind="seat", label=label, group=group or table(), optional=optional)


def to_move(path: FieldPath = ("seat",)) -> PositionField:
    return seat(path, say_shared("editor.to_move"))


def start_player(path: FieldPath = ("start_player",)) -> PositionField:
    return seat(path, say_shared("editor.start_player"))


def number(path: FieldPath, label: Texts, *, shown_from: int = 0, low: int | None = 0, high: int | None = None,
           optional: bool = False, group: Texts | None = None, note: Texts | None = None) -> PositionField:
    """A whole number; ``shown_from``: what players call the file's 0 (1 for a round)."""
    return PositionField(path=path, kind="number", label=label, group=group or table(), shown_from=shown_from,
                         low=low, high=high, optional=optional, note=note)


def round_number(path: FieldPath = ("round",), high: int | None = None, label: Texts | None = None) -> PositionField:
    """The round (or turn) under way: the file's 0 is round 1."""
    return number(path, label or say_shared("editor.round"), shown_from=1, high=high)


def choice(path: FieldPath, label: Texts, values: Iterable[JSON], labels: Iterable[Texts | str], *,
           optional: bool = False, group: Texts | None = None) -> PositionField:
    """One of ``values``, each named by its label."""
    return PositionField(path=path, kind="choice", label=label, group=group or table(), choices=tuple(values),
                         choice_labels=tuple(labels), optional=optional)


def flag(path: FieldPath, label: Texts, group: Texts | None = None) -> PositionField:
    return PositionField(path=path, kind="flag", label=label, group=group or table())


def phase(values: Iterable[str], labels: Iterable[Texts | str], path: FieldPath = ("phase",)) -> PositionField:
    return choice(path, say_shared("editor.phase"), values, labels)

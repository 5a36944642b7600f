"""Replay files (docs/formats.md): a game is its seed plus its moves.

``{"game", "version", "players", "seed", "variants", "actions": [{"seat", "action"}, ...]}`` and, when
the game was played with a card file other than the standard one, ``"cards"`` with that file's data.
A game that began from a what-if position instead of a deal carries it as ``"start"`` (a position
file); its moves are replayed from there.
Replaying reproduces every state exactly; time travel is replaying a prefix.

An optional ``"notes"`` key holds the notes pinned to moves (a playtest table's, the explorer's):
``[{"step", "seat", "text"}, ...]`` with an optional ``"at"`` (seconds since 1970), where ``step``
is a step of the replay (0: the deal, up to the number of actions), ``seat`` the seat that wrote it
or ``"teacher"``, and ``text`` 1 to :data:`NOTE_LIMIT` characters. :func:`read` checks them and
:func:`notes` gives them back, in order; the moves are the same with or without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping, NoReturn

from rules.eventtexts import joined, player, say_shared
from rules.fields import SEED_LIMIT, read_json_file, rules_version, seed_number  # (SEED_LIMIT: also rules.replay.SEED_LIMIT)
from rules.protocol import (JSON, A, AnyGame, GameSpec, IllegalAction, InvalidPosition, InvalidReplay, JSONObject, S,
                            Seat, check_json, key_names)
from rules.registry import get_game
from rules.showable import unshowable

REPLAY_KEYS = ("game", "version", "players", "seed", "variants", "actions")
#: A seed's size stays below ``SEED_LIMIT`` (``rules.fields``, as positions' seeds): whole numbers a
#: browser (JavaScript) holds exactly, so every page shows the seed a game was dealt from as it is.
#: The optional keys of a replay.
OPTIONAL_KEYS = ("cards", "comment", "start", "notes")
#: Who wrote a note that no seat wrote: the teacher (the explorer's everything view, a table's creator).
TEACHER = "teacher"
#: The longest note, in characters.
NOTE_LIMIT = 2000
#: The keys of a note (``at`` is optional).
NOTE_KEYS = ("step", "seat", "text", "at")

#: A replay's move: the seat and its action. A replay may name any game, so its states and actions are
#: those of :data:`~rules.protocol.AnyGame` (``Any``: each game's own types).
Move = tuple[Seat, Any]


def record(game: GameSpec[S, A], players: int, seed: int, variants: Mapping[str, Any] | None,
           actions: Iterable[tuple[Seat, A]], *, state: S | None = None,
           start: Mapping[str, JSON] | None = None, notes: Iterable[Mapping[str, JSON]] = ()) -> JSONObject:
    """The replay of a game played from ``new_game(players, seed, variants)`` with these moves.

    Pass any state of the game as ``state`` so a non-standard card file is written along (and the
    rules version its seed deals as: ``GameSpec.version_of``), the position the game began from as
    ``start`` when it did not begin with a deal, and the notes pinned to its moves as ``notes``
    (written only when there are some).
    """
    data: JSONObject = {
        "game": game.id,
        "version": game.version_of(state) if state is not None else game.version,
        "players": players,
        "seed": seed,
        "variants": game.check_variants(variants),
        "actions": [{"seat": seat, "action": game.encode_action(action)} for seat, action in actions],
    }
    cards = game.card_file(state) if state is not None else None
    if cards is not None:
        data["cards"] = cards
    if start is not None:
        data["start"] = dict(start)
    kept = [{key: note[key] for key in NOTE_KEYS if key in note} for note in notes]
    if kept:
        data["notes"] = list(kept)
    return data


def _bad(key: str, where: str, cls: type[InvalidPosition] = InvalidReplay, **values: object) -> NoReturn:
    """Raise ``cls`` (:class:`InvalidReplay`) with the shared text ``file.<key>``
    (``rules/data/messages.json``) in every language."""
    problems = say_shared(f"file.{key}", **values)
    raise cls(problems["en"], where=where, problems=problems)


def illegal_move(game: GameSpec[Any, A], number: int, seat: Seat, action: A, error: IllegalAction) -> InvalidReplay:
    """The error for a replayed move the rules refuse: the refusal in every language, its rule named
    as the game's rulebook titles it (the engine's rule text where the rulebook has none)."""
    from rules.rulebook import rulebook

    try:
        rule = rulebook(game.id).for_refusal(error.rule)
    except (InvalidPosition, OSError, ValueError):  # no rulebook, or one that cannot be read
        rule = None
    problems = say_shared("file.illegal_move", number=number, player=player(seat),
                          action={"en": str(action), "ja": game.action_label(action, "ja")},
                          reason={"en": error.reason, "ja": error.reason_in("ja")},
                          rule={"en": error.rule, "ja": rule.title["ja"] if rule is not None else error.rule})
    return InvalidReplay(problems["en"], where=f"replay.actions[{number - 1}]", problems=problems)


def read(data: JSON) -> tuple[AnyGame, Any, list[Move]]:
    """Check a replay's form: ``(game, first state, [(seat, action), ...])``. Moves are not played."""
    try:
        check_json(data, what="replay")
    except InvalidPosition as error:
        raise InvalidReplay(error.problem, where=error.where, problems=error.problems) from None
    if not isinstance(data, Mapping):
        _bad("replay_object", "replay", kind=type(data).__name__)
    missing = [key for key in REPLAY_KEYS if key not in data]
    if missing:
        _bad("missing", "replay", keys=joined(missing))
    unknown = set(data) - set(REPLAY_KEYS) - set(OPTIONAL_KEYS)
    if unknown:
        _bad("unknown_fields", "replay", keys=joined(key_names(unknown)))
    try:
        game = get_game(data["game"])
        if "cards" in data:
            game = game.with_card_file(data["cards"])
        game = game.recorded(rules_version(game, data["version"], "replay.version", InvalidReplay))  # (its seed deals and draws as then)
        players = game.check_players(data["players"])
        seed_number(data["seed"], "replay.seed", InvalidReplay)
        variants = game.check_variants(data["variants"])
        if "start" in data:
            state = game.decode(data["start"])
            start = game.encode(state)
            if start["variants"] != variants or start["state"].get("players") != players:
                _bad("start_mismatch", "replay.start")
            # The start plays by its own card file and rules version: a header naming others (which the
            # replay's moves were not played by) is refused, not read past.
            written = data["start"] if isinstance(data["start"], Mapping) else {}
            for key in ("version", "cards"):
                if key in data and key in written and written[key] != data[key]:
                    _bad("start_differs", f"replay.start.{key}", field=key)
        else:
            state = game.new_game(players, data["seed"], variants)
    except InvalidReplay:
        raise
    except InvalidPosition as error:
        raise InvalidReplay(error.problem, where=f"replay.{error.where or ''}".rstrip("."), problems=error.problems) from None
    except ValueError as error:
        raise InvalidReplay(str(error), where="replay") from None
    moves = data["actions"]
    if not isinstance(moves, list):
        _bad("actions_list", "replay.actions")
    actions: list[Move] = []
    for i, move in enumerate(moves):
        where = f"replay.actions[{i}]"
        if not isinstance(move, Mapping) or set(move) != {"seat", "action"}:
            _bad("move_object", where)
        if type(move["seat"]) is not int:
            _bad("move_seat", where, value=repr(move["seat"]))
        try:
            actions.append((move["seat"], game.decode_action(move["action"])))
        except InvalidPosition as error:
            raise InvalidReplay(error.problem, where=f"{where}.{error.where}", problems=error.problems) from None
    if "notes" in data:
        _check_notes(data["notes"], players, len(actions))
    return game, state, actions


def _check_notes(found: JSON, players: int, steps: int) -> None:
    """Raise InvalidReplay naming the first bad note (``replay.notes[i]``) and what is wrong with it."""
    if not isinstance(found, list):
        _bad("notes_list", "replay.notes")
    for i, note in enumerate(found):
        where = f"replay.notes[{i}]"
        if not isinstance(note, Mapping) or not {"step", "seat", "text"} <= set(note) or not set(note) <= set(NOTE_KEYS):
            _bad("note_object", where)
        step, seat, text, at = note["step"], note["seat"], note["text"], note.get("at", 0)
        if type(step) is not int or not 0 <= step <= steps:
            _bad("note_step", f"{where}.step", value=repr(step), steps=steps)
        if seat != TEACHER and (type(seat) is not int or not 0 <= seat < players):
            _bad("note_seat", f"{where}.seat", value=repr(seat), last=players - 1)
        if not isinstance(text, str) or not text.strip() or len(text) > NOTE_LIMIT:
            _bad("note_text", f"{where}.text", limit=NOTE_LIMIT)
        # A note is read as it was pinned: the limits a note is pinned under now (lines, stacked marks,
        # showing something: ``explorer.core.notes.check_note``) came after notes were stored, and a
        # finished table's replay, with every note, must still load; pages draw each note in its own box.
        # What no page may show is refused whenever a note was written.
        found = unshowable(text)
        if found is not None:
            _bad(f"note_{found[0]}", f"{where}.text", code=found[1])
        if type(at) not in (int, float) or at < 0:
            _bad("note_at", f"{where}.at", value=repr(at))


def notes(data: Mapping[str, Any]) -> list[JSONObject]:
    """The notes of a replay that :func:`read` accepted (``[]`` without any), each a new dict."""
    return [dict(note) for note in data.get("notes", [])]


def states(data: JSON) -> tuple[AnyGame, list[Any]]:
    """Every state of a replay, the first one included; raises InvalidReplay at the first bad move."""
    game, state, actions = read(data)
    out = [state]
    for i, (seat, action) in enumerate(actions):
        try:
            state = game.apply(state, seat, action)
        except IllegalAction as error:
            raise illegal_move(game, i + 1, seat, action, error) from None
        out.append(state)
    return game, out


def final_state(data: JSON) -> tuple[AnyGame, Any]:
    """The state after every move (keeps only one state in memory)."""
    game, state, actions = read(data)
    for i, (seat, action) in enumerate(actions):
        try:
            state = game.apply(state, seat, action)
        except IllegalAction as error:
            raise illegal_move(game, i + 1, seat, action, error) from None
    return game, state


def load(path: str | Path) -> JSON:
    """Read a JSON file (replay or position), with errors that name the file."""
    return read_json_file(path)


def decode_position(data: JSON) -> tuple[AnyGame, Any]:
    """A position file of any registered game: ``(game, state)``."""
    check_json(data, what="position")
    if not isinstance(data, Mapping) or "game" not in data:
        _bad("position_object", "position", cls=InvalidPosition)
    game = get_game(data["game"])
    return game, game.decode(data)

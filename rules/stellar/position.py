"""Stellar positions and actions as JSON (DESIGN.md, "File formats").

A position names every card (``"planet-3-1star"``, ``"satellite"``), lists the deck top first, the
row by slot number, each telescope by slot name (``"top-1"`` ... ``"bottom-4"``; a face-down card is
``{"face_down": card}``) and each notebook by stack (type id, plus ``"satellite"``), so a teacher
can write one by hand. ``decode`` checks everything a hand-written file can get wrong and says what
and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from rules.fields import times as _times, whole_number as _int, json_list as _list, json_bool as _bool, per_seat, position_header
from rules.protocol import InvalidPosition, require_keys
from rules.stellar.cards import CardSet, parse_cards
from rules.stellar.state import (
    CLEAR, EMPTY, FINAL, OVER, PHASES, PLACE, PLAY, ROUNDS, ROW_SLOTS, STARTERS, TAKE,
    ChooseStarters, ClearRow, FinalNotebookCard, PlayToNotebook, PlayToTelescope, State, TakeRowCard,
    card_of, face_down, is_face_down,
)

STATE_KEYS = ("players", "seed", "shuffles", "start_player", "seat", "round", "phase", "deck", "discard",
              "box", "row", "hands", "starters", "telescopes", "notebooks", "pending", "satellite_taken")


def telescope_json(cards: CardSet, telescope: tuple) -> dict:
    name = cards.card_name
    out = {}
    for slot, entry in zip(cards.telescope.slot_names, telescope):
        if entry == EMPTY:
            out[slot] = None
        elif is_face_down(entry):
            out[slot] = {"face_down": name(card_of(entry))}
        else:
            out[slot] = name(entry)
    return out


def notebook_json(cards: CardSet, notebook: tuple) -> dict:
    stacks = {cards.type_id(t): [] for t in range(len(cards.types) + 1)}
    for kind in notebook:
        stacks[cards.type_id(cards.type_of[kind])].append(cards.card_name(kind))
    return stacks


def encode(game, state: State) -> dict:
    cards = state.cards
    names = lambda kinds: [cards.card_name(k) for k in kinds]  # noqa: E731
    data = {
        "game": game.id,
        "version": game.version,
        "variants": dict(state.variants),
        "state": {
            "players": state.players,
            "seed": state.seed,
            "shuffles": state.shuffles,
            "start_player": state.start_player,
            "seat": state.seat,
            "round": state.round,
            "phase": state.phase,
            "deck": names(state.deck),
            "discard": names(state.discard),
            "box": names(state.box),
            "row": {str(i + 1): (cards.card_name(k) if k != EMPTY else None) for i, k in enumerate(state.row)},
            "hands": [names(hand) for hand in state.hands],
            "starters": [names(pair) for pair in state.starters],
            "telescopes": [telescope_json(cards, t) for t in state.telescopes],
            "notebooks": [notebook_json(cards, n) for n in state.notebooks],
            "pending": cards.card_name(state.pending) if state.pending != EMPTY else None,
            "satellite_taken": state.satellite_taken,
        },
    }
    if not cards.is_standard:
        data["cards"] = cards.raw
    return data


def _cards(cards: CardSet, value: Any, where: str) -> tuple[int, ...]:
    return tuple(cards.kind(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))



def _telescope(cards: CardSet, raw: Any, where: str) -> tuple[int, ...]:
    slots = cards.telescope.slot_names
    require_keys(raw, slots, where=where)
    out = []
    for slot in slots:
        entry, at = raw[slot], f"{where}.{slot}"
        if entry is None:
            out.append(EMPTY)
        elif isinstance(entry, Mapping):
            require_keys(entry, ("face_down",), where=at)
            out.append(face_down(cards.kind(entry["face_down"], where=f"{at}.face_down")))
        else:
            out.append(cards.kind(entry, where=at))
    return tuple(out)


def _notebook(cards: CardSet, raw: Any, where: str) -> tuple[int, ...]:
    keys = [cards.type_id(t) for t in range(len(cards.types) + 1)]
    require_keys(raw, (), where=where, optional=keys)
    out = []
    for t, key in enumerate(keys):
        for i, kind in enumerate(_cards(cards, raw.get(key, []), f"{where}.{key}")):
            if cards.type_of[kind] != t:
                raise InvalidPosition(f"{cards.card_name(kind)} belongs in the {cards.type_id(cards.type_of[kind])} stack, not {key}",
                                      where=f"{where}.{key}[{i}]")
            out.append(kind)
    return tuple(sorted(out))


def decode(game, data: Any) -> State:
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise InvalidPosition(f"Stellar is played by 2 players, not {players!r}", where="state.players")
    seed = raw["seed"]
    if type(seed) is not int:
        raise InvalidPosition(f"must be a whole number, not {seed!r}", where="state.seed")
    shuffles = _int(raw["shuffles"], "state.shuffles", 0)
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    round_ = _int(raw["round"], "state.round", 0, ROUNDS)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise InvalidPosition(f"phase must be one of {', '.join(PHASES)}, not {phase!r}", where="state.phase")
    phase = PHASES[PHASES.index(phase)]
    satellite_taken = _bool(raw["satellite_taken"], "state.satellite_taken")

    deck = _cards(cards, raw["deck"], "state.deck")
    discard = _cards(cards, raw["discard"], "state.discard")
    box = _cards(cards, raw["box"], "state.box")
    row_raw = raw["row"]
    if not isinstance(row_raw, Mapping) or set(row_raw) != {str(n) for n in range(1, ROW_SLOTS + 1)}:
        raise InvalidPosition(f'row must be an object with the keys "1" to "{ROW_SLOTS}"', where="state.row")
    row = tuple(EMPTY if row_raw[str(n)] is None else cards.kind(row_raw[str(n)], where=f"state.row.{n}")
                for n in range(1, ROW_SLOTS + 1))
    hands = tuple(tuple(sorted(_cards(cards, h, f"state.hands[{s}]")))
                  for s, h in enumerate(per_seat(raw["hands"], players, "hand", "state.hands")))
    starters = tuple(tuple(sorted(_cards(cards, p, f"state.starters[{s}]")))
                     for s, p in enumerate(per_seat(raw["starters"], players, "starter list", "state.starters")))
    telescopes = tuple(_telescope(cards, t, f"state.telescopes[{s}]")
                       for s, t in enumerate(per_seat(raw["telescopes"], players, "telescope", "state.telescopes")))
    notebooks = tuple(_notebook(cards, n, f"state.notebooks[{s}]")
                      for s, n in enumerate(per_seat(raw["notebooks"], players, "notebook", "state.notebooks")))
    pending = EMPTY if raw["pending"] is None else cards.kind(raw["pending"], where="state.pending")

    # Impossible counts: no zone may hold more copies of a card than the game has.
    counts = Counter(deck + discard + box + tuple(k for k in row if k != EMPTY) + ((pending,) if pending != EMPTY else ()))
    for zone in (hands, starters, notebooks):
        for pile in zone:
            counts.update(pile)
    for telescope in telescopes:
        counts.update(card_of(e) for e in telescope if e != EMPTY)
    for kind, count in sorted(counts.items()):
        if count > cards.copies[kind]:
            raise InvalidPosition(f"{cards.card_name(kind)} appears {_times(count)}, but the game has "
                                  f"{_times(cards.copies[kind], 'copy', 'copies')}", where="state")
    for i, kind in enumerate(box):
        if not cards.starter[kind]:
            raise InvalidPosition(f"only the fifth starter card goes into the box, not {cards.card_name(kind)}", where=f"state.box[{i}]")
    if box and not variants["fifth_starter_to_box"]:
        raise InvalidPosition("the box holds a card only with the fifth_starter_to_box switch", where="state.box")

    # The phase must fit the zones, so whoever is to move can move.
    for s, pair in enumerate(starters):
        at = f"state.starters[{s}]"
        if pair and phase != STARTERS:
            raise InvalidPosition("starter cards wait in front of a player only during setup", where=at)
        if pair and (len(pair) != 2 or not all(cards.starter[k] for k in pair)):
            raise InvalidPosition("a player places exactly two starter cards", where=at)
        if pair and telescopes[s][0] != EMPTY:
            raise InvalidPosition(f"the apex slot {cards.telescope.slot_names[0]} waits for a starter card", where=f"state.telescopes[{s}]")
    if phase == STARTERS and not any(starters):
        raise InvalidPosition("in the setup phase someone must still have starter cards to place", where="state.starters")
    if phase == PLACE:
        if pending == EMPTY:
            raise InvalidPosition("the place phase needs the second card waiting for its telescope slot", where="state.pending")
    elif pending != EMPTY:
        raise InvalidPosition("only the place phase has a pending card", where="state.pending")
    if satellite_taken and phase not in (PLAY, PLACE, CLEAR):
        raise InvalidPosition("a satellite can only have been taken during a turn in progress", where="state.satellite_taken")
    if phase == CLEAR and not satellite_taken:
        raise InvalidPosition("the clear phase follows taking a satellite (satellite_taken must be true)", where="state.satellite_taken")
    turn_goes_on = phase in (TAKE, PLAY, PLACE) or (phase == CLEAR and variants["satellite_clear"] == "after_take")
    if turn_goes_on and EMPTY not in telescopes[seat]:
        raise InvalidPosition(f"Player {seat + 1}'s telescope is full, so no turn can be played", where=f"state.telescopes[{seat}]")
    if phase == TAKE and all(k == EMPTY for k in row):
        raise InvalidPosition("the row is empty, so there is nothing to take", where="state.row")
    if phase == PLAY and not hands[seat]:
        raise InvalidPosition(f"Player {seat + 1} is to play but has no card in hand", where="state.hands")
    if phase == FINAL and not any(hands):
        raise InvalidPosition("in the final phase someone must still hold cards (else the game is over)", where="state.hands")
    if phase == OVER and any(hands):
        raise InvalidPosition("the game is over, so every hand card was placed or discarded", where="state.hands")

    return State(
        cards=cards, players=players, variants=tuple(sorted(variants.items())), seed=seed, shuffles=shuffles,
        deck=deck, discard=discard, box=box, row=row, hands=hands, starters=starters, telescopes=telescopes,
        notebooks=notebooks, start_player=start, seat=seat, round=round_, phase=phase, pending=pending,
        satellite_taken=satellite_taken, log=(),
    )


ACTION_TYPES = {"choose_starters": ChooseStarters, "take": TakeRowCard, "telescope": PlayToTelescope,
                "notebook": PlayToNotebook, "clear_row": ClearRow, "final": FinalNotebookCard}


def encode_action(action) -> dict:
    if isinstance(action, ChooseStarters):
        return {"type": "choose_starters", "telescope": action.telescope, "notebook": action.notebook}
    if isinstance(action, TakeRowCard):
        return {"type": "take", "slot": action.slot}
    if isinstance(action, PlayToTelescope):
        return {"type": "telescope", "card": action.card, "slot": action.slot, "face_down": action.face_down}
    if isinstance(action, PlayToNotebook):
        return {"type": "notebook", "card": action.card}
    if isinstance(action, ClearRow):
        return {"type": "clear_row", "clear": action.clear}
    if isinstance(action, FinalNotebookCard):
        return {"type": "final", "card": action.card}
    raise TypeError(f"not a Stellar action: {action!r}")


def decode_action(game, data: Any):
    if not isinstance(data, Mapping):
        raise InvalidPosition(f"an action is an object with a 'type', not {type(data).__name__}", where="action")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidPosition(f"action type must be one of {', '.join(ACTION_TYPES)}, not {kind!r}", where="action.type")
    cards = game.cards
    if kind == "choose_starters":
        require_keys(data, ("type", "telescope", "notebook"), where="action")
        cards.kind(data["telescope"], where="action.telescope")
        cards.kind(data["notebook"], where="action.notebook")
        return ChooseStarters(telescope=data["telescope"], notebook=data["notebook"])
    if kind == "take":
        require_keys(data, ("type", "slot"), where="action")
        return TakeRowCard(slot=_int(data["slot"], "action.slot", 1, ROW_SLOTS))
    if kind == "telescope":
        require_keys(data, ("type", "card", "slot"), where="action", optional=("face_down",))
        cards.kind(data["card"], where="action.card")
        cards.telescope.slot(data["slot"], where="action.slot")
        down = _bool(data.get("face_down", False), "action.face_down")
        return PlayToTelescope(card=data["card"], slot=data["slot"], face_down=down)
    if kind == "clear_row":
        require_keys(data, ("type", "clear"), where="action")
        return ClearRow(clear=_bool(data["clear"], "action.clear"))
    require_keys(data, ("type", "card"), where="action")
    cards.kind(data["card"], where="action.card")
    return ACTION_TYPES[kind](card=data["card"])

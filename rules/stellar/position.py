"""Stellar positions and actions as JSON (docs/formats.md).

A position names every card (``"planet-3-1star"``, ``"satellite"``), lists the deck top first, the
row by slot number, each telescope by slot name (``"top-1"`` ... ``"bottom-4"``; a face-down card is
``{"face_down": card}``) and each notebook by stack (type id, plus ``"satellite"``), so a teacher
can write one by hand. ``decode`` checks everything a hand-written file can get wrong and says what
and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable, Mapping

from rules.eventtexts import joined, player
from rules.fields import (json_bool as _bool, json_list as _list, per_seat, position_header, seed_number,
                          times as _times, whole_number as _int)
from rules.protocol import JSON, JSONObject, PositionField, require_keys, shown
from rules.stellar.cards import CardSet, invalid as _bad, parse_cards
from rules.stellar.state import (
    CLEAR, EMPTY, FINAL, OVER, PHASES, PLACE, PLAY, ROUNDS, ROW_SLOTS, STARTERS, TAKE,
    Action, Card, ChooseStarters, ClearRow, FinalNotebookCard, PlayToNotebook, PlayToTelescope, SlotMask, State,
    TakeRowCard, TelescopeEntry, card_of, face_down, is_face_down, without,
)

if TYPE_CHECKING:
    from rules.stellar.game import Stellar

STATE_KEYS = ("players", "seed", "shuffles", "start_player", "seat", "round", "phase", "deck", "discard",
              "box", "row", "hands", "starters", "telescopes", "notebooks", "pending", "satellite_taken")
#: Optional (files written before them load as "nothing known, nothing chosen"): what the other
#: seats know of each seat's hidden cards, and the secret simultaneous choices.
KNOWLEDGE_KEYS = ("known_hands", "known_face_down", "pending_seen", "chosen")


def telescope_json(cards: CardSet, telescope: tuple[TelescopeEntry, ...],
                   shown_down: SlotMask | None = None) -> JSONObject:
    """A telescope by slot name; a face-down card is ``{"face_down": card}``, or ``{"face_down": None}``
    when ``shown_down`` (a bit mask of slots; None: every slot) leaves its slot out."""
    name = cards.card_name
    out: JSONObject = {}
    for i, (slot, entry) in enumerate(zip(cards.telescope.slot_names, telescope)):
        if entry == EMPTY:
            out[slot] = None
        elif is_face_down(entry):
            out[slot] = {"face_down": name(card_of(entry)) if shown_down is None or shown_down >> i & 1 else None}
        else:
            out[slot] = name(entry)
    return out


def notebook_json(cards: CardSet, notebook: tuple[Card, ...]) -> dict[str, list[str]]:
    stacks: dict[str, list[str]] = {cards.type_id(t): [] for t in range(len(cards.types) + 1)}
    for kind in notebook:
        stacks[cards.type_id(cards.type_of[kind])].append(cards.card_name(kind))
    return stacks


def encode(game: Stellar, state: State) -> JSONObject:
    cards = state.cards

    def names(kinds: Iterable[Card]) -> list[str]:
        return [cards.card_name(k) for k in kinds]

    data: JSONObject = {
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
            "known_hands": [names(known) for known in state.known],
            "known_face_down": [[slot for i, slot in enumerate(cards.telescope.slot_names) if mask >> i & 1]
                                for mask in state.known_down],
            "pending_seen": state.pending_seen,
            "chosen": [cards.card_name(k) if k != EMPTY else None for k in state.chosen],
        },
    }
    if not cards.is_standard:
        data["cards"] = cards.raw
    return data


def _cards(cards: CardSet, value: JSON, where: str) -> tuple[Card, ...]:
    return tuple(cards.kind(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))



def _telescope(cards: CardSet, raw: JSON, where: str) -> tuple[TelescopeEntry, ...]:
    slots = cards.telescope.slot_names
    require_keys(raw, slots, where=where)
    out: list[TelescopeEntry] = []
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


def _notebook(cards: CardSet, raw: JSON, where: str) -> tuple[Card, ...]:
    keys = [cards.type_id(t) for t in range(len(cards.types) + 1)]
    require_keys(raw, (), where=where, optional=keys)
    out: list[Card] = []
    for t, key in enumerate(keys):
        for i, kind in enumerate(_cards(cards, raw.get(key, []), f"{where}.{key}")):
            if cards.type_of[kind] != t:
                raise _bad("wrong_stack", f"{where}.{key}[{i}]", card=cards.card_name(kind),
                           stack=cards.type_id(cards.type_of[kind]), written=key)
            out.append(kind)
    return tuple(sorted(out))


def decode(game: Stellar, data: JSON) -> State:
    optional: dict[str, JSON] = {}
    if isinstance(data, Mapping) and isinstance(data.get("state"), Mapping):
        optional = {key: data["state"][key] for key in KNOWLEDGE_KEYS if key in data["state"]}
        data = {**data, "state": {key: value for key, value in data["state"].items() if key not in KNOWLEDGE_KEYS}}
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise _bad("players", "state.players", players=shown(players))
    seed = seed_number(raw["seed"], "state.seed")
    shuffles = _int(raw["shuffles"], "state.shuffles", 0)
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad("phase", "state.phase", phases=joined(PHASES), value=repr(phase))
    phase = PHASES[PHASES.index(phase)]
    # Rounds are counted from 0: round ROUNDS is reached only when the last one ends (the final card).
    round_ = _int(raw["round"], "state.round", 0, ROUNDS if phase in (FINAL, OVER) else ROUNDS - 1)
    satellite_taken = _bool(raw["satellite_taken"], "state.satellite_taken")

    deck = _cards(cards, raw["deck"], "state.deck")
    discard = _cards(cards, raw["discard"], "state.discard")
    box = _cards(cards, raw["box"], "state.box")
    row_raw = raw["row"]
    if not isinstance(row_raw, Mapping) or set(row_raw) != {str(n) for n in range(1, ROW_SLOTS + 1)}:
        raise _bad("row", "state.row", last=ROW_SLOTS)
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
            raise _bad("too_many_copies", "state", card=cards.card_name(kind),
                       count={"en": _times(count), "ja": f"{count}枚"},
                       copies={"en": _times(cards.copies[kind], "copy", "copies"), "ja": f"{cards.copies[kind]}枚"})
    for i, kind in enumerate(box):
        if not cards.starter[kind]:
            raise _bad("box_starter", f"state.box[{i}]", card=cards.card_name(kind))
    if box and not variants["fifth_starter_to_box"]:
        raise _bad("box_switch", "state.box")

    # The phase must fit the zones, so whoever is to move can move.
    for s, pair in enumerate(starters):
        at = f"state.starters[{s}]"
        if pair and phase != STARTERS:
            raise _bad("starters_setup", at)
        if pair and (len(pair) != 2 or not all(cards.starter[k] for k in pair)):
            raise _bad("starters_two", at)
        if pair and telescopes[s][0] != EMPTY:
            raise _bad("apex_waits", f"state.telescopes[{s}]", slot=cards.telescope.slot_names[0])
    if phase == STARTERS and not any(starters):
        raise _bad("setup_starters", "state.starters")
    if phase == PLACE:
        if pending == EMPTY:
            raise _bad("place_pending", "state.pending")
    elif pending != EMPTY:
        raise _bad("pending_only", "state.pending")
    if satellite_taken and phase not in (PLAY, PLACE, CLEAR):
        raise _bad("satellite_taken", "state.satellite_taken")
    if phase == CLEAR and not satellite_taken:
        raise _bad("clear_phase", "state.satellite_taken")
    turn_goes_on = phase in (TAKE, PLAY, PLACE) or (phase == CLEAR and variants["satellite_clear"] == "after_take")
    if turn_goes_on and EMPTY not in telescopes[seat]:
        raise _bad("telescope_full", f"state.telescopes[{seat}]", who=player(seat))
    if phase == TAKE and all(k == EMPTY for k in row):
        raise _bad("row_empty", "state.row")
    # (After a clear with the switch satellite_clear at "after_take" the taker plays a hand card: it
    # must hold one, as in phase play. A file without one left that seat with no move.)
    plays_next = phase == PLAY or (phase == CLEAR and variants["satellite_clear"] == "after_take")
    if plays_next and not hands[seat]:
        raise _bad("no_hand_card", "state.hands", who=player(seat))
    if phase == FINAL and not any(hands):
        raise _bad("final_hands", "state.hands")
    if phase == OVER and any(hands):
        raise _bad("over_hands", "state.hands")
    _check_telescopes_last(variants, players, start, seat, round_, phase, starters, telescopes)
    known, known_down, pending_seen, chosen = _knowledge(cards, optional, players, phase, hands, starters, telescopes,
                                                         pending)
    unseen = tuple(without(hand, seen) for hand, seen in zip(hands, known))

    return State(
        cards=cards, players=players, variants=tuple(sorted(variants.items())), seed=seed, shuffles=shuffles,
        deck=deck, discard=discard, box=box, row=row, hands=hands, starters=starters, telescopes=telescopes,
        notebooks=notebooks, start_player=start, seat=seat, round=round_, phase=phase, pending=pending,
        satellite_taken=satellite_taken, log=(), unseen=unseen, known_down=known_down, pending_seen=pending_seen,
        chosen=chosen,
    )


def _knowledge(cards: CardSet, raw: Mapping[str, JSON], players: int, phase: str, hands: tuple[tuple[Card, ...], ...],
               starters: tuple[tuple[Card, ...], ...], telescopes: tuple[tuple[TelescopeEntry, ...], ...],
               pending: Card) -> tuple[tuple[tuple[Card, ...], ...], tuple[SlotMask, ...], bool, tuple[Card, ...]]:
    """The optional ``known_hands``, ``known_face_down``, ``pending_seen`` and ``chosen`` fields, checked
    against the zones they speak of."""
    known: tuple[tuple[Card, ...], ...] = ((),) * players
    if "known_hands" in raw:
        known = tuple(tuple(sorted(_cards(cards, k, f"state.known_hands[{s}]")))
                      for s, k in enumerate(per_seat(raw["known_hands"], players, "hand", "state.known_hands")))
        for s, cards_known in enumerate(known):
            if Counter(cards_known) - Counter(hands[s]):
                raise _bad("known_not_in_hand", f"state.known_hands[{s}]", who=player(s))
    known_down = (0,) * players
    if "known_face_down" in raw:
        masks: list[SlotMask] = []
        for s, slots in enumerate(per_seat(raw["known_face_down"], players, "telescope", "state.known_face_down")):
            mask = 0
            for i, name in enumerate(_list(slots, f"state.known_face_down[{s}]")):
                at = f"state.known_face_down[{s}][{i}]"
                slot = cards.telescope.slot(name, where=at)
                if not is_face_down(telescopes[s][slot]):
                    raise _bad("known_not_face_down", at, slot=name)
                mask |= 1 << slot
            masks.append(mask)
        known_down = tuple(masks)
    pending_seen = _bool(raw.get("pending_seen", False), "state.pending_seen")
    if pending_seen and pending == EMPTY:
        raise _bad("pending_only", "state.pending_seen")
    chosen = (EMPTY,) * players
    if "chosen" in raw:
        chosen = tuple(EMPTY if name is None else cards.kind(name, where=f"state.chosen[{s}]")
                       for s, name in enumerate(per_seat(raw["chosen"], players, "chosen card (or null)", "state.chosen")))
        from_zone = starters if phase == STARTERS else hands if phase == FINAL else None
        for s, card in enumerate(chosen):
            if card != EMPTY and (from_zone is None or card not in from_zone[s]):
                raise _bad("chosen", f"state.chosen[{s}]", who=player(s))
        if from_zone is not None and not any(from_zone[s] and chosen[s] == EMPTY for s in range(players)):
            raise _bad("chosen_all", "state.chosen")
    return known, known_down, pending_seen, chosen


def _check_telescopes_last(variants: Mapping[str, object], players: int, start: int, seat: int, round_: int,
                           phase: str, starters: tuple[tuple[Card, ...], ...],
                           telescopes: tuple[tuple[TelescopeEntry, ...], ...]) -> None:
    """A position always has a move: refuse one where a telescope fills up before the game ends (a
    turn whose hand card goes to the notebook must put its second card into the telescope). A turn
    puts at most one card into its player's telescope (exactly one unless the deck ran out)."""
    if phase in (FINAL, OVER):
        return
    # The turns left, the current one included: round by round to the last seat of round ROUNDS.
    turns = max(ROUNDS - round_, 1) * players - (seat - start) % players
    placed = phase == CLEAR and variants["satellite_clear"] == "before_refill"  # this turn's card is in
    for s in range(players):
        wanted = sum(1 for i in range(turns) if (seat + i) % players == s) - (placed and s == seat) + bool(starters[s])
        empty = telescopes[s].count(EMPTY)
        if empty < wanted:
            raise _bad("telescope_short", f"state.telescopes[{s}]", who=player(s), empty=empty, needed=wanted)


ACTION_TYPES = {"choose_starters": ChooseStarters, "take": TakeRowCard, "telescope": PlayToTelescope,
                "notebook": PlayToNotebook, "clear_row": ClearRow, "final": FinalNotebookCard}


def encode_action(action: Action) -> JSONObject:
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


def decode_action(game: Stellar, data: JSON) -> Action:
    if not isinstance(data, Mapping):
        raise _bad("action_object", "action", kind=type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise _bad("action_type", "action.type", types=joined(ACTION_TYPES), value=repr(kind))
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
    if kind == "notebook":
        return PlayToNotebook(card=data["card"])
    return FinalNotebookCard(card=data["card"])


def fields(game: Stellar, data: Mapping[str, JSON]) -> tuple[PositionField, ...]:
    """What a person edits in a Stellar position (:meth:`~rules.protocol.GameSpec.position_fields`):
    the deck, discard and box, the row's slots, each seat's hand, starters, telescope slots and
    notebook stacks, and whose turn, the round and phase. A telescope slot holding a face-down card
    (``{"face_down": card}``) and the secret choices stay in the JSON tab. ``()`` for data that is
    not a position's shape."""
    from rules import position_fields as f
    from rules.eventtexts import say, say_shared
    from rules.stellar.game import telescope_slot_label

    seated = f.seated(game, data)
    if seated is None:
        return ()
    state, hands, _ = seated
    cards = game.cards
    kinds = range(len(cards.kind_names))
    ids = [cards.card_name(kind) for kind in kinds]
    table = f.table()
    found = [
        f.to_move(), f.start_player(), f.round_number(high=ROUNDS),
        f.phase(PHASES, [say(game.id, f"editor.phase.{p}") for p in PHASES]),
        f.flag(("satellite_taken",), say(game.id, "editor.satellite_taken")),
        f.deck(("deck",), ids),
        f.cards(("discard",), say_shared("editor.discard"), table, ids),
        f.cards(("box",), say_shared("editor.box"), table, ids),
    ]
    row = state.get("row")
    if not isinstance(row, Mapping):
        row = {}
    found += [f.card(("row", str(n)), say(game.id, "editor.row_slot", n=n), table, ids)
              for n in range(1, ROW_SLOTS + 1) if str(n) in row]
    starters = [cards.card_name(kind) for kind in cards.starters]
    telescopes = state.get("telescopes")
    if not isinstance(telescopes, list):
        telescopes = []
    notebooks = state.get("notebooks")
    if not isinstance(notebooks, list):
        notebooks = []
    stacks: dict[str, tuple[dict[str, str], list[str]]] = {}   # stack id -> (its name, the cards that go there)
    for kind in kinds:
        type_index = cards.type_of[kind]
        name = (say(game.id, "term.satellite") if cards.is_satellite(kind) else
                {"en": cards.types[type_index].name, "ja": cards.types[type_index].name_ja or cards.types[type_index].name})
        stacks.setdefault(cards.type_id(type_index), (name, []))[1].append(cards.card_name(kind))
    for s in range(len(hands)):
        who = player(s)
        found.append(f.hand(s, ids))
        found.append(f.cards(("starters", s), say(game.id, "editor.starters", player=who), who, starters,
                             note=say(game.id, "editor.starters.note")))
        telescope = telescopes[s] if s < len(telescopes) and isinstance(telescopes[s], Mapping) else {}
        for slot in cards.telescope.slot_names:
            if slot in telescope and not isinstance(telescope[slot], Mapping):
                found.append(f.card(("telescopes", s, slot), say(game.id, "editor.telescope_slot", player=who,
                                                                 slot=telescope_slot_label(slot)), who, ids))
        notebook = notebooks[s] if s < len(notebooks) and isinstance(notebooks[s], Mapping) else {}
        for stack, (name, members) in stacks.items():
            if stack in notebook:
                found.append(f.cards(("notebooks", s, stack), say(game.id, "editor.notebook", player=who, stack=name),
                                     who, members))
    return tuple(found)

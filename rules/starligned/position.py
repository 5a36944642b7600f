"""Starligned positions and actions as JSON (docs/formats.md).

A card in a hand or a row is written with its orientation: ``"S101"`` with its high half up,
``"S101r"`` rotated (low half up). Rows are left to right; moon cards are listed per row by the two
cards they cover. ``decode`` checks everything a hand-written file can get wrong and says where.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Mapping

from rules.fields import (action_fields, json_bool as _bool, json_list as _list, per_seat, position_header,
                          seed_number, whole_number as _int)
from rules.eventtexts import Texts, joined, player, say, say_shared
from rules.protocol import JSON, JSONObject, PositionField, require_keys, shown
from rules.starligned import choices
from rules.starligned.cards import PHASE3_EFFECTS, CardSet, Entry, _bad, parse_cards
from rules.starligned.state import (
    EFFECT, EXCHANGE, HAND, MOON, NONE, OVER, PHASES, PLAY, REPEAT, ROTATE, ROUNDS, STAGES,
    Action, ExchangeCard, ExchangeWith, MoonBonus, MoonPair, MoveCard, PlayCard, RepeatEffect, RotateCard,
    RotateHandCard, RotateTelescope, State, Swap,
)

if TYPE_CHECKING:
    from rules.starligned.game import Starligned       # (the game reads this module)

STATE_KEYS = ("players", "seed", "start_player", "stage", "round", "phase", "deck", "box", "discard", "hands", "rows",
              "moons", "moon_supply", "chosen", "resolver", "pending", "ignored", "stopped")
#: Added after the first files were written: a file without it still loads (as if no Exchange happened).
OPTIONAL_KEYS = ("exchanged",)


def entry_name(cards: CardSet, e: Entry) -> str:
    return cards.ids[e // 2] + ("r" if e & 1 else "")


def parse_entry(cards: CardSet, value: JSON, where: str) -> Entry:
    if isinstance(value, str) and value.endswith("r") and value[:-1] in cards.by_id:
        return 2 * cards.by_id[value[:-1]] + 1
    if isinstance(value, str) and value in cards.by_id:
        return 2 * cards.by_id[value]
    _bad("unknown_card", where, value=repr(value), example=repr(cards.ids[0]), rotated=repr(cards.ids[0] + "r"))


def _effect(effect: str) -> Texts:
    """An effect as the file writes it ("rotate_card"), named in Japanese ("星カードの回転")."""
    return {**say("starligned", f"effect.{effect}"), "en": effect}


def encode(game: Starligned, state: State) -> JSONObject:
    cards = state.cards
    names: Callable[[tuple[Entry, ...]], list[str]] = lambda entries: [  # noqa: E731
        entry_name(cards, e) for e in entries]
    data: JSONObject = {
        "game": game.id,
        "version": game.version,
        "variants": dict(state.variants),
        "state": {
            "players": state.players,
            "seed": state.seed,
            "start_player": state.start_player,
            "stage": state.stage,
            "round": state.round,
            "phase": state.phase,
            "deck": [cards.ids[c] for c in state.deck],
            "box": [cards.ids[c] for c in state.box],
            "discard": names(state.discard),
            "hands": [names(h) for h in state.hands],
            "rows": [names(r) for r in state.rows],
            "moons": [[[cards.ids[a], cards.ids[b]] for a, b in pairs] for pairs in state.moons],
            "moon_supply": state.moon_supply,
            "chosen": [None if c == NONE else (entry_name(cards, c) if state.phase == PLAY else True) for c in state.chosen],
            "resolver": None if state.resolver == NONE else state.resolver,
            "pending": (None if not state.pending else {"seat": state.pending[0], "card": cards.ids[state.pending[1]]}),
            "ignored": [cards.ids[c] for c in state.ignored],
            "stopped": state.stopped,
            "exchanged": [cards.ids[c] for c in state.exchanged],
        },
    }
    if not cards.is_standard:
        data["cards"] = cards.raw
    return data



def _entries(cards: CardSet, value: JSON, where: str) -> tuple[Entry, ...]:
    return tuple(parse_entry(cards, v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def decode(game: Starligned, data: JSON) -> State:
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS, OPTIONAL_KEYS)
    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        _bad("players", "state.players", players=shown(players))
    seed = seed_number(raw["seed"], "state.seed")
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    stage = _int(raw["stage"], "state.stage", 0, STAGES - 1)
    round_ = _int(raw["round"], "state.round", 0, ROUNDS - 1)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        _bad("phase", "state.phase", phases=joined(PHASES), phase=repr(phase))
    phase = PHASES[PHASES.index(phase)]
    deck = tuple(cards.card(c, where=f"state.deck[{i}]") for i, c in enumerate(_list(raw["deck"], "state.deck")))
    box = tuple(cards.card(c, where=f"state.box[{i}]") for i, c in enumerate(_list(raw["box"], "state.box")))
    discard = _entries(cards, raw["discard"], "state.discard")
    hands = tuple(tuple(sorted(_entries(cards, h, f"state.hands[{s}]")))
                  for s, h in enumerate(per_seat(raw["hands"], players, "hand", "state.hands")))
    rows = tuple(_entries(cards, r, f"state.rows[{s}]") for s, r in enumerate(per_seat(raw["rows"], players, "row", "state.rows")))
    moon_supply = _int(raw["moon_supply"], "state.moon_supply", 0)
    moon_lists = []
    for s, pairs in enumerate(per_seat(raw["moons"], players, "moon list", "state.moons")):
        row_cards = [e // 2 for e in rows[s]]
        out: list[MoonPair] = []
        for i, pair in enumerate(_list(pairs, f"state.moons[{s}]")):
            at = f"state.moons[{s}][{i}]"
            pair = _list(pair, at)
            if len(pair) != 2:
                _bad("moon_pair", at)
            a, b = (cards.card(c, where=f"{at}[{j}]") for j, c in enumerate(pair))
            if a not in row_cards or b not in row_cards or row_cards.index(b) != row_cards.index(a) + 1:
                _bad("moon_neighbours", at)
            if any(a in p or b in p for p in out):
                _bad("moon_once", at)
            out.append((a, b))
        moon_lists.append(tuple(out))
    moons = tuple(moon_lists)
    if moon_supply + sum(len(m) for m in moons) > cards.moon_cards:
        _bad("moon_supply", "state.moon_supply", moon_cards=cards.moon_cards)

    chosen_raw = per_seat(raw["chosen"], players, "chosen card (or null)", "state.chosen")
    chosen_list = []
    for s, value in enumerate(chosen_raw):
        at = f"state.chosen[{s}]"
        if value is None:
            chosen_list.append(NONE)
        elif phase == PLAY:
            chosen_list.append(parse_entry(cards, value, at))
        elif phase == ROTATE and value is True:
            chosen_list.append(1)
        else:
            _bad("chosen", at)
    chosen = tuple(chosen_list)
    if phase in (PLAY, ROTATE) and NONE not in chosen:
        _bad("chosen_all", "state.chosen")
    resolver = NONE if raw["resolver"] is None else _int(raw["resolver"], "state.resolver", 0, players - 1)
    pending_raw = raw["pending"]
    pending: tuple[int, ...]
    if pending_raw is None:
        pending = ()
    else:
        require_keys(pending_raw, ("seat", "card"), where="state.pending")
        pending = (_int(pending_raw["seat"], "state.pending.seat", 0, players - 1),
                   cards.card(pending_raw["card"], where="state.pending.card"))
    ignored = tuple(cards.card(c, where=f"state.ignored[{i}]") for i, c in enumerate(_list(raw["ignored"], "state.ignored")))
    stopped = _bool(raw["stopped"], "state.stopped")
    exchanged = tuple(cards.card(c, where=f"state.exchanged[{i}]")
                      for i, c in enumerate(_list(raw.get("exchanged", []), "state.exchanged")))
    for card, count in Counter(exchanged).items():
        if count > 1:
            _bad("card_repeated", "state.exchanged", card=cards.ids[card], count=count)

    # Every card once, and only cards of this player count.
    every = list(deck) + list(box) + [e // 2 for e in discard]
    for zone in (hands, rows):
        for pile in zone:
            every.extend(e // 2 for e in pile)
    every.extend(c // 2 for c in chosen if c != NONE and phase == PLAY)
    for card, count in sorted(Counter(every).items()):
        if count > 1:
            _bad("card_repeated", "state", card=cards.ids[card], count=count)
    in_play = set(cards.deck(players))
    for i, card in enumerate(box):
        if card in in_play:
            _bad("box_in_play", f"state.box[{i}]", card=cards.ids[card], players=players)
    for card in every:
        if card not in in_play and card not in box:
            _bad("white_card", "state", card=cards.ids[card], players=players)

    # The phase must fit the zones: everyone has played the same number of cards.
    expected = STAGES * ROUNDS if phase == OVER else stage * ROUNDS + round_ + (0 if phase == PLAY else 1)
    for s in range(players):
        if len(rows[s]) != expected:
            _bad("row_length", f"state.rows[{s}]", stage=stage + 1, round=round_ + 1, phase=phase, expected=expected,
                 actual=len(rows[s]))
        if len(hands[s]) > HAND:
            _bad("hand_max", f"state.hands[{s}]", hand=HAND)
    if phase in (MOON, EFFECT, REPEAT, EXCHANGE):
        if resolver == NONE:
            _bad("no_resolver", "state.resolver")
        if not rows[resolver]:
            _bad("resolver_row", f"state.rows[{resolver}]")
    elif resolver != NONE:
        _bad("resolver_phase", "state.resolver")
    if phase in (REPEAT, EXCHANGE):
        if not pending:
            _bad("no_pending", "state.pending", phase=phase)
        if all(e // 2 != pending[1] for e in rows[pending[0]]):
            _bad("pending_row", "state.pending", card=cards.ids[pending[1]], who=player(pending[0]))
        if phase == EXCHANGE and not hands[pending[0]]:
            _bad("pending_hand", "state.pending", who=player(pending[0]))
    elif pending:
        _bad("pending_phase", "state.pending")
    if phase == PLAY:
        for s in range(players):
            if chosen[s] == NONE and not hands[s]:
                _bad("must_play", f"state.hands[{s}]", who=player(s))
    if phase == ROTATE:
        for s in range(players):
            if chosen[s] == NONE and not hands[s]:
                _bad("must_rotate", f"state.hands[{s}]", who=player(s))
    if phase == OVER and any(hands):
        _bad("over_hands", "state.hands")
    if phase == ROTATE and round_ == ROUNDS - 1:
        _bad("fifth_round", "state.phase")
    # Six cards are dealt each stage and one leaves every hand each round (an Exchange trades one for one).
    if phase != OVER:
        for s in range(players):
            held = HAND - round_ - (0 if phase == PLAY and chosen[s] == NONE else 1)
            if len(hands[s]) != held:
                _bad("hand_size", f"state.hands[{s}]", round=round_ + 1, phase=phase, held=held, actual=len(hands[s]))
        if stage == 0 and len(deck) < HAND * players:
            _bad("deck_size", "state.deck", hand=HAND, needed=HAND * players, actual=len(deck))
    state = State(
        cards=cards, players=players, variants=tuple(sorted(variants.items())), seed=seed, deck=deck, box=box,
        discard=discard, hands=hands, rows=rows, moons=moons, moon_supply=moon_supply, chosen=chosen,
        start_player=start, stage=stage, round=round_, phase=phase, resolver=resolver, pending=pending,
        ignored=ignored, stopped=stopped, exchanged=exchanged, log=(),
    )
    _check_decision(state)
    return state


def _check_decision(state: State) -> None:
    """Phase 3 names a player only for a decision they have (``rules.begin_turn`` and ``_resolve``
    skip the others), so a position must not name one who has none."""
    cards, phase, seat = state.cards, state.phase, state.resolver
    if phase == MOON and not choices.moon_actions(state, seat):
        _bad("no_moon_bonus", "state.phase", who=player(seat))
    if phase == EFFECT:
        last = state.rows[seat][-1]
        effect = cards.effect[last]
        if effect not in PHASE3_EFFECTS or last // 2 in state.ignored or not choices.resolvable(state, effect, seat, last // 2):
            _bad("nothing_to_resolve", "state.phase", who=player(seat), card=entry_name(cards, last),
                 effect=_effect(effect))
    if phase == REPEAT:
        owner, card = state.pending
        e = next(e for e in state.rows[owner] if e // 2 == card)
        effect = cards.effect[e]
        if effect not in PHASE3_EFFECTS or effect == "repeat" or not choices.resolvable(state, effect, owner, card):
            _bad("nothing_to_repeat", "state.pending", card=entry_name(cards, e), effect=_effect(effect))
    if phase == EXCHANGE and state.blocked(*state.pending):
        _bad("pending_blocked", "state.pending", card=cards.ids[state.pending[1]])


ACTION_TYPES: dict[str, type[Action]] = {
    "play": PlayCard, "moon": MoonBonus, "swap": Swap, "move": MoveCard, "rotate_card": RotateCard,
    "rotate_telescope": RotateTelescope, "repeat": RepeatEffect, "exchange": ExchangeCard,
    "exchange_with": ExchangeWith, "rotate_hand": RotateHandCard}
TYPE_OF = {cls: name for name, cls in ACTION_TYPES.items()}


def encode_action(action: Action) -> JSONObject:
    name = TYPE_OF.get(type(action))
    if name is None:
        raise TypeError(f"not a Starligned action: {action!r}")
    data: JSONObject = {"type": name, **action_fields(action)}
    if isinstance(action, MoonBonus) and action.choice != "remove":
        del data["row"], data["pair"]
    return data


def decode_action(game: Starligned, data: JSON) -> Action:
    if not isinstance(data, Mapping):
        _bad("action_object", "action", kind=type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        _bad("action_type", "action.type", types=joined(ACTION_TYPES), kind=repr(kind))
    cards = game.cards
    cls = ACTION_TYPES[kind]
    if cls is MoonBonus:
        choice = data.get("choice")
        if choice not in ("cover", "remove", "none"):
            _bad("moon_choice", "action.choice", choice=repr(choice))
        if choice != "remove":
            require_keys(data, ("type", "choice"), where="action")
            return MoonBonus(choice=choice)
        require_keys(data, ("type", "choice", "row", "pair"), where="action")
        cards.card(data["pair"], where="action.pair")
        return MoonBonus(choice=choice, row=_int(data["row"], "action.row", 0, 4), pair=data["pair"])
    fields = tuple(cls.__dataclass_fields__)
    require_keys(data, ("type",) + fields, where="action")
    values: dict[str, JSON] = {}
    for field in fields:
        value, at = data[field], f"action.{field}"
        if field in ("card", "first", "second"):
            cards.card(value, where=at)
        elif field in ("row", "seat"):
            _int(value, at, 0, 4)
        elif field == "position":
            _int(value, at, 1, STAGES * ROUNDS)
        values[field] = value
    return cls(**values)


def fields(game: Starligned, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
    """What a person edits in a Starligned position (:meth:`~rules.protocol.GameSpec.position_fields`):
    the deck (top first), the box, the discard, each seat's hand, row (left to right) and, in phase 1,
    face-down card; the moon cards left in the supply; the start player, the seat taking its phase 3
    turn, whether a Stop was revealed, the stage, round and phase. The moon cards on the rows (pairs of
    cards), the pending Repeat or Exchange and the lists ``ignored`` and ``exchanged`` stay in the JSON.
    A card in a hand, a row or the discard is offered both ways up (``"S101"``, ``"S101r"``); only the
    cards in play for the player count are offered, and the box offers the others. ``()`` for data
    that is not a position's shape."""
    from rules import position_fields as f

    seated = f.seated(game, data)
    if seated is None:
        return ()
    state, hands, players = seated
    cards = game.cards
    in_play = cards.deck(players)
    ids = [cards.ids[c] for c in in_play]
    entries = [entry_name(cards, 2 * c + r) for c in in_play for r in (0, 1)]
    boxed = [cards.ids[c] for c in range(len(cards.ids)) if c not in set(in_play)]
    table = f.table()
    phase = state.get("phase")
    found = [
        f.start_player(),
        f.seat(("resolver",), say(game.id, "editor.resolver"), optional=True),
        f.phase(PHASES, [say(game.id, f"editor.phase.{p}") for p in PHASES]),
        f.number(("stage",), say(game.id, "editor.stage"), shown_from=1, high=STAGES - 1),
        f.round_number(high=ROUNDS - 1),
        f.flag(("stopped",), say(game.id, "editor.stopped")),
        f.number(("moon_supply",), say(game.id, "editor.moon_supply"), high=cards.moon_cards),
        f.deck(("deck",), ids),
    ]
    if boxed or state.get("box"):
        found.append(f.cards(("box",), say_shared("editor.box"), table, boxed))
    found.append(f.cards(("discard",), say_shared("editor.discard"), table, entries,
                         note=say(game.id, "editor.discard.note")))
    rows_found, chosen_found = state.get("rows"), state.get("chosen")
    rows = rows_found if isinstance(rows_found, list) else []
    chosen = chosen_found if isinstance(chosen_found, list) else []
    for s in range(len(hands)):
        found.append(f.hand(s, entries))
        if s < len(rows):
            found.append(f.cards(("rows", s), say(game.id, "editor.row", player=player(s)), player(s), entries,
                                 ordered=True, note=say(game.id, "editor.row.note")))
        if phase == PLAY and s < len(chosen) and (chosen[s] is None or isinstance(chosen[s], str)):
            found.append(f.card(("chosen", s), say(game.id, "editor.chosen", player=player(s)), player(s), entries))
    return tuple(found)

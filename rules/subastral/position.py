"""Subastral positions and actions as JSON (docs/formats.md).

A position names every card (``"taiga-4"``), lists the deck top first with the game-end card as
``"END"``, and says whose turn it is, so a teacher can write one by hand. ``decode`` checks everything
a hand-written file can get wrong and says what and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Mapping

from rules.eventtexts import joined, player
from rules.fields import times as _times, whole_number as _int, json_list as _list, position_header
from rules.protocol import JSON, JSONObject, PositionField, require_keys, shown
from rules.subastral.cards import END_CARD, END_CARD_NAME, NUMBERS, Card, CardSet, invalid as _bad, parse_cards
from rules.subastral.state import (
    DISTURB, HAND, JOURNAL, NO_PASS, ORDER, PHASES, PLAY, TAKE,
    Action, Journal, OpenColumn, PassCard, Pile, PlayCard, State, TakeCloud,
)

if TYPE_CHECKING:
    from rules.subastral.game import Subastral

STATE_KEYS = ("players", "start_player", "seat", "round", "phase", "played_cloud", "end_triggered",
              "last_round", "deck", "clouds", "hands", "journals", "pending", "passes")
#: Added after the first files were written: a file without them still loads (``decode`` says how).
OPTIONAL_KEYS = ("taken_cloud", "known_hands")


def encode(game: Subastral, state: State) -> JSONObject:
    name = state.cards.card_name
    names: Callable[[Pile], list[str]] = lambda kinds: [name(k) for k in kinds]  # noqa: E731
    data: JSONObject = {
        "game": game.id,
        "version": game.version,
        "variants": dict(state.variants),
        "state": {
            "players": state.players,
            "start_player": state.start_player,
            "seat": state.seat,
            "round": state.round,
            "phase": state.phase,
            "played_cloud": state.played_cloud or None,
            "taken_cloud": state.taken_cloud or None,
            "end_triggered": state.end_triggered,
            "last_round": state.last_round if state.end_triggered else None,
            "deck": names(state.deck),
            "clouds": {str(n): names(state.clouds[n - 1]) for n in NUMBERS},
            "hands": [names(hand) for hand in state.hands],
            "journals": [[names(column) for column in journal] for journal in state.journals],
            "pending": names(state.pending),
            "passes": [None if card == NO_PASS else name(card) for card in state.passes],
            "known_hands": [names(seen) for seen in state.known],
        },
    }
    if not state.cards.is_standard:
        data["cards"] = state.cards.raw
    return data


def _cards(cards: CardSet, value: JSON, where: str) -> Pile:
    return tuple(cards.kind(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def decode(game: Subastral, data: JSON) -> State:
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS, OPTIONAL_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise _bad("players", "state.players", players=shown(players))
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    round_ = _int(raw["round"], "state.round", 0)
    phase = raw["phase"]
    if phase not in PHASES:
        raise _bad("phase", "state.phase", phases=joined(PHASES), phase=repr(phase))
    phase = PHASES[PHASES.index(phase)]
    end_triggered = raw["end_triggered"]
    if type(end_triggered) is not bool:
        raise _bad("true_or_false", "state.end_triggered")

    deck_names = _list(raw["deck"], "state.deck")
    deck = tuple(END_CARD if n == END_CARD_NAME else cards.kind(n, where=f"state.deck[{i}]") for i, n in enumerate(deck_names))
    ends = deck.count(END_CARD)
    if end_triggered and ends:
        raise _bad("end_card_revealed", "state.deck")
    if not end_triggered and ends != 1:
        raise _bad("end_card_once", "state.deck", found=ends)
    if end_triggered:
        last_round = _int(raw["last_round"], "state.last_round", 0)
        if last_round < round_:
            raise _bad("last_round_before", "state.last_round", last=last_round, current=round_)
        if last_round > round_ + 1:     # (set when the end card appears: that round's next; a file
            # naming a later one made the turns go round, every seat's hand empty, up to it: 10**9 hung)
            raise _bad("last_round_after", "state.last_round", last=last_round, current=round_, next=round_ + 1)
    else:
        if raw["last_round"] is not None:
            raise _bad("last_round_null", "state.last_round")
        last_round = -1

    clouds_raw = raw["clouds"]
    if not isinstance(clouds_raw, Mapping) or set(clouds_raw) != {str(n) for n in NUMBERS}:
        raise _bad("clouds_object", "state.clouds")
    clouds = tuple(_cards(cards, clouds_raw[str(n)], f"state.clouds.{n}") for n in NUMBERS)

    hands_raw = _list(raw["hands"], "state.hands")
    if len(hands_raw) != players:
        raise _bad("hands_count", "state.hands", players=players, found=len(hands_raw))
    hands = tuple(tuple(sorted(_cards(cards, h, f"state.hands[{s}]"))) for s, h in enumerate(hands_raw))

    journals_raw = _list(raw["journals"], "state.journals")
    if len(journals_raw) != players:
        raise _bad("journals_count", "state.journals", players=players, found=len(journals_raw))
    journals: list[Journal] = []
    for s, journal in enumerate(journals_raw):
        columns = []
        seen: dict[int, int] = {}  # biome -> its column
        for c, column in enumerate(_list(journal, f"state.journals[{s}]")):
            at = f"state.journals[{s}][{c}]"
            kinds = _cards(cards, column, at)
            if not kinds:
                raise _bad("column_empty", at)
            biomes = {cards.biome_of[k] for k in kinds}
            if len(biomes) != 1:
                raise _bad("column_biomes", at)
            biome = biomes.pop()
            if biome in seen:
                named = cards.biomes[biome]  # the card file names biomes
                raise _bad("column_twice", at, biome={"en": named.name, "ja": named.name_ja or named.name}, column=seen[biome] + 1)
            seen[biome] = c
            columns.append(kinds)
        journals.append(tuple(columns))

    pending = _cards(cards, raw["pending"], "state.pending")
    played = raw["played_cloud"]
    if phase in (TAKE, ORDER):
        played = _int(played, "state.played_cloud", 1, 6)
        if not clouds[played - 1]:
            raise _bad("played_cloud_empty", "state.clouds", cloud=played)
    elif played is not None:
        raise _bad("played_cloud_null", "state.played_cloud", phase=phase)
    else:
        played = 0
    # The cloud taken (phase ORDER: the refill's first card goes there). Files written before the field
    # existed get the lowest empty cloud, where the refill used to put that card.
    taken = raw.get("taken_cloud")
    if phase == ORDER:
        if taken is None:
            taken = next((n for n in NUMBERS if not clouds[n - 1]), 0)
        else:
            taken = _int(taken, "state.taken_cloud", 1, 6)
            if taken == played or clouds[taken - 1]:
                raise _bad("taken_cloud_empty", "state.taken_cloud", cloud=taken, played=played)
    elif taken is not None:
        raise _bad("taken_cloud_null", "state.taken_cloud", phase=phase)
    else:
        taken = 0
    if phase == ORDER:
        waiting = {cards.biome_of[k] for k in pending}
        if len(waiting) < 2:
            raise _bad("order_two_biomes", "state.pending")
        have = {cards.biome_of[column[0]] for column in journals[seat]}
        if waiting & have:
            raise _bad("pending_new_biomes", "state.pending")
    elif pending:
        raise _bad("pending_order_only", "state.pending")

    passes_raw = _list(raw["passes"], "state.passes")
    if len(passes_raw) != players:
        raise _bad("passes_count", "state.passes", players=players)
    passes: list[Card] = []
    for s, name in enumerate(passes_raw):
        if name is None:
            passes.append(NO_PASS)
            continue
        if phase != DISTURB:
            raise _bad("pass_phase", f"state.passes[{s}]")
        kind = cards.kind(name, where=f"state.passes[{s}]")
        if kind not in hands[s]:
            raise _bad("pass_not_in_hand", f"state.passes[{s}]", card=name, who=player(s))
        passes.append(kind)
    if phase == DISTURB and not variants.get("disturbance"):
        raise _bad("disturbance_variant", "state.phase")
    if phase == DISTURB and all(passes[s] != NO_PASS or not hands[s] for s in range(players)):
        raise _bad("disturbance_choosing", "state.passes")

    # Impossible counts: no zone may hold more copies of a card than the deck has.
    counts = Counter(deck)
    counts.pop(END_CARD, None)
    for zone in (clouds, hands, *journals, (pending,)):
        for pile in zone:
            counts.update(pile)
    copies = cards.copies[players]
    for kind, count in sorted(counts.items()):
        if count > copies[kind]:
            raise _bad("too_many_copies", "state", card=cards.card_name(kind), players=players,
                       count={"en": _times(count), "ja": f"{count}枚"},
                       copies={"en": _times(copies[kind], "copy", "copies"), "ja": f"{copies[kind]}枚"})

    # Hand cards everyone saw arrive (optional: a file without them knows of none).
    known_raw = raw.get("known_hands")
    known: tuple[Pile, ...]
    if known_raw is None:
        known = ((),) * players
    else:
        known_raw = _list(known_raw, "state.known_hands")
        if len(known_raw) != players:
            raise _bad("hands_count", "state.known_hands", players=players, found=len(known_raw))
        known = tuple(tuple(sorted(_cards(cards, k, f"state.known_hands[{s}]"))) for s, k in enumerate(known_raw))
        for s in range(players):
            missing = Counter(known[s]) - Counter(hands[s])
            if missing:
                raise _bad("known_not_in_hand", f"state.known_hands[{s}]", who=player(s),
                           cards=joined(cards.card_name(k) for k in sorted(missing.elements())))

    if phase == PLAY and not hands[seat]:
        raise _bad("empty_hand_to_play", f"state.hands[{seat}]", who=player(seat))
    if phase == TAKE and not any(pile for n, pile in enumerate(clouds, 1) if n != played):
        raise _bad("nothing_to_take", "state.clouds")

    return State(
        cards=cards, players=players, variants=tuple(sorted(variants.items())), deck=deck, clouds=clouds,
        hands=hands, journals=tuple(journals), start_player=start, seat=seat, round=round_, phase=phase,
        played_cloud=played, pending=pending, end_triggered=end_triggered, last_round=last_round,
        passes=tuple(passes), taken_cloud=taken, known=known, log=(),
    )


ACTION_TYPES = {"play": PlayCard, "take": TakeCloud, "open_column": OpenColumn, "pass": PassCard}


def encode_action(action: Action) -> JSONObject:
    if isinstance(action, PlayCard):
        return {"type": "play", "card": action.card}
    if isinstance(action, TakeCloud):
        return {"type": "take", "cloud": action.cloud, "to": action.to}
    if isinstance(action, OpenColumn):
        return {"type": "open_column", "biome": action.biome}
    if isinstance(action, PassCard):
        return {"type": "pass", "card": action.card}
    raise TypeError(f"not a Subastral action: {action!r}")


def decode_action(game: Subastral, data: JSON) -> Action:
    if not isinstance(data, Mapping):
        raise _bad("action_object", "action", found=type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise _bad("action_type", "action.type", types=joined(ACTION_TYPES), found=repr(kind))
    if kind in ("play", "pass"):
        require_keys(data, ("type", "card"), where="action")
        game.cards.kind(data["card"], where="action.card")
        return PlayCard(card=data["card"]) if kind == "play" else PassCard(card=data["card"])
    if kind == "take":
        require_keys(data, ("type", "cloud", "to"), where="action")
        cloud = _int(data["cloud"], "action.cloud", 1, 6)
        if data["to"] not in (HAND, JOURNAL):
            raise _bad("take_to", "action.to", found=repr(data["to"]))
        return TakeCloud(cloud=cloud, to=data["to"])
    require_keys(data, ("type", "biome"), where="action")
    if not any(b.id == data["biome"] for b in game.cards.biomes):
        raise _bad("unknown_biome", "action.biome", biome=repr(data["biome"]), known=joined(b.id for b in game.cards.biomes))
    return OpenColumn(biome=data["biome"])


def fields(game: Subastral, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
    """What a person edits in a Subastral position (:meth:`~rules.protocol.GameSpec.position_fields`):
    the deck (with the game-end card), the clouds, each seat's hand, journal columns and card to pass,
    and whose turn, which round and phase. ``()`` for data that is not a position's shape."""
    from rules import position_fields as f
    from rules.eventtexts import say

    seated = f.seated(game, data)
    if seated is None:
        return ()
    state, hands, _ = seated
    cards = game.cards
    ids = [cards.card_name(kind) for kind in range(len(cards.kind_names))]
    table = f.table()
    clouds_raw = state.get("clouds")
    clouds = clouds_raw if isinstance(clouds_raw, Mapping) else {}
    cloud_numbers = [int(n) for n in clouds if str(n).isdigit()] or list(NUMBERS)
    cloud_labels = [say(game.id, "editor.cloud", n=n) for n in sorted(cloud_numbers)]
    found = [
        f.to_move(), f.start_player(), f.round_number(),
        f.phase(PHASES, [say(game.id, f"editor.phase.{p}") for p in PHASES]),
        f.choice(("played_cloud",), say(game.id, "editor.played_cloud"), sorted(cloud_numbers), cloud_labels, optional=True),
        f.choice(("taken_cloud",), say(game.id, "editor.taken_cloud"), sorted(cloud_numbers), cloud_labels, optional=True),
        f.flag(("end_triggered",), say(game.id, "editor.end_triggered")),
        f.number(("last_round",), say(game.id, "editor.last_round"), shown_from=1, optional=True),
        f.deck(("deck",), ids + [END_CARD_NAME]),
    ]
    found += [f.cards(("clouds", str(n)), say(game.id, "editor.cloud", n=n), table, ids, ordered=True)
              for n in sorted(cloud_numbers, key=int)]
    found.append(f.cards(("pending",), say(game.id, "editor.pending"), table, ids, ordered=True))
    journals_raw = state.get("journals")
    journals = journals_raw if isinstance(journals_raw, list) else []
    for s in range(len(hands)):
        found.append(f.hand(s, ids))
        columns = journals[s] if s < len(journals) and isinstance(journals[s], list) else []
        for c in range(len(columns)):
            found.append(f.cards(("journals", s, c), say(game.id, "editor.journal_column", player=player(s), column=c + 1),
                                 player(s), ids, ordered=True, note=say(game.id, "editor.journal_column.note")))
        found.append(f.card(("passes", s), say(game.id, "editor.pass", player=player(s)), player(s), ids))
    return tuple(found)

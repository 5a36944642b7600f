"""Subastral positions and actions as JSON (DESIGN.md, "File formats").

A position names every card (``"taiga-4"``), lists the deck top first with the game-end card as
``"END"``, and says whose turn it is, so a teacher can write one by hand. ``decode`` checks everything
a hand-written file can get wrong and says what and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from rules.fields import times as _times, whole_number as _int, json_list as _list, position_header
from rules.protocol import InvalidPosition, require_keys
from rules.subastral.cards import END_CARD, END_CARD_NAME, NUMBERS, CardSet, parse_cards
from rules.subastral.state import (
    DISTURB, HAND, JOURNAL, NO_PASS, ORDER, PHASES, PLAY, TAKE,
    OpenColumn, PassCard, PlayCard, State, TakeCloud,
)

STATE_KEYS = ("players", "start_player", "seat", "round", "phase", "played_cloud", "end_triggered",
              "last_round", "deck", "clouds", "hands", "journals", "pending", "passes")


def encode(game, state: State) -> dict:
    name = state.cards.card_name
    names = lambda kinds: [name(k) for k in kinds]  # noqa: E731
    data = {
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
            "end_triggered": state.end_triggered,
            "last_round": state.last_round if state.end_triggered else None,
            "deck": names(state.deck),
            "clouds": {str(n): names(state.clouds[n - 1]) for n in NUMBERS},
            "hands": [names(hand) for hand in state.hands],
            "journals": [[names(column) for column in journal] for journal in state.journals],
            "pending": names(state.pending),
            "passes": [None if card == NO_PASS else name(card) for card in state.passes],
        },
    }
    if not state.cards.is_standard:
        data["cards"] = state.cards.raw
    return data


def _cards(cards: CardSet, value: Any, where: str) -> tuple[int, ...]:
    return tuple(cards.kind(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def decode(game, data: Any) -> State:
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise InvalidPosition(f"Subastral is played by 2 to 5 players, not {players!r}", where="state.players")
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    round_ = _int(raw["round"], "state.round", 0)
    phase = raw["phase"]
    if phase not in PHASES:
        raise InvalidPosition(f"phase must be one of {', '.join(PHASES)}, not {phase!r}", where="state.phase")
    phase = PHASES[PHASES.index(phase)]
    end_triggered = raw["end_triggered"]
    if type(end_triggered) is not bool:
        raise InvalidPosition("must be true or false", where="state.end_triggered")

    deck_names = _list(raw["deck"], "state.deck")
    deck = tuple(END_CARD if n == END_CARD_NAME else cards.kind(n, where=f"state.deck[{i}]") for i, n in enumerate(deck_names))
    ends = deck.count(END_CARD)
    if end_triggered and ends:
        raise InvalidPosition("the end card was already revealed (end_triggered is true), so 'END' cannot be in the deck", where="state.deck")
    if not end_triggered and ends != 1:
        raise InvalidPosition(f"the deck must hold the game-end card 'END' exactly once until it is revealed (found {ends})", where="state.deck")
    if end_triggered:
        last_round = _int(raw["last_round"], "state.last_round", 0)
        if last_round < round_:
            raise InvalidPosition(f"the last round ({last_round}) cannot lie before the current round ({round_})", where="state.last_round")
    else:
        if raw["last_round"] is not None:
            raise InvalidPosition("must be null until the end card is revealed", where="state.last_round")
        last_round = -1

    clouds_raw = raw["clouds"]
    if not isinstance(clouds_raw, Mapping) or set(clouds_raw) != {str(n) for n in NUMBERS}:
        raise InvalidPosition('clouds must be an object with the keys "1" to "6"', where="state.clouds")
    clouds = tuple(_cards(cards, clouds_raw[str(n)], f"state.clouds.{n}") for n in NUMBERS)

    hands_raw = _list(raw["hands"], "state.hands")
    if len(hands_raw) != players:
        raise InvalidPosition(f"needs one hand per player ({players}), found {len(hands_raw)}", where="state.hands")
    hands = tuple(tuple(sorted(_cards(cards, h, f"state.hands[{s}]"))) for s, h in enumerate(hands_raw))

    journals_raw = _list(raw["journals"], "state.journals")
    if len(journals_raw) != players:
        raise InvalidPosition(f"needs one journal per player ({players}), found {len(journals_raw)}", where="state.journals")
    journals = []
    for s, journal in enumerate(journals_raw):
        columns = []
        seen = {}
        for c, column in enumerate(_list(journal, f"state.journals[{s}]")):
            at = f"state.journals[{s}][{c}]"
            kinds = _cards(cards, column, at)
            if not kinds:
                raise InvalidPosition("a journal column cannot be empty", where=at)
            biomes = {cards.biome_of[k] for k in kinds}
            if len(biomes) != 1:
                raise InvalidPosition("a journal column holds cards of one biome only", where=at)
            biome = biomes.pop()
            if biome in seen:
                raise InvalidPosition(f"{cards.biome_name(biome)} already has column {seen[biome] + 1}; each biome has one column", where=at)
            seen[biome] = c
            columns.append(kinds)
        journals.append(tuple(columns))
    journals = tuple(journals)

    pending = _cards(cards, raw["pending"], "state.pending")
    played = raw["played_cloud"]
    if phase in (TAKE, ORDER):
        played = _int(played, "state.played_cloud", 1, 6)
        if not clouds[played - 1]:
            raise InvalidPosition(f"cloud {played} was played on, so it holds at least that card", where="state.clouds")
    elif played is not None:
        raise InvalidPosition(f"must be null in the {phase} phase (it is set between the play and the take)", where="state.played_cloud")
    else:
        played = 0
    if phase == ORDER:
        waiting = {cards.biome_of[k] for k in pending}
        if len(waiting) < 2:
            raise InvalidPosition("the order phase needs cards of at least two new biomes waiting", where="state.pending")
        have = {cards.biome_of[column[0]] for column in journals[seat]}
        if waiting & have:
            raise InvalidPosition("pending cards must be of biomes without a column yet", where="state.pending")
    elif pending:
        raise InvalidPosition("only the order phase has pending cards", where="state.pending")

    passes_raw = _list(raw["passes"], "state.passes")
    if len(passes_raw) != players:
        raise InvalidPosition(f"needs one entry per player ({players})", where="state.passes")
    passes = []
    for s, name in enumerate(passes_raw):
        if name is None:
            passes.append(NO_PASS)
            continue
        if phase != DISTURB:
            raise InvalidPosition("cards are only chosen for passing in the disturbance phase", where=f"state.passes[{s}]")
        kind = cards.kind(name, where=f"state.passes[{s}]")
        if kind not in hands[s]:
            raise InvalidPosition(f"{name} is not in Player {s + 1}'s hand", where=f"state.passes[{s}]")
        passes.append(kind)
    if phase == DISTURB and not variants.get("disturbance"):
        raise InvalidPosition("the disturbance phase needs the disturbance variant switched on", where="state.phase")
    if phase == DISTURB and all(passes[s] != NO_PASS or not hands[s] for s in range(players)):
        raise InvalidPosition("in the disturbance phase someone with a hand card must still be choosing "
                              "(once all have chosen, the cards pass and the game is over)", where="state.passes")

    # Impossible counts: no zone may hold more copies of a card than the deck has.
    counts = Counter(deck)
    counts.pop(END_CARD, None)
    for zone in (clouds, hands, *journals, (pending,)):
        for pile in zone:
            counts.update(pile)
    copies = cards.copies[players]
    for kind, count in sorted(counts.items()):
        if count > copies[kind]:
            raise InvalidPosition(
                f"{cards.card_name(kind)} appears {_times(count)}, but the {players}-player deck has {_times(copies[kind], 'copy', 'copies')} "
                f"(duplicated card, or a card removed for this player count)", where="state")

    if phase == PLAY and not hands[seat]:
        raise InvalidPosition(f"Player {seat + 1} is to play but has no card in hand (an empty hand draws when the turn starts)", where="state.hands")
    if phase == TAKE and not any(pile for n, pile in enumerate(clouds, 1) if n != played):
        raise InvalidPosition("no cloud can be taken (the take would have been skipped)", where="state.clouds")

    return State(
        cards=cards, players=players, variants=tuple(sorted(variants.items())), deck=deck, clouds=clouds,
        hands=hands, journals=journals, start_player=start, seat=seat, round=round_, phase=phase,
        played_cloud=played, pending=pending, end_triggered=end_triggered, last_round=last_round,
        passes=tuple(passes), log=(),
    )


ACTION_TYPES = {"play": PlayCard, "take": TakeCloud, "open_column": OpenColumn, "pass": PassCard}


def encode_action(action) -> dict:
    if isinstance(action, PlayCard):
        return {"type": "play", "card": action.card}
    if isinstance(action, TakeCloud):
        return {"type": "take", "cloud": action.cloud, "to": action.to}
    if isinstance(action, OpenColumn):
        return {"type": "open_column", "biome": action.biome}
    if isinstance(action, PassCard):
        return {"type": "pass", "card": action.card}
    raise TypeError(f"not a Subastral action: {action!r}")


def decode_action(game, data: Any):
    if not isinstance(data, Mapping):
        raise InvalidPosition(f"an action is an object with a 'type', not {type(data).__name__}", where="action")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidPosition(f"action type must be one of {', '.join(ACTION_TYPES)}, not {kind!r}", where="action.type")
    if kind in ("play", "pass"):
        require_keys(data, ("type", "card"), where="action")
        game.cards.kind(data["card"], where="action.card")
        return ACTION_TYPES[kind](card=data["card"])
    if kind == "take":
        require_keys(data, ("type", "cloud", "to"), where="action")
        cloud = _int(data["cloud"], "action.cloud", 1, 6)
        if data["to"] not in (HAND, JOURNAL):
            raise InvalidPosition(f"'to' must be 'hand' or 'journal', not {data['to']!r}", where="action.to")
        return TakeCloud(cloud=cloud, to=data["to"])
    require_keys(data, ("type", "biome"), where="action")
    if not any(b.id == data["biome"] for b in game.cards.biomes):
        known = ", ".join(b.id for b in game.cards.biomes)
        raise InvalidPosition(f"unknown biome {data['biome']!r} (known: {known})", where="action.biome")
    return OpenColumn(biome=data["biome"])

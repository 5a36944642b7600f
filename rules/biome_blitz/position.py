"""Biome Blitz positions and actions as JSON (docs/formats.md).

Resources are written by symbol (``"leaf"``, ``"water"``, ``"meat"``, ``"wild"``), animals by id
(``"gazelle"``), ecosystems by id (``"SAV"``). Each deck has its cards (top first), its discards and
its market of three (``null`` for an empty slot). ``decode`` checks what a hand-written file can get
wrong and says where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, cast

from rules.biome_blitz.cards import RESOURCE, SYMBOLS, Card, CardSet, Deck, Symbol, _bad, parse_cards
from rules.biome_blitz.choices import second_pick_exists
from rules.biome_blitz.state import (
    CANCEL, DECK_NAMES, EMPTY, FORAGE, FRENZY, MARKET, MAX_ECOSYSTEMS, NOBODY, OVER, PEEK, PHASES, REPLACE,
    REROLL, TRADE, TRADE_REPLY, TRADES_PER_TURN, WIN_ANIMALS, WIN_POINTS,
    Action, CancelCompete, CancelQuestion, Compete, Discover, Done, Ecosystems, Explore, Forage, ForageAll, ForagePick,
    Hand, LastCompete, OfferToAnswer, Peek, PeekSeen, Pending, Pile, Replace, Reroll, RerollQuestion, State, Team,
    TradeAnswer, TradeAsk, TradeCancel, TradeGive, TradeOffer, TradePropose, TradeWith,
)
from rules.chance import MERSENNE, SCHEMES
from rules.eventtexts import Texts, joined, player
from rules.fields import (action_fields, json_bool as _bool, json_list as _list, per_seat, position_header,
                          seed_number, whole_number as _int)
from rules.protocol import JSON, JSONObject, PositionField, Seat, require_keys, shown

if TYPE_CHECKING:
    from rules.biome_blitz.game import BiomeBlitz

STATE_KEYS = ("players", "seed", "rolls", "shuffles", "seat", "turn", "phase", "decks", "hands", "teams", "ecosystems",
              "points", "pending", "trades", "last_compete", "winner")
#: Keys a position may leave out (written only when they hold something): what every other seat knows
#: each hand holds, and what peeks showed; and how chance is drawn from the seed (``rules.chance``):
#: a position without it was written by rules 1.0, which drew by ``MERSENNE`` (always written since).
OPTIONAL_STATE_KEYS = ("known", "peeked", "chance")


def card_name(cards: CardSet, d: Deck, card: Card) -> str:
    if d == 0:
        return SYMBOLS[card]
    return cards.animal_ids[card] if d == 1 else cards.ecosystems[card].id


def _resource(value: JSON, where: str) -> Symbol:
    if value not in SYMBOLS:
        raise _bad("resource_card", where, symbols=joined(SYMBOLS), value=repr(value))
    return SYMBOLS.index(value)


def _parse(cards: CardSet, d: Deck, value: JSON, where: str) -> Card:
    if d == 0:
        return _resource(value, where)
    return cards.animal(value, where=where) if d == 1 else cards.ecosystem(value, where=where)


def encode(game: BiomeBlitz, state: State) -> JSONObject:
    cards = state.cards
    name: Callable[[Deck, Card], str] = lambda d, c: card_name(cards, d, c)  # noqa: E731
    decks: JSONObject = {}
    for d, deck in enumerate(DECK_NAMES):
        decks[deck] = {"deck": [name(d, c) for c in state.decks[d]], "discard": [name(d, c) for c in state.discards[d]],
                       "market": [None if c == EMPTY else name(d, c) for c in state.markets[d]]}
    data: JSONObject = {
        "game": game.id, "version": game.version, "variants": dict(state.variants),
        "state": {
            "players": state.players, "seed": state.seed, "rolls": state.rolls, "shuffles": state.shuffles,
            "seat": state.seat, "turn": state.turn, "phase": state.phase, "decks": decks,
            "hands": [[SYMBOLS[s] for s in hand] for hand in state.hands],
            "teams": [[cards.animal_ids[a] for a in team] for team in state.teams],
            "ecosystems": [[cards.ecosystems[k].id for k in ecos] for ecos in state.ecosystems],
            "points": list(state.points), "pending": pending_json(state), "trades": state.trades,
            "last_compete": compete_json(state), "winner": None if state.winner == NOBODY else state.winner,
            "chance": state.chance,
        },
    }
    if any(state.known):
        data["state"]["known"] = [[SYMBOLS[s] for s in hand] for hand in state.known]
    if state.peeked:
        data["state"]["peeked"] = [{"seat": seat, "deck": DECK_NAMES[d], "from_bottom": place, "card": name(d, card),
                                    "shuffles": shuffles} for seat, d, place, card, shuffles in state.peeked]
    if not cards.is_standard:
        data["cards"] = cards.raw
    return data


def compete_json(state: State) -> JSONObject | None:
    if not state.last_compete:
        return None
    a_seat, attacker, a_roll, a_total, d_seat, defender, d_roll, d_total, winner = state.last_compete
    ids = state.cards.animal_ids
    return {"attacker_seat": a_seat, "attacker": ids[attacker], "attack_roll": a_roll, "attack_total": a_total,
            "defender_seat": d_seat, "defender": ids[defender], "defence_roll": d_roll, "defence_total": d_total,
            "winner": winner}


def pending_json(state: State) -> JSONObject | None:
    """The decision in progress, by phase (see ``rules.py``)."""
    p, cards = state.pending, state.cards
    ids = cards.animal_ids
    if state.phase == FORAGE:
        return {"took": SYMBOLS[p[0]]}
    if state.phase == TRADE:
        offer = cast(TradeOffer, p)
        return {"partner": offer[0], "give": [SYMBOLS[s] for s in offer[1]], "ask": [SYMBOLS[s] for s in offer[2]]}
    if state.phase == TRADE_REPLY:
        answer = cast(OfferToAnswer, p)
        return {"partner": answer[0], "asker": answer[1], "give": [SYMBOLS[s] for s in answer[2]],
                "ask": [SYMBOLS[s] for s in answer[3]]}
    if state.phase == REPLACE:
        return {"new": cards.ecosystems[p[0]].id}
    if state.phase == CANCEL:
        cancel = cast(CancelQuestion, p)
        return {"owner": cancel[0], "attacker": ids[cancel[1]], "defender": ids[cancel[2]], "symbol": SYMBOLS[cancel[3]],
                "count": cancel[4], **({"again": True} if cancel[5] else {})}
    if state.phase == REROLL:
        reroll = cast(RerollQuestion, p)
        return {"seat": reroll[0], "attacker": ids[reroll[1]], "defender": ids[reroll[2]], "attack_roll": reroll[3],
                "defence_roll": reroll[4], "die": "attack" if reroll[5] == 0 else "defence",
                **({"again": True} if reroll[6] else {})}
    if state.phase == FRENZY:
        return {"attacker": ids[p[0]]}
    return None



def _symbols(value: JSON, where: str) -> Hand:
    return tuple(_resource(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _roll(value: JSON, where: str) -> int:
    return _int(value, where, 1, 6)


def decode(game: BiomeBlitz, data: JSON) -> State:
    optional: dict[str, JSON] = {}
    if isinstance(data, Mapping) and isinstance(data.get("state"), Mapping):
        optional = {key: data["state"][key] for key in OPTIONAL_STATE_KEYS if key in data["state"]}
        if optional:
            data = {**data, "state": {k: v for k, v in data["state"].items() if k not in OPTIONAL_STATE_KEYS}}
    variants, cards, raw = position_header(game, data, parse_cards, game.cards, STATE_KEYS)
    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise _bad("players", "state.players", players=shown(players))
    seed = seed_number(raw["seed"], "state.seed")
    rolls, shuffles = _int(raw["rolls"], "state.rolls", 0), _int(raw["shuffles"], "state.shuffles", 0)
    seat, turn = _int(raw["seat"], "state.seat", 0, players - 1), _int(raw["turn"], "state.turn", 0)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad("phase", "state.phase", phases=joined(PHASES), value=repr(phase))
    phase = PHASES[PHASES.index(phase)]
    trades = _int(raw["trades"], "state.trades", 0, TRADES_PER_TURN)
    require_keys(raw["decks"], DECK_NAMES, where="state.decks")
    decks: list[Pile] = []
    discards: list[Pile] = []
    markets: list[Pile] = []
    for d, deck in enumerate(DECK_NAMES):
        at = f"state.decks.{deck}"
        entry = raw["decks"][deck]
        require_keys(entry, ("deck", "discard", "market"), where=at)
        decks.append(tuple(_parse(cards, d, v, f"{at}.deck[{i}]") for i, v in enumerate(_list(entry["deck"], f"{at}.deck"))))
        discards.append(tuple(_parse(cards, d, v, f"{at}.discard[{i}]")
                              for i, v in enumerate(_list(entry["discard"], f"{at}.discard"))))
        market = _list(entry["market"], f"{at}.market")
        if len(market) != MARKET:
            raise _bad("market", f"{at}.market", slots=MARKET, found=len(market))
        markets.append(tuple(EMPTY if v is None else _parse(cards, d, v, f"{at}.market[{i}]") for i, v in enumerate(market)))
    hands = tuple(tuple(sorted(_symbols(h, f"state.hands[{s}]")))
                  for s, h in enumerate(per_seat(raw["hands"], players, "hand", "state.hands")))
    teams = tuple(tuple(cards.animal(a, where=f"state.teams[{s}][{i}]") for i, a in enumerate(_list(t, f"state.teams[{s}]")))
                  for s, t in enumerate(per_seat(raw["teams"], players, "team", "state.teams")))
    ecosystems = tuple(tuple(cards.ecosystem(e, where=f"state.ecosystems[{s}][{i}]")
                             for i, e in enumerate(_list(t, f"state.ecosystems[{s}]")))
                       for s, t in enumerate(per_seat(raw["ecosystems"], players, "ecosystem list", "state.ecosystems")))
    points = tuple(_int(p, f"state.points[{s}]", 0) for s, p in enumerate(per_seat(raw["points"], players, "score", "state.points")))
    winner = NOBODY if raw["winner"] is None else _int(raw["winner"], "state.winner", 0, players - 1)

    # Card counts: every physical card at most once (resources by symbol).
    count = Counter(decks[0] + discards[0] + tuple(c for c in markets[0] if c != EMPTY))
    for hand in hands:
        count.update(hand)
    for s, n in sorted(count.items()):
        if n > cards.resource_copies[s]:
            raise _bad("resource_copies", "state", symbol=SYMBOLS[s], count=n, copies=cards.resource_copies[s])
    count = Counter(decks[1] + discards[1] + tuple(c for c in markets[1] if c != EMPTY))
    for team in teams:
        count.update(team)
    for a, n in sorted(count.items()):
        if n > 1:
            raise _bad("animal_unique", "state", id=cards.animal_ids[a], count=n)
    count = Counter(decks[2] + discards[2] + tuple(c for c in markets[2] if c != EMPTY))
    for ecos in ecosystems:
        count.update(ecos)
    for k, n in sorted(count.items()):
        if n > cards.ecosystem_copies[k]:
            raise _bad("ecosystem_copies", "state", id=cards.ecosystems[k].id, count=n, copies=cards.ecosystem_copies[k])
    for s in range(players):
        if len(ecosystems[s]) > MAX_ECOSYSTEMS:
            raise _bad("max_ecosystems", f"state.ecosystems[{s}]", max=MAX_ECOSYSTEMS)
        won = points[s] >= WIN_POINTS or len(teams[s]) >= WIN_ANIMALS
        if won and phase != OVER:
            raise _bad("game_over", "state.phase", who=player(s), points=points[s], animals=len(teams[s]))
    if phase == OVER and winner == NOBODY:
        raise _bad("winner_missing", "state.winner")
    if phase != OVER and winner != NOBODY:
        raise _bad("winner_early", "state.winner")
    pending = _pending(cards, raw["pending"], phase, players, seat, hands, teams, ecosystems, markets)
    # ``count`` holds the ecosystem cards on the table; the one waiting to replace another is a card too.
    if phase == REPLACE and count[pending[0]] + 1 > cards.ecosystem_copies[pending[0]]:
        new = pending[0]
        raise _bad("replace_copies", "state.pending.new", id=cards.ecosystems[new].id, count=count[new] + 1,
                   copies=cards.ecosystem_copies[new])
    if phase == PEEK and not any(ability.get("deck") == "choice" for a in teams[seat]
                                 for ability in cards.animals[a].with_effect("peek")):
        raise _bad("peek", "state.phase", who=player(seat))
    if phase == FORAGE and not second_pick_exists(decks[RESOURCE], discards[RESOURCE], markets[RESOURCE]):
        # (apply ends a forage whose first pick leaves nothing to pick: a position waiting for the
        # second pick with nothing to pick could not go on)
        raise _bad("forage_nothing_left", "state.phase", who=player(seat))
    if phase == TRADE and trades >= TRADES_PER_TURN:
        raise _bad("trades_full", "state.trades", max=TRADES_PER_TURN)
    if phase == TRADE_REPLY and trades < 1:
        raise _bad("offer_counted", "state.trades")
    known: tuple[Hand, ...] = ((),) * players
    if "known" in optional:
        known = tuple(_symbols(k, f"state.known[{s}]")
                      for s, k in enumerate(per_seat(optional["known"], players, "list of known cards", "state.known")))
        for s in range(players):
            if Counter(known[s]) - Counter(hands[s]):
                raise _bad("known", f"state.known[{s}]", who=player(s))
    peeked = _peeked(cards, optional.get("peeked", []), players, decks, shuffles)
    chance = optional.get("chance", MERSENNE)
    if chance not in SCHEMES:
        raise _bad("chance", "state.chance", schemes=joined(SCHEMES), value=repr(chance))
    return State(cards=cards, players=players, variants=tuple(sorted(variants.items())), seed=seed, rolls=rolls,
                 shuffles=shuffles, decks=(decks[0], decks[1], decks[2]), discards=(discards[0], discards[1], discards[2]),
                 markets=(markets[0], markets[1], markets[2]), hands=hands,
                 teams=teams, ecosystems=ecosystems, points=points, seat=seat, turn=turn, phase=phase, pending=pending,
                 trades=trades, last_compete=_last_compete(cards, raw["last_compete"], players), winner=winner, log=(),
                 known=known, peeked=peeked, chance=SCHEMES[SCHEMES.index(cast(str, chance))])


def _peeked(cards: CardSet, raw: JSON, players: int, decks: list[Pile], shuffles: int) -> tuple[PeekSeen, ...]:
    """What peeks showed: a card still in its deck (no reshuffle since) must be at the place written."""
    out: list[PeekSeen] = []
    for i, entry in enumerate(_list(raw, "state.peeked")):
        at = f"state.peeked[{i}]"
        require_keys(entry, ("seat", "deck", "from_bottom", "card", "shuffles"), where=at)
        if entry["deck"] not in DECK_NAMES:
            raise _bad("deck", f"{at}.deck", decks=joined(DECK_NAMES), value=repr(entry["deck"]))
        d = DECK_NAMES.index(entry["deck"])
        seat, place = _int(entry["seat"], f"{at}.seat", 0, players - 1), _int(entry["from_bottom"], f"{at}.from_bottom", 0)
        # (a peek is dated by the reshuffles before it: none yet to come, or its card is taken as still
        # in its deck and a later reshuffle's position is refused)
        card, when = _parse(cards, d, entry["card"], f"{at}.card"), _int(entry["shuffles"], f"{at}.shuffles", 0, shuffles)
        deck = decks[d]
        if when == shuffles and place < len(deck) and deck[len(deck) - 1 - place] != card:
            raise _bad("peeked", at, card=entry["card"])
        out.append((seat, d, place, card, when))
    return tuple(out)


def _last_compete(cards: CardSet, raw: JSON, players: int) -> LastCompete:
    if raw is None:
        return ()
    keys = ("attacker_seat", "attacker", "attack_roll", "attack_total", "defender_seat", "defender", "defence_roll",
            "defence_total", "winner")
    require_keys(raw, keys, where="state.last_compete")
    at = "state.last_compete"
    return (_int(raw["attacker_seat"], f"{at}.attacker_seat", 0, players - 1), cards.animal(raw["attacker"], where=f"{at}.attacker"),
            _roll(raw["attack_roll"], f"{at}.attack_roll"), _int(raw["attack_total"], f"{at}.attack_total", 0),
            _int(raw["defender_seat"], f"{at}.defender_seat", 0, players - 1), cards.animal(raw["defender"], where=f"{at}.defender"),
            _roll(raw["defence_roll"], f"{at}.defence_roll"), _int(raw["defence_total"], f"{at}.defence_total", 0),
            _int(raw["winner"], f"{at}.winner", 0, players - 1))


def _again(raw: Mapping[str, JSON], at: str) -> bool:
    """Is the compete waiting for a decision a compete again (Frenzy)? Optional, false when left out."""
    return _bool(raw.get("again", False), f"{at}.again")


def _pending(cards: CardSet, raw: JSON, phase: str, players: int, seat: Seat, hands: tuple[Hand, ...],
             teams: tuple[Team, ...], ecosystems: tuple[Ecosystems, ...], markets: list[Pile]) -> Pending:
    at = "state.pending"
    needs = phase in (FORAGE, TRADE, TRADE_REPLY, REPLACE, CANCEL, REROLL, FRENZY)
    if not needs:
        if raw is not None:
            raise _bad("no_pending", at, phase=phase)
        return ()
    if raw is None:
        raise _bad("needs_pending", at, phase=phase)
    owner_of = {a: s for s, team in enumerate(teams) for a in team}
    if phase == FORAGE:
        require_keys(raw, ("took",), where=at)
        return (_parse(cards, 0, raw["took"], f"{at}.took"),)
    if phase == TRADE:
        require_keys(raw, ("partner", "give", "ask"), where=at)
        partner = _int(raw["partner"], f"{at}.partner", 0, players - 1)
        give, ask = tuple(sorted(_symbols(raw["give"], f"{at}.give"))), tuple(sorted(_symbols(raw["ask"], f"{at}.ask")))
        if partner == seat or Counter(give) - Counter(hands[seat]):
            raise _bad("trade", at)
        return (partner, give, ask)
    if phase == TRADE_REPLY:
        require_keys(raw, ("partner", "asker", "give", "ask"), where=at)
        partner = _int(raw["partner"], f"{at}.partner", 0, players - 1)
        asker = _int(raw["asker"], f"{at}.asker", 0, players - 1)
        give, ask = tuple(sorted(_symbols(raw["give"], f"{at}.give"))), tuple(sorted(_symbols(raw["ask"], f"{at}.ask")))
        if asker != seat or partner == seat or Counter(give) - Counter(hands[seat]):
            raise _bad("trade_reply", at)
        return (partner, asker, give, ask)
    if phase == REPLACE:
        require_keys(raw, ("new",), where=at)
        if len(ecosystems[seat]) != MAX_ECOSYSTEMS:
            raise _bad("replacement", at, max=MAX_ECOSYSTEMS)
        return (cards.ecosystem(raw["new"], where=f"{at}.new"),)
    if phase == CANCEL:
        require_keys(raw, ("owner", "attacker", "defender", "symbol", "count"), where=at, optional=("again",))
        owner = _int(raw["owner"], f"{at}.owner", 0, players - 1)
        attacker, defender = cards.animal(raw["attacker"], where=f"{at}.attacker"), cards.animal(raw["defender"], where=f"{at}.defender")
        symbol, count = _parse(cards, 0, raw["symbol"], f"{at}.symbol"), _int(raw["count"], f"{at}.count", 1)
        if (owner_of.get(attacker) != seat or owner_of.get(defender) != owner
                or not cards.animals[defender].with_effect("cancel_compete")):
            raise _bad("cancel", at)
        return (owner, attacker, defender, symbol, count, _again(raw, at))
    if phase == REROLL:
        require_keys(raw, ("seat", "attacker", "defender", "attack_roll", "defence_roll", "die"), where=at,
                     optional=("again",))
        who = _int(raw["seat"], f"{at}.seat", 0, players - 1)
        attacker, defender = cards.animal(raw["attacker"], where=f"{at}.attacker"), cards.animal(raw["defender"], where=f"{at}.defender")
        if raw["die"] not in ("attack", "defence"):
            raise _bad("die", f"{at}.die")
        stage = 0 if raw["die"] == "attack" else 1
        if owner_of.get(attacker) != seat or owner_of.get(defender) in (None, seat) or who != (seat if stage == 0 else owner_of[defender]):
            raise _bad("reroll", at)
        return (who, attacker, defender, _roll(raw["attack_roll"], f"{at}.attack_roll"),
                _roll(raw["defence_roll"], f"{at}.defence_roll"), stage, _again(raw, at))
    require_keys(raw, ("attacker",), where=at)
    attacker = cards.animal(raw["attacker"], where=f"{at}.attacker")
    if owner_of.get(attacker) != seat:
        raise _bad("frenzy", at)
    return (attacker,)


ACTION_TYPES: dict[str, type[Action]] = {"explore": Explore, "trade_with": TradeWith, "trade_give": TradeGive, "trade_ask": TradeAsk,
                "trade_propose": TradePropose, "trade_cancel": TradeCancel, "trade_answer": TradeAnswer, "forage": Forage,
                "forage_pick": ForagePick, "forage_all": ForageAll, "discover": Discover, "replace": Replace,
                "compete": Compete, "cancel_compete": CancelCompete, "reroll": Reroll, "done": Done, "peek": Peek}
TYPE_OF = {cls: name for name, cls in ACTION_TYPES.items()}


def encode_action(action: Action) -> JSONObject:
    name = TYPE_OF.get(type(action))
    if name is None:
        raise TypeError(f"not a Biome Blitz action: {action!r}")
    data: JSONObject = {"type": name}
    for key, value in action_fields(action).items():
        data[key] = list(value) if isinstance(value, tuple) else value
    return data


def decode_action(game: BiomeBlitz, data: JSON) -> Action:
    if not isinstance(data, Mapping):
        raise _bad("action_object", "action", kind=type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise _bad("action_type", "action.type", types=joined(ACTION_TYPES), value=repr(kind))
    cards = game.cards
    cls = ACTION_TYPES[kind]
    fields = tuple(cls.__dataclass_fields__)
    if cls is ForageAll and "ability" not in data:
        # Files written before a forage_all named its ability: the animal's first take-all ability.
        animal = cards.animals[cards.animal(data.get("animal"), where="action.animal")]
        data = {**data, "ability": next((a.name for a in animal.with_effect("take_all_faceup")), "")}
    require_keys(data, ("type",) + fields, where="action")
    values: dict[str, JSON] = {}
    for field in fields:
        value, at = data[field], f"action.{field}"
        if field == "pay":
            value = tuple(sorted(_symbols(value, at)))
            value = tuple(SYMBOLS[s] for s in value)
        elif field == "symbol":
            _parse(cards, 0, value, at)
        elif field == "deck":
            if value not in DECK_NAMES:
                raise _bad("deck", at, decks=joined(DECK_NAMES), value=repr(value))
        elif field in ("attacker", "defender", "animal"):
            cards.animal(value, where=at)
        elif field == "ecosystem":
            cards.ecosystem(value, where=at)
        elif field == "slot":
            _int(value, at, 0, MARKET)
        elif field == "seat":
            _int(value, at, 0, 5)
        elif field in ("accept", "cancel", "reroll"):
            _bool(value, at)
        elif field == "ability" and not isinstance(value, str):
            raise _bad("ability_name", at)
        values[field] = value
    return cls(**values)


def fields(game: BiomeBlitz, data: Mapping[str, JSON]) -> tuple[PositionField, ...]:
    """What a person edits in a Biome Blitz position (:meth:`~rules.protocol.GameSpec.position_fields`):
    each deck (top first), its discard pile and its face-up slots, each seat's hand, team, ecosystems
    and points (and, where the file has them, the cards the others saw in its hand), and whose turn,
    which turn, the trades made this turn, the phase and the winner. The decision in progress
    (``pending``), the last compete, what peeks showed and the dice and shuffle counters stay in the
    JSON. ``()`` for data that is not a position's shape."""
    from rules import position_fields as f
    from rules.eventtexts import say, say_shared

    seated = f.seated(game, data)
    if seated is None:
        return ()
    state, hands, _ = seated
    cards, table = game.cards, f.table()
    ids = (SYMBOLS, cards.animal_ids, tuple(e.id for e in cards.ecosystems))
    term: Callable[[str], Texts] = lambda key: say(game.id, f"term.{key}")  # noqa: E731
    found = [
        f.to_move(), f.round_number(("turn",), label=say_shared("editor.turn")),
        f.phase(PHASES, [say(game.id, f"editor.phase.{p}") for p in PHASES]),
        f.number(("trades",), say(game.id, "editor.trades"), high=TRADES_PER_TURN,
                 note=say(game.id, "editor.trades.note", max=TRADES_PER_TURN)),
        f.seat(("winner",), say(game.id, "editor.winner"), optional=True),
    ]
    decks = state.get("decks")
    if not isinstance(decks, Mapping):
        decks = {}
    for d, name in enumerate(DECK_NAMES):
        entry = decks.get(name)
        if not isinstance(entry, Mapping):
            continue
        named = {lang: text[:1].upper() + text[1:] for lang, text in term(name).items()}
        if "deck" in entry:
            found.append(f.deck(("decks", name, "deck"), ids[d], label=say(game.id, "editor.deck", deck=named)))
        if "discard" in entry:
            found.append(f.cards(("decks", name, "discard"), say(game.id, "editor.discard", deck=named), table, ids[d],
                                 ordered=True, note=say(game.id, "editor.discard.note")))
        market = entry.get("market")
        for i in range(len(market) if isinstance(market, list) else 0):
            found.append(f.card(("decks", name, "market", i), say(game.id, "editor.market", deck=term(name), slot=i + 1),
                                table, ids[d]))
    per_seat_lists: dict[str, list[JSON]] = {}
    for key in ("teams", "ecosystems", "points", "known"):
        value = state.get(key)
        per_seat_lists[key] = value if isinstance(value, list) else []
    for s in range(len(hands)):
        who = player(s)
        found.append(f.hand(s, SYMBOLS))
        if s < len(per_seat_lists["known"]):
            found.append(f.cards(("known", s), say_shared("editor.known", player=who), who, SYMBOLS))
        if s < len(per_seat_lists["teams"]):
            found.append(f.cards(("teams", s), say(game.id, "editor.team", player=who), who, ids[1], ordered=True,
                                 note=say(game.id, "editor.team.note")))
        if s < len(per_seat_lists["ecosystems"]):
            found.append(f.cards(("ecosystems", s), say(game.id, "editor.ecosystems", player=who), who, ids[2],
                                 note=say(game.id, "editor.ecosystems.note", max=MAX_ECOSYSTEMS)))
        if s < len(per_seat_lists["points"]):
            found.append(f.number(("points", s), say(game.id, "editor.points", player=who), group=who))
    return tuple(found)

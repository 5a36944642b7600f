"""Biome Blitz as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``rules.py`` holds the turn and the abilities, ``position.py`` the JSON files, and this module the
observer, the score summary and the plain-language events (in every language, worded in
``data/events.json``, naming cards as the card file prints them: ``CardSet.card_label``). Hidden: the
decks' order, other players' hands (their sizes are public) and what a peek ability showed its owner.
Markets, discards, teams, ecosystems, points and dice are on the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict, cast

from rules import chance, eventtexts
from rules.biome_blitz import position, rules
from rules.biome_blitz.cards import SYMBOLS, AnimalCard, CardSet, Deck, Symbol, parse_cards, standard_cards
from rules.biome_blitz.costs import eco_bonus
from rules.biome_blitz.state import (
    DECK_NAMES, EMPTY, NOBODY, OVER, REPLACE, WIN_ANIMALS, Action, Ecosystems, LogEntry, State, Team, redeal,
)
from rules.eventtexts import Texts, joined, say, say_in
from rules.protocol import ALL, JSON, Event, JSONObject, ModuleGame, PositionField, Seat, Turn, Variant, Viewer, acts, sees


GAME = "biome_blitz"

# The readings the texts leave open, each a switch (the engine reads them by the names in state.py).
ECOSYSTEM_BONUS = Variant(
    name="ecosystem_bonus",
    default="per_card",
    description=("How a player's ecosystems strengthen a matching animal: each matching ecosystem card adds its "
                 "bonus (default), or each distinct matching ecosystem adds it once."),
    source=("the rules text's 生態系 (ecosystems strengthen matching animals; up to three cards held) says nothing of "
            "two alike: each card held is a card that strengthens, so per card by default; docs/readings.md, Biome Blitz 4"),
    choices=("per_card", "per_ecosystem"),
)
IMMUNE_POWER = Variant(
    name="immune_power",
    default="printed",
    description=("Which power an immunity to weak attackers judges (Matriarch: power 1 or less): the attacker's "
                 "printed power (default), or its power with ecosystem bonus and power abilities before the roll."),
    source=("rules/biome_blitz/data/cards.json Matriarch (assumed text): the defender is chosen before any roll, when "
            "only the card's printed power is shown, so printed by default; the rules text's 対戦 adds the power "
            "icon's value to the die"),
    choices=("printed", "effective"),
)
EXTRA_COMPETE = Variant(
    name="extra_compete",
    default="chain",
    description=("Frenzy (after winning, compete again this turn with this animal): every won compete allows "
                 "another (default), or one compete again a turn at most."),
    source=("rules/biome_blitz/data/cards.json Frenzy (assumed text): a won compete again is a win too and the text "
            "sets no limit, so it chains by default"),
    choices=("chain", "once"),
)
ALL_DIFFERENT_WILD = Variant(
    name="all_different_wild",
    default="own_type",
    description=("Omnivore (take the three face-up resources if they are three different types): a face-up wild "
                 "is a type of its own (default), or no type at all, so only leaf, water and meat make three."),
    source=("rules/biome_blitz/data/cards.json Omnivore (assumed text) asks for different cards, which a wild is; "
            "docs/readings.md, Biome Blitz 1 (a wild never counts as a specific symbol) gives the other reading"),
    choices=("own_type", "not_a_type"),
)


# -- the words of events, in every language (data/events.json) ---------------------------------
def player(seat: int | None) -> Texts:
    return eventtexts.player(seat) if seat is not None else say(GAME, "term.nobody")


def symbol(s: int) -> Texts:
    return say(GAME, f"term.{SYMBOLS[s]}")


def symbols(items: Iterable[Symbol]) -> Texts:
    """Resource cards listed, "nothing" when there are none."""
    return joined(map(symbol, items), say(GAME, "term.nothing"))


def payment(names: tuple[str, ...], free: Texts | None = None) -> Texts:
    """An action's payment as the player gave it ("leaf + wild"; "葉＋ワイルド"), ``free`` if empty."""
    if not names and free is not None:
        return free
    named = [symbol(SYMBOLS.index(name)) for name in names]
    return {"en": " + ".join(n["en"] for n in named), "ja": "＋".join(n["ja"] for n in named)}


def deck_name(d: Deck) -> Texts:
    return say(GAME, f"term.{DECK_NAMES[d]}")


def ability_label(cards: CardSet, name: str, animal: AnimalCard | None = None) -> Texts:
    """An ability, named as actions and the log give it (its English name), as the card file prints it
    in each language: ``animal``'s own, else the first of that name in the card file."""
    owners = ((cards.animals[animal],) if animal is not None else ()) + cards.animals
    found = next((ability for owner in owners if (ability := owner.ability(name))), None)
    return found.label if found else {"en": name, "ja": name}


def _ability_reason(cards: CardSet, why: tuple[AnimalCard, str]) -> Texts:
    """An ability's draw: the log gives the animal and the ability's name."""
    animal, name = why
    return say(GAME, "draw.reason.ability", animal=cards.card_label(1, animal),
               ability=ability_label(cards, name, animal))


def _capitalized(texts: Texts) -> Texts:
    return {lang: text[:1].upper() + text[1:] for lang, text in texts.items()}


class Said(TypedDict):
    """An Event's ``text`` and ``texts``."""

    text: str
    texts: Texts


class SaidPublicly(TypedDict):
    """An Event's ``public_text`` and ``public_texts``."""

    public_text: str
    public_texts: Texts


def _said(key: str, **values: Any) -> Said:
    """An Event's ``text`` and ``texts`` from the template ``key``."""
    texts = say(GAME, key, **values)
    return {"text": texts["en"], "texts": texts}


def _said_publicly(key: str, **values: Any) -> SaidPublicly:
    """An Event's ``public_text`` and ``public_texts`` from the template ``key``."""
    texts = say(GAME, key, **values)
    return {"public_text": texts["en"], "public_texts": texts}



# -- the actions' names, in every language (data/events.json, keys "action.*") ------------------
#: The actions a player answers yes or no, and the field that holds the answer.
_ANSWERS = {"trade_answer": "accept", "cancel_compete": "cancel", "reroll": "reroll"}


def action_words(data: JSONObject, cards: CardSet) -> tuple[str, dict[str, object]]:
    """The template naming an action (given as ``encode_action`` writes it) and its values: decks,
    symbols and seats in words; animals, their abilities and ecosystems as ``cards`` prints them
    (an id the card file does not know as it is spelled)."""
    kind = data["type"]
    if kind in _ANSWERS:
        return f"action.{kind}." + ("yes" if data[_ANSWERS[kind]] else "no"), {}
    if kind in ("forage", "forage_pick"):    # slot 0 is the deck's top
        return f"action.{kind}" if data["slot"] else f"action.{kind}.deck", {"slot": data["slot"]}
    values: dict[str, object] = {"slot": data["slot"]} if "slot" in data else {}
    for field in ("animal", "attacker", "defender"):
        if field in data:
            values[field] = cards.animal_label(data[field])
    if "ability" in data:
        animal_id: JSON = data.get("animal")
        owner = cards.animal_by_id.get(animal_id)
        values["ability"] = ability_label(cards, data["ability"], owner)
    if "ecosystem" in data:
        values["ecosystem"] = cards.ecosystem_label(data["ecosystem"])
    if "deck" in data:
        values["deck"] = say(GAME, f"term.{data['deck']}")
    if "symbol" in data:
        values["symbol"] = say(GAME, f"term.{data['symbol']}")
    if "seat" in data:
        values["partner"] = player(data["seat"])
    if "pay" in data:   # an explore always pays; a discover or compete may cost nothing
        values["paid"] = payment(tuple(data["pay"]), free=None if kind == "explore" else say(GAME, "term.nothing"))
    return f"action.{kind}", values

class BiomeBlitz(ModuleGame[State, Action, CardSet]):
    id = "biome_blitz"
    title = "Biome Blitz"
    #: 1.1: dice and reshuffles drawn by ``rules.chance.BLAKE2B`` (1.0: ``MERSENNE``, kept for its records).
    version = "1.1"
    player_counts = (2, 3, 4, 5, 6)
    variants: tuple[Variant, ...] = (ECOSYSTEM_BONUS, IMMUNE_POWER, EXTRA_COMPETE, ALL_DIFFERENT_WILD)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)

    #: How the dice and reshuffles of the games this spec deals are drawn (``recorded`` keeps 1.0's).
    chance_scheme: str = chance.BLAKE2B

    def card_set(self, state: State) -> CardSet:
        return state.cards

    def new_game(self, players: int, seed: int, variants: Mapping[str, Any] | None = None) -> State:
        players, chosen = self.check_new_game(players, seed, variants)
        return rules.new_state(self.cards, players, seed, chosen, self.chance_scheme)

    def recorded(self, version: str) -> BiomeBlitz:
        """Records of version 1.0 drew their dice and reshuffles by ``MERSENNE`` (``random.Random(key)``);
        1.1 draws them by ``BLAKE2B``, about six times cheaper a die (``rules.chance``)."""
        if version.split(".")[:2] != ["1", "0"]:
            return self
        older = type(self)(self.cards)
        older.chance_scheme = chance.MERSENNE
        return older

    def version_of(self, state: State) -> str:
        return "1.0" if state.chance == chance.MERSENNE else self.version

    def with_card_file(self, data: JSON) -> BiomeBlitz:
        game = cast(BiomeBlitz, super().with_card_file(data))
        game.chance_scheme = self.chance_scheme        # (a card file keeps the dice of the version played)
        return game

    #: Cards come into view when a market slot is filled (``reveal``) or a player draws (``draw``).
    deck_event_kinds: tuple[str, ...] = ("reveal", "draw")

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def score_key(self, state: State) -> tuple[CardSet, tuple[Team, ...], tuple[Ecosystems, ...], tuple[int, ...]]:
        """Points are a running total; the breakdown also lists the teams and ecosystems."""
        return (state.cards, state.teams, state.ecosystems, state.points)

    def score_breakdown(self, state: State, lang: str = "en") -> list[JSONObject]:
        """Points come from stars: discovered cards and defeated animals (kept as a running total).
        The texts in ``lang`` (``score.*`` in data/events.json); the numbers and keys are the same in
        every language."""
        cards = state.cards

        def text(key: str, **values: Any) -> str:
            return say_in(GAME, key, lang, **values)
        # (the same words for every seat: filled once)
        points_name, points_detail = text("score.points"), text("score.points.detail")
        animals_name, ecosystems_name = text("score.animals"), text("score.ecosystems")
        out: list[JSONObject] = []
        for seat in range(state.players):
            team = state.teams[seat]
            ecosystems = joined((cards.ecosystems[k].label for k in state.ecosystems[seat]), say(GAME, "score.none"))
            categories = [
                {"category": points_name, "detail": points_detail, "points": state.points[seat]},
                {"category": animals_name,
                 "detail": text("score.animals.detail", count=len(team), needed=WIN_ANIMALS),
                 "points": 0, "count": len(team), "animals": [cards.animal_ids[a] for a in team]},
                {"category": ecosystems_name, "detail": text("score.ecosystems.detail", ecosystems=ecosystems),
                 "points": 0, "count": len(state.ecosystems[seat])},
            ]
            out.append({"seat": seat, "categories": categories, "total": state.points[seat]})
        return out

    def scores(self, state: State) -> tuple[int, ...]:
        return state.points

    def winners(self, state: State) -> tuple[int, ...]:
        """The first to 30 points or five animals (the game stops at once, so there is one)."""
        return (state.winner,) if state.phase == OVER and state.winner != NOBODY else ()

    def inventory(self, state: State) -> dict[str, int]:
        cards = state.cards
        counts: Counter[str] = Counter()
        for d in range(3):
            zone = list(state.decks[d]) + list(state.discards[d]) + [c for c in state.markets[d] if c != EMPTY]
            counts.update(position.card_name(cards, d, c) for c in zone)
        for hand in state.hands:
            counts.update(SYMBOLS[s] for s in hand)
        for team in state.teams:
            counts.update(cards.animal_ids[a] for a in team)
        for ecos in state.ecosystems:
            counts.update(cards.ecosystems[k].id for k in ecos)
        if state.phase == REPLACE:      # the new ecosystem waits for the one it replaces
            counts[cards.ecosystems[state.pending[0]].id] += 1
        return dict(sorted(counts.items()))

    def sample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """``state.redeal``: the resource deck and other players' hands re-dealt among themselves and the
        other decks shuffled, but for what ``seat`` knows (what every seat saw taken, a pending trade's
        offer, its own peeks)."""
        return redeal(state, seat, rng)

    def card_info(self, state: State, card: str) -> JSONObject:
        """Resources group by symbol (number 0); animals by their ecosystem (number = stars);
        ecosystems in one group (number = stars). ``group_names``: the group's name in each language
        (``group_name``: the English), from the card file's names and the game's terms."""
        cards = state.cards
        if card in SYMBOLS:
            names = {lang: word[:1].upper() + word[1:] for lang, word in symbol(SYMBOLS.index(card)).items()}
            return {"group": card, "group_name": names["en"], "group_names": names, "number": 0}
        if card in cards.animal_by_id:
            animal = cards.animals[cards.animal_by_id[card]]
            where = cards.ecosystem_label(animal.ecosystem)
            where = {"en": where, "ja": where} if isinstance(where, str) else where
            word = say(GAME, "term.animal")
            names = {"en": f"{word['en'].capitalize()} ({where['en']})", "ja": f"{word['ja']}（{where['ja']}）"}
            return {"group": f"animal_{animal.ecosystem}", "group_name": names["en"], "group_names": names,
                    "number": animal.stars}
        eco = cards.ecosystems[cards.ecosystem(card, where="card")]
        names = {lang: word[:1].upper() + word[1:] for lang, word in say(GAME, "term.ecosystem").items()}
        return {"group": "ecosystem", "group_name": names["en"], "group_names": names, "number": eco.stars}

    def deck_knowledge(self, state: State, seat: Seat | None) -> JSONObject:
        """Unseen cards: the decks and other players' hands. Biome Blitz has no end card."""
        cards = state.cards
        unseen: Counter[str] = Counter()
        for d in range(3):
            unseen.update(position.card_name(cards, d, c) for c in state.decks[d])
        elsewhere = 0
        for s in range(state.players):
            if s != seat:
                unseen.update(SYMBOLS[c] for c in state.hands[s])
                elsewhere += len(state.hands[s])
        return {"deck_count": sum(len(d) for d in state.decks), "unseen": dict(sorted(unseen.items())),
                "unseen_in_hands": elsewhere, "end_card_depths": None}

    # -- the observer ------------------------------------------------------------------------
    def animal_json(self, state: State, animal: AnimalCard, seat: Seat | None = None) -> JSONObject:
        cards = state.cards
        a = cards.animals[animal]
        data: JSONObject = {"id": cards.animal_ids[animal], "name": a.name, "family": a.family, "stars": a.stars,
                "cost": {SYMBOLS[s]: n for s, n in enumerate(a.cost) if n},
                "battle_cost": {SYMBOLS[s]: n for s, n in enumerate(a.battle_cost) if n},
                "power": a.power, "defence": a.defence, "ecosystem": a.ecosystem, "provenance": a.provenance,
                "abilities": [{"name": ab.name, "trigger": ab.trigger, "effect": ab.effect, "text": ab.text}
                              for ab in a.abilities]}
        if seat is not None:
            power, defence = eco_bonus(state, seat, animal)
            data["bonus"] = {"power": power, "defence": defence}
        return data

    def observe(self, state: State, seat: Viewer) -> JSONObject:
        """Everything face up, each deck's and discard pile's size and the discard's top card, plus
        ``seat``'s own hand; ``ALL`` sees every hand and each deck's ``deck_cards`` (in draw order)
        and ``discard_cards`` (bottom first)."""
        cards = state.cards
        markets: dict[str, JSONObject] = {}
        for d, name in enumerate(DECK_NAMES):
            market: list[str | JSONObject | None] = []
            for c in state.markets[d]:
                if c == EMPTY:
                    market.append(None)
                elif d == 0:
                    market.append(SYMBOLS[c])
                elif d == 1:
                    market.append(self.animal_json(state, c))
                else:
                    eco = cards.ecosystems[c]
                    market.append({"id": eco.id, "name": eco.name, "stars": eco.stars,
                                   "cost": {SYMBOLS[s]: n for s, n in enumerate(eco.cost) if n},
                                   "power": eco.power, "defence": eco.defence})
            markets[name] = {"market": market, "deck": len(state.decks[d]), "discard": len(state.discards[d]),
                             "discard_top": position.card_name(cards, d, state.discards[d][-1]) if state.discards[d] else None}
            if seat == ALL:
                markets[name]["deck_cards"] = [position.card_name(cards, d, c) for c in state.decks[d]]
                markets[name]["discard_cards"] = [position.card_name(cards, d, c) for c in state.discards[d]]
        return {
            "game": self.id, "viewer": seat, "players": state.players, "variants": dict(state.variants),
            "card_set": {"name": cards.name, "provenance": cards.provenance},
            "phase": state.phase, "to_move": list(self.to_move(state)), "seat": state.seat, "turn": state.turn,
            "decks": markets,
            "hands": [{"count": len(h), **({"cards": [SYMBOLS[c] for c in h]} if sees(seat, s) else {})}
                      for s, h in enumerate(state.hands)],
            "teams": [[self.animal_json(state, a, s) for a in team] for s, team in enumerate(state.teams)],
            "ecosystems": [[cards.ecosystems[k].id for k in ecos] for ecos in state.ecosystems],
            "points": list(state.points), "scores": list(state.points),
            "pending": position.pending_json(state), "trades": state.trades,
            "last_compete": position.compete_json(state),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": [self.encode_action(a) for a in self.legal_actions(state, seat)] if acts(seat) else [],
            "winners": list(self.winners(state)),
            "score_breakdown": self.public_score_breakdown(state),
        }

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: LogEntry) -> Event:
        # ``extra``, the entry's detail, has a shape per kind (``state.LogEntry``): each kind says which.
        kind, seat, items, extra = record
        cards = state.cards
        who = player(seat)
        animal: Callable[[AnimalCard], Texts] = lambda a: cards.card_label(1, a)  # noqa: E731

        def told(key: str, **values: Any) -> Event:
            """The record's event, seen alike by everyone, in the words of template ``key``."""
            return Event(kind=kind, seat=seat, **_said(key, **values))

        if kind == "setup":
            starter = cast(Seat, extra)
            return Event(kind=kind, seat=starter, **_said("setup", who=player(starter)))
        if kind == "turn":
            return told("turn", who=who)
        if kind == "reveal":
            d, card = items
            return Event(kind=kind, cards=(position.card_name(cards, d, card),),
                         **_said("reveal", deck=_capitalized(deck_name(d)), slot=extra, card=cards.card_label(d, card)))
        if kind == "reshuffle":
            d, n = cast(tuple[Deck, int], extra)
            return told("reshuffle", deck=deck_name(d), count=n)
        if kind == "triple":
            return told("triple", symbol=symbol(cast(Symbol, extra)))
        if kind == "draw":
            reason = ({"en": "", "ja": ""} if extra == "forage"
                      else _ability_reason(cards, cast(tuple[AnimalCard, str], extra)))
            return Event(kind=kind, seat=seat, cards=tuple(SYMBOLS[s] for s in items),
                         visible_to=(cast(Seat, seat),),        # (a draw is a seat's)
                         **_said("draw" if items else "draw.nothing", who=who, cards=symbols(items), reason=reason),
                         **_said_publicly("draw.public.one" if len(items) == 1 else "draw.public.many",
                                          who=who, count=len(items), reason=reason))
        if kind == "take":
            return Event(kind=kind, seat=seat, cards=(SYMBOLS[items[0]],),
                         **_said("take", who=who, symbol=symbol(items[0]), slot=extra))
        if kind == "wild_ends" or kind == "forage_ends":
            return told(kind)
        if kind == "take_all":
            return told("take_all", who=who, animal=animal(cast(AnimalCard, extra)), cards=joined(map(symbol, items)))
        if kind == "ability_take":
            a, slot = cast(tuple[AnimalCard, int], extra)
            return told("ability_take", animal=animal(a), who=who, symbol=symbol(items[0]), slot=slot)
        if kind == "peek":
            d, top = items
            peeker = cast(AnimalCard, extra)
            seen = cards.card_label(d, top) if top != EMPTY else say(GAME, "term.empty_deck")
            return Event(kind=kind, seat=seat, visible_to=(cast(Seat, seat),),      # (a peek is a seat's)
                         **_said("peek", who=who, animal=animal(peeker), deck=deck_name(d), card=seen),
                         **_said_publicly("peek.public", who=who, deck=deck_name(d), animal=animal(peeker)))
        if kind == "explore":
            d, *flushed = items
            return told("explore" if flushed else "explore.nothing", who=who, deck=deck_name(d),
                        paid=payment(cast(tuple[str, ...], extra)),
                        cards=joined(cards.card_label(d, c) for c in flushed))
        if kind in ("trade_start", "trade_cancel"):       # (an offer being built is seen by everyone)
            return told(kind, who=who, partner=player(cast(Seat, extra)))
        if kind in ("trade_give", "trade_ask"):
            return told(kind, who=who, symbol=symbol(items[0]), partner=player(cast(Seat, extra)))
        if kind == "trade_offer":
            partner, given = cast(tuple[Seat, int], extra)
            return told("trade_offer", who=who, partner=player(partner), give=symbols(items[:given]), ask=symbols(items[given:]))
        if kind == "trade_answer":
            asker, accepted = cast(tuple[Seat, bool], extra)
            return told("trade_answer.accept" if accepted else "trade_answer.refuse", who=who, asker=player(asker))
        if kind == "discover":
            d, card = items
            name = cards.card_label(d, card)
            return told("discover", who=who, card=name,
                        paid=payment(cast(tuple[str, ...], extra), free=say(GAME, "term.nothing")))
        if kind == "points":
            stars, why = cast(tuple[int, str], extra)
            return told("points.discover" if why == "discover" else "points.defeat", who=who, stars=stars)
        if kind == "replace":
            old, new = items
            return told("replace", who=who, old=cards.card_label(2, old), new=cards.card_label(2, new))
        if kind == "compete":
            attacker, defender = items
            return told("compete", who=who, attacker=animal(attacker), owner=player(cast(Seat, extra)),
                        defender=animal(defender))
        if kind == "cancelled":
            symbol_paid, count = cast(tuple[Symbol, int], extra)
            return told("cancelled", who=who, count=count, symbol=symbol(symbol_paid), animal=animal(items[1]))
        if kind == "not_cancelled":
            return told("not_cancelled", who=who)
        if kind == "dice":
            attack, defend = items
            return told("dice", attack=attack, defence=defend)
        if kind == "reroll":
            a, _ = cast(tuple[AnimalCard, str], extra)
            return told("reroll", who=who, animal=animal(a), roll=items[0])
        if kind == "keep_die":
            return told("reroll.keep", who=who, animal=animal(cast(AnimalCard, extra)), roll=items[0])
        if kind == "result":
            a_total, d_total, kick = cast(tuple[int, int, str | None], extra)
            if kick:
                return told("result.kick", who=who, ability=ability_label(cards, kick, items[1]))
            return told("result", who=who, attack=a_total, defence=d_total)
        if kind == "destroyed":
            defender, attacker = items
            return told("destroyed", defender=animal(defender), ability=ability_label(cards, cast(str, extra), defender),
                        attacker=animal(attacker))
        if kind == "steal":
            owner, ability_name = cast(tuple[Seat, str], extra)
            return told("steal" if items else "steal.nothing", ability=ability_label(cards, ability_name), who=who,
                        cards=symbols(items), owner=player(owner))
        if kind == "frenzy":
            return told("frenzy", who=who, animal=animal(items[0]))
        if kind == "win":
            points, animals = cast(tuple[int, int], extra)
            return told("win", who=who, points=points, animals=animals)
        raise AssertionError(f"unknown log record {record!r}")

    # -- the picker --------------------------------------------------------------------------
    def action_label(self, action: Action, lang: str = "en", state: State | None = None) -> str:
        """The action's name on a button, from the ``action.*`` templates of ``data/events.json``: an
        animal, its ability and an ecosystem as the card file prints them (``compete: African lion
        against Saltwater crocodile``, not the ids ``lion`` and ``crocodile`` that ``str(action)`` and
        files use)."""
        key, values = action_words(self.encode_action(action), self.cards)
        return say_in(GAME, key, lang, **values)

    def card_label(self, card: str) -> dict[str, str] | str:
        """The name printed on the card ``card`` (an id of the position files: a resource symbol
        ``"leaf"``, an animal ``"lion"`` or an ecosystem ``"SAV"``), in every language, as actions name
        them (:func:`action_words`); an id that is not one of this card set's cards as it is."""
        if not isinstance(card, str):
            return card     # type: ignore[unreachable]  # (from untyped callers: any JSON value)
        if card in SYMBOLS:
            return symbol(SYMBOLS.index(card))
        found = self.cards.animal_label(card)
        return found if not isinstance(found, str) else self.cards.ecosystem_label(card)

    def position_fields(self, data: Mapping[str, JSON]) -> tuple[PositionField, ...]:
        return position.fields(self, data)

    # -- files -------------------------------------------------------------------------------

    # -- turns ---------------------------------------------------------------------------------
    def first_player(self, state: State) -> Seat:
        """The seat of turn 0: each turn passes to the next seat (``turn`` counts them)."""
        return (state.seat - state.turn) % state.players

    def turn_of(self, state: State) -> Turn | None:
        """The game counts its turns; every decision of one belongs to the turn's seat, a partner's
        trade answer, a defender's cancel and a die owner's reroll included."""
        if state.phase == OVER:
            return None
        return Turn(seat=state.seat, number=state.turn)

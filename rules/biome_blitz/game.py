"""Biome Blitz as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``rules.py`` holds the turn and the abilities, ``position.py`` the JSON files, and this module the
observer, the score summary and the plain-language events. Hidden: the decks' order, other players'
hands (their sizes are public) and what a peek ability showed its owner. Markets, discards, teams,
ecosystems, points and dice are on the table.
"""

from __future__ import annotations

from collections import Counter

from rules.biome_blitz import position, rules
from rules.biome_blitz.cards import SYMBOLS, parse_cards, standard_cards
from rules.biome_blitz.state import CANCEL, DECK_NAMES, EMPTY, NOBODY, OVER, REPLACE, TRADE, TRADE_REPLY, State
from rules.protocol import Event, ModuleGame


def player(seat: int | None) -> str:
    return f"Player {seat + 1}" if seat is not None else "Nobody"


class BiomeBlitz(ModuleGame):
    id = "biome_blitz"
    title = "Biome Blitz"
    version = "1.0"
    player_counts = (2, 3, 4, 5, 6)
    variants = ()
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)
    #: Cards come into view when a market slot is filled (``reveal``) or a player draws (``draw``).
    deck_event_kinds = ("reveal", "draw")

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def score_breakdown(self, state: State) -> list[dict]:
        """Points come from stars: discovered cards and defeated animals (kept as a running total)."""
        cards = state.cards
        out = []
        for seat in range(state.players):
            team = state.teams[seat]
            categories = [
                {"category": "points", "detail": "stars of discovered cards and of defeated animals",
                 "points": state.points[seat]},
                {"category": "animals", "detail": f"{len(team)} of {rules.WIN_ANIMALS} in the team (five wins)",
                 "points": 0, "count": len(team), "animals": [cards.animal_ids[a] for a in team]},
                {"category": "ecosystems", "detail": ", ".join(cards.ecosystems[k].name for k in state.ecosystems[seat]) or "none",
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
        counts: Counter = Counter()
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

    def sample_hidden(self, state: State, seat: int | None, rng) -> State:
        """Re-deal the resource deck and other players' hands among themselves, and shuffle the animal
        and ecosystem decks. Cards everyone knows a hand holds stay in it: the cards offered in a
        pending trade, and the cards a defender's owner may pay to cancel a compete."""
        others = [s for s in range(state.players) if s != seat]
        known = {s: () for s in others}
        if state.phase in (TRADE, TRADE_REPLY):
            trader = state.seat
            if trader in known:
                known[trader] = state.pending[1] if state.phase == TRADE else state.pending[2]
        elif state.phase == CANCEL and state.pending[0] in known:
            owner, _, _, symbol, count = state.pending
            known[owner] = (symbol,) * count
        pool = list(state.decks[0])
        for s in others:
            rest = list(state.hands[s])
            for card in known[s]:
                rest.remove(card)
            pool.extend(rest)
        pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in others:
            size = len(state.hands[s]) - len(known[s])
            hands[s], pool = tuple(sorted(tuple(pool[:size]) + known[s])), pool[size:]
        decks = [tuple(pool), sorted(state.decks[1]), sorted(state.decks[2])]
        rng.shuffle(decks[1])
        rng.shuffle(decks[2])
        return state._replace(hands=tuple(hands), decks=(decks[0], tuple(decks[1]), tuple(decks[2])))

    def card_info(self, state: State, card: str) -> dict:
        """Resources group by symbol (number 0); animals by their ecosystem (number = stars);
        ecosystems in one group (number = stars)."""
        cards = state.cards
        if card in SYMBOLS:
            return {"group": card, "group_name": card.capitalize(), "number": 0}
        if card in cards.animal_by_id:
            animal = cards.animals[cards.animal_by_id[card]]
            return {"group": f"animal_{animal.ecosystem}", "group_name": f"Animal ({animal.ecosystem})", "number": animal.stars}
        eco = cards.ecosystems[cards.ecosystem(card, where="card")]
        return {"group": "ecosystem", "group_name": "Ecosystem", "number": eco.stars}

    def deck_knowledge(self, state: State, seat: int | None) -> dict:
        """Unseen cards: the decks and other players' hands. Biome Blitz has no end card."""
        cards = state.cards
        unseen: Counter = Counter()
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
    def animal_json(self, state: State, animal: int, seat: int | None = None) -> dict:
        cards = state.cards
        a = cards.animals[animal]
        data = {"id": cards.animal_ids[animal], "name": a.name, "family": a.family, "stars": a.stars,
                "cost": {SYMBOLS[s]: n for s, n in enumerate(a.cost) if n},
                "battle_cost": {SYMBOLS[s]: n for s, n in enumerate(a.battle_cost) if n},
                "power": a.power, "defence": a.defence, "ecosystem": a.ecosystem, "provenance": a.provenance,
                "abilities": [{"name": ab.name, "trigger": ab.trigger, "effect": ab.effect, "text": ab.text}
                              for ab in a.abilities]}
        if seat is not None:
            power, defence = rules.eco_bonus(state, seat, animal)
            data["bonus"] = {"power": power, "defence": defence}
        return data

    def observe(self, state: State, seat: int | None) -> dict:
        cards = state.cards
        markets = {}
        for d, name in enumerate(DECK_NAMES):
            market = []
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
        return {
            "game": self.id, "viewer": seat, "players": state.players, "variants": dict(state.variants),
            "card_set": {"name": cards.name, "provenance": cards.provenance},
            "phase": state.phase, "to_move": list(self.to_move(state)), "seat": state.seat, "turn": state.turn,
            "decks": markets,
            "hands": [{"count": len(h), **({"cards": [SYMBOLS[c] for c in h]} if s == seat else {})}
                      for s, h in enumerate(state.hands)],
            "teams": [[self.animal_json(state, a, s) for a in team] for s, team in enumerate(state.teams)],
            "ecosystems": [[cards.ecosystems[k].id for k in ecos] for ecos in state.ecosystems],
            "points": list(state.points), "scores": list(state.points),
            "pending": position.pending_json(state), "trades": state.trades,
            "last_compete": position.compete_json(state),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": [self.encode_action(a) for a in self.legal_actions(state, seat)] if seat is not None else [],
            "winners": list(self.winners(state)),
        }

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: tuple) -> Event:
        kind, seat, items, extra = record
        cards = state.cards
        who = player(seat)
        animal = lambda a: cards.animals[a].name  # noqa: E731
        if kind == "setup":
            return Event(kind=kind, seat=extra, text=f"Setup: three face-up cards per deck, four resources each; {player(extra)} starts.")
        if kind == "turn":
            return Event(kind=kind, seat=seat, text=f"{who}'s turn.")
        if kind == "reveal":
            d, card = items
            name = position.card_name(cards, d, card)
            return Event(kind=kind, cards=(name,), text=f"{DECK_NAMES[d].capitalize()} slot {extra}: {name} is revealed.")
        if kind == "reshuffle":
            d, n = extra
            return Event(kind=kind, text=f"The {DECK_NAMES[d]} deck is empty: its {n} discards are shuffled into a new deck.")
        if kind == "triple":
            return Event(kind=kind, text=f"Three face-up {SYMBOLS[extra]} cards: they are discarded and replaced.")
        if kind == "draw":
            names = tuple(SYMBOLS[s] for s in items)
            how = "" if extra == "forage" else f" ({extra})"
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,),
                         text=f"{who} draws {', '.join(names) or 'nothing'}{how}.",
                         public_text=f"{who} draws {len(names)} resource card{'' if len(names) == 1 else 's'}{how}.")
        if kind == "take":
            return Event(kind=kind, seat=seat, cards=(SYMBOLS[items[0]],), text=f"{who} takes the face-up {SYMBOLS[items[0]]} (slot {extra}).")
        if kind == "wild_ends":
            return Event(kind=kind, seat=seat, text="A face-up wild ends the forage.")
        if kind == "take_all":
            names = ", ".join(SYMBOLS[s] for s in items)
            return Event(kind=kind, seat=seat, text=f"{who} forages with {animal(extra)}'s ability: takes {names}.")
        if kind == "ability_take":
            a, slot = extra
            return Event(kind=kind, seat=seat, text=f"{animal(a)}'s ability: {who} takes the face-up {SYMBOLS[items[0]]} (slot {slot}).")
        if kind == "peek":
            d, top = items
            name = position.card_name(cards, d, top) if top != EMPTY else "nothing (empty deck)"
            return Event(kind=kind, seat=seat, visible_to=(seat,),
                         text=f"{who} peeks with {animal(extra)}: the top of the {DECK_NAMES[d]} deck is {name}.",
                         public_text=f"{who} peeks at the top of the {DECK_NAMES[d]} deck with {animal(extra)}.")
        if kind == "explore":
            d, *flushed = items
            names = ", ".join(position.card_name(cards, d, c) for c in flushed) or "nothing"
            return Event(kind=kind, seat=seat, text=f"{who} explores the {DECK_NAMES[d]} deck paying {' + '.join(extra)}: "
                                                    f"{names} discarded.")
        if kind == "trade_offer":
            partner, given = extra
            give = ", ".join(SYMBOLS[s] for s in items[:given]) or "nothing"
            ask = ", ".join(SYMBOLS[s] for s in items[given:]) or "nothing"
            return Event(kind=kind, seat=seat, text=f"{who} offers {player(partner)} {give} for {ask}.")
        if kind == "trade_answer":
            asker, accepted = extra
            return Event(kind=kind, seat=seat, text=f"{who} {'accepts' if accepted else 'refuses'} {player(asker)}'s trade.")
        if kind == "discover":
            d, card = items
            name = animal(card) if d == 1 else cards.ecosystems[card].name
            return Event(kind=kind, seat=seat, text=f"{who} discovers {name} paying {' + '.join(extra) or 'nothing'}.")
        if kind == "points":
            stars, why = extra
            return Event(kind=kind, seat=seat, text=f"{who} scores {stars} ({'discovery' if why == 'discover' else 'defeated animal'}).")
        if kind == "replace":
            old, new = items
            return Event(kind=kind, seat=seat, text=f"{who} replaces {cards.ecosystems[old].name} with {cards.ecosystems[new].name}.")
        if kind == "compete":
            attacker, defender = items
            return Event(kind=kind, seat=seat, text=f"{who}'s {animal(attacker)} competes against {player(extra)}'s {animal(defender)}.")
        if kind == "cancelled":
            return Event(kind=kind, seat=seat, text=f"{who} discards {extra[1]} {SYMBOLS[extra[0]]} to cancel the compete "
                                                    f"against {animal(items[1])}.")
        if kind == "not_cancelled":
            return Event(kind=kind, seat=seat, text=f"{who} lets the compete go on.")
        if kind == "dice":
            attack, defend = items
            return Event(kind=kind, seat=seat, text=f"Dice: attack {attack}, defence {defend}.")
        if kind == "reroll":
            a, why = extra
            return Event(kind=kind, seat=seat, text=f"{who} rerolls {animal(a)}'s die: {items[0]}.")
        if kind == "result":
            attacker, defender = items
            a_total, d_total, kick = extra
            how = f"{kick} wins it for the defender" if kick else f"{a_total} against {d_total}"
            return Event(kind=kind, seat=seat, text=f"{who} wins the compete ({how}).")
        if kind == "destroyed":
            defender, attacker = items
            return Event(kind=kind, seat=seat, text=f"{animal(defender)}'s {extra}: {animal(attacker)} is discarded too.")
        if kind == "steal":
            owner, name = extra
            names = ", ".join(SYMBOLS[s] for s in items) or "nothing"
            return Event(kind=kind, seat=seat, text=f"{name}: {who} takes {names} from {player(owner)}.")
        if kind == "frenzy":
            return Event(kind=kind, seat=seat, text=f"{who} may compete again with {animal(items[0])}.")
        if kind == "win":
            points, animals = extra
            return Event(kind=kind, seat=seat, text=f"{who} wins with {points} points and {animals} animals.")
        raise AssertionError(f"unknown log record {record!r}")

    # -- files -------------------------------------------------------------------------------

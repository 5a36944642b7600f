"""Starligned as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``choices.py`` says who acts and what they may choose, ``rules.py`` plays the rounds, ``scoring.py`` the points, ``position.py`` the JSON files, and this
module the observer, the score summary and the plain-language events. Hidden: the deck, other
players' hands (cards and orientation), the cards chosen face down in phase 1 until all are
revealed, and each stage's discarded last cards. The rows, the moon cards and the box (the white
cards set aside with 2-3 players) are on the table.
"""

from __future__ import annotations

from collections import Counter

from rules.protocol import Event, ModuleGame, Variant
from rules.starligned import position, rules, scoring
from rules.starligned.cards import parse_cards, standard_cards
from rules.starligned.state import NONE, OVER, PLAY, State

DEAL_HIGH_UP = Variant(
    name="deal_high_up",
    default=False,
    description=("Every card is dealt with its high half up (default: dealt cards come off the shuffled deck in "
                 "either orientation, at random)."),
    source=("starligned.ja.txt セットアップ deals six cards and forbids turning them afterwards, but does not say "
            "how they are dealt; rules/starligned/rules.py docstring"),
)


def player(seat: int | None) -> str:
    return f"Player {seat + 1}" if seat is not None else "Nobody"


class Starligned(ModuleGame):
    id = "starligned"
    title = "Starligned"
    version = "1.0"
    player_counts = (2, 3, 4, 5)
    variants = (DEAL_HIGH_UP,)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)
    #: Cards come out of the deck into hands (dealt, seen by their owner) and onto the rows (revealed).
    deck_event_kinds = ("deal", "reveal")

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def score_breakdown(self, state: State) -> list[dict]:
        cards = state.cards
        out = []
        for seat, row in enumerate(state.rows):
            values = [cards.value[e] for e in row]
            effects = [cards.effect[e] for e in row]
            points = scoring.row_points(values, effects)
            multipliers = scoring.multipliers(effects)
            categories = [{"category": f"{i + 1}. {position.entry_name(cards, e)}",
                           "detail": f"{values[i]}" + ("" if multipliers[i] == 1 else f" x{multipliers[i]} (the card to its right)"),
                           "points": points[i], "value": values[i], "multiplier": multipliers[i]}
                          for i, e in enumerate(row)]
            constellations = len({cards.constellation[e // 2] for e in row})
            out.append({"seat": seat, "categories": categories, "total": sum(points),
                        "moon_cards": len(state.moons[seat]), "constellations": constellations})
        return out

    def scores(self, state: State) -> tuple[int, ...]:
        cards = state.cards
        return tuple(sum(scoring.row_points([cards.value[e] for e in row], [cards.effect[e] for e in row]))
                     for row in state.rows)

    def winners(self, state: State) -> tuple[int, ...]:
        """Most points; ties: most moon cards on the row, then most distinct constellations, then shared."""
        if state.phase != OVER:
            return ()
        keys = [scoring.tie_break_key(b["total"], b["moon_cards"], b["constellations"]) for b in self.score_breakdown(state)]
        best = max(keys)
        return tuple(s for s in range(state.players) if keys[s] == best)

    def turns_taken(self, state: State) -> tuple[int, ...]:
        """Cards played into each row (equal for everyone once a round's cards are revealed)."""
        return tuple(len(row) for row in state.rows)

    def inventory(self, state: State) -> dict[str, int]:
        every = Counter(state.deck)
        every.update(state.box)
        every.update(e // 2 for e in state.discard)
        for zone in (state.hands, state.rows):
            for pile in zone:
                every.update(e // 2 for e in pile)
        if state.phase == PLAY:
            every.update(c // 2 for c in state.chosen if c != NONE)
        return {state.cards.ids[c]: n for c, n in sorted(every.items())}

    def _hidden_slots(self, state: State, seat: int | None):
        others = [s for s in range(state.players) if s != seat]
        chosen = [s for s in others if state.phase == PLAY and state.chosen[s] != NONE]
        return others, chosen

    def sample_hidden(self, state: State, seat: int | None, rng) -> State:
        """Re-deal the deck, the discards, other players' hands and face-down chosen cards among
        themselves, in orientations drawn at random (``seat`` cannot see them)."""
        others, chosen = self._hidden_slots(state, seat)
        pool = list(state.deck) + [e // 2 for e in state.discard]
        for s in others:
            pool.extend(e // 2 for e in state.hands[s])
        pool.extend(state.chosen[s] // 2 for s in chosen)
        pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
        rng.shuffle(pool)
        deck, pool = tuple(pool[:len(state.deck)]), pool[len(state.deck):]
        # Orientations the seat cannot see are drawn at random too.
        discard = [2 * pool.pop() + rng.getrandbits(1) for _ in state.discard]
        hands = list(state.hands)
        for s in others:
            hands[s] = tuple(sorted(2 * pool.pop() + rng.getrandbits(1) for _ in state.hands[s]))
        picked = list(state.chosen)
        for s in chosen:
            picked[s] = 2 * pool.pop() + rng.getrandbits(1)
        return state._replace(deck=deck, discard=tuple(discard), hands=tuple(hands), chosen=tuple(picked))

    def card_info(self, state: State, card: str) -> dict:
        """Group by constellation; number = the value of the half that is up (``"S101r"``: rotated)."""
        cards = state.cards
        e = position.parse_entry(cards, card, "card")
        c = cards.constellation[e // 2]
        return {"group": cards.constellation_ids[c], "group_name": cards.constellation_names[c], "number": cards.value[e]}

    def deck_knowledge(self, state: State, seat: int | None) -> dict:
        """Unseen cards: every card in play but those in the rows and ``seat``'s own hand and choice
        (named high half up). Starligned has no end card."""
        cards = state.cards
        seen = {e // 2 for row in state.rows for e in row}
        if seat is not None:
            seen.update(e // 2 for e in state.hands[seat])
            if state.phase == PLAY and state.chosen[seat] != NONE:
                seen.add(state.chosen[seat] // 2)
        unseen = {cards.ids[c]: 1 for c in cards.deck(state.players) if c not in seen}
        others, chosen = self._hidden_slots(state, seat)
        elsewhere = len(state.discard) + sum(len(state.hands[s]) for s in others) + len(chosen)
        return {"deck_count": len(state.deck), "unseen": unseen, "unseen_in_hands": elsewhere, "end_card_depths": None}

    # -- the observer ------------------------------------------------------------------------
    def card_json(self, state: State, e: int) -> dict:
        cards = state.cards
        c = e // 2
        return {"card": position.entry_name(cards, e), "id": cards.ids[c], "rotated": bool(e & 1),
                "value": cards.value[e], "effect": cards.effect[e],
                "other_half": {"value": cards.value[e ^ 1], "effect": cards.effect[e ^ 1]},
                "constellation": cards.constellation_ids[cards.constellation[c]],
                "half_moon": "left" if cards.moon_edge[e] == 0 else "right", "red": cards.red[c]}

    def observe(self, state: State, seat: int | None) -> dict:
        cards = state.cards
        rows = []
        for s, row in enumerate(state.rows):
            blocked = {c for pair in state.moons[s] for c in pair}
            rows.append([{**self.card_json(state, e), "blocked": e // 2 in blocked} for e in row])
        chosen = []
        for s, c in enumerate(state.chosen):
            if state.phase == PLAY:
                entry = {"chosen": c != NONE}
                if s == seat and c != NONE:
                    entry["card"] = self.card_json(state, c)
            else:
                entry = {"rotated": state.phase == "rotate" and c != NONE}
            chosen.append(entry)
        return {
            "game": self.id,
            "viewer": seat,
            "players": state.players,
            "variants": dict(state.variants),
            "card_set": {"name": cards.name, "provenance": cards.provenance},
            "phase": state.phase,
            "to_move": list(self.to_move(state)),
            "stage": state.stage,
            "round": state.round,
            "start_player": state.start_player,
            "resolver": None if state.resolver == NONE else state.resolver,
            "pending": None if not state.pending else {"seat": state.pending[0], "card": cards.ids[state.pending[1]]},
            "ignored": [cards.ids[c] for c in state.ignored],
            "stopped": state.stopped,
            "deck": {"count": len(state.deck)},
            "box": [cards.ids[c] for c in state.box],
            "discard": {"count": len(state.discard)},
            "moon_supply": state.moon_supply,
            "rows": rows,
            "moons": [[[cards.ids[a], cards.ids[b]] for a, b in pairs] for pairs in state.moons],
            "hands": [{"count": len(hand), **({"cards": [self.card_json(state, e) for e in hand]} if s == seat else {})}
                      for s, hand in enumerate(state.hands)],
            "chosen": chosen,
            "turns_taken": list(self.turns_taken(state)),
            "scores": list(self.scores(state)),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": [self.encode_action(a) for a in self.legal_actions(state, seat)] if seat is not None else [],
            "winners": list(self.winners(state)),
        }

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: tuple) -> Event:
        kind, seat, entries, extra = record
        cards = state.cards
        names = tuple(position.entry_name(cards, e) for e in entries)

        def half(e: int) -> str:
            return f"{position.entry_name(cards, e)} ({cards.value[e]}, {cards.effect[e].replace('_', ' ')})"

        who = player(seat)
        if kind == "setup":
            return Event(kind=kind, seat=extra, text=(f"Setup: six star cards each, held as dealt; {player(extra)} holds "
                                                      "the start-player direction card."))
        if kind == "deal":
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,), text=f"{who} is dealt {', '.join(names)}.",
                         public_text=f"{who} is dealt {len(names)} cards.")
        if kind == "chosen":
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,), text=f"{who} puts {half(entries[0])} face down.",
                         public_text=f"{who} puts a card face down.")
        if kind == "reveal":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} reveals {half(entries[0])}.")
        if kind == "stop":
            stoppers = ", ".join(player(s) for s in extra)
            return Event(kind=kind, text=f"Stop ({stoppers}): phase 3 is skipped this round, moon bonuses too.")
        if kind == "moon_offer":
            return Event(kind=kind, seat=seat, text=f"{who}'s last two cards show a full moon: a moon bonus.")
        if kind == "cover":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} covers {names[0]} and {names[1]} with a moon card.")
        if kind == "remove_moon":
            row, (a, b) = extra
            return Event(kind=kind, seat=seat, text=f"{who} removes the moon card over {cards.ids[a]} and {cards.ids[b]} "
                                                    f"from {player(row)}'s row.")
        if kind == "no_bonus":
            return Event(kind=kind, seat=seat, text=f"{who} takes no moon bonus.")
        if kind == "effect":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} resolves {extra.replace('_', ' ')} of {names[0]}.")
        if kind in ("no_effect", "unresolvable", "ignored"):
            why = {"no_effect": "acts at another time", "unresolvable": "has no possible target",
                   "ignored": "came in by Exchange this round, so it is ignored"}[kind]
            return Event(kind=kind, seat=seat, cards=names, text=f"{who}'s {names[0]} ({extra.replace('_', ' ')}) {why}.")
        if kind == "swap":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} swaps {names[0]} and {names[1]} in {player(extra)}'s row.")
        if kind == "move":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} moves {names[0]} to position {extra}.")
        if kind == "rotate_card":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} rotates {player(extra)}'s {half(entries[0])}.")
        if kind == "rotate_telescope":
            return Event(kind=kind, seat=seat, text=f"{who} rotates every card in {player(extra)}'s hand.")
        if kind == "repeat":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} repeats the effect of {half(entries[0])} "
                                                                 f"in {player(extra)}'s row.")
        if kind == "repeat_repeat":
            return Event(kind=kind, seat=seat, cards=names, text="A repeated Repeat does nothing.")
        if kind == "exchange":
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} chooses {names[0]} in {player(extra)}'s row for "
                                                                 f"an exchange; {player(extra)} picks the hand card.")
        if kind == "exchanged":
            out = position.entry_name(cards, extra)
            return Event(kind=kind, seat=seat, cards=names, text=f"{who} puts {half(entries[0])} into the row and takes "
                                                                 f"{out} into hand; the new card's effect is ignored this round.")
        if kind == "rotate_phase":
            return Event(kind=kind, text="Phase 4: everyone rotates one hand card.")
        if kind == "rotate_hand":
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,), text=f"{who} rotates {half(entries[0])} in hand.",
                         public_text=f"{who} rotates a hand card.")
        if kind == "pass":
            return Event(kind=kind, text=f"Hands pass left with their direction cards; {player(extra)} now starts.")
        if kind == "discard":
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,), text=f"{who} discards {', '.join(names)}.",
                         public_text=f"{who} discards the last hand card.")
        if kind == "stage":
            return Event(kind=kind, text=f"Stage {extra + 1}: six new cards each.")
        if kind == "game_over":
            return Event(kind=kind, text="Both stages are over: every row holds ten cards. Final scoring.")
        raise AssertionError(f"unknown log record {record!r}")

    # -- files -------------------------------------------------------------------------------

"""Starligned as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``choices.py`` says who acts and what they may choose, ``rules.py`` plays the rounds, ``scoring.py`` the points, ``position.py`` the JSON files, and this
module the observer, the score summary and the plain-language events (in every language, from
``data/events.json``). Hidden: the deck, other players' hands (cards and orientation), the cards
chosen face down in phase 1 until all are revealed, and each stage's discarded last cards. The
rows, the moon cards and the box (the white cards set aside with 2-3 players) are on the table.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping, cast

from rules import chance
from rules.eventtexts import Texts, joined, player, say, say_in
from rules.protocol import (
    ALL, Event, JSONObject, ModuleGame, PositionField, Seat, Turn, Variant, Viewer, acts, sees,
)
from rules.starligned import position, rules, scoring
from rules.starligned.cards import Card, CardSet, Entry, parse_cards, standard_cards
from rules.starligned.state import NONE, OVER, PLAY, Action, MoonPair, Record, State

DEAL_HIGH_UP = Variant(
    name="deal_high_up",
    default=False,
    description=("Every card is dealt with its high half up (default: dealt cards come off the shuffled deck in "
                 "either orientation, at random)."),
    source=("the rules text's セットアップ deals six cards and forbids turning them afterwards, but does not say "
            "how they are dealt; rules/starligned/rules.py docstring"),
)


REPEAT_PICKS_REPEAT = Variant(
    name="repeat_picks_repeat",
    default=True,
    description=("Repeat may pick a card showing Repeat, itself included, and then does nothing (off: Repeat cards "
                 "are no targets, so a Repeat must pick another phase 3 effect when there is one)."),
    source=("the rules text's 効果の一覧, リピート allows any phase 3 effect and Repeat is one; docs/readings.md, Starligned 5 "
            "rules on a repeated Repeat (it does nothing), so it takes one to be pickable: default on"),
)

MOVE_BETWEEN_MOON_PAIRS = Variant(
    name="move_between_moon_pairs",
    default=True,
    description=("Move may put its card between two blocked cards that lie under two different moon cards (off: "
                 "never between two blocked cards)."),
    source=("the rules text's 効果の一覧, 移動 forbids cutting in between blocked cards; a moon card covers and holds "
            "together its own two cards (docs/readings.md, Starligned 5: blocked cards are not separated), nothing joins "
            "two moon cards: default on"),
)


GAME = "starligned"


def said(key: str, **values: object) -> Texts:
    """Starligned's event text ``key`` in every language (``data/events.json``)."""
    return say(GAME, key, **values)


def _constellations(cards: CardSet, row: tuple[Entry, ...]) -> int:
    """How many distinct constellations a row shows (the second tie-break)."""
    return len({cards.constellation[e // 2] for e in row})


class Starligned(ModuleGame[State, Action, CardSet]):
    id = "starligned"
    title = "Starligned"
    version = "1.0"
    player_counts = (2, 3, 4, 5)
    variants: tuple[Variant, ...] = (DEAL_HIGH_UP, REPEAT_PICKS_REPEAT, MOVE_BETWEEN_MOON_PAIRS)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)

    def card_set(self, state: State) -> CardSet:
        return state.cards
    #: Cards come out of the deck into hands (dealt, seen by their owner) and onto the rows (revealed).
    deck_event_kinds: tuple[str, ...] = ("deal", "reveal")

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def score_key(self, state: State) -> tuple[CardSet, tuple[tuple[Entry, ...], ...],
                                               tuple[tuple[MoonPair, ...], ...]]:
        """Scoring reads the rows (and counts the moon cards)."""
        return (state.cards, state.rows, state.moons)

    def score_breakdown(self, state: State, lang: str = "en") -> list[JSONObject]:
        """Per seat, each card of the row left to right (``category``: its position and card id;
        ``detail``: its value, and the multiplier of the x2 or x0 card to its right), texts in ``lang``
        from the ``score.*`` templates of ``data/events.json``."""
        cards = state.cards
        out: list[JSONObject] = []
        for seat, row in enumerate(state.rows):
            values = [cards.value[e] for e in row]
            effects = [cards.effect[e] for e in row]
            points = scoring.row_points(values, effects)
            multipliers = scoring.multipliers(effects)
            categories = [{"category": say_in(GAME, "score.card", lang, position=i + 1, card=position.entry_name(cards, e)),
                           "detail": (say_in(GAME, "score.value", lang, value=values[i]) if multipliers[i] == 1 else
                                      say_in(GAME, "score.multiplied", lang, value=values[i], multiplier=multipliers[i])),
                           "points": points[i], "value": values[i], "multiplier": multipliers[i]}
                          for i, e in enumerate(row)]
            out.append({"seat": seat, "categories": categories, "total": sum(points),
                        "moon_cards": len(state.moons[seat]), "constellations": _constellations(cards, row)})
        return out

    def scores(self, state: State) -> tuple[int, ...]:
        cards = state.cards
        return tuple(sum(scoring.row_points([cards.value[e] for e in row], [cards.effect[e] for e in row]))
                     for row in state.rows)

    def winners(self, state: State) -> tuple[Seat, ...]:
        """Most points; ties: most moon cards on the row, then most distinct constellations, then shared."""
        if state.phase != OVER:
            return ()
        # (The numbers of score_breakdown, without its texts: bots ask at the end of every playout.)
        keys = [scoring.tie_break_key(total, len(moons), _constellations(state.cards, row))
                for total, moons, row in zip(self.scores(state), state.moons, state.rows)]
        best = max(keys)
        return tuple(s for s in range(state.players) if keys[s] == best)

    def turns_taken(self, state: State) -> tuple[int, ...]:
        """Cards played into each row (equal for everyone once a round's cards are revealed)."""
        return tuple(len(row) for row in state.rows)

    def inventory(self, state: State) -> dict[str, int]:
        every = _in_play(state)
        every.update(state.box)
        return {state.cards.ids[c]: n for c, n in sorted(every.items())}

    def set_aside(self, state: State) -> dict[str, int]:
        """The box (the cards a smaller table leaves out)."""
        return {state.cards.ids[c]: n for c, n in sorted(Counter(state.box).items())}

    def _hidden_slots(self, state: State, seat: Seat | None) -> tuple[list[Seat], list[Seat]]:
        others = [s for s in range(state.players) if s != seat]
        chosen = [s for s in others if state.phase == PLAY and state.chosen[s] != NONE]
        return others, chosen

    def known_to(self, state: State, seat: Seat | None) -> tuple[set[Seat], set[Card]]:
        """What ``seat`` knows of the hidden zones: the seats whose hand (with their face-down card) it
        knows card by card, and the cards it knows lie in the discard.

        Hands pass left after every round but a stage's last, so in round r of a stage the hand at
        seat t was held by seats t-1 ... t-r, who saw it; since then cards only left it face up (played)
        or crossed in view of all (Exchange). At a stage's end every hand has passed four times, so
        with at most five players everyone has seen every discarded card. A spectator saw no hand.
        Orientations are not kept: the holder turns one card unseen in phase 4.
        """
        if seat is None:
            return set(), set()
        n = state.players
        hands = {t for t in range(n) if t != seat and (t - seat) % n <= state.round}
        return hands, {e // 2 for e in state.discard}

    def sample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """Re-deal the deck, the discards, other players' hands and face-down chosen cards among
        themselves, in orientations drawn at random (``seat`` cannot see them), but for what ``seat``
        knows (``known_to``, and the cards that crossed into a hand by Exchange): those stay where they
        are, a known hand's face-down card being any of its cards.

        Every card out of sight is shuffled, known ones included, and the known ones are then taken out
        (the rest stays in random order, and a known hand's cards come in random order too): ``rng`` is
        drawn from exactly as often whatever is known, so a bot's later draws do not depend on it."""
        others, chosen = self._hidden_slots(state, seat)
        known_hands, known_discard = self.known_to(state, seat)
        exchanged = set(state.exchanged)
        # Per other seat: its hidden slots' cards (hand, then the face-down card) and those of them it knows.
        slots = {t: [e // 2 for e in state.hands[t]] + ([state.chosen[t] // 2] if t in chosen else []) for t in others}
        kept = {t: {c for c in cards if t in known_hands or c in exchanged} for t, cards in slots.items()}
        known = set(known_discard).union(*kept.values())
        pool = list(state.deck) + [e // 2 for e in state.discard]
        for t in others:
            pool.extend(slots[t])
        pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
        chance.shuffle(rng, pool)
        order = {c: i for i, c in enumerate(pool)}       # (every card is unique)
        pool = [c for c in pool if c not in known]
        deck, pool = tuple(pool[:len(state.deck)]), pool[len(state.deck):]
        dealt: dict[Seat, list[Card]] = {}
        for t in others:
            drawn = [pool.pop() for _ in range(len(slots[t]) - len(kept[t]))]
            dealt[t] = sorted([*kept[t], *drawn], key=order.__getitem__)
        # Orientations the seat cannot see are drawn at random too.
        discard = [2 * (e // 2 if e // 2 in known_discard else pool.pop()) + rng.getrandbits(1) for e in state.discard]
        hands = list(state.hands)
        for t in others:
            hands[t] = tuple(sorted(2 * c + rng.getrandbits(1) for c in dealt[t][:len(state.hands[t])]))
        picked = list(state.chosen)
        for t in chosen:
            picked[t] = 2 * dealt[t][-1] + rng.getrandbits(1)
        return state._replace(deck=deck, discard=tuple(discard), hands=tuple(hands), chosen=tuple(picked),
                              seed=chance.unknown_seed(rng))

    def card_info(self, state: State, card: str) -> JSONObject:
        """Group by constellation (``group_names``: its name in each language, the card file's
        ``name_ja``); number = the value of the half that is up (``"S101r"``: rotated)."""
        cards = state.cards
        e = position.parse_entry(cards, card, "card")
        c = cards.constellation[e // 2]
        name = cards.constellation_names[c]
        listed = cards.raw.get("constellations", ()) if hasattr(cards.raw, "get") else ()
        found = listed[c] if c < len(listed) and hasattr(listed[c], "get") else {}   # (as card_label reads it)
        return {"group": cards.constellation_ids[c], "group_name": name,
                "group_names": {"en": name, "ja": str(found.get("name_ja") or name)}, "number": cards.value[e]}

    def deck_knowledge(self, state: State, seat: Seat | None) -> JSONObject:
        """Unseen cards: every card in play but those in the rows and ``seat``'s own hand and choice
        (named high half up). Starligned has no end card."""
        cards = state.cards
        seen = {e // 2 for row in state.rows for e in row}
        if seat is not None:
            seen.update(e // 2 for e in state.hands[seat])
            if state.phase == PLAY and state.chosen[seat] != NONE:
                seen.add(state.chosen[seat] // 2)
        # (the position's own cards: a what-if position may hold fewer than the player count deals)
        unseen = {cards.ids[c]: 1 for c in sorted(_in_play(state)) if c not in seen}
        others, chosen = self._hidden_slots(state, seat)
        elsewhere = len(state.discard) + sum(len(state.hands[s]) for s in others) + len(chosen)
        return {"deck_count": len(state.deck), "unseen": unseen, "unseen_in_hands": elsewhere, "end_card_depths": None}

    # -- the observer ------------------------------------------------------------------------
    def card_json(self, state: State, e: Entry) -> JSONObject:
        cards = state.cards
        c = e // 2
        return {"card": position.entry_name(cards, e), "id": cards.ids[c], "rotated": bool(e & 1),
                "value": cards.value[e], "effect": cards.effect[e],
                "other_half": {"value": cards.value[e ^ 1], "effect": cards.effect[e ^ 1]},
                "constellation": cards.constellation_ids[cards.constellation[c]],
                "half_moon": "left" if cards.moon_edge[e] == 0 else "right", "red": cards.red[c]}

    def observe(self, state: State, seat: Viewer) -> JSONObject:
        """Everything face up, plus ``seat``'s own hand and face-down choice; to ``ALL`` every hand
        and choice, and the deck's and the discard's ``cards`` (the deck in draw order)."""
        cards = state.cards
        rows = []
        for s, row in enumerate(state.rows):
            blocked = {c for pair in state.moons[s] for c in pair}
            rows.append([{**self.card_json(state, e), "blocked": e // 2 in blocked} for e in row])
        chosen = []
        for s, c in enumerate(state.chosen):
            entry: JSONObject
            if state.phase == PLAY:
                entry = {"chosen": c != NONE}
                if sees(seat, s) and c != NONE:
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
            "deck": {"count": len(state.deck), **({"cards": [cards.ids[c] for c in state.deck]} if seat == ALL else {})},
            "box": [cards.ids[c] for c in state.box],
            "discard": {"count": len(state.discard),
                        **({"cards": [self.card_json(state, e) for e in state.discard]} if seat == ALL else {})},
            "moon_supply": state.moon_supply,
            "rows": rows,
            "moons": [[[cards.ids[a], cards.ids[b]] for a, b in pairs] for pairs in state.moons],
            "hands": [{"count": len(hand), **({"cards": [self.card_json(state, e) for e in hand]} if sees(seat, s) else {})}
                      for s, hand in enumerate(state.hands)],
            "chosen": chosen,
            "turns_taken": list(self.turns_taken(state)),
            "scores": list(self.scores(state)),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": [self.encode_action(a) for a in self.legal_actions(state, seat)] if acts(seat) else [],
            "winners": list(self.winners(state)),
            "score_breakdown": self.public_score_breakdown(state),
        }

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: Record) -> Event:
        kind, seat, entries, extra = record
        cards = state.cards
        names = tuple(position.entry_name(cards, e) for e in entries)

        def event(texts: Texts, public_texts: Texts | None = None, *, seat: Seat | None = None,
                  cards: tuple[str, ...] = (), visible_to: tuple[Seat, ...] | None = None) -> Event:
            return Event(kind=kind, text=texts["en"], texts=texts, public_texts=public_texts,
                         public_text=None if public_texts is None else public_texts["en"], seat=seat, cards=cards,
                         visible_to=visible_to)

        def effect(name: str) -> Texts:
            return said(f"effect.{name}")

        def own(key: str, owner: Seat) -> str:
            """``key``, or ``key.own`` when the seat acts on its own row or hand ("their own row", not its name again)."""
            return f"{key}.own" if owner == seat else key

        def half(e: int) -> Texts:
            return said("card_half", card=position.entry_name(cards, e), value=cards.value[e],
                        effect=effect(cards.effect[e]))

        # (``extra`` holds what the kind needs, as ``state.RecordExtra`` lists it; a hidden event has a seat)
        who = None if seat is None else player(seat)
        if kind == "setup":
            assert isinstance(extra, int)
            return event(said("setup", starter=player(extra)), seat=extra)
        if kind == "deal":
            assert seat is not None
            return event(said("deal", who=who, cards=joined(names)), said("deal.public", who=who, count=len(names)),
                         seat=seat, cards=names, visible_to=(seat,))
        if kind == "chosen":
            assert seat is not None
            return event(said("chosen", who=who, card=half(entries[0])), said("chosen.public", who=who),
                         seat=seat, cards=names, visible_to=(seat,))
        if kind == "reveal":
            return event(said("reveal", who=who, card=half(entries[0])), seat=seat, cards=names)
        if kind == "stop":
            stoppers = cast(tuple[Seat, ...], extra)
            return event(said("stop", stoppers=joined(player(s) for s in stoppers)))
        if kind == "moon_offer":
            return event(said("moon_offer", who=who), seat=seat)
        if kind == "cover":
            return event(said("cover", who=who, first=names[0], second=names[1]), seat=seat, cards=names)
        if kind == "remove_moon":
            row, (a, b) = cast(tuple[Seat, MoonPair], extra)
            return event(said(own("remove_moon", row), who=who, first=cards.ids[a], second=cards.ids[b], owner=player(row)),
                         seat=seat)
        if kind == "no_bonus":
            return event(said("no_bonus", who=who), seat=seat)
        if kind == "effect":
            assert isinstance(extra, str)
            return event(said("effect", who=who, effect=effect(extra), card=names[0]), seat=seat, cards=names)
        if kind in ("no_effect", "unresolvable", "ignored"):
            assert isinstance(extra, str)
            key = kind
            if kind == "no_effect" and extra == "stop":         # (it acts as it is revealed: the text says so)
                key = "no_effect.stop"
            elif kind == "no_effect" and extra in ("x2", "x0"):  # (they act at final scoring)
                key = "no_effect.multiplier"
            return event(said(key, who=who, card=names[0], effect=effect(extra)), seat=seat, cards=names)
        if kind == "swap":
            assert isinstance(extra, int)
            return event(said(own("swap", extra), who=who, first=names[0], second=names[1], owner=player(extra)),
                         seat=seat, cards=names)
        if kind == "move":
            return event(said("move", who=who, card=names[0], position=extra), seat=seat, cards=names)
        if kind == "rotate_card":
            assert isinstance(extra, int)
            return event(said(own("rotate_card", extra), who=who, owner=player(extra), card=half(entries[0])),
                         seat=seat, cards=names)
        if kind == "rotate_telescope":
            assert isinstance(extra, int)
            return event(said(own("rotate_telescope", extra), who=who, owner=player(extra)), seat=seat)
        if kind == "repeat":
            assert isinstance(extra, int)
            return event(said(own("repeat", extra), who=who, card=half(entries[0]), owner=player(extra)), seat=seat,
                         cards=names)
        if kind == "repeat_repeat":
            return event(said("repeat_repeat"), seat=seat, cards=names)
        if kind == "exchange":
            assert isinstance(extra, int)
            return event(said(own("exchange", extra), who=who, card=names[0], owner=player(extra)), seat=seat, cards=names)
        if kind == "exchanged":
            assert isinstance(extra, int)
            taken = position.entry_name(cards, extra)
            return event(said("exchanged", who=who, card=half(entries[0]), taken=taken), seat=seat, cards=names)
        if kind == "rotate_phase":
            return event(said("rotate_phase"))
        if kind == "rotate_hand":
            assert seat is not None
            return event(said("rotate_hand", who=who, card=half(entries[0])), said("rotate_hand.public", who=who),
                         seat=seat, cards=names, visible_to=(seat,))
        if kind == "pass":
            assert isinstance(extra, int)
            return event(said("pass", starter=player(extra)))
        if kind == "discard":
            assert seat is not None
            return event(said("discard", who=who, cards=joined(names)), said("discard.public", who=who),
                         seat=seat, cards=names, visible_to=(seat,))
        if kind == "stage":
            assert isinstance(extra, int)
            return event(said("stage", stage=extra + 1))
        if kind == "game_over":
            return event(said("game_over"))
        raise AssertionError(f"unknown log record {record!r}")

    def action_label(self, action: Action, lang: str = "en", state: State | None = None) -> str:
        """The action's button name: ``str(action)`` in English, else the ``action.<type>`` template
        (``action.moon.<choice>`` for the moon bonus) filled from the action's JSON form. A row's or
        hand's seat becomes its owner's name in ``lang``; card ids stay as spelled. With ``state``, a
        card in a hand or a row is named as it lies there, with the half it shows
        (``play S508r (2, repeat)``): the id is small print on the card, its half is what one sees."""
        if lang == "en" and state is None:
            return str(action)
        return self.named_action(action, lang, {} if state is None else lying(state))

    def named_action(self, action: Action, lang: str, halves: Mapping[str, tuple[str, int, str]]) -> str:
        """:meth:`action_label` with the cards of ``halves`` (card id -> its name as it lies, the value
        and effect of the half it shows: :func:`lying`, or a board's reading of its observation) named
        with their half."""
        fields = self.encode_action(action)
        key = fields.pop("type")
        if key == "moon":
            key = f"moon.{fields.pop('choice')}"
        for seat_field in ("row", "seat"):
            if seat_field in fields:
                fields["owner"] = player(fields.pop(seat_field))
        for name in ("card", "first", "second"):
            found = halves.get(fields[name]) if isinstance(fields.get(name), str) else None
            if found is not None:
                card, value, effect = found
                fields[name] = say_in(GAME, "card_half", lang, card=card, value=value,
                                      effect=say_in(GAME, f"effect.{effect}", lang))
        return say_in(GAME, f"action.{key}", lang, **fields)

    # -- files -------------------------------------------------------------------------------
    def card_label(self, card: str) -> dict[str, str] | str:
        """The card ``card`` as printed (``"S101"``: high half up, ``"S101r"``: rotated, so its low half
        reads first; ``CardSet.card_label``), in every language; any other string as it is."""
        if isinstance(card, str):                      # (a value that is not a string comes back as it is)
            if card in self.cards.by_id:
                return self.cards.card_label(2 * self.cards.by_id[card])
            if card.endswith("r") and card[:-1] in self.cards.by_id:
                return self.cards.card_label(2 * self.cards.by_id[card[:-1]] + 1)
        return card

    def position_fields(self, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
        return position.fields(self, data)

    # -- turns ---------------------------------------------------------------------------------
    def first_player(self, state: State) -> Seat | None:
        """The start player until the first pass: then the lead has moved on (``pass_left``)."""
        return state.start_player if state.stage == 0 and state.round == 0 else None

    def turn_of(self, state: State) -> Turn | None:
        """A round: everyone plays a card at once (no one's turn), then phase 3 seat by seat from the
        start player (a repeat or exchange answered by another owner belongs to the resolver's
        turn), then everyone rotates a card at once."""
        from rules.starligned.state import OVER, PLAY, ROTATE, ROUNDS

        phase = state.phase
        if phase == OVER:
            return None
        first = (state.stage * ROUNDS + state.round) * (state.players + 2)  # play, each seat, rotate
        if phase == PLAY:
            return Turn(seat=None, number=first)
        if phase == ROTATE:
            return Turn(seat=None, number=first + state.players + 1)
        return Turn(seat=state.resolver, number=first + 1 + (state.resolver - state.start_player) % state.players)


def lying(state: State) -> dict[str, tuple[str, int, str]]:
    """Card id -> (its name as it lies, the value and effect of its half up) for every card in a hand or a row."""
    cards = state.cards
    return {cards.ids[e // 2]: (position.entry_name(cards, e), cards.value[e], cards.effect[e])
            for pile in (*state.hands, *state.rows) for e in pile}


def _in_play(state: State) -> Counter[int]:
    """The cards in play (every card of the position but the box's): deck, discards, hands, rows and
    the choices face down."""
    every = Counter(state.deck)
    every.update(e // 2 for e in state.discard)
    for zone in (state.hands, state.rows):
        for pile in zone:
            every.update(e // 2 for e in pile)
    if state.phase == PLAY:
        every.update(c // 2 for c in state.chosen if c != NONE)
    return every

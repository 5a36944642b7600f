"""Subastral as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``rules.py`` holds the turn, ``scoring.py`` the points, ``position.py`` the JSON files, and this
module the observer (what each seat may see) and the plain-language events (their English and
Japanese templates in ``data/events.json``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Mapping, TypedDict

from rules.eventtexts import joined, player, say, say_in
from rules.protocol import ALL, Event, JSONObject, ModuleGame, PositionField, Seat, Turn, Variant, Viewer, acts, sees
from rules.subastral import position, rules, scoring
from rules.subastral.cards import END_CARD, END_CARD_NAME, CardSet, parse_cards, standard_cards
from rules.subastral.state import DISTURB, NO_PASS, OVER, Action, Journal, Pile, Record, State, redeal

DISTURBANCE = Variant(
    name="disturbance",
    default=False,
    description="After the last turn, everyone passes one hand card left, straight into the neighbour's journal.",
    source="the rules text, 擾乱バリアント (disturbance variant); docs/readings.md, Subastral 10",
)


class _Texts(TypedDict, total=False):
    """An event's texts (:class:`rules.protocol.Event`'s fields of that name): the full ones, and for a
    hidden event the public ones."""

    text: str
    texts: dict[str, str]
    public_text: str
    public_texts: dict[str, str]


class Subastral(ModuleGame[State, Action, CardSet]):
    id = "subastral"
    title = "Subastral"
    version = "1.0"
    player_counts = (2, 3, 4, 5)
    variants: tuple[Variant, ...] = (DISTURBANCE,)
    score_parts = ("mixed", "matching")       # (journal_cards: the tie-break's figure)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)

    def __init__(self, cards: CardSet | None = None):
        super().__init__(cards)
        # (Straight to the compiled function, as ModuleGame does the turn's calls: a greedy decision
        # asks for a score at every move it weighs, and the method's call was about 3% of a compiled greedy game.)
        self.score = scoring.seat_score     # type: ignore[method-assign]

    def card_set(self, state: State) -> CardSet:
        return state.cards

    def with_cards(self, cards: CardSet) -> "Subastral":
        """The same game played with another card file."""
        return Subastral(cards)

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def scores(self, state: State) -> tuple[int, ...]:
        return scoring.journal_scores(state.journals)

    def score(self, state: State, seat: Seat) -> int:
        """Each seat's points come from its own journal alone."""
        return scoring.seat_score(state, seat)

    def winners(self, state: State) -> tuple[Seat, ...]:
        """Most points; ties: fewest journal cards; still tied: a shared win."""
        if state.phase != OVER:
            return ()
        scores = self.scores(state)
        sizes = [sum(map(len, journal)) for journal in state.journals]
        best = max((scores[s], -sizes[s]) for s in range(state.players))
        return tuple(s for s in range(state.players) if (scores[s], -sizes[s]) == best)

    def score_key(self, state: State) -> tuple[CardSet, tuple[Journal, ...]]:
        """Scoring counts the journals' columns (and names their biomes from the cards)."""
        return (state.cards, state.journals)

    def score_breakdown(self, state: State, lang: str = "en") -> list[JSONObject]:
        """Per seat, the mixed and matching sets (``scoring.breakdown``); a matching set also names
        its column's biome. Texts in ``lang`` from the ``score.*`` templates of ``data/events.json``
        (biome names as the card file spells them); numbers and keys the same in every language."""
        cards = state.cards
        out = []
        for seat, journal in enumerate(state.journals):
            biomes = [cards.biomes[cards.biome_of[column[0]]] for column in journal]
            names = [{"en": biome.name, "ja": biome.name_ja or biome.name} for biome in biomes]
            detail = scoring.breakdown([len(c) for c in journal], lang, names)
            for category in detail["categories"]:
                if "column" in category:
                    category["biome"] = biomes[category["column"] - 1].name
            detail["seat"] = seat
            out.append(detail)
        return out

    def turns_taken(self, state: State) -> tuple[int, ...]:
        return tuple(state.turns_taken(seat) for seat in range(state.players))

    def inventory(self, state: State) -> dict[str, int]:
        return {state.cards.card_name(kind): n for kind, n in sorted(_every_card(state).items())}

    def sample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """``state.redeal``: the deck and the other seats' hands re-dealt, but for what everyone saw."""
        return redeal(state, seat, rng)

    def card_info(self, state: State, card: str) -> JSONObject:
        """Group by biome (``group_names``: its name in each language, the card file's ``name_ja``);
        number = the printed number."""
        cards = state.cards
        kind = cards.kind(card, where="card")
        biome = cards.biomes[cards.biome_of[kind]]
        names = {"en": biome.name, "ja": biome.name_ja or biome.name}
        return {"group": biome.id, "group_name": biome.name, "group_names": names, "number": cards.number_of[kind]}

    def deck_knowledge(self, state: State, seat: Seat | None) -> JSONObject:
        """Unseen cards = the position's cards (a what-if position may hold fewer than the deck for
        its player count) minus every card ``seat`` can see.

        Cards everyone saw go into a hand from a cloud (``State.known``) are seen too. The end card's
        depth is public (everyone saw 3 x players cards go under it and can count the draws).
        """
        counts = _every_card(state)
        visible = [*state.clouds, *(col for journal in state.journals for col in journal), state.pending,
                   *(known for s, known in enumerate(state.known) if s != seat)]
        if seat is not None:
            visible.append(state.hands[seat])
        for pile in visible:
            counts.subtract(pile)
        unseen = {state.cards.card_name(k): n for k, n in sorted(counts.items()) if n > 0}
        in_hands = sum(len(h) - len(state.known[s]) for s, h in enumerate(state.hands) if s != seat)
        deck_count = len(state.deck) - (0 if state.end_triggered else 1)
        depths = {} if state.end_triggered else {state.deck.index(END_CARD): 1.0}
        return {"deck_count": deck_count, "unseen": unseen, "unseen_in_hands": in_hands, "end_card_depths": depths}

    # -- the observer ------------------------------------------------------------------------
    def observe(self, state: State, seat: Viewer) -> JSONObject:
        """Everything public, plus ``seat``'s own hand and pass. Deck order is never shown, but to
        ``ALL`` (every hand and pass, and the deck's ``cards`` top first, the end card as ``END``)."""
        name = state.cards.card_name
        names: Callable[[Pile], list[str]] = lambda kinds: [name(k) for k in kinds]  # noqa: E731
        deck = state.deck
        end_in_deck = END_CARD in deck
        view: JSONObject = {
            "game": self.id,
            "viewer": seat,
            "players": state.players,
            "variants": dict(state.variants),
            "card_set": {"name": state.cards.name, "provenance": state.cards.provenance},
            "phase": state.phase,
            "to_move": list(self.to_move(state)),
            "seat": state.seat,
            "start_player": state.start_player,
            "round": state.round,
            "turns_taken": list(self.turns_taken(state)),
            "end_triggered": state.end_triggered,
            "last_round": state.last_round if state.end_triggered else None,
            # Everyone saw the end card go in with 3 x players cards under it and sees every
            # draw, so its depth is public knowledge.
            "deck": {
                "count": len(deck) - (1 if end_in_deck else 0),
                "end_card_in_deck": end_in_deck,
                "cards_above_end_card": deck.index(END_CARD) if end_in_deck else None,
                **({"cards": names(deck)} if seat == ALL else {}),
            },
            "clouds": [names(pile) for pile in state.clouds],
            "played_cloud": state.played_cloud or None,
            "pending": names(state.pending),
            "hands": [
                {"count": len(hand), **({"cards": names(hand)} if sees(seat, s) else {})}
                for s, hand in enumerate(state.hands)
            ],
            "journals": [[names(column) for column in journal] for journal in state.journals],
            "scores": list(self.scores(state)),
            "passes": [
                {"chosen": state.passes[s] != NO_PASS, **({"card": name(state.passes[s])} if sees(seat, s) and state.passes[s] != NO_PASS else {})}
                for s in range(state.players)
            ] if state.phase == DISTURB else None,
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": [self.encode_action(a) for a in self.legal_actions(state, seat)] if acts(seat) else [],
            "winners": list(self.winners(state)),
            "score_breakdown": self.public_score_breakdown(state),
        }
        return view

    # -- the picker --------------------------------------------------------------------------
    def action_label(self, action: Action, lang: str = "en", state: State | None = None) -> str:
        """The action's name on a button, from the ``action.*`` templates of ``data/events.json``
        keyed by the action's JSON type: a card as players name it (``play Savanna 3``, not the id
        ``savanna-3`` that ``str(action)`` and files use), a biome by its name, hand and journal as
        words."""
        values = self.encode_action(action)
        kind = values.pop("type")
        if "to" in values:                                   # TakeCloud: into the hand or the journal
            values["to"] = say(self.id, f"zone.{values['to']}")
        if "card" in values:
            values["card"] = self.card_label(values["card"])
        if "biome" in values:
            values["biome"] = self._biome_label(values["biome"])
        return say_in(self.id, f"action.{kind}", lang, **values)

    def card_label(self, card: str) -> dict[str, str] | str:
        """The printed name of the card ``card`` (an id of this game's card set, or ``"END"``; else the id as it is)."""
        kind = END_CARD if card == END_CARD_NAME else self.cards.kind_by_name.get(card)
        return card if kind is None else self.cards.card_label(kind)

    def position_fields(self, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
        return position.fields(self, data)

    def _biome_label(self, biome_id: str) -> dict[str, str] | str:
        found = next((biome for biome in self.cards.biomes if biome.id == biome_id), None)
        return biome_id if found is None else {"en": found.name, "ja": found.name_ja or found.name}

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: Record) -> Event:
        kind, seat, kinds, cloud, extra = record
        cards = state.cards
        names = tuple(cards.card_name(k) for k in kinds)        # ids, for tools; the texts name cards as printed
        labels = tuple(cards.card_label(k) for k in kinds)
        who = player(seat) if seat is not None else None

        def written(key: str, *, hidden: bool = False, **values: object) -> _Texts:
            """The event's texts from template ``key``; a ``hidden`` event also gets ``key.public``
            for the seats that may not see its cards."""
            values = {"who": who, "cards": joined(labels), **values}
            texts = say(self.id, key, **values)
            found: _Texts = {"text": texts["en"], "texts": texts}
            if hidden:
                public_texts = say(self.id, f"{key}.public", **values)
                found["public_text"] = public_texts["en"]
                found["public_texts"] = public_texts
            return found

        def term(group: str, reason: str) -> dict[str, str]:
            """A word for the log record's reason (``"empty hand"`` -> ``draw.empty_hand``)."""
            return say(self.id, f"{group}.{reason.replace(' ', '_')}")

        if kind == "setup":
            assert isinstance(extra, int)
            return Event(kind=kind, seat=extra, **written("setup", starter=player(extra)))
        if kind == "play":
            return Event(kind=kind, seat=seat, cards=names, cloud=cloud, **written("play", cloud=cloud))
        if kind == "take":
            where = term("zone", "hand" if extra == "hand" else "journal")
            return Event(kind=kind, seat=seat, cards=names, cloud=cloud, **written("take", cloud=cloud, where=where))
        if kind == "draw":
            assert seat is not None and isinstance(extra, str)
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,),
                         **written("draw", hidden=True, why=term("draw", extra)))
        if kind == "deck_empty":
            assert isinstance(extra, str)
            return Event(kind=kind, seat=seat, **written("deck_empty", step=term("skipped", extra)))
        if kind == "end_card":
            return Event(kind=kind, seat=seat, **written("end_card"))
        if kind == "reveal":
            how = term("reveal", "emptied" if extra == "emptied" else "number")
            return Event(kind=kind, cards=names, cloud=cloud, **written("reveal", cloud=cloud, how=how))
        if kind == "journal":
            return Event(kind=kind, seat=seat, cards=names, **written("journal"))
        if kind == "column":
            biome = cards.biomes[cards.biome_of[kinds[0]]]
            biome_name = {"en": biome.name, "ja": biome.name_ja or biome.name}  # the card file names biomes
            return Event(kind=kind, seat=seat, cards=names, **written("column", column=extra, biome=biome_name))
        if kind == "order":
            return Event(kind=kind, seat=seat, cards=names, **written("order", count=extra))
        if kind == "take_skipped":
            return Event(kind=kind, seat=seat, **written("take_skipped"))
        if kind == "turn":
            assert isinstance(extra, int)
            return Event(kind=kind, seat=seat, **written("turn", round=extra + 1))
        if kind == "empty_hand":
            return Event(kind=kind, seat=seat, **written("empty_hand"))
        if kind == "disturbance":
            return Event(kind=kind, **written("disturbance"))
        if kind == "pass_chosen":
            assert seat is not None
            return Event(kind=kind, seat=seat, cards=names, visible_to=(seat,), **written("pass_chosen", hidden=True))
        if kind == "pass":
            assert isinstance(extra, int)
            return Event(kind=kind, seat=seat, cards=names, **written("pass", receiver=player(extra)))
        if kind == "game_over":
            return Event(kind=kind, **written("game_over"))
        raise AssertionError(f"unknown log record {record!r}")

    # -- files -------------------------------------------------------------------------------

    # -- turns ---------------------------------------------------------------------------------
    def set_aside(self, state: State) -> dict[str, int]:
        """The cards a smaller table leaves in the box (their ``min_players`` above the count): never dealt."""
        cards = state.cards
        every = Counter(cards.deck(max(cards.copies)))
        every.subtract(Counter(cards.deck(state.players)))
        return {cards.card_name(kind): n for kind, n in sorted(every.items()) if n > 0}

    def first_player(self, state: State) -> Seat:
        return state.start_player

    def turn_of(self, state: State) -> Turn | None:
        """Each seat's turn (play, take, order its journal) in order from the start player; the
        disturbance pass that ends a round (variant) is no one's: everyone passes at once."""
        from rules.subastral.state import DISTURB, OVER

        if state.phase == OVER:
            return None
        first = state.round * (state.players + 1)  # a round's turns, then its disturbance
        if state.phase == DISTURB:
            return Turn(seat=None, number=first + state.players)
        return Turn(seat=state.seat, number=first + (state.seat - state.start_player) % state.players)


def _every_card(state: State) -> Counter[int]:
    """Every biome card of the position: the deck (not its end card: revealed, it is set aside), the
    clouds, the hands, the journals and the card being placed."""
    counts = Counter(state.deck)
    del counts[END_CARD]
    for zone in (state.clouds, state.hands, *state.journals, (state.pending,)):
        for pile in zone:
            counts.update(pile)
    return counts

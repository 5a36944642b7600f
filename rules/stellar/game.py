"""Stellar as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``rules.py`` holds the turn, ``scoring.py`` the points, ``position.py`` the JSON files, and this
module the observer (what each seat may see), the score summary and the plain-language events
(in every language, from ``data/events.json``).
Hidden: the deck's order, the box, the opponent's hand but for the cards it was seen to take from
the row, (during setup) the opponent's starter cards, a face-down telescope card the other seats
did not see in the row, the second card drawn from the deck for the telescope until it is placed,
and the simultaneous choices (the starters, the final notebook card) until every player has chosen.
A seat's knowledge is the State's ``unseen``, ``known_down`` and ``pending_seen``: every way of
knowing in Stellar is public, so what one other seat knows, all do.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Mapping

from rules.eventtexts import joined, player, say, say_in, templates
from rules.protocol import ALL, Event, JSONObject, ModuleGame, PositionField, Seat, Turn, Variant, Viewer, acts, sees
from rules.stellar import position, rules, scoring
from rules.stellar.cards import SIX_ZERO, Card, CardSet, parse_cards, standard_cards
from rules.stellar.state import (
    EMPTY, OVER, Action, LogRecord, State, TelescopeEntry, card_of, is_face_down, redeal,
)

FIFTH_STARTER_TO_BOX = Variant(
    name="fifth_starter_to_box",
    default=False,
    description="The fifth starter card goes back into the box instead of being shuffled into the deck.",
    source="docs/readings.md, Stellar 6 (switch); the rules text's 設定 shuffles it in (default); meeplephd.com A-to-Z Stellar returns it to the box",
)
SATELLITE_CLEAR = Variant(
    name="satellite_clear",
    default="before_refill",
    description=("When the opponent may clear the row after a satellite was taken: at phase 4 before the "
                 "refill (default), or right after the take."),
    source=("the rules text's サテライトカード ('remove all the other cards from the row and refill it'): the "
            "timing is not stated; docs/readings.md, Stellar 4; rules/stellar/rules.py docstring"),
    choices=("before_refill", "after_take"),
)
FACE_DOWN_ROW_NUMBER = Variant(
    name="face_down_row_number",
    default="printed",
    description=("Which row card follows a hand card played face down: the one of its printed number "
                 "(default) or of the face-down value 3."),
    source="the rules text's 望遠鏡 (face down = number 3) and ロウカードをプレイする (the played card's number): ambiguous",
    choices=("printed", "three"),
)

SATELLITE_ANY_TYPE = Variant(
    name="satellite_any_type",
    default=False,
    description=("A satellite in the telescope counts as every type for adjacency: a card whose type is "
                 "already in the telescope may also go next to a satellite."),
    source=("the rules text's サテライトカード ('wild: any type the player needs', said next to the telescope); off "
            "(default): its wildness is that it may go in any empty slot (docs/readings.md, Stellar 2), as it counts as no "
            "type for the diversity bonus either (スコアリング)"),
)


def _type_name(cards: CardSet, t: int) -> dict[str, str]:
    """A card type's name in each language, as the card file spells it (its ``name_ja``, else the English)."""
    card_type = cards.types[t]
    return {"en": card_type.name, "ja": card_type.name_ja or card_type.name}


def _section_name(section: str) -> dict[str, str]:
    """A telescope section's name in each language (``term.section.*``; a section of a telescope file
    without one there keeps its id)."""
    key = f"term.section.{section}"
    return say("stellar", key) if key in templates("stellar") else {"en": section, "ja": section}



def telescope_slot_label(slot: str) -> dict[str, str]:
    """A telescope slot as players name it, in each language ("Middle 2", "中央 2"): its section and
    its number; ``middle-2`` is the id moves and files use."""
    section, number = slot.rsplit("-", 1)
    return {lang: say("stellar", f"slot.{section}", n=number)[lang] for lang in ("en", "ja")}

class Stellar(ModuleGame[State, Action, CardSet]):
    id = "stellar"
    title = "Stellar"
    version = "1.0"
    player_counts = (2,)
    #: Cards come out of the deck onto the row (refills) and as the row card of a turn ("second").
    deck_event_kinds: tuple[str, ...] = ("refill", "second")
    variants: tuple[Variant, ...] = (FIFTH_STARTER_TO_BOX, SATELLITE_CLEAR, FACE_DOWN_ROW_NUMBER, SATELLITE_ANY_TYPE)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_cards), staticmethod(parse_cards)

    def card_set(self, state: State) -> CardSet:
        return state.cards

    def with_cards(self, cards: CardSet) -> "Stellar":
        return Stellar(cards)

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def score_key(
            self, state: State) -> tuple[CardSet, tuple[tuple[TelescopeEntry, ...], ...], tuple[tuple[Card, ...], ...]]:
        """Scoring reads the telescopes and notebooks."""
        return (state.cards, state.telescopes, state.notebooks)

    def score_breakdown(self, state: State, lang: str | None = "en") -> list[JSONObject]:
        """Per seat: each type's stars x run, each telescope section's bonus and the diversity bonus;
        the ``category`` and ``detail`` texts in ``lang`` (``score.*`` of ``data/events.json``;
        English where the game has no text in ``lang``; empty for ``None``, the numbers only), the
        numbers the same in every language."""
        cards = state.cards
        found = templates(self.id)
        said = lang if lang is not None and lang in found["score.diversity"] else "en"

        def text(key: str, **values: object) -> str:  # say(...)[said], filling only the one language
            if lang is None:        # (scores() and bots: the numbers only)
                return ""
            return found[key][said].format(**{name: value[said] if isinstance(value, dict) else value
                                              for name, value in values.items()})

        facts = [scoring.seat_facts(cards, t, n) for t, n in zip(state.telescopes, state.notebooks)]
        bonuses = scoring.section_bonuses([f["sections"] for f in facts])
        out: list[JSONObject] = []
        for seat, fact in enumerate(facts):
            categories: list[JSONObject] = []
            for t, (run, points, satellite) in enumerate(scoring.star_points(fact["stars"], fact["stacks"], fact["satellites"])):
                stars = fact["stars"][t]
                detail = text("score.stars.detail.one" if stars == 1 else "score.stars.detail", stars=stars, run=run)
                categories.append({
                    "category": text("score.stars", type=_type_name(cards, t)) if lang else "",
                    "detail": text("score.stars.with_satellite", detail=detail) if satellite else detail,
                    "points": points, "stars": stars, "run": run, "satellite": satellite,
                })
            for section, name in enumerate(cards.telescope.section_names):
                other = max((f["sections"][section] for s, f in enumerate(facts) if s != seat), default=0)
                categories.append({
                    "category": text("score.section", section=_section_name(name)) if lang else "",
                    "detail": text("score.section.detail", sum=fact["sections"][section], other=other),
                    "points": bonuses[seat][section], "sum": fact["sections"][section],
                })
            diversity = scoring.diversity_bonus(fact["face_up_types"], len(cards.types))
            categories.append({
                "category": text("score.diversity"),
                "detail": text("score.diversity.detail", count=len(fact["face_up_types"]), types=len(cards.types)),
                "points": diversity,
            })
            out.append({"seat": seat, "categories": categories, "total": sum(c["points"] for c in categories)})
        return out

    def scores(self, state: State) -> tuple[int, ...]:
        """The totals of :meth:`score_breakdown`, worked out without its texts (bots ask at every look-ahead)."""
        return scoring.totals(state.cards, state.telescopes, state.notebooks)

    def winners(self, state: State) -> tuple[int, ...]:
        """Most points; ties are not broken (スコアリング, 勝利)."""
        if state.phase != OVER:
            return ()
        scores = self.scores(state)
        return tuple(s for s in range(state.players) if scores[s] == max(scores))

    def turns_taken(self, state: State) -> tuple[int, ...]:
        return tuple(state.turns_taken(seat) for seat in range(state.players))

    def inventory(self, state: State) -> dict[str, int]:
        return {state.cards.card_name(kind): n for kind, n in sorted(_every_card(state).items())}

    def set_aside(self, state: State) -> dict[str, int]:
        """The box (the fifth starters, when the variant sends them there)."""
        return {state.cards.card_name(kind): n for kind, n in sorted(Counter(state.box).items())}

    def sample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """``state.redeal``: what the seat cannot see re-dealt among itself."""
        return redeal(state, seat, rng)

    def card_info(self, state: State, card: str) -> JSONObject:
        """Its type (``group``; ``group_names``: the type's name in each language, the card file's
        ``name_ja``), number (6 for a 6/0 card), the number as printed (``label``: ``"6/0"``) and
        stars, from the card file."""
        cards = state.cards
        kind = cards.kind(card, where="card")
        t = cards.type_of[kind]
        if cards.is_satellite(kind):
            names = {"en": cards.type_name(t), "ja": say(self.id, "term.satellite")["ja"]}
        else:
            names = {"en": cards.types[t].name, "ja": cards.types[t].name_ja or cards.types[t].name}
        return {"group": cards.type_id(t), "group_name": cards.type_name(t), "group_names": names,
                "number": cards.number_of[kind],
                "label": SIX_ZERO if cards.six_zero[kind] else str(cards.number_of[kind]),
                "stars": cards.stars_of[kind]}

    def deck_knowledge(self, state: State, seat: Seat | None) -> JSONObject:
        """Unseen cards = every card minus those ``seat`` can see (the table, its own hand).

        ``unseen_in_hands`` counts every unseen card outside the deck: other hands (but the cards seen
        taken), other starter cards during setup, the box, face-down cards and a drawn second card
        the seat did not see. Stellar has no end card.
        """
        cards = state.cards
        # (the position's own cards: a what-if position may hold fewer than its card file)
        counts = _every_card(state)
        counts.subtract(state.discard)
        counts.subtract(k for k in state.row if k != EMPTY)
        elsewhere, known = len(state.box), state.known
        for s in range(state.players):
            counts.subtract(state.notebooks[s])
            for i, entry in enumerate(state.telescopes[s]):
                if entry == EMPTY:
                    continue
                if s == seat or not is_face_down(entry) or state.known_down[s] >> i & 1:
                    counts[card_of(entry)] -= 1
                else:
                    elsewhere += 1   # a face-down card this seat did not see
            if s == seat:
                counts.subtract(state.hands[seat])
                counts.subtract(state.starters[seat])
            else:
                counts.subtract(known[s])
                elsewhere += len(state.unseen[s]) + len(state.starters[s])
        if state.pending != EMPTY:
            if state.pending_seen or state.seat == seat:
                counts.subtract((state.pending,))
            else:
                elsewhere += 1
        unseen = {cards.card_name(k): n for k, n in sorted(counts.items()) if n > 0}
        # Stellar has no end card (the game ends after 11 rounds).
        return {"deck_count": len(state.deck), "unseen": unseen, "unseen_in_hands": elsewhere, "end_card_depths": None}

    # -- the observer ------------------------------------------------------------------------
    def observe(self, state: State, seat: Viewer) -> JSONObject:
        """Everything on the table, plus ``seat``'s own hand, starters, choice, face-down cards and
        drawn second card; of the others', what ``seat`` saw (``known``). Deck order is never shown:
        a face-down card ``seat`` does not know is ``{"face_down": null}``, a second card it did not
        see ``{"hidden": true}``. ``ALL`` sees every card: each hand, starter pair, choice, face-down
        card and second card, and the ``cards`` of the deck (in draw order) and the box."""
        name = state.cards.card_name

        def names(kinds: Iterable[Card]) -> list[str]:
            return [name(k) for k in kinds]

        pending = state.pending
        shown_pending = (None if pending == EMPTY else name(pending) if state.pending_seen or sees(seat, state.seat)
                         else {"hidden": True})
        return {
            "game": self.id,
            "viewer": seat,
            "players": state.players,
            "variants": dict(state.variants),
            "card_set": {"name": state.cards.name, "provenance": state.cards.provenance,
                         "telescope": state.cards.telescope.raw.get("name"),
                         "telescope_provenance": state.cards.telescope.raw.get("provenance", "unknown")},
            "phase": state.phase,
            "to_move": list(self.to_move(state)),
            "seat": state.seat,
            "start_player": state.start_player,
            "round": state.round,
            "turns_taken": list(self.turns_taken(state)),
            "deck": {"count": len(state.deck), **({"cards": names(state.deck)} if seat == ALL else {})},
            "discard": names(state.discard),
            "box": {"count": len(state.box), **({"cards": names(state.box)} if seat == ALL else {})},
            "row": {str(i + 1): (name(k) if k != EMPTY else None) for i, k in enumerate(state.row)},
            "pending": shown_pending,
            "satellite_taken": state.satellite_taken,
            "hands": [{"count": len(hand), "known": names(known), **({"cards": names(hand)} if sees(seat, s) else {})}
                      for s, (hand, known) in enumerate(zip(state.hands, state.known))],
            "starters": [{"count": len(pair), **({"cards": names(pair)} if sees(seat, s) else {})}
                         for s, pair in enumerate(state.starters)],
            "chosen": [{"done": card != EMPTY, **({"card": name(card)} if sees(seat, s) and card != EMPTY else {})}
                       for s, card in enumerate(state.chosen)],
            "telescopes": [position.telescope_json(state.cards, t, None if sees(seat, s) else state.known_down[s])
                           for s, t in enumerate(state.telescopes)],
            "notebooks": [position.notebook_json(state.cards, n) for n in state.notebooks],
            "scores": list(self.scores(state)),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": ([self.encode_action(a) for a in self.legal_actions(state, seat)]
                              if acts(seat) else []),  # (cast: ``acts`` is true for a seat only)
            "winners": list(self.winners(state)),
            "score_breakdown": self.public_score_breakdown(state),
        }

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: LogRecord) -> Event:
        kind, seat, kinds, extra = record
        cards = state.cards
        names = tuple(cards.card_name(k) for k in kinds)        # ids, for tools; the texts name cards as printed
        labels = tuple(cards.card_label(k) for k in kinds)
        who = player(seat) if seat is not None else say(self.id, "term.nobody")

        def text(key: str, **values: object) -> dict[str, str]:
            return say(self.id, key, who=who, cards=joined(labels), **values)

        def event(texts: Mapping[str, str], *, seat: Seat | None = None, cards: tuple[str, ...] = ()) -> Event:
            """The event with its texts in every language (``text``: the English)."""
            return Event(kind=kind, text=texts["en"], texts=texts, seat=seat, cards=cards)

        def secret(event_kind: str, texts: Mapping[str, str], public: Mapping[str, str]) -> Event:
            """An event only ``seat`` may read in full; the others get ``public`` and no cards."""
            assert seat is not None   # (every secret record names its seat)
            return Event(kind=event_kind, text=texts["en"], texts=texts, visible_to=(seat,), public_text=public["en"],
                         public_texts=public, seat=seat, cards=names)

        if kind == "setup":
            assert isinstance(extra, int)
            return event(text("setup", starter=player(extra)), seat=extra)
        if kind == "starters":
            return event(text("starters", telescope=labels[0], notebook=labels[1]), seat=seat, cards=names)
        if kind == "starters_chosen":
            return secret("starters", text("starters_chosen", telescope=labels[0], notebook=labels[1]),
                          text("starters_chosen.public"))
        if kind == "final_chosen":
            return secret("final_choice", text("final_chosen"), text("final_chosen.public"))
        if kind == "second_drawn":
            return secret("second", text("second.deck"), text("second_drawn.public"))
        if kind == "take":
            return event(text("take", slot=extra), seat=seat, cards=names)
        if kind == "telescope":
            assert isinstance(extra, tuple)
            slot, down, seen = extra
            slot_name = telescope_slot_label(cards.telescope.slot_names[slot])
            if not seen:  # face down, not seen in the row by the others
                return secret("telescope", text("telescope.face_down", slot=slot_name),
                              text("telescope.face_down.public", slot=slot_name))
            return event(text("telescope.face_down" if down else "telescope", slot=slot_name), seat=seat, cards=names)
        if kind == "notebook":
            return event(text("notebook"), seat=seat, cards=names)
        if kind == "second":
            return event(text("second.row" if extra is not None else "second.deck", slot=extra), seat=seat, cards=names)
        if kind == "refill":
            return event(text("refill", slot=extra), cards=names)
        if kind == "reshuffle":
            return event(text("reshuffle", count=extra))
        if kind == "deck_empty":
            assert isinstance(extra, str)
            skipped = {"refill": "deck_empty.refill", "second card": "deck_empty.second_card"}[extra]
            return event(text(skipped), seat=seat)
        if kind == "clear_offer":
            return event(text("clear_offer"), seat=seat)
        if kind == "clear":
            return event(text("clear"), seat=seat, cards=names)
        if kind == "no_clear":
            return event(text("no_clear"), seat=seat)
        if kind == "turn":
            assert isinstance(extra, int)
            return event(text("turn", round=extra + 1), seat=seat)
        if kind == "take_skipped":
            return event(text("take_skipped"), seat=seat)
        if kind == "turn_skipped":
            return event(text("turn_skipped"), seat=seat)
        if kind == "final":
            return event(text("final"))
        if kind == "final_discard":
            return event(text("final_discard"), seat=seat, cards=names)
        if kind == "game_over":
            return event(text("game_over"))
        raise AssertionError(f"unknown log record {record!r}")

    def action_label(self, action: Action, lang: str = "en", state: State | None = None) -> str:
        """The action's name on a button, from the ``action.*`` templates of ``data/events.json``: a
        card as players name it ("play Interstellar cloud 3 ★ to telescope Middle 2", not the ids
        ``interstellar_cloud-3-1star`` and ``middle-2`` that ``str(action)`` and files use)."""
        fields = self.encode_action(action)
        kind = fields.pop("type")
        if kind == "telescope" and fields.pop("face_down"):
            kind = "telescope.face_down"
        elif kind == "clear_row":
            kind = "clear_row" if fields.pop("clear") else "leave_row"
        for key in ("card", "telescope", "notebook"):
            if key in fields:
                fields[key] = self.card_label(fields[key])
        if kind.startswith("telescope"):
            fields["slot"] = telescope_slot_label(fields["slot"])
        return say_in(self.id, f"action.{kind}", lang, **fields)

    def card_label(self, card: str) -> dict[str, str] | str:
        """The printed name of the card ``card`` (an id of this game's card set; else the id as it is)."""
        kind = self.cards.kind_by_name.get(card) if isinstance(card, str) else None
        return card if kind is None else self.cards.card_label(kind)

    def position_fields(self, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
        return position.fields(self, data)

    # -- files -------------------------------------------------------------------------------

    # -- turns ---------------------------------------------------------------------------------
    def first_player(self, state: State) -> Seat:
        return state.start_player

    def turn_of(self, state: State) -> Turn | None:
        """Setup (both place their starters at once), then each seat's turn (take, play, place; the
        opponent's satellite clear belongs to it), then the final notebook cards (both at once)."""
        from rules.stellar.state import FINAL, OVER, STARTERS

        phase = state.phase
        if phase == OVER:
            return None
        if phase == STARTERS:
            return Turn(seat=None, number=0)
        turns = 1 + state.round * state.players  # the setup, then every finished round's turns
        if phase == FINAL:
            return Turn(seat=None, number=turns)
        return Turn(seat=state.seat, number=turns + (state.seat - state.start_player) % state.players)


def _every_card(state: State) -> Counter[Card]:
    """Every card of the position, wherever it lies (the box too)."""
    counts = Counter(state.deck)
    counts.update(state.discard)
    counts.update(state.box)
    counts.update(k for k in state.row if k != EMPTY)
    for zone in (state.hands, state.starters, state.notebooks):
        for pile in zone:
            counts.update(pile)
    for telescope in state.telescopes:
        counts.update(card_of(e) for e in telescope if e != EMPTY)
    if state.pending != EMPTY:
        counts[state.pending] += 1
    return counts

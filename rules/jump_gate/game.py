"""Jump Gate as a :class:`rules.protocol.GameSpec`: the protocol's questions answered in one place.

``rules.py`` holds the turn, ``scoring.py`` the points, ``position.py`` the JSON files, and this
module the observer (what each seat may see), the score summary and the plain-language events
(in every language, from ``data/events.json``, naming planets and resources as the component file
prints them: ``Components.planet_label``, ``resource_label``).
Hidden: face-down resources, the NavComp deck's order, other players' hands, other players' hidden
resources and the resources set aside at setup. Everything else is on the table. Provisional scores
count only gained resources and claims (the hidden resources are revealed at the end), so they are
the same for every viewer.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypedDict, cast

from rules import chance
from rules.eventtexts import joined, player, say, say_in, templates
from rules.jump_gate import position, rules, scoring
from rules.jump_gate.cards import Components, NavCompKind, ResourceKind, parse_components, standard_components
from rules.jump_gate.state import BLACK_HOLE_LIMIT, EMPTY, OVER, Action, LogRecord, State
from rules.protocol import (
    ALL, Event, JSONObject, ModuleGame, PositionField, Seat, Turn, Variant, Viewer, acts, sees,
)

if TYPE_CHECKING:
    import random

SCAN_WITHOUT_FACE_DOWN = Variant(
    name="scan_without_face_down",
    default=False,
    description=("Scan is allowed at a planet with no face-down resource, just to place a marker "
                 "(default: Scan needs a face-down resource to reveal)."),
    source=("docs/readings.md, Jump Gate 3 (switch): the BGA English reference card requires a face-down resource "
            "(default); the rules text's スキャン makes the reveal mandatory only 'if face-down cards remain'"),
)


class ResourceCounts(TypedDict):
    """Resource cards as scoring counts them: per scoring rule, and per type for EnerGel and Gems (in
    the component file's order of types)."""

    fame: int
    sand: int
    water: int
    energel: list[int]
    gem: list[int]


class Tally(TypedDict):
    """One seat's score as :meth:`JumpGate.tallies` works it out."""

    counts: ResourceCounts
    #: The dark and the light EnerGel cards (``[0, 0]`` for a file without EnerGel).
    dark_light: list[int]
    planets: int
    #: Points per category: planets, fame, sand, water, energel, gems, and hidden (always 0: at the end the
    #: hidden resources count in their own categories).
    points: dict[str, int]
    total: int
    resource_cards: int
    hidden: int
    lost: bool


def resource_counts(comps: Components, kinds: Iterable[ResourceKind]) -> ResourceCounts:
    """The counts scoring needs: per scoring rule, and per type for EnerGel and Gems."""
    by_type = Counter(comps.resource_type[k] for k in kinds)
    counts: ResourceCounts = {"fame": 0, "sand": 0, "water": 0, "energel": [], "gem": []}
    for t, rtype in enumerate(comps.types):
        rule = rtype.scoring
        if rule == "energel" or rule == "gem":
            counts[rule].append(by_type[t])
        else:
            counts[rule] += by_type[t]
    return counts


class JumpGate(ModuleGame[State, Action, Components]):
    id = "jump_gate"
    title = "Jump Gate"
    version = "1.0"
    player_counts = (2, 3, 4, 5)
    variants: tuple[Variant, ...] = (SCAN_WITHOUT_FACE_DOWN,)
    engine, files = rules, position
    standard_cards, parse_cards = staticmethod(standard_components), staticmethod(parse_components)

    @property
    def comps(self) -> Components:
        """The components new games are dealt from (``cards`` in the shared protocol class)."""
        return self.cards

    def card_set(self, state: State) -> Components:
        return state.comps
    #: Resources come into view face up (at setup, one per planet, and by scans); NavComp cards leave
    #: their deck by draws (named to the drawer and the teacher, a hidden card to anyone else).
    deck_event_kinds: tuple[str, ...] = ("setup_reveal", "reveal", "draw")

    # -- creating and playing ---------------------------------------------------------------
    # -- asking -----------------------------------------------------------------------------
    def scored_resources(self, state: State, seat: Seat) -> tuple[ResourceKind, ...]:
        """The resources that count for ``seat`` now: gained ones, plus the hidden ones once the game
        is over unless the black hole took them."""
        if state.phase == OVER and seat not in state.lost_hidden():
            return state.gained[seat] + state.hidden[seat]
        return state.gained[seat]

    def score_key(self, state: State) -> tuple[object, ...]:
        """Scoring reads the gained resources, the claimed planets and the black-hole markers; the
        hidden resources by their number until the game is over (then by their cards, counted unless
        the black hole took them)."""
        over = state.phase == OVER
        hidden = state.hidden if over else tuple(map(len, state.hidden))
        return (state.comps, over, state.gained, hidden, state.claimed, state.black_hole)

    def tallies(self, state: State) -> list[Tally]:
        """Per seat, the numbers scoring reads (its counted resources by scoring rule, planets, the
        hidden pile), each category's points and the total: what :meth:`score_breakdown` puts in
        words and what :meth:`scores` and the tie-breaks read. Worked out once per state object
        (states never change), however many of the three ask for it: an observation asks all three."""
        last = self._last_tallies
        if last[0] is state:
            return last[1]
        over, lost = state.phase == OVER, state.lost_hidden()
        out: list[Tally] = []
        for seat in range(state.players):
            kinds = self.scored_resources(state, seat)
            counts = resource_counts(state.comps, kinds)
            planets = state.claimed.count(seat)
            dark_light = counts["energel"] or [0, 0]
            points = {"planets": scoring.planets(planets), "fame": scoring.fame(counts["fame"]),
                      "sand": scoring.sand(counts["sand"]), "water": scoring.water(counts["water"]),
                      "energel": scoring.energel(*dark_light), "gems": scoring.gems(counts["gem"]), "hidden": 0}
            out.append({"counts": counts, "dark_light": dark_light, "planets": planets, "points": points,
                        "total": sum(points.values()), "resource_cards": len(kinds),
                        "hidden": len(state.hidden[seat]), "lost": over and seat in lost})
        self._last_tallies = (state, out)
        return out

    #: (state, its tallies) of the last state asked about.
    _last_tallies: tuple[State | None, list[Tally]] = (None, [])

    def score_breakdown(self, state: State, lang: str = "en") -> list[JSONObject]:
        """Per seat, each scoring category with its points (:meth:`tallies`); the ``category`` and
        ``detail`` texts in ``lang`` (templates ``score.*`` of ``data/events.json``), the numbers the
        same in every language."""
        found = templates(self.id)

        def text(key: str, **values: object) -> str:
            return found[key][lang].format(**values)

        def name(category: str) -> str:
            return found[f"score.category.{category}"][lang]

        def cards(key: str, count: int, **values: object) -> str:
            return text(f"{key}.{'one' if count == 1 else 'many'}", count=count, **values)

        over = state.phase == OVER
        out: list[JSONObject] = []
        for seat, tally in enumerate(self.tallies(state)):
            counts, dark_light, planets, points = tally["counts"], tally["dark_light"], tally["planets"], tally["points"]
            gem_counts, hidden = counts["gem"], tally["hidden"]
            if not over:
                note = text("score.hidden.pending", count=hidden)
            elif tally["lost"]:
                note = text("score.hidden.lost", count=hidden, markers=state.black_hole[seat])
            else:
                note = text("score.hidden.included", count=hidden)
            categories: list[JSONObject] = [
                {"category": name("planets"), "detail": text("score.planets", count=planets, points=scoring.PLANET_POINTS),
                 "points": points["planets"], "count": planets},
                {"category": name("fame"), "detail": text("score.fame", count=counts["fame"], points=scoring.FAME_POINTS),
                 "points": points["fame"], "count": counts["fame"]},
                {"category": name("sand"), "detail": cards("score.sand", counts["sand"], cap=len(scoring.SAND) - 1,
                                                           top=scoring.SAND[-1]),
                 "points": points["sand"], "count": counts["sand"]},
                {"category": name("water"), "detail": cards("score.water", counts["water"], cap=len(scoring.WATER) - 1,
                                                            top=scoring.WATER[-1]),
                 "points": points["water"], "count": counts["water"]},
                {"category": name("energel"),
                 "detail": text("score.energel", dark=dark_light[0], light=dark_light[1], pairs=min(dark_light),
                                pair_points=scoring.ENERGEL_PAIR, singles=abs(dark_light[0] - dark_light[1]),
                                single_points=scoring.ENERGEL_SINGLE),
                 "points": points["energel"], "counts": list(dark_light)},
                {"category": name("gems"),
                 "detail": text("score.gems", gems=sum(gem_counts), most=max(gem_counts, default=0)),
                 "points": points["gems"], "counts": list(gem_counts)},
                {"category": name("hidden"), "detail": note, "points": 0, "count": hidden, "lost": tally["lost"]},
            ]
            out.append({"seat": seat, "categories": categories, "total": tally["total"],
                        "resource_cards": tally["resource_cards"], "planets": planets,
                        "black_hole": state.black_hole[seat]})
        return out

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(tally["total"] for tally in self.tallies(state))

    def tie_break_keys(self, state: State) -> list[tuple[int, int, int, int]]:
        return [scoring.tie_break_key(tally["total"], tally["planets"], tally["resource_cards"], state.black_hole[seat])
                for seat, tally in enumerate(self.tallies(state))]

    def winners(self, state: State) -> tuple[int, ...]:
        """Most points; ties: most claimed planets, then most resource cards, then fewest black-hole markers."""
        if state.phase != OVER:
            return ()
        keys = self.tie_break_keys(state)
        best = max(keys)
        return tuple(s for s in range(state.players) if keys[s] == best)

    def turns_taken(self, state: State) -> tuple[int, ...] | None:
        """Turns finished per seat; None after a black-hole end (the game stops at once, mid-round)."""
        if state.phase == OVER and state.lost_hidden():
            return None
        return tuple(state.turns_taken(seat) for seat in range(state.players))

    def inventory(self, state: State) -> dict[str, int]:
        comps = state.comps
        out = {comps.resource_names[k]: n for k, n in sorted(_every_resource(state).items())}
        out.update({comps.navcomp_names[k]: n for k, n in sorted(_every_navcomp(state).items())})
        return out

    def set_aside(self, state: State) -> dict[str, int]:
        """The resources left unused (a smaller ring takes fewer: which ones is dealt at random)."""
        return {state.comps.resource_names[k]: n for k, n in sorted(Counter(state.unused).items())}

    def sample_hidden(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        """Re-deal what ``seat`` cannot see: face-down resources, other seats' hidden resources and
        the unused ones among themselves (hidden resources are never Fame), and the NavComp deck
        and other seats' hands among themselves (after a reshuffle, the deck only from the discards
        shuffled into it: ``State.reshuffled``).

        Nothing else about these zones is public: no action shows anyone else's NavComp cards or
        hidden resources, and every card leaving a hand is played face up."""
        comps = state.comps
        others = [s for s in range(state.players) if s != seat]
        # At the end the hidden resources are revealed: they stay where they are.
        secret = [] if state.phase == OVER else others
        pool = [k for row, ups in zip(state.resources, state.face_up) for k, up in zip(row, ups) if not up]
        pool += list(state.unused)
        for s in secret:
            pool.extend(state.hidden[s])
        pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
        chance.shuffle(rng, pool)
        fame = [k for k in pool if comps.scoring_of(k) == "fame"]
        plain = [k for k in pool if comps.scoring_of(k) != "fame"]
        hidden = list(state.hidden)
        for s in secret:
            size = len(state.hidden[s])
            hidden[s], plain = tuple(sorted(plain[:size])), plain[size:]
        rest = plain + fame
        chance.shuffle(rng, rest)
        resources = []
        for row, ups in zip(state.resources, state.face_up):
            new = list(row)
            for j, up in enumerate(ups):
                if not up:
                    new[j] = rest.pop()
            resources.append(tuple(new))
        nav = list(state.deck)
        for s in others:
            nav.extend(state.hands[s])
        nav.sort()
        chance.shuffle(rng, nav)
        if state.reshuffled:
            # After a reshuffle everyone knows the deck holds only the discards shuffled into it: the deck
            # takes the first of those in the shuffled order, the hands the rest (rng is drawn from just
            # as often as without the constraint).
            room = Counter(state.reshuffled)
            deck: list[NavCompKind] = []
            for_hands: list[NavCompKind] = []
            for kind in nav:
                if len(deck) < len(state.deck) and room[kind] > 0:
                    room[kind] -= 1
                    deck.append(kind)
                else:
                    for_hands.append(kind)
            nav = for_hands + deck
        hands = list(state.hands)
        for s in others:
            size = len(state.hands[s])
            hands[s], nav = tuple(sorted(nav[:size])), nav[size:]
        return state._replace(resources=tuple(resources), hidden=tuple(hidden), unused=tuple(rest),
                              hands=tuple(hands), deck=tuple(nav), seed=chance.unknown_seed(rng))

    def card_info(self, state: State, card: str) -> JSONObject:
        """Resources group by type (``group_names``: the type's name in each language, the component
        file's ``name_ja``); their ``number`` is 1 with the black-hole icon, else 0. NavComp cards
        form one group ("NavComp card", in Japanese 手札カード as the game's texts call them), number 0."""
        comps = state.comps
        kind = comps.resource_by_name.get(card)
        if kind is None:
            comps.navcomp(card, where="card")
            return {"group": "navcomp", "group_name": "NavComp card",
                    "group_names": {"en": "NavComp card", "ja": "手札カード"}, "number": 0}
        rtype = comps.types[comps.resource_type[kind]]
        return {"group": rtype.id, "group_name": rtype.name, "group_names": dict(rtype.label),
                "number": int(comps.black_hole[kind])}

    def deck_knowledge(self, state: State, seat: Seat | None) -> JSONObject:
        """Unseen resources (face down on planets, set aside, other players' hidden ones) and unseen
        NavComp cards (the deck and other hands). ``deck_count`` counts the face-down resources and
        the NavComp deck. Jump Gate has no end card."""
        comps = state.comps
        # (the position's own cards: a what-if position may hold fewer than its components file)
        counts = _every_resource(state)
        for row, ups in zip(state.resources, state.face_up):
            counts.subtract(k for k, up in zip(row, ups) if up and k != EMPTY)
        for pile in state.gained:
            counts.subtract(pile)
        nav = _every_navcomp(state)
        nav.subtract(state.discard)
        if state.phase == OVER:     # the hidden resources are revealed at the end
            for pile in state.hidden:
                counts.subtract(pile)
        elif seat is not None:
            counts.subtract(state.hidden[seat])
        if seat is not None:
            nav.subtract(state.hands[seat])
        unseen = {comps.resource_names[k]: n for k, n in sorted(counts.items()) if n > 0}
        unseen.update({comps.navcomp_names[k]: n for k, n in sorted(nav.items()) if n > 0})
        face_down = sum(up.count(False) for up in state.face_up)
        elsewhere = len(state.unused) + sum((0 if state.phase == OVER else len(state.hidden[s])) + len(state.hands[s])
                                            for s in range(state.players) if s != seat)
        return {"deck_count": face_down + len(state.deck), "unseen": unseen, "unseen_in_hands": elsewhere,
                "end_card_depths": None}

    # -- the observer ------------------------------------------------------------------------
    def observe(self, state: State, seat: Viewer) -> JSONObject:
        """The table for ``seat``: face-down resources without their card, ``seat``'s own hand and
        hidden resources, other players' counts only. Deck order is never shown, but to ``ALL``: every
        face-down resource, hand and hidden pile, and the ``cards`` of the deck (in draw order) and of
        the unused resources."""
        comps = state.comps

        def nav(kinds: Iterable[NavCompKind]) -> list[str]:
            return [comps.navcomp_names[k] for k in kinds]

        def res(kinds: Iterable[ResourceKind]) -> list[str]:
            return [comps.resource_names[k] for k in kinds]

        over = state.phase == OVER
        planets = []
        for pos in range(len(state.ring)):
            entry = position.planet_json(state, pos, hide_face_down=seat != ALL)
            p = comps.planets[state.ring[pos]]
            entry.update({"name": p.name, "jump": p.jump, "scan": p.scan, "land": p.land,
                          "ships": [s for s in range(state.players) if state.ships[s] == pos]})
            planets.append(entry)
        return {
            "game": self.id,
            "viewer": seat,
            "players": state.players,
            "variants": dict(state.variants),
            "card_set": {"name": comps.name, "provenance": comps.provenance},
            "phase": state.phase,
            "to_move": list(self.to_move(state)),
            "seat": state.seat,
            "start_player": state.start_player,
            "round": state.round,
            "actions_left": state.actions_left,
            "focus": None if state.focus < 0 else position.ship_name(state, state.focus),
            "waiting": list(state.waiting),
            "turns_taken": list(self.turns_taken(state) or ()),
            "ring": planets,
            "ships": [position.ship_name(state, p) for p in state.ships],
            "deck": {"count": len(state.deck), **({"cards": nav(state.deck)} if seat == ALL else {})},
            "discard": nav(state.discard),
            "unused": {"count": len(state.unused), **({"cards": res(state.unused)} if seat == ALL else {})},
            "hands": [{"count": len(hand), **({"cards": nav(hand)} if sees(seat, s) else {})}
                      for s, hand in enumerate(state.hands)],
            "hidden": [{"count": len(h), **({"cards": res(h)} if sees(seat, s) or over else {})}
                       for s, h in enumerate(state.hidden)],
            "gained": [res(g) for g in state.gained],
            "black_hole": {"markers": list(state.black_hole), "total": state.black_hole_total(),
                           "limit": BLACK_HOLE_LIMIT, "lost_hidden": list(state.lost_hidden()) if over else []},
            "markers_left": [state.markers_left(s) for s in range(state.players)],
            "scores": list(self.scores(state)),
            "events": [event.seen_by(seat) for event in self.events(state)],
            "legal_actions": ([self.encode_action(a) for a in self.legal_actions(state, seat)]
                              if acts(seat) else []),
            "winners": list(self.winners(state)),
            "score_breakdown": self.public_score_breakdown(state),
        }

    # -- naming actions ----------------------------------------------------------------------
    def action_label(self, action: Action, lang: str = "en", state: State | None = None) -> str:
        """The picker's name for ``action``, from the ``action.*`` templates of ``data/events.json``
        keyed by the action's JSON type: a planet by its name (``fly to Aurel`` / ``オーレルへ移動``,
        not the id ``PA`` that ``str(action)`` and files use), a NavComp card by its codes."""
        fields = self.encode_action(action)
        key = f"action.{fields.pop('type')}"
        if "planet" in fields:                               # Fly and Jump name their planet
            index = self.comps.planet_by_id.get(fields["planet"])
            fields["planet"] = fields["planet"] if index is None else self.comps.planet_label(index)
        if "cards" in fields:                                # Land & Claim names its two cards
            fields["first"], fields["second"] = fields.pop("cards")
        if "slot" in fields and fields["slot"] is None:      # Mark or ClaimPick: none
            key += ".none"
        if fields.pop("take", True) is False:                # TakeMarked: leave the resource
            key += ".leave"
        return say_in(self.id, key, lang, **fields)

    def card_label(self, card: str) -> dict[str, str] | str:
        """The printed name of the card ``card`` (an id of this game's component file: a resource
        ``"sand-bh"``, a NavComp card ``"J1-S3"``, a planet ``"PA"``; else the id as it is)."""
        comps = self.comps
        if not isinstance(card, str):
            return card     # type: ignore[unreachable]  # (from untyped callers: any JSON value)
        if card in comps.resource_by_name:
            return comps.resource_label(comps.resource_by_name[card])
        if card in comps.navcomp_by_name:
            return comps.navcomp_label(comps.navcomp_by_name[card])
        if card in comps.planet_by_id:
            return comps.planet_label(comps.planet_by_id[card])
        return card

    def position_fields(self, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
        return position.fields(self, data)

    # -- events ------------------------------------------------------------------------------
    def events(self, state: State) -> tuple[Event, ...]:
        return tuple(self._event(state, record) for record in state.log)

    def _event(self, state: State, record: LogRecord) -> Event:
        kind, seat, kinds, extra = record
        comps = state.comps
        who = player(seat) if seat is not None else None
        planet, resource = comps.planet_label, comps.resource_label

        def card(k: NavCompKind) -> str:
            return comps.navcomp_names[k]

        names = tuple(comps.resource_names[k] for k in kinds) if kind not in ("draw", "discard") else \
            tuple(comps.navcomp_names[k] for k in kinds)

        def text(key: str, **values: object) -> dict[str, str]:
            return say(self.id, key, who=who, **values)

        def event(texts: dict[str, str], public_texts: dict[str, str] | None = None, *, seat: Seat | None = None,
                  cards: tuple[str, ...] = (), visible_to: tuple[Seat, ...] | None = None) -> Event:
            """The event with its texts in every language (``text``, ``public_text``: the English)."""
            return Event(kind=kind, text=texts["en"], texts=texts, seat=seat, cards=cards, visible_to=visible_to,
                         public_text=public_texts["en"] if public_texts else None, public_texts=public_texts)

        # A record's kind says its detail's shape (``state.Detail``), which the union cannot: cast to it.
        if kind == "setup":
            start, returned = cast("tuple[Seat, int]", extra)
            return event(text("setup.fame_replaced" if returned else "setup", planets=len(state.ring),
                              returned=returned, starter=player(start)), seat=start)
        if kind in ("reveal", "setup_reveal"):      # (a setup's: each planet's top resource, face up)
            where, slot = cast("tuple[int, int]", extra)
            seen = text("reveal.setup" if kind == "setup_reveal" else "reveal", planet=planet(where), slot=slot,
                        card=resource(kinds[0]))
            return event(seen, seat=seat, cards=names)
        if kind == "turn":
            return event(text(kind, round=cast(int, extra) + 1), seat=seat)
        if kind in ("fly", "no_mark", "claim_offer"):
            return event(text(kind, planet=planet(cast(int, extra))), seat=seat)
        if kind in ("jump", "scan", "harvest"):
            where, used = cast("tuple[int, int]", extra)
            return event(text(kind, planet=planet(where), card=card(used)), seat=seat)
        if kind in ("mark", "leave", "gain"):
            where, slot = cast("tuple[int, int] | tuple[int, int, str]", extra)[:2]
            return event(text(kind, card=resource(kinds[0]), slot=slot, planet=planet(where)), seat=seat, cards=names)
        if kind == "claim":
            where, first, second = cast("tuple[int, int, int]", extra)
            return event(text(kind, planet=planet(where), first=card(first), second=card(second)), seat=seat)
        if kind == "black_hole":
            return event(text(kind, markers=extra), seat=seat)
        if kind == "black_hole_end":
            losers = state.lost_hidden()
            return event(text("black_hole_end.one" if len(losers) == 1 else "black_hole_end.many",
                              losers=joined(player(s) for s in losers)))
        if kind == "discard":
            return event(text(kind, card=card(kinds[0])), seat=seat, cards=names)
        if kind == "draw":
            return event(text("draw" if names else "draw.none", drawn=joined(names)),
                         text("draw.public.one" if extra == 1 else "draw.public.many", count=extra),
                         seat=seat, cards=names, visible_to=(cast(Seat, seat),))  # (a draw has a seat)
        if kind == "reshuffle":
            return event(text(kind, count=extra))
        if kind in ("no_pick", "research", "deck_empty", "pass"):
            return event(text(kind), seat=seat)
        if kind == "claims_end":
            return event(text(kind))
        raise AssertionError(f"unknown log record {record!r}")

    # -- files -------------------------------------------------------------------------------

    # -- turns ---------------------------------------------------------------------------------
    def first_player(self, state: State) -> Seat:
        return state.start_player

    def turn_of(self, state: State) -> Turn | None:
        """Each seat's turn of actions in order from the start player; the marked seats' choices
        after a claim belong to the claimer's turn."""
        if state.phase == OVER:
            return None
        return Turn(seat=state.seat, number=state.round * state.players + (state.seat - state.start_player) % state.players)


def _every_resource(state: State) -> Counter[ResourceKind]:
    """Every resource of the position: on the planets, hidden, gained and unused."""
    resources = Counter(k for row in state.resources for k in row if k != EMPTY)
    for zone in (state.hidden, state.gained):
        for pile in zone:
            resources.update(pile)
    resources.update(state.unused)
    return resources


def _every_navcomp(state: State) -> Counter[NavCompKind]:
    """Every NavComp card of the position: the deck, the discards and the hands."""
    navcomp = Counter(state.deck)
    navcomp.update(state.discard)
    for hand in state.hands:
        navcomp.update(hand)
    return navcomp

"""Bots that play any registered game through the protocol alone, never reading hidden cards.

Every bot is seeded: ``make_bot(name, seed)`` returns a callable ``bot(game, state, seat) -> action``
that picks among ``game.legal_actions(state, seat)``; the same seed and states give the same choices.
A bot that looks ahead does so on a *determinization*: ``game.sample_hidden(state, seat, rng)``
re-deals everything the seat cannot see, so two states that differ only in hidden cards give the
same choices (tests/play/test_bots.py checks this for every game).

- ``random``: a uniformly random legal action.
- ``greedy``: one ply — each legal action applied to a determinization and valued by the seat's
  provisional score plus a small per-game heuristic (``HEURISTICS``; Jump Gate's values the way to
  points, as moving and researching score nothing themselves); ties broken at random.
- ``mcts``: information-set Monte Carlo tree search (single observer): each iteration samples a
  determinization, walks the tree of the seat's and the others' actions by UCB (counting how often
  each action was available), expands one action, plays the game out with random moves and backs
  up the seat's result (its share of the win; a playout cut off at ``max_playout`` decisions counts
  the seat's share of the best provisional score). Budget: ``iterations`` or ``seconds``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Protocol

from play.greedy import Heuristic, greedy_move
from play.limits import MOVE_LIMIT as MOVE_LIMIT, EndlessGame as EndlessGame
from play.mcts import MCTSBot as MCTSBot
from play.seeds import MASK64, decision_seed, game_key, random_index, splitmix64
from rules.biome_blitz.state import State as BiomeBlitzState
from rules.jump_gate.rules import JUMP, LAND, SCAN, harvest_slots
from rules.jump_gate.scoring import PLANET_POINTS
from rules.jump_gate.state import Action as JumpGateAction
from rules.jump_gate.state import GATE, HAND_SIZE, MARK, NOBODY, OVER, RESEARCH
from rules.jump_gate.state import State as JumpGateState
from rules.protocol import A, S, GameSpec, Seat

BOTS = ("random", "greedy", "mcts")

# -- Jump Gate ------------------------------------------------------------------------------------
# One ply of score sees no worth in flying, jumping or researching (none of them scores), so greedy
# used to pick among tied actions at random, 19 decisions in 20, and its ship wandered the ring for
# 300 to 2,100 decisions a game (issue #22). ``_jump_gate`` gives the way to points a worth, read
# from what the seat sees: its hand, the face-up resources, the markers, claims and codes. (On the
# determinization, the resource a scan turns up is a guess of the face-down card.) Every chance is
# worth less than taking it, so the bot takes it rather than waiting beside it.
BLACK_HOLE_MARKER = 1.0  # each own black-hole marker risks the seat's hidden resources
RESERVE = 0.5            # a marker holds this share of its resource's points until harvested or offered
REVEAL = 0.3             # a face-down resource turned up: a step towards claiming its planet
SCAN_MARK = 0.5          # the marker a scan is about to place, before its resource is chosen
AT_THE_SHIP = 0.5        # a chance where the ship is: half its worth (an action and a card still to spend)
PER_MOVE = 0.5           # and half again for each Fly or Jump the ship needs to get there
CARD = 0.02              # any NavComp card (Harvest and Jump spend one): never spent for nothing
USEFUL_CARD = 0.06       # more for a card whose code serves the seat now (half that for a lone land code)
ALMOST_SWAPPED = 0.9     # in Research, a card worth less than a drawn one counts as almost swapped already
RESEARCH_COST = 0.001    # Research with nothing to swap spends an action for nothing


def _jump_gate(game: GameSpec[JumpGateState, JumpGateAction], state: JumpGateState, seat: Seat) -> float:
    """Jump Gate, beyond the score: the seat's markers (a share of their resources' points) and
    black-hole markers (each risks its hidden resources); the resources still face down (a scan
    turns one up, and its marker is about to be placed); the best chance within the ship's reach
    (Land & Claim, Harvest or Scan with the hand held), less for every move it needs; and the
    hand (a card whose codes serve a reachable planet is worth more; in Research, what the draw
    will bring)."""
    view = _JumpGateView(game, state, seat)
    value = -BLACK_HOLE_MARKER * state.black_hole[seat]
    for pos, row in enumerate(state.markers):
        for slot, owner in enumerate(row):
            if owner == seat:
                value += view.reserve(state.resources[pos][slot])
    if state.phase == OVER:
        return value
    value -= REVEAL * sum(row.count(False) for row in state.face_up)
    if state.phase == MARK and state.seat == seat:
        value += SCAN_MARK
    return value + view.position() + view.hand_worth()


class _JumpGateView:
    """What one seat sees of a Jump Gate state, for ``_jump_gate``: the chance at every planet and
    how many moves away each is."""

    def __init__(self, game: GameSpec[JumpGateState, JumpGateAction], state: JumpGateState, seat: Seat) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.comps, self.hand, self.ship = state.comps, state.hands[seat], state.ships[seat]
        self.planets = [state.comps.planets[index] for index in state.ring]
        self.base = game.scores(state)[seat]
        self.found: dict[int, float] = {}
        self.chances = [self.chance(pos) for pos in range(len(state.ring))]
        self.moves = self.moves_to_reach()

    def points(self, kind: int) -> float:
        """What resource ``kind`` would add to the seat's score now, less a black-hole marker."""
        if kind not in self.found:
            state, seat = self.state, self.seat
            gained = state.gained[:seat] + (state.gained[seat] + (kind,),) + state.gained[seat + 1:]
            added = self.game.scores(state._replace(gained=gained))[seat] - self.base
            self.found[kind] = added - (BLACK_HOLE_MARKER if self.comps.black_hole[kind] else 0)
        return self.found[kind]

    def reserve(self, kind: int) -> float:
        return RESERVE * self.points(kind)

    def chance(self, pos: int) -> float:
        """The best the seat could gain at ring planet ``pos`` with its hand: Land & Claim,
        Harvest (above what its marker there already counts) or Scan (a reveal and a marker)."""
        state, comps, seat, hand, planet = self.state, self.comps, self.seat, self.hand, self.planets[pos]
        has_marker = state.markers_left(seat) > 0
        face_down = False in state.face_up[pos]
        best = 0.0
        if face_down and any(comps.matches(card, SCAN, planet.scan) for card in hand):
            best = REVEAL + (SCAN_MARK if has_marker and seat not in state.markers[pos] else 0.0)
        lands = sum(comps.matches(card, LAND, planet.land) for card in hand)
        if not face_down and state.claimed[pos] == NOBODY and has_marker and lands >= 2:
            best = max(best, PLANET_POINTS)
        if hand:
            for slot in harvest_slots(state, seat, pos):
                kind = state.resources[pos][slot]
                held = self.reserve(kind) if state.markers[pos][slot] == seat else 0.0
                best = max(best, self.points(kind) - held)
        return best

    def moves_to_reach(self) -> list[int | None]:
        """Per ring planet, the moves the ship needs to get there: a Jump with a card in hand, then
        Flies around the ring (None: out of reach, from the gate with no card that jumps into the ring)."""
        ring_size, comps = len(self.planets), self.comps
        start: dict[int, int] = {} if self.ship == GATE else {self.ship: 0}
        for pos, planet in enumerate(self.planets):
            if pos != self.ship and any(comps.matches(card, JUMP, planet.jump) for card in self.hand):
                start.setdefault(pos, 1)
        moves = []
        for pos in range(ring_size):
            around = [steps + min((pos - at) % ring_size, (at - pos) % ring_size) for at, steps in start.items()]
            moves.append(min(around, default=None))
        return moves

    def position(self) -> float:
        """The best chance within reach, less for every move it needs."""
        reachable = [chance * PER_MOVE ** moves for chance, moves in zip(self.chances, self.moves) if moves is not None]
        return AT_THE_SHIP * max(reachable, default=0.0)

    def usefulness(self, card: int, hand: tuple[int, ...]) -> float:
        """1 when one of ``card``'s codes serves the seat now: a Jump to a planet with a chance, a
        Scan of a reachable planet with a face-down resource, or a Land & Claim of a reachable
        unclaimed planet (ready or being scanned) for which ``hand`` holds a pair; a half for a
        lone land code there; else 0."""
        state, comps = self.state, self.comps
        can_claim = state.markers_left(self.seat) > 0
        best = 0.0
        for pos, planet in enumerate(self.planets):
            if comps.matches(card, JUMP, planet.jump) and pos != self.ship and self.chances[pos] > 0:
                return 1.0
            if self.moves[pos] is None:
                continue
            face_down = False in state.face_up[pos]
            if comps.matches(card, SCAN, planet.scan) and face_down:
                return 1.0
            if (comps.matches(card, LAND, planet.land) and can_claim and state.claimed[pos] == NOBODY
                    and (not face_down or self.chances[pos] > 0)):
                pair = sum(comps.matches(other, LAND, planet.land) for other in hand) >= 2
                best = max(best, 1.0 if pair else 0.5)
        return best

    def worth(self, card: int, hand: tuple[int, ...]) -> float:
        return CARD + USEFUL_CARD * self.usefulness(card, hand)

    def hand_worth(self) -> float:
        """The hand's cards; in Research, the hand as it will be after the draw: every missing card,
        and (almost) every card worth less than a drawn one, counts as a drawn card's mean worth. A
        draw comes from the cards outside the hand (the deck now, the discards after a reshuffle)."""
        state, hand = self.state, self.hand
        if not (state.phase == RESEARCH and state.seat == self.seat):
            return sum(self.worth(card, hand) for card in hand)
        elsewhere = Counter(self.comps.navcomp_deck())
        elsewhere.subtract(hand)
        count = sum(n for n in elsewhere.values() if n > 0)
        drawn = sum(n * self.worth(card, hand + (card,)) for card, n in elsewhere.items() if n > 0) / count
        kept = sum(max(self.worth(card, hand), ALMOST_SWAPPED * drawn) for card in hand)
        return kept + drawn * max(0, HAND_SIZE - len(hand)) - RESEARCH_COST


def _biome_blitz(game: GameSpec[BiomeBlitzState, Any], state: BiomeBlitzState, seat: Seat) -> float:
    """Resources in hand are the means to discover and compete."""
    return 0.2 * len(state.hands[seat])


#: A small bonus per game on top of the provisional score (the score alone decides elsewhere): its
#: ``heuristic(game, state, seat)`` is given only its own game's states (keyed by game id).
HEURISTICS: dict[str, Heuristic] = {"jump_gate": _jump_gate, "biome_blitz": _biome_blitz}


class Bot(Protocol):
    """A seeded player (``make_bot``): its choice among ``game.legal_actions(state, seat)``."""

    def __call__(self, game: GameSpec[S, A], state: S, seat: Seat) -> A: ...


class RandomBot:
    """Uniformly random legal action. Its n-th choice is drawn from ``splitmix64`` of its seed and n
    (no Mersenne Twister to seed: a bot is made per decision, ``bot_move``, and this keeps random
    playouts as fast as one long-lived generator)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.drawn = seed & MASK64

    def __call__(self, game: GameSpec[S, A], state: S, seat: Seat) -> A:
        actions = game.legal_actions(state, seat)
        self.drawn = splitmix64(self.drawn)
        return actions[self.drawn % len(actions)]


class GreedyBot:
    """Best provisional score (plus the game's heuristic) one ply ahead, on a determinization.

    In a simultaneous step (several seats to move, each choosing unseen), the seats choosing with this
    one and not yet chosen answer at random in the look-ahead, so it judges the step resolved whatever
    its place in the order of asking: without that, a seat asked last saw the step resolve one ply
    ahead and a seat asked first did not, and the last won Starligned's two-player games 94% of the
    time (greedy against greedy, 1,000 games) where random bots win half of them either way."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """Made at the first choice that needs it (a forced move does not pay for seeding it)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def __call__(self, game: GameSpec[S, A], state: S, seat: Seat) -> A:
        return greedy_move(self, game, state, seat, HEURISTICS.get(game.id))

    def together(self, game: GameSpec[S, A], state: S, seat: Seat) -> list[tuple[Seat, float]]:
        """The seats choosing with ``seat`` in this step, each with where its answer falls among its legal
        actions in the look-ahead (a fraction): the same answers for every action (they cannot see it)."""
        return [(other, self.rng.random()) for other in game.to_move(state) if other != seat]


def make_bot(name: str, seed: int = 0) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "mcts":
        return MCTSBot(seed)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")


def bot_move(name: str, game: GameSpec[S, A], state: S, seat: Seat, seed: int, step: int) -> A:
    """The move of bot ``name`` for ``seat`` at ``step`` of the game dealt from ``seed``: the one seed rule
    (``play/seeds.py``), used wherever bots play."""
    if name == "random":        # RandomBot(decision seed)'s move, without making the bot (simulations' hot path)
        actions = game.legal_actions(state, seat)
        return actions[random_index(game_key(seed), seat, step, len(actions))]
    return make_bot(name, decision_seed(seed, seat, step))(game, state, seat)

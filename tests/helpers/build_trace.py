"""Seeded games traced decision by decision, to compare the compiled rules with the pure ones.

``python -m tests.helpers.build_trace`` prints the build it ran (``rules.BUILD``), then one line per
decision of every case: where it is (game, players, card file, variants, seed, decision) and the
SHA-256 of everything the rules answered there: the position file of the state, whose turn it is,
every seat's observation, the legal actions, the events of the apply, and the refusals of two
illegal moves (a listed action sent by a seat not to move, and an action of the previous decision
no longer listed). ``tests/rules/test_compiled_build.py`` runs it under ``RULES_EXPLORER_BUILD=pure``
and ``=compiled`` and requires the same lines.

The cases: every game, every player count (``--fewest``: each game's fewest players, the
quick tier's trace), the variants at their defaults and at their last choice, two seeds
each; the unusual card files (Biome Blitz's file with every ability effect, Subastral's
deck without fifth-player markers); and starved positions (a seeded game's middle with each zone the position files can empty
emptied, then all of them: tests/helpers/position_fuzz.py). Then the look-ahead, whose random playouts
are compiled with the rules (``play/rollout.py``): per game, the advisor's values, an MCTS decision
and a line of greedy moves (``play/greedy.py``) from a seeded position (``lookahead``); and the
bots' seed rule on 20,000 draws (``seed_rule``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from collections.abc import Iterator

import rules
from rules.protocol import IllegalAction, InvalidPosition

SEEDS = 2


def _text(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def _refusal(game, state, seat, action) -> str:
    try:
        game.apply(state, seat, action)
    except IllegalAction as error:
        return f"{type(error).__name__}: {error}"
    except Exception as error:      # the same crash in both builds is still the same answer
        return f"crash {type(error).__name__}: {error}"
    return "accepted"


#: Decisions traced at most per case: a random line from a starved position may go on for ever (Jump
#: Gate with an empty deck: flights and research, nothing that ends the game).
MAX_DECISIONS = 400


def trace(game, state, pick, label: str) -> Iterator[str]:
    """One line per decision from ``state`` on (at most ``MAX_DECISIONS``), the moves drawn from ``pick``."""
    previous: list = []
    step = 0
    while step < MAX_DECISIONS:
        seats = game.to_move(state)
        parts = [_text(game.encode(state)), _text(seats),
                 *(_text(game.observe(state, seat)) for seat in range(state.players))]
        if not seats:
            yield f"{label} {step} over {hashlib.sha256(chr(0).join(parts).encode()).hexdigest()}"
            return
        seat = seats[int(pick() * len(seats))]
        actions = game.legal_actions(state, seat)
        parts.append(_text([game.encode_action(action) for action in actions]))
        others = [other for other in range(state.players) if other not in seats]
        if others and actions:
            parts.append(_refusal(game, state, others[0], actions[0]))
        stale = [action for action in previous if action not in actions]
        if stale:
            parts.append(_refusal(game, state, seat, stale[0]))
        action = actions[int(pick() * len(actions))]
        following = game.apply(state, seat, action)
        parts.append(_text([repr(event) for event in game.events(following)]))
        yield f"{label} {step} {_text(game.encode_action(action))} {hashlib.sha256(chr(0).join(parts).encode()).hexdigest()}"
        previous, state, step = list(actions), following, step + 1


def _subastral_without_fifth_player_markers():
    game = rules.get_game("subastral")
    data = copy.deepcopy(dict(game.cards.raw))
    data["name"] = "no fifth-player markers"
    for biome in data["biomes"]:
        for card in biome["cards"]:
            if card.get("min_players") == 5:
                card["min_players"] = 2
    return game.with_card_file(data)


def cases(*, every_count: bool = True) -> Iterator[tuple[str, object, object, object]]:
    """``(label, game, state, pick)`` for every case (see the module's text); without
    ``every_count``, each game's fewest players only (the quick tier's trace)."""
    from tests.helpers.biome_blitz import EXTENDED
    from tests.helpers.position_fuzz import STARVABLE, seeded_states, starved

    games = [(game_id, rules.get_game(game_id)) for game_id in rules.GAMES]
    games += [("biome_blitz:every-ability", EXTENDED), ("subastral:no-fifth-markers", _subastral_without_fifth_player_markers())]
    for name, game in games:
        counts = game.player_counts if every_count else game.player_counts[:1]
        for players in counts:
            for seed in range(SEEDS):
                variants = {v.name: v.choices[-1] for v in game.variants} if seed % 2 else None
                pick = random.Random(seed * 31 + players).random
                label = f"{name} {players}p {'switched' if variants else 'default'} seed {seed}"
                yield label, game, game.new_game(players, seed, variants), pick
    # Starved positions: a seeded game's middle with each starvable zone emptied, and all of them.
    for game_id in rules.GAMES:
        game = rules.get_game(game_id)
        zones = list(STARVABLE[game_id])
        for state in seeded_states(game, seeds=1, points=(0.5,), players=None if every_count else game.player_counts[0]):
            for emptied in [[zone] for zone in zones] + [zones]:
                try:
                    start = game.decode(starved(game, state, emptied))
                except InvalidPosition:
                    continue
                label = f"starved {game_id} {state.players}p {'+'.join(emptied)}"
                yield label, game, start, random.Random(label).random


def lookahead() -> Iterator[str]:
    """Per game (its fewest players): the advisor's values (``play_out``) and an MCTS bot's move
    (``random_playout``) at the first decision from the 6th on of a seeded random game where the seat
    to move has a choice."""
    from play.advise import advise
    from play.bots import MCTSBot

    for game_id in rules.GAMES:
        game = rules.get_game(game_id)
        pick = random.Random(game_id).random
        state = game.new_game(game.player_counts[0], 4)
        for step in range(MAX_DECISIONS):
            seats = game.to_move(state)
            actions = game.legal_actions(state, seats[0])
            if step >= 6 and len(actions) > 1:
                break
            state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
        seat = seats[0]
        values = advise(game, state, seat, budget=3 * len(actions), seed=11)
        yield f"advisor {game_id} {_text([(v.label, v.mean, v.low, v.high, v.rollouts) for v in values])}"
        move = MCTSBot(11, iterations=40)(game, state, seat)
        yield f"mcts {game_id} {_text(game.encode_action(move))}"
        yield f"greedy {game_id} {_text(greedy_line(game, state, step))}"


#: Decisions of the greedy line a lookahead case plays (``greedy_line``).
GREEDY_DECISIONS = 40


def greedy_line(game, state, step: int) -> list:
    """Greedy bots' moves (the one seed rule, seed 11, ``play.bots.bot_move``: the compiled look-ahead of
    ``play/greedy.py``) for at most ``GREEDY_DECISIONS`` decisions from ``state``, taken as ``step``."""
    from play.bots import bot_move

    moves = []
    while len(moves) < GREEDY_DECISIONS and (seats := game.to_move(state)):
        action = bot_move("greedy", game, state, seats[0], 11, step + len(moves))
        moves.append((seats[0], game.encode_action(action)))
        state = game.apply(state, seats[0], action)
    return moves


def seed_rule() -> str:
    """``play.seeds.random_index`` (the advisor's random bots: worked out in 32-bit halves in the compiled
    build) on 20,000 draws: random keys, seats, steps and counts, and the edges of each, in range and
    out of it (where the halves are not used); and ``decision_seed`` (the other bots' seeds, in halves
    too) on every tenth (the key taken as a game's seed)."""
    from play.seeds import MASK64, decision_seed, random_index

    rng = random.Random("seed rule")
    keys = [0, 1, MASK64, 1 << 63, (1 << 32) - 1, 1 << 32, MASK64 + 1, -1]
    small = [0, 1, 5, (1 << 32) - 1, 1 << 32, -1]
    counts = [1, 2, 7, (1 << 24) - 1, 1 << 24, 1 << 40]
    draws = []
    for i in range(20_000):
        key = rng.getrandbits(64) if i % 4 else rng.choice(keys)
        seat = rng.randrange(8) if i % 5 else rng.choice(small)
        step = rng.randrange(3000) if i % 3 else rng.choice(small)
        count = rng.randrange(1, 60) if i % 7 else rng.choice(counts)
        draws.append(random_index(key, seat, step, count))
        if i % 10 == 0:
            draws.append(decision_seed(key, seat, step))
    return f"seed rule {hashlib.sha256(_text(draws).encode()).hexdigest()}"


def main(argv: list[str] | None = None) -> int:
    every_count = "--fewest" not in (sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    out.write(f"build {rules.BUILD.kind}\n")
    for label, game, state, pick in cases(every_count=every_count):
        for line in trace(game, state, pick, label):
            out.write(line + "\n")
    for line in lookahead():
        out.write(line + "\n")
    out.write(seed_rule() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

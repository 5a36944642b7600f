"""Many seeded bot games in one process, summarised (``rules-explorer simulate``).

Game ``i`` of a run with seed ``S`` is dealt from seed ``S + i`` and its bots are seeded from the
same number by the one seed rule (``play/seeds.py``), so any single game of a run can be replayed on
its own (``rules-explorer play --seed S+i``). Only per-game summaries are
kept, so memory stays flat however many games run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from play.bots import MOVE_LIMIT, EndlessGame, bot_move
from rules.fields import check_seed_run
from rules.protocol import A, S, AnyGame, GameSpec, JSONObject, Seat
from rules.registry import get_game


@dataclass(frozen=True, kw_only=True)
class GameResult:
    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int
    #: The seat that played first (the deal's start player; ``GameSpec.first_player``), None if the game has none.
    first: int | None = None


def play_game(game: GameSpec[S, A], players: int, seed: int, bots: Sequence[str],
              variants: Mapping[str, Any] | None = None, *, keep_actions: bool = False,
              on_step: Callable[[S], None] | None = None) -> tuple[S, GameResult, list[tuple[Seat, A]] | None]:
    """One game; returns ``(final state, GameResult, actions or None)``. ``on_step(state)`` is called
    after every decision. Raises EndlessGame when the game has not ended after ``MOVE_LIMIT`` moves."""
    state = game.new_game(players, seed, variants)
    first = game.first_player(state)
    seat_bots = [bots[s % len(bots)] for s in range(players)]
    actions: list[tuple[Seat, A]] | None = [] if keep_actions else None
    decisions = 0
    to_move, apply = game.to_move, game.apply
    while True:
        seats = to_move(state)
        if not seats:
            break
        if decisions == MOVE_LIMIT:
            raise EndlessGame(decisions, seed)
        seat = seats[0]
        action = bot_move(seat_bots[seat], game, state, seat, seed, decisions)
        state = apply(state, seat, action)
        decisions += 1
        if on_step is not None:
            on_step(state)
        if actions is not None:
            actions.append((seat, action))
    result = GameResult(seed=seed, scores=game.scores(state), winners=game.winners(state), decisions=decisions,
                        first=first)
    return state, result, actions


def summarise(game: AnyGame, players: int, results: Sequence[GameResult], elapsed: float, **settings: object) -> JSONObject:
    n = len(results)
    wins = [0.0] * players
    for r in results:
        for s in r.winners:
            wins[s] += 1 / len(r.winners)
    per_seat = []
    for s in range(players):
        scores = sorted(r.scores[s] for r in results)
        per_seat.append({
            "seat": s,
            "mean_score": round(sum(scores) / n, 3) if n else None,
            "min_score": scores[0] if n else None,
            "median_score": scores[n // 2] if n else None,
            "max_score": scores[-1] if n else None,
            "win_share": round(wins[s] / n, 4) if n else None,
        })
    decisions = sum(r.decisions for r in results)
    return {
        "game": game.id,
        "version": game.version,
        "players": players,
        **settings,
        "games": n,
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "mean_decisions": round(decisions / n, 2) if n else None,
        "seats": per_seat,
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(n / elapsed, 1) if elapsed > 0 else None,
    }


def simulate(game_id: str, players: int, games: int, seed: int, *, bots: Sequence[str] = ("random",),
             variants: Mapping[str, Any] | None = None, progress: Callable[[int], None] | None = None,
             game: AnyGame | None = None) -> JSONObject:
    """Play ``games`` games and summarise scores and wins per seat (``game``: a spec to use instead
    of the registered one, e.g. with another card file)."""
    game = game or get_game(game_id)
    players = game.check_players(players)
    variants = game.check_variants(variants)
    check_seed_run(seed, games)
    results: list[GameResult] = []
    start = time.perf_counter()
    for i in range(games):
        _, result, _ = play_game(game, players, seed + i, bots, variants)
        results.append(result)
        if progress:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    return summarise(game, players, results, elapsed, seed=seed, bots=list(bots), variants=variants)

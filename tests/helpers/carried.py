"""A line played by hand, to carry from page to page (explorer.core.carry), and what two lines must share."""

from __future__ import annotations

import random

from explorer.core.session import GameSession


def hand_played(game: str = "biome_blitz", players: int = 3, seed: int = 7, moves: int = 12) -> GameSession:
    """A line played by hand: random legal moves (seeded), one of them replaced at a past step (a line
    kept aside), seats shared between a person and bots, seen as Player 2."""
    session = GameSession(game=game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = rng.choice(session.spec.to_move(session.state))
        session.play(seat, rng.choice(session.spec.legal_actions(session.state, seat)))
    session.goto(moves // 2)
    seat = session.spec.to_move(session.state)[0]
    other = [action for action in session.spec.legal_actions(session.state, seat) if (seat, action) != session.log[moves // 2]]
    session.play(seat, other[0])
    session.seat_players = {0: "human", 1: "random", 2: "greedy"}
    session.bot = "random"
    session.viewing_seat = 1
    return session


def line(session: GameSession) -> tuple:
    return (session.game, session.players, session.seed, session.variants, session.start, session.log, session.cursor,
            session.branches, session.seat_players, session.bot, session.viewing_seat, session.notes)

"""How long bots play a game before they take it as one that may never end (``MOVE_LIMIT``), and the
error that says so (``EndlessGame``): shared by simulations (``play/simulate.py``) and the advisor's
rollouts (``play/rollout.py``, compiled with the rules, which reads its types from here).
"""

from __future__ import annotations

from typing import Final

from rules.protocol import RulesError

#: The moves bots play in one game (a simulated game, an advisor's rollout) before they take it as a
#: game that may never end and stop. A card file or a position can make one: with a Jump Gate card
#: file of 12 NavComp cards, 8 of 10 random games went past 20,000 moves. Far above any real game's
#: length: the longest of 300 random games at the fewest and the most players of each game was 6,007
#: moves (Jump Gate, 2 players), of 30 greedy ones 253.
MOVE_LIMIT: Final = 100_000


class EndlessGame(RulesError):
    """Bots played ``moves`` (:data:`MOVE_LIMIT`) moves of the game dealt from ``seed`` (or of an
    advisor's rollout seeded so, ``rollout``) and it has not ended."""

    def __init__(self, moves: int, seed: int, rollout: bool = False) -> None:
        self.moves, self.seed, self.rollout = moves, seed, rollout
        game = f"a rollout of the advisor (seed {seed})" if rollout else f"the game dealt from seed {seed}"
        super().__init__(f"{game} has not ended after {moves:,} moves, so the bots stopped: these cards, "
                         "variants or this position may give a game that never ends")

    def __reduce__(self) -> tuple[type[EndlessGame], tuple[int, int, bool]]:
        return EndlessGame, (self.moves, self.seed, self.rollout)   # (a sweep's worker sends it back pickled)

"""Jump Gate (Matt Worden, 3rd edition): 2-5 players fly a ring of planets, scan, claim and harvest resources.

Readings of the rules text: ``docs/readings.md``, "Jump Gate", and the
module docstring of ``rules.jump_gate.rules``.
"""

from rules.jump_gate.game import JumpGate
from rules.jump_gate.state import (
    ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, State, TakeMarked,
)

__all__ = ["JumpGate", "State", "Fly", "Jump", "Scan", "Mark", "LandClaim", "TakeMarked", "ClaimPick", "Harvest",
           "Research", "Discard", "Draw", "Pass"]

"""Starligned (Jolly Dutch Productions, 2025): 2-5 players build a row of ten two-halved star cards.

Readings of the rules text: ``docs/readings.md``, "Starligned", and the
module docstring of ``rules.starligned.rules``.
"""

from rules.starligned.game import Starligned
from rules.starligned.state import (
    ExchangeCard, ExchangeWith, MoonBonus, MoveCard, PlayCard, RepeatEffect, RotateCard, RotateHandCard,
    RotateTelescope, State, Swap,
)

__all__ = ["Starligned", "State", "PlayCard", "MoonBonus", "Swap", "MoveCard", "RotateCard", "RotateTelescope",
           "RepeatEffect", "ExchangeCard", "ExchangeWith", "RotateHandCard"]

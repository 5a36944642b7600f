"""Subastral (Renegade Game Studios, 2021): 2-5 players collect biome cards into their journals.

Readings of the rules text: ``docs/readings.md``, "Subastral".
"""

from rules.subastral.game import Subastral
from rules.subastral.state import OpenColumn, PassCard, PlayCard, State, TakeCloud

__all__ = ["Subastral", "State", "PlayCard", "TakeCloud", "OpenColumn", "PassCard"]

"""Biome Blitz (Barracuda Games): 2-6 players build teams of animals with data-driven abilities.

Readings of the rules text: ``docs/readings.md``, "Biome Blitz", and the
module docstring of ``rules.biome_blitz.rules``; the ability vocabulary: ``rules.biome_blitz.cards``.
"""

from rules.biome_blitz.game import BiomeBlitz
from rules.biome_blitz.state import (
    CancelCompete, Compete, Discover, Done, Explore, Forage, ForageAll, ForagePick, Peek, Replace, Reroll, State,
    TradeAnswer, TradeAsk, TradeCancel, TradeGive, TradePropose, TradeWith,
)

__all__ = ["BiomeBlitz", "State", "Explore", "TradeWith", "TradeGive", "TradeAsk", "TradePropose", "TradeCancel",
           "TradeAnswer", "Forage", "ForagePick", "ForageAll", "Discover", "Replace", "Compete", "CancelCompete",
           "Reroll", "Done", "Peek"]

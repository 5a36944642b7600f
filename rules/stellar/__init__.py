"""Stellar (Renegade Game Studios, 2020): 2 players build a telescope picture and a notebook.

Readings of the rules text: ``docs/readings.md``, "Stellar", and the
module docstring of ``rules.stellar.rules``.
"""

from rules.stellar.game import Stellar
from rules.stellar.state import (
    ChooseStarters, ClearRow, FinalNotebookCard, PlayToNotebook, PlayToTelescope, State, TakeRowCard,
)

__all__ = ["Stellar", "State", "ChooseStarters", "TakeRowCard", "PlayToTelescope", "PlayToNotebook",
           "ClearRow", "FinalNotebookCard"]

"""Which board draws which game: one explicit table, imported by the pages (no board registers itself
on import, and no board imports another). A game without a board gets :class:`ObservationBoard`.

To add a game's board: write ``explorer/boards/<game>.py`` (a ``pn.viewable.Viewer`` with ``session``
and ``lang``, see ``explorer/boards/subastral.py``) and add it here.
"""

from __future__ import annotations

from typing import Callable

import panel as pn

from explorer.boards.base import ObservationBoard
from explorer.boards.biome_blitz import BiomeBlitzBoard
from explorer.boards.jump_gate import JumpGateBoard
from explorer.boards.starligned import StarlignedBoard
from explorer.boards.stellar import StellarBoard
from explorer.boards.subastral import SubastralBoard
from explorer.core.session import GameSession

#: Board view per game id; games without one get :class:`ObservationBoard`.
BOARDS: dict[str, Callable[..., pn.viewable.Viewer]] = {
    "subastral": SubastralBoard,
    "stellar": StellarBoard,
    "jump_gate": JumpGateBoard,
    "starligned": StarlignedBoard,
    "biome_blitz": BiomeBlitzBoard,
}


def board_for(session: GameSession, lang: str = "en") -> pn.viewable.Viewer:
    """The board of the session's game, its texts in ``lang``."""
    return BOARDS.get(session.game, ObservationBoard)(session=session, lang=lang)

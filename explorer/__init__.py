"""The explorer: Param models and Panel components on top of ``rules`` (DESIGN.md, "Explorer").

``explorer.session.GameSession`` is the one model object; ``explorer.board`` draws a game's table
from observations; ``explorer.app.create_app()`` puts them together. Importing this package does
not import Panel: only the components do.
"""

from explorer.session import GameSession, Line, player_label

__all__ = ["GameSession", "Line", "player_label"]

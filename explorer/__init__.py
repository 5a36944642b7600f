"""The explorer: Param models and Panel components on top of ``rules`` (DESIGN.md, "Explorer").

``explorer.core.session.GameSession`` is the one model object; ``explorer.boards.subastral`` draws a game's table
from observations; ``explorer.pages.app.create_app()`` puts them together. Importing this package does
not import Panel: only the components do.
"""

from explorer.core.session import GameSession, Line, player_label

__all__ = ["GameSession", "Line", "player_label"]

"""The explorer: Param models and Panel views on top of ``rules`` and ``play``, in layers (each imports
only the ones below it; docs/architecture.md, "Layers"):

``core`` (GameSession, texts, colours, links; no Panel) and ``tables`` (the playtest tables' store and
hub; no Panel) < ``web`` (request helpers, page shell) and ``plots`` < ``components`` < ``boards``
(``boards/registry.py``: which board draws which game) < ``pages`` (``pages/serve.py``: the routes) <
``cli`` (``rules-explorer``). Importing this package does not import Panel: only the views do.
"""

from explorer.core.session import GameSession, Line, player_label

__all__ = ["GameSession", "Line", "player_label"]

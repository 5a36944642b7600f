"""The views' stylesheets, kept as CSS files in ``explorer/web/css/`` and given to Panel panes'
``stylesheets``: a page's at the top (``tutorial.css``), a board's in ``boards/<game>.css``, a
component's in ``components/``, a plot's in ``plots/``.

The files are package data (``pyproject.toml``), read with ``importlib.resources`` so they travel with
an installed package. The reader lives here, below every view layer, because boards, components,
pages and plots all use it (plots may not import ``explorer.web``); it needs no Panel.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

#: Where the CSS files live, inside the ``explorer`` package.
FOLDER = ("web", "css")


@lru_cache(maxsize=None)
def stylesheet(name: str) -> str:
    """The CSS of ``explorer/web/css/<name>.css`` exactly as the file holds it; ``name`` may name a
    folder: ``stylesheet("boards/subastral")``."""
    parts = f"{name}.css".split("/")
    return resources.files("explorer").joinpath(*FOLDER, *parts).read_text(encoding="utf-8")

"""The web explorer: `panel serve apps/explorer.py` (or `make serve`)."""
import sys
from pathlib import Path

# `panel serve` puts this file's folder first on sys.path, where this very file would pass for the
# `explorer` package; the project root goes in front of it.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from explorer.app import create_app  # noqa: E402

create_app().servable(title="Rules Explorer")

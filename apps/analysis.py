"""The analysis page (paired A/B bot runs, live): `panel serve apps/analysis.py` (or `make serve`)."""
import sys
from pathlib import Path

# `panel serve` puts this file's folder first on sys.path, where apps/explorer.py would pass for the
# `explorer` package; the project root goes in front of it.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from explorer.analysis import create_page  # noqa: E402

page = create_page()
page.servable(title=page.title)

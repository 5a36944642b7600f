"""Guided tutorials: `panel serve apps/tutorial.py` (or `make serve`), `/tutorial?game=<id>&lang=ja`."""
import sys
from pathlib import Path

# `panel serve` puts this file's folder first on sys.path; the project root goes in front of it.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from explorer.tutorial import create_tutorial_page  # noqa: E402

create_tutorial_page().servable(title="Rules Explorer: tutorial")

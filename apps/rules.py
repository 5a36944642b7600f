"""Each game's rules page: `panel serve apps/rules.py` (or `make serve`), `/rules?game=<id>&lang=ja`."""
import sys
from pathlib import Path

# `panel serve` puts this file's folder first on sys.path; the project root goes in front of it.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from explorer.rules_page import create_rules_page  # noqa: E402

create_rules_page().servable(title="Rules Explorer: rules")

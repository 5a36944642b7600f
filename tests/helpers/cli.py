"""The command line run as a user runs it: a subprocess of ``python -m explorer.cli``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def cli(*args, check=True):
    done = subprocess.run([sys.executable, "-m", "explorer.cli", *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    if check:
        assert done.returncode == 0, done.stderr
    return done

"""The rules and the play layer are typed strictly (issue "Typed rules, compiled", item 1): ``mypy``
with the project's settings ([tool.mypy] in pyproject.toml: ``strict``, on ``rules`` and ``play``)
finds nothing, and the check can fail."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python -m mypy`` from this interpreter's environment (the [test] extra installs it)."""
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_rules_and_play_pass_mypy_strict():
    done = mypy("--config-file", str(ROOT / "pyproject.toml"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout


def test_the_check_fails_on_an_untyped_or_mistyped_function(tmp_path):
    """The same settings refuse what the rules' code must not do: a function without types, and a
    state handed where a seat belongs."""
    module = tmp_path / "loose.py"
    module.write_text("from rules.protocol import Seat\n\n"
                      "def untyped(state):\n    return state\n\n"
                      "def seat_of(seat: Seat) -> Seat:\n    return seat\n\n"
                      "seat_of('player one')\n")
    done = mypy("--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"), str(module),
                cwd=ROOT)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "[no-untyped-def]" in done.stdout and "[arg-type]" in done.stdout, done.stdout

"""Golden playthroughs: replaying each recorded game must give the same text, query for query.

After an intended rules or format change: ``make golden`` and review the diff.
"""

import difflib
from pathlib import Path

import pytest

from play.playthrough import goldens, playthrough

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"


@pytest.mark.parametrize("name,game_id,players,seed,variants,version", list(goldens()),
                         ids=lambda v: v if isinstance(v, str) and v.endswith(".txt") else "")
def test_golden_playthrough(name, game_id, players, seed, variants, version):
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    actual = playthrough(game_id, players, seed, variants, version)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), name, "now"))[:60])
        pytest.fail(f"{name} differs (regenerate with `make golden` if intended):\n{diff}")


def test_every_golden_file_is_checked():
    assert {p.name for p in GOLDEN.glob("*.txt")} == {g[0] for g in goldens()}

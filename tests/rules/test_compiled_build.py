"""The compiled rules play exactly as the pure ones (rules/build.py, setup.py).

The same seeded games (tests/helpers/build_trace.py: every game, player count and variant setting,
the unusual card files, starved positions) are traced in a process running the pure-Python rules and
in one running the compiled rules, and every decision's answers must be the same: the state, whose
turn, each seat's observation, the legal actions, the events and the refusals of illegal moves.

Where the install could not compile (no C compiler with Python's headers), the compiled tests skip,
saying why; CI sets ``REQUIRE_COMPILED=1`` (.ci/run), and there a pure build fails them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import build
from tests.helpers.tiers import quick_once

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = build.read_manifest()
COMPILED = MANIFEST is not None and MANIFEST.get("build") == "compiled"


def _run(code: str, kind: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, **{build.SWITCH: kind})
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _trace(kind: str, *options: str) -> list[str]:
    env = dict(os.environ, **{build.SWITCH: kind})
    done = subprocess.run([sys.executable, "-m", "tests.helpers.build_trace", *options], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"the {kind} trace failed:\n{done.stderr[-3000:]}"
    lines = done.stdout.splitlines()
    assert lines[0] == f"build {kind}", lines[0]
    return lines[1:]


def test_the_install_compiled_the_rules_where_it_could():
    assert MANIFEST is not None, "no rules/_build.json: the project was not installed (`make install`)"
    if not COMPILED:
        # CI (.ci/run) requires the compiled build: there, a pure one is a failed build, not a skip.
        assert os.environ.get("REQUIRE_COMPILED") != "1", f"REQUIRE_COMPILED=1, but the rules are pure: {MANIFEST['reason']}"
        pytest.skip(f"pure build: {MANIFEST['reason']}")
    assert build.changed_sources(MANIFEST) == [], "the compiled rules are older than their sources: `make install`"
    code = "import rules; from rules.subastral import rules as r; print(rules.BUILD.kind, r.__file__.rsplit('.', 1)[1])"
    assert _run(code, "compiled").stdout.split() == ["compiled", "so"]
    assert _run(code, "auto").stdout.split() == ["compiled", "so"]
    assert _run(code, "pure").stdout.split() == ["pure", "py"]


@pytest.mark.skipif(not COMPILED, reason="the rules are not compiled here")
@pytest.mark.parametrize("counts", quick_once(["fewest", "every count"], "fewest"))
def test_the_compiled_rules_answer_as_the_pure_rules_at_every_decision(counts):
    """The quick tier traces each game with its fewest players; the slow tier every player count."""
    options = ("--fewest",) if counts == "fewest" else ()
    pure, compiled = _trace("pure", *options), _trace("compiled", *options)
    assert len(pure) > (10_000 if counts == "every count" else 4_000)
    for ours, theirs in zip(compiled, pure):
        if ours != theirs:
            raise AssertionError(f"first difference:\n  compiled: {ours}\n  pure:     {theirs}")
    assert len(compiled) == len(pure)


def test_a_changed_source_is_found_and_sends_a_process_to_the_pure_rules():
    """A manifest that does not match the sources (a rules file edited, added or removed after the
    install) is found; such a process runs the pure rules, and refuses to start when told to run the
    compiled ones."""
    data = build.manifest(ROOT, "compiled", "mypyc")
    sources = dict(data["sources"])     # type: ignore[call-overload]
    assert "rules/subastral/rules.py" in sources and "rules/build.py" in sources and "play/rollout.py" in sources
    assert build.changed_sources(data) == []
    sources["rules/subastral/rules.py"] = "0" * 64
    assert build.changed_sources({**data, "sources": sources}) == ["rules/subastral/rules.py"]
    assert build.changed_sources({**data, "sources": {**sources, "gone.py": "1"}}) == ["gone.py", "rules/subastral/rules.py"]
    del sources["rules/subastral/rules.py"]
    assert build.changed_sources({**data, "sources": sources}) == ["rules/subastral/rules.py"]
    assert build.changed_sources({"build": "compiled"}) != []
    # The install writes the digests it read when it began: a source edited while it compiled is changed.
    read = {**data["sources"], "rules/subastral/rules.py": "0" * 64}      # type: ignore[dict-item]
    assert build.changed_sources(build.manifest(ROOT, "compiled", "mypyc", read)) == ["rules/subastral/rules.py"]
    assert build.manifest(ROOT, "pure", "no compiler", read)["sources"] == {}


def test_the_switch_is_checked_and_pure_loads_every_compiled_module_from_its_source(tmp_path):
    code = ("import importlib, rules, rules.build as b; mods = [importlib.import_module(b.module_name(n)) for n in b.COMPILED];"
            "print(rules.BUILD.kind, sorted({m.__file__.rsplit('.', 1)[1] for m in mods}))")
    done = _run(code, "pure", tmp_path)
    assert done.stdout.strip() == "pure ['py']", done.stderr
    done = _run(code, "fast please", tmp_path)
    assert done.returncode != 0 and "say auto, compiled or pure" in done.stderr

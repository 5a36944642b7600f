"""Which build of the rules a process runs: compiled (mypyc) or pure Python.

The rules' turn (each game's ``rules``, ``state``, ``scoring``... modules) and the look-ahead's inner
loops (``play/rollout.py``, ``play/seeds.py``, ``play/mcts.py``, ``play/greedy.py``), :data:`COMPILED`, can be compiled to
C by mypyc (``setup.py``, at install). The pure-Python modules stay the reference: the compiled ones are made from them, and
``tests/rules/test_compiled_build.py`` plays the same games in both builds and requires the same
legal lists, states, events and refusals at every step.

``RULES_EXPLORER_BUILD`` chooses, at install time (setup.py: ``auto``, the default, compiles where a
C compiler is present) and when a process starts: ``compiled`` requires the compiled rules (the
process refuses to start without a current compiled build), ``auto`` takes them when they are
current, ``pure`` (the default, :data:`DEFAULT`) runs the pure modules. The compiled rules are not yet
the default at run time: they answer every legal and illegal move as the pure ones do (the
differential test), but a Python caller's ill-typed objects (``apply(state, "0", None)``, an action
built with a number for a card name) meet mypyc's type checks first, a ``TypeError`` instead of the
rules' refusal that the pure engines give (``tests/rules/*/test_*bad_input.py``).

A process runs the compiled modules only when all of these hold, else the pure ones, every one of
them (compiled code calls compiled code directly, so the two are never mixed):
- the build's manifest (``rules/_build.json``, written by the install) says ``compiled``;
- every source of the package is the one the build read (their SHA-256 are in the manifest): a source
  edited since would otherwise be shadowed by its stale compiled module, or break the types the
  compiled code was built for; the process then says once that it runs pure Python, and any ``make``
  target that installs compiles them again;
- ``RULES_EXPLORER_BUILD`` is ``compiled`` or ``auto`` (the differential test and the benchmark
  use both builds).

This module is never compiled (``rules/__init__.py`` calls :func:`choose` before any other import).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

#: The environment variable choosing the build: at install time and when a process starts.
SWITCH = "RULES_EXPLORER_BUILD"
#: Its values (see the module's text).
CHOICES = ("auto", "compiled", "pure")
#: The manifest a build leaves beside the modules (ignored by git).
MANIFEST = "_build.json"
#: mypyc's shared library: ``rules/_native__mypyc.*.so``, inside the package.
GROUP = "rules._native"
#: The build a process runs when ``RULES_EXPLORER_BUILD`` is not set (see the module's text).
DEFAULT = "pure"
#: mypyc's optimisation level (the C compiler's -O).
OPT_LEVEL = "3"

#: The modules compiled, as paths below the project's folder: each game's turn and what only the turn
#: uses, and the look-ahead's inner loops (``play/rollout.py``: a random playout, and the one seed
#: rule it draws from, ``play/seeds.py``; ``play/mcts.py``: the MCTS bot's tree; ``play/greedy.py``: the
#: greedy bot's one-ply look-ahead). Not compiled: the
#: package ``__init__`` files and this module; each game's ``game.py`` (the protocol class, which
#: keeps its rules and position modules as class attributes: thin calls into compiled code);
#: ``cards.py`` (card sets cache their tables in ``functools.cached_property``, which a compiled class
#: would run again at every read); ``position.py`` and the shared file readers (files are read once
#: a game); ``protocol.py`` (the abstract classes every game subclasses); the other bots, the
#: simulations and the sweeps of ``play/``.
COMPILED: tuple[str, ...] = (
    "rules/chance.py",
    "rules/records.py",
    "rules/subastral/rules.py", "rules/subastral/state.py", "rules/subastral/scoring.py",
    "rules/stellar/rules.py", "rules/stellar/state.py", "rules/stellar/scoring.py",
    "rules/jump_gate/rules.py", "rules/jump_gate/state.py", "rules/jump_gate/scoring.py",
    "rules/starligned/rules.py", "rules/starligned/state.py", "rules/starligned/scoring.py", "rules/starligned/choices.py",
    "rules/biome_blitz/rules.py", "rules/biome_blitz/state.py", "rules/biome_blitz/choices.py", "rules/biome_blitz/costs.py",
    "rules/biome_blitz/checks.py", "rules/biome_blitz/table.py",
    "rules/biome_blitz/fast/caches.py", "rules/biome_blitz/fast/direct.py", "rules/biome_blitz/fast/entries.py",
    "rules/biome_blitz/fast/listing.py", "rules/biome_blitz/fast/memo.py", "rules/biome_blitz/fast/quick.py",
    "play/seeds.py", "play/rollout.py", "play/mcts.py", "play/greedy.py",
)
#: What mypyc reads to compile them, below the project's folder: the whole ``rules`` package, and of
#: ``play`` the compiled modules and the one they import (``play/limits.py``). The manifest keeps the
#: digest of each: any of them changed, and the compiled build is not used.
READ: tuple[str, ...] = ("rules", "play/__init__.py", "play/limits.py", "play/seeds.py", "play/rollout.py", "play/mcts.py",
                         "play/greedy.py")

HERE = Path(__file__).resolve().parent
#: The project's folder (the ``rules`` package's parent).
ROOT = HERE.parent


class Build(NamedTuple):
    """The build a process runs (``rules.BUILD``): ``"compiled"`` or ``"pure"``, and why."""

    kind: str
    reason: str


def compiled_sources(root: Path) -> list[Path]:
    """The sources of the compiled modules, below the project's folder ``root``."""
    return [root / name for name in COMPILED]


def module_name(source: str) -> str:
    """``"rules/subastral/rules.py"`` -> ``"rules.subastral.rules"``."""
    return source.removesuffix(".py").replace("/", ".")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def all_sources(root: Path = ROOT) -> dict[str, str]:
    """Every source the build reads (:data:`READ`: each ``.py`` file of a folder, or the file) by its
    path below the project's folder ``root``, with its SHA-256. The compiled modules were checked
    against the types of all of them."""
    paths: list[Path] = []
    for name in READ:
        path = root / name
        paths.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else [])
    return {path.relative_to(root).as_posix(): digest(path) for path in paths}


def manifest(root: Path, build: str, reason: str, sources: dict[str, str] | None = None) -> dict[str, object]:
    """What an install leaves in ``rules/_build.json``. ``sources``: the digests of the sources as the
    build read them (``all_sources`` when it began): a file edited while the build ran is then found
    changed, not taken for the one compiled. Without them, the sources as they are now."""
    if build != "compiled":
        sources = {}
    elif sources is None:
        sources = all_sources(root)
    return {"build": build, "reason": reason, "python": sys.implementation.cache_tag, "sources": sources}


def read_manifest(folder: Path = HERE) -> dict[str, object] | None:
    try:
        data = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def changed_sources(data: dict[str, object], root: Path = ROOT) -> list[str]:
    """The sources the build read that differ from those compiled: changed, added or removed since."""
    compiled = data.get("sources")
    if not isinstance(compiled, dict):
        return ["(every file: the manifest lists none)"]
    now = all_sources(root)
    return sorted(name for name in now.keys() | compiled.keys() if now.get(name) != compiled.get(name))


class PureSources(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their ``.py`` files, whatever lies beside them."""

    def __init__(self, root: Path = ROOT) -> None:
        self.sources = {module_name(name): root / name for name in COMPILED}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def choose(environ: Mapping[str, str] = os.environ) -> Build:
    """Decide the build for this process (see the module's text) and prepare its imports."""
    wanted = environ.get(SWITCH, "") or DEFAULT
    if wanted not in CHOICES:
        raise ImportError(f"{SWITCH}={wanted!r}: say {', '.join(CHOICES[:-1])} or {CHOICES[-1]}")
    data = read_manifest()
    if wanted == "pure":
        build = Build("pure", f"{SWITCH}=pure" if environ.get(SWITCH) else f"the default ({SWITCH} not set)")
    elif data is None:
        build = Build("pure", "not compiled (no rules/_build.json)")
    elif data.get("build") != "compiled":
        build = Build("pure", str(data.get("reason") or "not compiled"))
    elif data.get("python") != sys.implementation.cache_tag:
        build = Build("pure", f"compiled for {data.get('python')}, not {sys.implementation.cache_tag}")
    elif changed := changed_sources(data):
        named = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if changed[3:] else "")
        build = Build("pure", f"{named} changed since the rules were compiled (`make install` compiles them again)")
        if wanted != "compiled":
            print(f"rules-explorer: {build.reason}: running the pure-Python rules", file=sys.stderr)
    else:
        return Build("compiled", "mypyc")
    if wanted == "compiled":
        raise ImportError(f"{SWITCH}=compiled, but the compiled rules cannot be used: {build.reason}")
    if not any(isinstance(finder, PureSources) for finder in sys.meta_path):
        sys.meta_path.insert(0, PureSources())
    return build

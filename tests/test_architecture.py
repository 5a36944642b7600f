"""The layers (docs/architecture.md, "Layers"): the import contracts of pyproject.toml
([tool.importlinter]) hold, and ``rules`` and ``play`` import nothing outside the standard library
(``play``: but Dask, in the sweep's Dask executor)."""

import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(*args: str) -> subprocess.CompletedProcess:
    """``lint-imports`` from this interpreter's environment, on this checkout's packages."""
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} is missing: install the [test] extra (import-linter)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=240)


def test_every_import_contract_is_kept():
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and "7 kept" in done.stdout, done.stdout


def test_a_broken_contract_fails_the_check(tmp_path):
    """The check can fail: a contract the code breaks (the pages do import the boards) is reported."""
    config = tmp_path / "broken.ini"
    config.write_text("[importlinter]\nroot_packages =\n    explorer\n\n[importlinter:contract:pages-without-boards]\n"
                      "name = pages never import boards\ntype = forbidden\nsource_modules =\n    explorer.pages\n"
                      "forbidden_modules =\n    explorer.boards\n")
    done = lint_imports("--config", str(config))
    assert done.returncode == 1 and "BROKEN" in done.stdout, done.stdout + done.stderr
    assert "explorer.pages" in done.stdout and "explorer.boards" in done.stdout


def outside_imports(graph, package: str) -> dict[str, set[str]]:
    """Every top-level module outside our three packages that ``package`` imports, with its importers."""
    found: dict[str, set[str]] = {}
    for module in graph.find_descendants(package) | {package}:
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            if top not in ("rules", "play", "explorer"):
                found.setdefault(top, set()).add(module)
    return found


@pytest.fixture(scope="module")
def graph():
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph("rules", "play", "explorer", include_external_packages=True, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def test_rules_imports_only_the_standard_library(graph):
    outside = {top: importers for top, importers in outside_imports(graph, "rules").items()
               if top not in sys.stdlib_module_names}
    assert outside == {}


def test_play_imports_only_rules_and_the_standard_library_but_dask_in_its_executor(graph):
    """(And tqdm, the command line's progress bar, in ``play.cli``; and, for the type checker only,
    ``mypy_extensions`` in ``play.seeds``: its machine-integer annotations, which the process never
    imports, as the last lines check.)"""
    outside = {top: importers for top, importers in outside_imports(graph, "play").items()
               if top not in sys.stdlib_module_names}
    assert outside == {"distributed": {"play.sweep"}, "tqdm": {"play.cli"}, "mypy_extensions": {"play.seeds"}}
    code = "import sys, play.seeds, play.rollout, play.advise; print('mypy_extensions' in sys.modules)"
    for build in ("pure", "compiled"):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "RULES_EXPLORER_BUILD": "auto" if build == "compiled" else build})
        assert done.stdout.split() == ["False"], (build, done.stderr)
    assert not graph.find_modules_that_directly_import("explorer") & (graph.find_descendants("play") | {"play"})


def test_importing_the_layers_below_the_views_loads_no_panel():
    """``rules``, ``play``, ``explorer.core`` and ``explorer.tables`` work without Panel, HoloViews or Bokeh."""
    code = ("import sys, rules, play.cli, play.advise, explorer.core.session, explorer.core.links, explorer.tables.hub; "
            "print(sorted(m for m in ('panel', 'holoviews', 'bokeh') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

"""The test suite's own layout (docs/architecture.md, "Tests"): folders are packages, no test module
imports another (shared code is in tests/helpers, fixtures in a conftest.py), browser tests live in
tests/browser/, the node ids tests/conftest.py schedules by still name tests, and the two tiers (docs/architecture.md,
"Two tiers") are run where they should be."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = {"golden", "starved", "__pycache__"}
MODULES = sorted(TESTS.rglob("test_*.py"))


def conftest(name: str):
    """A constant of tests/conftest.py (read, not imported: pytest owns that module)."""
    for node in ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(name)


def folders() -> list[Path]:
    return [TESTS, *(d for d in TESTS.rglob("*") if d.is_dir() and not DATA & set(d.relative_to(TESTS).parts))]


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_every_test_folder_is_a_package():
    assert [str(d.relative_to(ROOT)) for d in folders() if not (d / "__init__.py").exists()] == []


def test_no_test_module_imports_another():
    """Shared code lives in tests.helpers (and fixtures in a conftest.py), never in a test module."""
    found = {str(path.relative_to(TESTS)): sorted(m for m in imported_modules(path)
                                                  if m.split(".")[-1].startswith(("test_", "conftest")))
             for path in TESTS.rglob("*.py") if not DATA & set(path.parts)}
    assert {path: modules for path, modules in found.items() if modules} == {}


def drives_chromium(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if re.search(r"pytest\.mark\.browser|^from playwright|^import playwright", text, re.M):
        return True
    params = {a.arg for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef)
              and node.name.startswith("test_") for a in node.args.args}
    return bool(params & conftest("BROWSER_FIXTURES"))


def test_a_test_driving_chromium_lives_in_tests_browser():
    outside = [p for p in MODULES if "browser" not in p.relative_to(TESTS).parts]
    assert [str(p.relative_to(TESTS)) for p in outside if drives_chromium(p)] == []


def test_the_node_ids_the_scheduler_names_exist():
    for nodeid in (*conftest("LONGEST"), *conftest("SPREAD_OVER_WORKERS")):
        module, _, name = nodeid.partition("::")
        assert (ROOT / module).is_file(), nodeid
        assert not name or re.search(rf"^def {re.escape(name)}\(", (ROOT / module).read_text(), re.M), nodeid


def test_quick_once_keeps_one_case_quick_and_refuses_a_list_without_it():
    import pytest

    from tests.helpers.tiers import quick_once, slow

    params = quick_once(["a", ("b", 1), "c"], "c", ids=str)
    assert [(p.values, [m.name for m in p.marks], p.id) for p in params] == \
        [(("a",), [slow.name], "a"), (("b", 1), [slow.name], "('b', 1)"), (("c",), [], "c")]
    with pytest.raises(ValueError, match="no case would be quick"):
        quick_once(["a", "b"], "z")


def test_make_test_runs_the_quick_tier_and_ci_runs_both():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "TEST_MARKS ?= not slow" in makefile
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^tier test\ntier test-slow$", ci, re.M), "CI runs `make test`, then `make test-slow`"

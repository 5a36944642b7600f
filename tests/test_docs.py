"""The project explains itself: code and docs cite documents in this repository, and those exist.

Docstrings, comments and docs once cited the team's agreements and the rulings kept outside the
repository; a reader of a clone could not follow them. Now they cite ``docs/*.md`` by section, e.g.
``docs/readings.md, "Jump Gate 1"`` or ``docs/architecture.md, "Explorer"``, and this test checks that
no outside document is cited and that every such citation names an existing file and heading.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "dist", "__pycache__", ".pytest_cache"}
#: Documents outside the repository (the team's folder): agreements, rulings, research, rules texts.
OUTSIDE = re.compile(r"\b(?:DESIGN|STYLE|RULINGS|TOOLING|CARD-DATA-RESEARCH)(?:\.md\b| \d| [A-Z][a-z])"
                     r"|[\w-]+\.ja\.txt\b|shared/rules/")
#: ``docs/<file>.md, "<section>"`` (the section may follow on the next line).
CITATION = re.compile(r"docs/([\w-]+\.md),\s+\"([^\"\n]+)\"")
#: Inside strings that cannot hold double quotes (variant sources): ``docs/readings.md, Jump Gate 3``.
BARE_READING = re.compile(r"docs/readings\.md,?\s+(?:の\s+)?((?:Subastral|Starligned|Biome Blitz|Jump Gate|Stellar)"
                          r"(?: \d+)?)(?!\w)")


def our_files() -> list[Path]:
    """Every text a reader meets: code, docs, notebooks and the interface texts."""
    found = []
    for path in ROOT.rglob("*"):
        if SKIP_DIRS & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in (".py", ".md", ".ipynb") or (path.suffix == ".json" and "locales" in path.parts):
            found.append(path)
    return found


def outside_references(text: str) -> list[str]:
    return [match.group(0) for match in OUTSIDE.finditer(text)]


def headings(doc: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in doc.read_text(encoding="utf-8").splitlines()
            if re.match(r"#{1,6} ", line)]


def broken_citations(text: str, root: Path = ROOT) -> list[str]:
    """The citations of ``text`` whose file or heading does not exist. A heading ``Jump Gate 1: the
    planets lie in a circle`` is cited by its id before the colon, or whole."""
    broken = []
    cited = [(m.group(1), m.group(2)) for m in CITATION.finditer(text)]
    cited += [("readings.md", m.group(1)) for m in BARE_READING.finditer(text)]
    for name, section in cited:
        doc = root / "docs" / name
        if not doc.exists():
            broken.append(f"docs/{name} (no such file)")
        elif not any(h == section or h.startswith(section + ":") for h in headings(doc)):
            broken.append(f'docs/{name}, "{section}" (no such heading)')
    return broken


def test_the_checks_catch_what_they_are_for():
    assert outside_references('see DESIGN.md, "Explorer"; RULINGS.md Stellar 2; ``stellar.ja.txt``') == [
        "DESIGN.md", "RULINGS.md", "stellar.ja.txt"]
    assert outside_references("(RULINGS 5; CARD-DATA-RESEARCH 4.3.8; STYLE.md habit 9)") == [
        "RULINGS 5", "CARD-DATA-RESEARCH 4", "STYLE.md"]
    assert outside_references('docs/readings.md, "Stellar 2"; the rules text\'s 望遠鏡') == []
    assert broken_citations('docs/readings.md, "Jump Gate 1" and docs/readings.md,\n"Stellar"') == []
    assert broken_citations("source: docs/readings.md, Subastral 10; docs/readings.md の Stellar 6") == []
    assert broken_citations('docs/readings.md, "Jump Gate 9"; docs/nowhere.md, "X"; docs/readings.md, Stellar 7') == [
        'docs/readings.md, "Jump Gate 9" (no such heading)', "docs/nowhere.md (no such file)",
        'docs/readings.md, "Stellar 7" (no such heading)']


def test_no_file_cites_a_document_outside_the_repository():
    this = Path(__file__).resolve()
    found = {str(path.relative_to(ROOT)): refs for path in our_files() if path.resolve() != this
             and (refs := outside_references(path.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("path", [p for p in our_files() if "docs/" in p.read_text(encoding="utf-8")
                                  and p.name != "test_docs.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_of_our_docs_names_an_existing_file_and_heading(path):
    assert broken_citations(path.read_text(encoding="utf-8")) == []


def test_every_game_has_its_readings():
    import rules
    titles = {rules.get_game(game).title for game in rules.GAMES}
    assert titles <= set(headings(ROOT / "docs" / "readings.md"))

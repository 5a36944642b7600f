"""The docs are real: every JSON and Python example runs as written, and what the code and docs cite
is in this repository.

Docstrings, comments and docs once cited the team's agreements and the rulings kept outside the
repository; a reader of a clone could not follow them. Now they cite ``docs/*.md`` by section, e.g.
``docs/readings.md, "Jump Gate 1"`` or ``docs/architecture.md, "Explorer"``: the last tests check
that no outside document is cited and that every such citation names an existing file and heading.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules import replay as replays

ROOT = Path(__file__).parent.parent


def blocks(path, language):
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / path).read_text(encoding="utf-8"), re.S)


def test_formats_replay_example_replays():
    data = json.loads(blocks("docs/formats.md", "json")[0])
    game, states = replays.states(data)
    assert len(states) == len(data["actions"]) + 1


def test_formats_position_example_decodes_and_plays():
    game = rules.get_game("subastral")
    state = game.decode(json.loads(blocks("docs/formats.md", "json")[1]))
    assert game.legal_actions(state, 0)
    assert game.scores(state)[0] > 0


def test_protocol_example_runs():
    code = blocks("docs/protocol.md", "python")[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "may: play" in done.stdout and "takes cloud" in done.stdout


def test_protocol_turn_example_runs():
    code = "import rules\ngame = rules.get_game('starligned')\nstate = game.new_game(3, 1)\n" + blocks("docs/protocol.md", "python")[1]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "a new turn: everyone at once" in done.stdout and "a new turn: Player 2" in done.stdout


def test_readme_python_example_runs():
    code = blocks("README.md", "python")[0]
    done = subprocess.run([sys.executable, "-c", code + "\nassert session.cursor == 0 and session.log\n"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


def test_formats_stellar_action_examples_decode():
    game = rules.get_game("stellar")
    for data in json.loads(blocks("docs/formats.md", "json")[2]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_jump_gate_action_examples_decode():
    game = rules.get_game("jump_gate")
    for data in json.loads(blocks("docs/formats.md", "json")[3]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_starligned_action_examples_decode():
    game = rules.get_game("starligned")
    for data in json.loads(blocks("docs/formats.md", "json")[4]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_biome_blitz_examples_decode():
    from rules.biome_blitz.cards import parse_ability

    game = rules.get_game("biome_blitz")
    ability = parse_ability(json.loads(blocks("docs/formats.md", "json")[5]), "docs")
    assert (ability.trigger, ability.effect, ability.get("rolls")) == ("defend", "win_on_roll", (1, 2))
    for data in json.loads(blocks("docs/formats.md", "json")[6]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_stellar_phase_names_are_the_engines_and_load():
    # A position written from the docs must load: each phase the Stellar section names, in a real position.
    from rules.stellar.state import PHASES

    section = (ROOT / "docs/formats.md").read_text(encoding="utf-8").split("## Stellar", 1)[1].split("\n## ", 1)[0]
    named = re.search(r"`phase` \(([^)]*)\)", section).group(1)
    phases = re.findall(r"`([a-z_]+)`", named)
    assert phases == list(PHASES)
    game = rules.get_game("stellar")
    data = game.encode(game.new_game(2, 1))
    data["state"]["phase"] = phases[0]  # the docs' first phase: where a new game stands
    assert game.decode(data).phase == "starters"


def test_protocol_all_example_runs():
    code = ("import rules\ngame = rules.get_game('subastral')\nstate = game.new_game(3, 1)\n"
            + blocks("docs/protocol.md", "python")[2]
            + "\nassert everything['deck']['cards'][0] == game.encode(state)['state']['deck'][0]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr


# -- citations -----------------------------------------------------------------------------------
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "dist", "__pycache__", ".pytest_cache"}
#: Documents outside the repository (the team's folder): agreements, rulings, research, rules texts.
OUTSIDE = re.compile(r"\b(?:DESIGN|STYLE|RULINGS|TOOLING|CARD-DATA-RESEARCH)(?:\.md\b| \d| [A-Z][a-z])"
                     r"|[\w-]+\.ja\.txt\b|shared/rules/")
#: ``docs/<file>.md, "<section>"`` (the section may follow on the next line).
CITATION = re.compile(r"docs/([\w-]+\.md),\s+\"([^\"\n]+)\"")
#: ``docs/<file>.md#<anchor>``: a heading by its link anchor (the data files' ``source``: ``docs/cards.md#jump-gate``).
ANCHOR = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")
#: Inside strings that cannot hold double quotes (variant sources): ``docs/readings.md, Jump Gate 3``.
BARE_READING = re.compile(r"docs/readings\.md,?\s+(?:の\s+)?((?:Subastral|Starligned|Biome Blitz|Jump Gate|Stellar)"
                          r"(?: \d+)?)(?!\w)")


def our_files() -> list[Path]:
    """Every text a reader meets: code, docs, notebooks and every JSON file (the interface texts,
    the games' data files with their ``source`` fields, tutorials, examples)."""
    found = []
    # (os.walk, pruned: not into the skipped folders at all. A walk through them met files that other
    # tests' tools write and rename meanwhile (mypy's cache), and failed on one gone from under it.)
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        found += [Path(folder, name) for name in sorted(files) if Path(name).suffix in (".py", ".md", ".ipynb", ".json")]
    return found


def outside_references(text: str) -> list[str]:
    return [match.group(0) for match in OUTSIDE.finditer(text)]


def headings(doc: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in doc.read_text(encoding="utf-8").splitlines()
            if re.match(r"#{1,6} ", line)]


def anchor(heading: str) -> str:
    """A heading's link anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


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
    for m in ANCHOR.finditer(text):
        doc = root / "docs" / m.group(1)
        if not doc.exists():
            broken.append(f"docs/{m.group(1)} (no such file)")
        elif m.group(2) not in {anchor(h) for h in headings(doc)}:
            broken.append(f"docs/{m.group(1)}#{m.group(2)} (no such heading)")
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
    assert anchor("Biome Blitz") == "biome-blitz" and anchor("Stellar 2: the telescope") == "stellar-2-the-telescope"
    assert broken_citations('"source": "docs/cards.md#jump-gate: totals sourced", docs/cards.md#biome-blitz') == []
    assert broken_citations("docs/cards.md#jumpgate; docs/nowhere.md#x") == [
        "docs/cards.md#jumpgate (no such heading)", "docs/nowhere.md (no such file)"]


def test_the_data_files_are_among_the_files_checked():
    """The games' card and rulebook files (``source``: what they are based on) are checked too."""
    checked = {str(path.relative_to(ROOT)) for path in our_files()}
    for game in rules.GAMES:
        data = {str(path.relative_to(ROOT)) for path in (ROOT / "rules" / game / "data").glob("*.json")}
        assert data and data <= checked, game


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
    titles = {rules.get_game(game).title for game in rules.GAMES}
    assert titles <= set(headings(ROOT / "docs" / "readings.md"))

"""Every view's CSS lives in a file under ``explorer/web/css/`` (read by ``explorer.core.stylesheets``),
none in Python: every file named exists and holds CSS, every file is used, and the package ships them."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from explorer.core.stylesheets import stylesheet
from explorer.pages.tutorial import _highlight_rule
from rules import get_game

ROOT = Path(__file__).resolve().parents[3]
EXPLORER = ROOT / "explorer"
CSS_FOLDER = EXPLORER / "web" / "css"
MODULES = sorted(EXPLORER.rglob("*.py"))

#: A CSS declaration block: ``{`` then a property, a colon, a value and a semicolon
#: (``.sb-board { font-family: ...; }``, ``{ outline: ...; }``). A format field (``{value:.1f}``)
#: or a JavaScript object (``{ key: event.key }``) has no semicolon before its brace closes.
DECLARATIONS = re.compile(r"\{\s*-{0,2}[a-z][\w-]*\s*:\s*[^{};]+;")
#: Names a stylesheet is kept under (``BOARD_CSS``, ``JSON_STYLESHEET``, ``_stylesheets``).
STYLE_NAME = re.compile(r"(css|stylesheets?)$", re.IGNORECASE)


def _literal_text(node: ast.AST) -> list[str]:
    """The literal text ``node`` holds outside calls (``stylesheet("boards/x")`` names a file, it holds no CSS)."""
    if isinstance(node, ast.Call):
        return []
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    return [text for child in ast.iter_child_nodes(node) for text in _literal_text(child)]


def _bindings(node: ast.Assign | ast.AnnAssign):
    """(name, value) of each name an assignment binds (``GAME, CSS = "x", ...`` gives two)."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(target.elts) == len(node.value.elts):
            pairs = zip(target.elts, node.value.elts)
        else:
            pairs = [(target, node.value)]
        for name, value in pairs:
            yield getattr(name, "id", getattr(name, "attr", "")), value


def _css_in_python(path: Path) -> list[str]:
    """Where ``path`` keeps CSS in Python: a string holding a declaration block, or a name kept for
    a stylesheet (``..._CSS``, ``_stylesheets``) bound to literal text."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and DECLARATIONS.search(node.value):
            found.append(f"line {node.lineno}: {node.value.strip()[:60]!r}")
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for name, value in _bindings(node):
                if STYLE_NAME.search(name) and any(text.strip() for text in _literal_text(value)):
                    found.append(f"line {node.lineno}: {name} holds CSS text")
    return found


def _names_loaded() -> dict[str, str]:
    """Every ``stylesheet("<name>")`` in the explorer's code: name -> the module naming it."""
    names = {}
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "stylesheet":
                argument = node.args[0] if node.args else None
                assert isinstance(argument, ast.Constant) and isinstance(argument.value, str), \
                    f"{path.relative_to(ROOT)}:{node.lineno}: name the stylesheet with a literal, so this test sees it"
                names[argument.value] = str(path.relative_to(ROOT))
    return names


def _css_files() -> set[str]:
    return {path.relative_to(CSS_FOLDER).with_suffix("").as_posix() for path in CSS_FOLDER.rglob("*.css")}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(EXPLORER)))
def test_no_module_keeps_css_in_python(path):
    assert _css_in_python(path) == [], f"move this CSS to a file under explorer/web/css/ and load it with stylesheet()"


def test_the_scan_sees_css_kept_in_python(tmp_path):
    """The scan above catches the shapes CSS had in Python (a rule, a bare declaration block, a
    stylesheet list) and passes format fields and JavaScript objects."""
    module = tmp_path / "module.py"
    module.write_text('BOARD_CSS = """\n:host { display: block; }\n"""\n'
                      'HIGHLIGHT = ("{ outline: 3px solid #d9822b !important; " "outline-offset: 2px; }")\n'
                      'class Keys:\n    _stylesheets = [""":host { display: flex }"""]\n'
                      'LABEL = "{value:.1f} of {total}"\nJS = "model.send_msg({ key: event.key });"\n', encoding="utf-8")
    found = _css_in_python(module)
    assert sorted(line.split(":")[0] for line in found) == ["line 1", "line 1", "line 4", "line 6"], found


def test_every_stylesheet_named_exists_and_holds_css():
    names = _names_loaded()
    assert names, "no stylesheet() call found: the scan is broken"
    for name, module in names.items():
        assert (CSS_FOLDER / f"{name}.css").is_file(), f"{module} loads {name!r}: no explorer/web/css/{name}.css"
        text = stylesheet(name)
        assert text.strip(), f"explorer/web/css/{name}.css is empty"
        assert ":" in text and ";" in text, f"explorer/web/css/{name}.css holds no CSS declaration"


def test_every_css_file_is_used():
    assert _css_files() - set(_names_loaded()) == set(), "CSS files no module loads"


def test_the_package_ships_every_css_file():
    """``pyproject.toml``'s package data names every CSS file (a pattern's ``*`` stays in one folder)."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["explorer"]
    shipped = {path for pattern in patterns for path in EXPLORER.glob(pattern)}
    missing = sorted(str(path.relative_to(ROOT)) for path in CSS_FOLDER.rglob("*.css") if path not in shipped)
    assert missing == []


def test_stylesheet_reads_a_file_in_a_folder_exactly():
    path = CSS_FOLDER / "boards" / "subastral.css"
    assert stylesheet("boards/subastral") == path.read_text(encoding="utf-8")


def test_every_board_pane_gets_its_games_stylesheet():
    from explorer.boards.registry import BOARDS
    from explorer.core.session import GameSession

    for game, board_class in BOARDS.items():
        session = GameSession(game=game, players=min(get_game(game).player_counts), seed=1)
        board = board_class(session=session)
        assert board._pane.stylesheets == [stylesheet(f"boards/{game}")], game


def test_a_tutorial_zone_rule_wraps_the_zone_declarations():
    declarations = stylesheet("tutorial_zone").strip()
    assert declarations.endswith(";") and "{" not in declarations
    assert _highlight_rule(2, ".sb-hand, .sb-row > .card") == \
        f":host(.tutorial-zone-2) .sb-hand, :host(.tutorial-zone-2) .sb-row > .card {{ {declarations} }}"


#: The stylesheet given to the page itself (``raw_css``), outside every pane's shadow root.
PAGE_LEVEL = {"page_layout.css"}
#: A class attribute's words in the markup we write (Python strings and the board templates).
CLASS_ATTRIBUTE = re.compile(r'class="([^"]*)"')
#: A class selector followed by a descendant or child combinator: ``.x .y``, ``.x > .y``.
ANCESTOR = re.compile(r"(?<![\w)-])\.([\w-]+)(?=\s*[\s>]\s*[.\w#:*\[])")


def _host_only_classes() -> set[str]:
    """Classes that only ever name a pane's host (``css_classes=[...]``), never an element of its markup."""
    hosts, inner = set(), set()
    for path in MODULES:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.keyword) and node.arg == "css_classes" and isinstance(node.value, ast.List):
                hosts |= {item.value for item in node.value.elts if isinstance(item, ast.Constant)}
        inner |= {word for found in CLASS_ATTRIBUTE.findall(source) for word in found.split() if "{" not in word}
    for path in (EXPLORER / "web" / "templates").glob("*.html"):
        inner |= {word for found in CLASS_ATTRIBUTE.findall(path.read_text(encoding="utf-8"))
                  for word in found.split() if "{" not in word}
    return {name for name in hosts - inner if isinstance(name, str)}


def test_no_pane_stylesheet_looks_for_its_host_among_its_own_elements():
    """A pane's stylesheet lives in its shadow root, where the pane's own class (its host's) is no
    element's: ``.picker-status .who`` matched nothing (the name was never bold); ``:host(.picker-status)
    .who`` does. Found so: the lobby's list and the picker's status went unstyled."""
    hosts = _host_only_classes()
    assert {"picker-status", "tables-list"} <= hosts       # (the scan sees them)
    wrong = [f"{path.relative_to(CSS_FOLDER)}:{number}: .{name}"
             for path in sorted(CSS_FOLDER.rglob("*.css")) if path.name not in PAGE_LEVEL
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             for name in ANCESTOR.findall(line.split("/*")[0]) if name in hosts]
    assert wrong == [], "write :host(.name) for a pane's own class"

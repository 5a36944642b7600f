"""Teaching notebooks run headless from top to bottom (their cells assert what they teach)."""

from pathlib import Path

import pytest

from tests.helpers.tiers import quick_once

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


#: The quick tier runs one game's notebook (the others are the same components on other games, and
#: ``variant_analysis`` runs simulation sweeps); the slow tier runs them all (tests/helpers/tiers.py).
QUICK_NOTEBOOK = "subastral.ipynb"


@pytest.mark.notebook
@pytest.mark.parametrize("path", quick_once(NOTEBOOKS, next(p for p in NOTEBOOKS if p.name == QUICK_NOTEBOOK),
                                            ids=lambda p: p.name))
def test_notebook_runs_without_errors_and_reads_as_a_page(path):
    """Run as ``make notebooks-html`` runs it (tools/notebooks_html.py), and written out as its page:
    the page opens with what the notebook teaches and, for a game, how to use its live components,
    and holds the outputs (the boards are Panel models)."""
    import nbformat

    from tools.notebooks_html import run, to_html

    stored = nbformat.read(path, as_version=4)
    assert not any(cell.get("outputs") for cell in stored.cells if cell.cell_type == "code"), \
        "commit notebooks without outputs"
    notebook = run(path, timeout=180)
    errors = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs if o.output_type == "error"]
    assert not errors
    page = to_html(notebook)
    title = "".join(stored.cells[0].source).splitlines()[0].lstrip("# ")
    assert title in page
    if path.stem != "variant_analysis":
        assert "How to use this notebook" in page and "make notebook" in page and "Run All Cells" in page
        assert "application/vnd.bokehjs_exec.v0+json" in page or "Bokeh.embed" in page, "no Panel output in the page"


def test_there_is_a_notebook_per_finished_game_and_the_variant_analysis():
    required = {"subastral.ipynb", "stellar.ipynb", "jump_gate.ipynb", "starligned.ipynb", "biome_blitz.ipynb",
                "variant_analysis.ipynb"}
    assert required <= {p.name for p in NOTEBOOKS}


@pytest.mark.parametrize("game", ["subastral", "stellar", "jump_gate", "starligned", "biome_blitz"])
def test_each_game_notebook_walks_its_tutorial_s_path(game):
    import nbformat

    notebook = nbformat.read(Path(__file__).resolve().parents[2] / "notebooks" / f"{game}.ipynb", as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    # The walk itself runs (and asserts every rule is taught) in test_notebook_runs_without_errors.
    assert f'TutorialRun(game="{game}"' in code and "run.choose(step.do)" in code

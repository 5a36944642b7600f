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
def test_notebook_runs_without_errors(path):
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        "commit notebooks without outputs"
    NotebookClient(notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs if o.output_type == "error"]
    assert not errors


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

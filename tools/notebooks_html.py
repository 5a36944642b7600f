"""The teaching notebooks, run and written out as HTML for people who only want to read them.

``make notebooks-html`` (or ``python tools/notebooks_html.py [NAME ...]``) runs each notebook of
``notebooks/`` from top to bottom in a fresh kernel, as ``make test`` does, and writes it with its
outputs to ``docs/notebooks/<name>.html``; the notebooks themselves stay stored without outputs.
Each page holds everything it shows: the boards and plots are Bokeh and Panel models, drawn by their
scripts, which the page carries (about 3 MB of the 4 MB of each page), so it opens with no internet
connection. The pages are not kept in git (each run would add megabytes of generated script).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "docs" / "notebooks"


def run(path: Path, timeout: int = 600, *, inline: bool = False):
    """The notebook at ``path`` with its outputs, run in a fresh kernel from its own folder (an error
    in a cell stops the run with that cell's error). ``inline``: Panel's ``pn.extension()`` puts
    Bokeh's and Panel's scripts into its output (``PANEL_INLINE``), so that a page made of it draws
    with no internet connection."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute(env={**os.environ, "PANEL_INLINE": "true" if inline else "false"})
    return notebook


#: JupyterLab's page without the scripts it fetches from the internet (require.js, MathJax and
#: Mermaid: the notebooks use none of them).
OFFLINE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""


def to_html(notebook) -> str:
    """A run notebook as one HTML page (JupyterLab's look, its code and outputs)."""
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab", extra_loaders=[DictLoader({"offline.html.j2": OFFLINE_TEMPLATE})],
                            template_file="offline.html.j2")
    html, _ = exporter.from_notebook_node(notebook)
    return html


def with_panel_files_inline(html: str) -> str:
    """``html`` with each script Panel would still fetch from its CDN (es-module-shims, which Panel's
    loader asks for even when its own scripts are inline) given as a ``data:`` address of Panel's
    installed copy: the page then asks nothing of the network."""
    import base64
    import re

    import panel

    dist = Path(panel.__file__).parent / "dist"

    def inline(match: re.Match[str]) -> str:
        local = dist / match.group(1).replace("%5E", "^")
        if not local.is_file():
            return match.group(0)
        return "data:text/javascript;base64," + base64.b64encode(local.read_bytes()).decode()

    return re.sub(r"https://cdn\.holoviz\.org/panel/[^/\"']+/dist/([^\"'\s]+\.js)", inline, html)


def render(path: Path, out: Path = OUT) -> Path:
    """Run the notebook at ``path`` and write it to ``out/<name>.html``; the page's path."""
    out.mkdir(parents=True, exist_ok=True)
    page = out / f"{path.stem}.html"
    page.write_text(with_panel_files_inline(to_html(run(path, inline=True))), encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks to render (default: all), e.g. subastral")
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder of the pages (default {OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    paths = [NOTEBOOKS / f"{name.removesuffix('.ipynb')}.ipynb" for name in args.names] or sorted(NOTEBOOKS.glob("*.ipynb"))
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    for path in paths:
        page = render(path, args.out)
        print(f"{path.relative_to(ROOT)} -> {page} ({page.stat().st_size / 1e6:.1f} MB)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

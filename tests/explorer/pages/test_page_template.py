"""Every page's template (explorer.web.shell.PageTemplate) is put into its document in one go."""

from __future__ import annotations

from bokeh.document import Document

from explorer.pages.app import create_app
from explorer.pages.rules_page import create_rules_page
from explorer.web.shell import PageTemplate


def test_a_page_is_indexed_once_and_its_document_holds_every_model_of_its_roots():
    for make in (create_app, create_rules_page):
        template = make()
        assert isinstance(template, PageTemplate)
        doc = Document()
        recomputed = []
        recompute = doc.models.recompute
        doc.models.recompute = lambda: (recomputed.append(1), recompute())[1]
        assert template.server_doc(doc) is doc
        assert len(recomputed) == 1                           # not once per root (a page has about twenty)
        assert len(doc.roots) >= 5                            # (the explorer has 22, the rules page 5)
        reachable = {model.id for root in doc.roots for model in root.references()}
        assert reachable == {model.id for model in doc.models}
        assert all(doc.get_model_by_id(model_id) is not None for model_id in reachable)


def test_every_route_s_page_makes_its_parts_with_the_pages_design(tmp_path, monkeypatch):
    """Each page calls use_page_design() before making its parts: every part of its template, and a
    part drawn later (a tab shown again), then look as the template draws them (docs/architecture.md,
    "Adding a page"). The factory each route's apps/<route>/main.py calls, in a served document; the
    setting is that session's only (a notebook, or the process outside a page, keeps Panel's own)."""
    import re
    from importlib import import_module
    from pathlib import Path

    import panel as pn
    from panel.io.state import set_curdoc
    from panel.viewable import Viewable

    from explorer.pages.serve import ROUTES, project_root
    from explorer.tables import hub
    from tests.helpers.served import FakeLoop, close_document, served_document

    monkeypatch.setenv("RULES_EXPLORER_TABLES_DB", str(tmp_path / "tables.sqlite"))
    monkeypatch.setenv("RULES_EXPLORER_CARDS_DIR", str(tmp_path / "cards"))
    monkeypatch.setattr(hub, "_HUBS", {})            # (the tables page's hub: this test's, closed at its end)
    try:
        for route in ROUTES:
            script = (Path(project_root()) / "apps" / route / "main.py").read_text()
            module, name = re.search(r"^from (explorer\.pages\.\w+) import (\w+)$", script, re.M).groups()
            document = served_document(FakeLoop())
            with set_curdoc(document):
                assert pn.config.design is None, route
                template = getattr(import_module(module), name)()
                assert pn.config.design is PageTemplate.design, route
                parts = [part for root in (*template.header, *template.sidebar, *template.main)
                         for part in root.select(Viewable)]
                plain = [type(part).__name__ for part in parts if not isinstance(part._design, PageTemplate.design)]
                assert parts and plain == [], (route, plain)
                assert isinstance(pn.pane.HTML("made later")._design, PageTemplate.design), route
            close_document(document)
        assert pn.config.design is None
    finally:
        for made in hub._HUBS.values():
            made.close()

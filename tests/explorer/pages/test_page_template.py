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

"""A page quotes an address value it could not use (a game, a card file's name) in a few words, cut to
120 characters and wrapping anywhere: ``/rules?game=`` with 20,000 letters was quoted whole on one line,
past the screen's edge (an outside tester), as were the card editor's and the tutorial's."""

from __future__ import annotations

import panel as pn
import pytest
from panel.io.state import set_curdoc

from tests.helpers.served import FakeLoop, close_document, served_document

LONG = "A" * 20_000


def served(make, address: dict[str, str]):
    document = served_document(FakeLoop(), address)
    with set_curdoc(document):
        template = make()
    return template, document


def alerts(template) -> list[pn.pane.Alert]:
    return [part for part in template.main if isinstance(part, pn.pane.Alert)]


def cut(said: str) -> None:
    assert LONG[:120] + "…" in said and LONG[:121] not in said and len(said) < 1_000, said[:300]


def make_rules():
    from explorer.pages.rules_page import create_rules_page
    return create_rules_page()


def make_tutorial():
    from explorer.pages.tutorial import create_tutorial_page
    return create_tutorial_page()


def make_explorer():
    from explorer.pages.app import create_app
    return create_app()


@pytest.mark.parametrize("make, address", [(make_rules, {"game": LONG}), (make_tutorial, {"game": LONG}),
                                           (make_tutorial, {"game": "subastral", "cards": LONG}),
                                           (make_explorer, {"game": LONG}), (make_explorer, {"cards": LONG})])
def test_a_long_address_value_is_quoted_cut_in_a_message_that_wraps(make, address):
    template, document = served(make, {**address, "lang": "en"})
    try:
        [alert] = alerts(template)
        cut(alert.object)
        assert alert.styles.get("overflow-wrap") == "anywhere"
    finally:
        close_document(document)


def test_the_card_editor_quotes_a_long_game_cut(tmp_path):
    from explorer.cardfiles import CardLibrary
    from explorer.pages.cards_page import create_page

    template, document = served(lambda: create_page(library=CardLibrary(tmp_path)), {"game": LONG, "lang": "en"})
    try:
        cut(template.editor.notice)
    finally:
        close_document(document)

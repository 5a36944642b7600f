"""The explorer's and the Analysis page's seed boxes reach the browser without Bokeh's "out of range
integer" warning (explorer/components/whole_number.py), with their own numbers, and the server still
takes every seed."""

from __future__ import annotations

import warnings

import pytest
from bokeh.core.serialization import Serializer
from bokeh.document import Document

from explorer.components.whole_number import WholeNumberInput
from explorer.core.session import GameSession
from explorer.pages.analysis import AnalysisPage
from explorer.pages.app import ExplorerApp
from rules.replay import SEED_LIMIT


def sent(model) -> list[str]:
    """The warnings Bokeh gives while sending ``model`` to a browser."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Serializer().encode(model)
    return [str(w.message) for w in caught]


def seed_box(page) -> WholeNumberInput:
    box = page.controls["seed"] if isinstance(page, ExplorerApp) else page.__panel__().select(WholeNumberInput)[0]
    assert isinstance(box, WholeNumberInput) and box.start == 1 - SEED_LIMIT
    return box


def test_a_box_bounded_as_seeds_is_sent_as_whole_numbers():
    box = WholeNumberInput.from_param(GameSession.param.seed)
    model = box.get_root(Document())
    assert sent(model) == []
    # The browser's box has the seeds' own bounds (it had -(2**53 - 2) for its lowest): the same numbers.
    assert (model.low, model.high) == (1 - SEED_LIMIT, SEED_LIMIT - 1)
    assert all(int(bound) == bound for bound in (model.low, model.high))
    # The widget and the parameter keep their bounds: the server takes a file's lowest seed.
    assert box.start == 1 - SEED_LIMIT
    session = GameSession(game="subastral", seed=1 - SEED_LIMIT)
    assert session.seed == 1 - SEED_LIMIT


def test_the_lowest_seed_is_sent_as_itself_without_a_warning():
    # (An outside tester opened the explorer at seed=-9007199254740991: Bokeh warned at every page.)
    box = WholeNumberInput.from_param(GameSession.param.seed, value=1 - SEED_LIMIT)
    model = box.get_root(Document())
    assert sent(model) == [] and model.value == 1 - SEED_LIMIT and box.value == 1 - SEED_LIMIT
    box.value = 5
    assert model.value == 5 and type(model.value) is int
    box.value = 1 - SEED_LIMIT
    assert sent(model) == [] and model.value == 1 - SEED_LIMIT


def test_a_plain_box_would_warn():
    # (What the box mends: if Bokeh's test ever takes -(2**53 - 1), this fails and the box can go.)
    import panel as pn
    model = pn.widgets.IntInput.from_param(GameSession.param.seed).get_root(Document())
    assert any("out of range integer" in message for message in sent(model))


@pytest.mark.parametrize("make", [ExplorerApp, AnalysisPage], ids=["explorer", "analysis"])
def test_the_pages_seed_boxes_are_sent_without_a_warning(make):
    model = seed_box(make()).get_root(Document())
    assert sent(model) == []

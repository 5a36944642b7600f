"""A served page's log cannot be filled by a visitor (explorer/pages/serve.py, ``cap_log_records``).

Panel refuses a value forged from the browser's console that is not one of a widget's options, and logs
the refusal with its traceback, each holding the whole value: 8 selects given 200,000 characters each
grew the server's log by 1.67 MB (measured on `make serve`; 98 KB once cut)."""

from __future__ import annotations

import io
import logging

from explorer.pages.serve import LOG_RECORD_LIMIT, CappedRecords, cap_log_records


def refusal(value: str) -> None:
    raise ValueError(f"{value} not in list")


def test_every_handler_of_the_server_writes_records_cut_to_their_limit():
    root_out, own_out = io.StringIO(), io.StringIO()
    root_handler, own_handler = logging.StreamHandler(root_out), logging.StreamHandler(own_out)
    own = logging.getLogger("tests.serve_log.own")           # (a logger with its handler, as Panel's)
    own.propagate = False
    logging.getLogger().addHandler(root_handler)
    own.addHandler(own_handler)
    try:
        cap_log_records()
        cap_log_records()                  # (once per handler however often it is called)
        assert sum(isinstance(f, CappedRecords) for f in own_handler.filters) == 1
        forged = "x" * 200_000
        for logger in (logging.getLogger("tests.serve_log.child"), own):
            try:
                refusal(forged)
            except ValueError:
                logger.exception("Callback failed for object named %r: %s", "Player 1", forged)
            logger.error("short and whole: %s", "Player 2")
    finally:
        logging.getLogger().removeHandler(root_handler)
        own.removeHandler(own_handler)
    for written in (root_out.getvalue(), own_out.getvalue()):
        assert len(written) < 3 * LOG_RECORD_LIMIT, len(written)
        assert written.count("characters cut") == 2            # the message and the traceback
        assert "Callback failed for object named 'Player 1'" in written and "ValueError: xxx" in written
        assert "in refusal" in written                          # (the traceback's beginning is kept)
        assert "short and whole: Player 2\n" in written


def test_a_record_within_the_limit_is_left_as_it_is():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "%s and %s", ("a", "b"), None)
    assert CappedRecords(10).filter(record) and record.getMessage() == "a and b"


def test_a_flood_of_errors_writes_a_burst_a_window_and_says_how_many_were_left_out():
    """One page sending refused values in a loop (4 MB of log in 20 s, an outside tester measured):
    at most ``burst`` warnings and errors a window; the next one let through says how many were not."""
    now = [0.0]
    capped = CappedRecords(burst=3, window=60.0, clock=lambda: now[0])

    def record(level=logging.ERROR, message="refused %s"):
        return logging.LogRecord("panel", level, __file__, 1, message, ("x",), None)

    assert [capped.filter(record()) for _ in range(10)] == [True] * 3 + [False] * 7
    assert capped.filter(record(logging.INFO, "200 GET /explorer %s"))       # (the access log is not held back)
    now[0] = 61.0
    first = record()
    assert capped.filter(first) and first.getMessage() == "[7 warnings and errors left out before this one] refused x"
    second = record()
    assert capped.filter(second) and second.getMessage() == "refused x"


def served_log(logger_names=("panel", "tornado.application")):
    """Handlers as a served page's (``cap_log_records``) on Panel's and the server loop's loggers, and
    what they write."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(CappedRecords())
    handler.setLevel(logging.INFO)          # (as served: Panel's debug lines of each event are not written)
    return out, handler, [logging.getLogger(name) for name in logger_names]


def test_a_forged_value_panel_refuses_is_one_warning_without_a_traceback_written_once():
    """A value forged from the console for a widget (a menu's value not among its options, a number past
    its bounds, a button group's index past its buttons) is refused by Panel before any of our code runs,
    and was logged twice with its traceback, the value in it (an outside tester: 16 tracebacks, one line
    of 3,436 characters of the forger's text). Now one warning naming the widget and the error, cut."""
    import panel as pn
    import param

    class Settings(param.Parameterized):
        games = param.Integer(10, bounds=(1, 100))

    out, handler, loggers = served_log()
    for logger in loggers:
        logger.addHandler(handler)
    # (a number's widget made from a bounded parameter, as the Analysis page's: a plain IntInput takes any
    # number, and the code that reads it checks it)
    widgets = [(pn.widgets.Select(label="Card file", options=["standard", "big lion"]), {"value": "../../etc/passwd" + "x" * 5000}),
               (pn.widgets.IntInput.from_param(Settings().param.games, label="Games"), {"value": 10 ** 9}),
               (pn.widgets.RadioButtonGroup(label="Act for", options=["Player 1"]), {"active": 1})]
    try:
        for widget, forged in widgets:
            before = widget.value
            try:
                widget._process_events(forged)
            except Exception as error:      # (Panel logs it, then raises it to the server's loop, which logs it)
                logging.getLogger("tornado.application").error("Exception in callback", exc_info=error)
            else:
                raise AssertionError(f"{widget.name} took {forged}")
            assert widget.value == before
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and "Traceback" not in out.getvalue(), out.getvalue()
    assert lines[0].startswith("WARNING panel.reactive: a page sent a value the widget 'Card file' cannot take: "
                               "refused, nothing changed (ValueError: ../../etc/passwd")
    assert len(lines[0]) < 400 and "characters cut" in lines[0]
    assert "the widget 'Games' cannot take" in lines[1] and "the widget 'Act for' cannot take" in lines[2]
    assert "IndexError" in lines[2]


def test_a_forged_value_bokeh_refuses_is_one_warning_without_a_traceback():
    """A value forged for a plain Bokeh model's property (the explorer's step slider set to null from the
    console) is refused by Bokeh as it applies the page's patch, before Panel or our code see it, and was
    logged with Bokeh's traceback of some 30 lines and the whole message (an outside tester: six of them
    in a row). Now one warning naming the model and its property; nothing changed."""
    import asyncio
    import threading

    from bokeh.document import Document
    from bokeh.document.events import ModelChangedEvent
    from bokeh.models import Slider
    from bokeh.protocol import Protocol
    from bokeh.server.session import ServerSession

    document = Document()
    slider = Slider(start=1, end=10, value=3, title="Step")
    document.add_root(slider)
    out, handler, loggers = served_log(("bokeh",))
    loggers[0].addHandler(handler)

    async def forge(value) -> None:
        message = Protocol().create("PATCH-DOC", [ModelChangedEvent(document, slider, "value", value)])
        try:
            await ServerSession("forged", document)._handle_patch(message, object())
        except Exception as error:      # (logged as Bokeh's protocol handler logs it)
            logging.getLogger("bokeh.server.protocol_handler").error(
                "error handling message\n message: %r \n error: %r", message, error, exc_info=True)

    try:
        for value in (None, "x" * 5000):
            # (in a thread of its own: a test before may have left this thread's loop running)
            forging = threading.Thread(target=asyncio.run, args=(forge(value),))
            forging.start()
            forging.join()
    finally:
        loggers[0].removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "Traceback" not in out.getvalue(), out.getvalue()
    assert lines[0].startswith(f"WARNING bokeh.server.protocol_handler: a page sent a value the Slider {slider.id}'s "
                               "value cannot take: refused, nothing changed (ValueError: failed to validate")
    assert len(lines[1]) < 400 and slider.value == 3


def test_an_error_in_our_own_callback_keeps_its_traceback():
    """Our code's own failure on a value (a watcher of ours raising) is no refused value: its traceback is
    written whole, as before."""
    import panel as pn

    from explorer.core.i18n import text

    out, handler, loggers = served_log(("panel",))
    loggers[0].addHandler(handler)
    select = pn.widgets.Select(label="Game", options=["subastral", "stellar"])
    select.param.watch(lambda event: text(f"no.such.key.{event.new}", "en"), "value")
    try:
        try:
            select._process_events({"value": "stellar"})
        except Exception:
            pass
    finally:
        loggers[0].removeHandler(handler)
    written = out.getvalue()
    assert "ERROR panel.reactive: Callback failed for object named 'Game'" in written
    assert "Traceback" in written and "explorer/core/i18n.py" in written


def test_a_model_definition_a_page_echoes_back_is_taken_as_the_servers_model_without_a_warning():
    """BokehJS sends the whole definition of a model the server just sent when the page's next message is
    about it (a click on "Let bots play" when the Table tab is drawn afresh, on a "Play as" button just
    made): Bokeh's deserializer takes the server's own model, and ``quiet_echoed_models`` (installed by
    ``serve_setup.py``) keeps its "reference already known" warning, written to stderr past the log's
    caps at every such click, out of the server's output. Other Bokeh warnings still show."""
    import warnings

    from bokeh.core.serialization import Deserializer
    from bokeh.models import Button
    from bokeh.util.warnings import BokehUserWarning, warn

    from explorer.pages.serve import quiet_echoed_models

    button = Button(label="Let bots play")
    echoed = {"type": "object", "name": "Button", "id": button.id, "attributes": {"label": "changed in the page"}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Deserializer([button]).decode(echoed) is button
        quiet_echoed_models()
        assert Deserializer([button]).decode(echoed) is button and button.label == "Let bots play"
        warn("another warning", BokehUserWarning)
    assert [str(w.message) for w in caught] == [f"reference already known '{button.id}'", "another warning"]

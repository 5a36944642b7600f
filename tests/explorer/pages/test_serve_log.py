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

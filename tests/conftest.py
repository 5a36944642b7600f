"""Shared pytest setup: headless Chromium (Debian package) for pytest-playwright, and Panel servers.

* Browser tests use pytest-playwright's ``page``/``browser``/``context`` fixtures, driven against
  Debian's ``chromium`` (never ``playwright install``: browser downloads are blocked here).
  Mark them ``@pytest.mark.browser`` (tests using those fixtures get the marker automatically).
  Without chromium or playwright they are skipped -- unless ``REQUIRE_BROWSER=1`` (``make test``,
  CI), where that is a usage error, so CI can never go green by skipping them.
* ``serve_app(factory)`` serves a Panel app in-process (threaded, free port, ~0.1 s) and returns
  its URL; the server is stopped at teardown.
* ``panel_cli_server`` runs the real ``python -m panel serve apps/explorer`` once per session.

Panel is imported only inside fixtures so that plain ``rules`` tests don't pay for it.
"""
from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.helpers.chromium import OutsideRequests, disabled_features_switch
from tests.helpers.processes import free_port, wait_for_http

ROOT = Path(__file__).resolve().parent.parent
EXPLORER_APP = ROOT / "apps" / "explorer"


def _find_chromium() -> str:
    env = os.environ.get("CHROMIUM_PATH")
    if env:
        return env
    for candidate in (shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return "/usr/bin/chromium"


CHROMIUM = _find_chromium()
# `--headless` is added only for headless launches (see browser_type_launch_args).
CHROMIUM_ARGS = [
    "--no-sandbox",                      # we run as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",   # no traffic beyond loopback
    "--disable-component-update",
    "--disable-sync",
]
# Tests requesting any of these fixtures need a real browser.
BROWSER_FIXTURES = {"page", "context", "browser", "new_context"}


def _have_browser() -> tuple[bool, str]:
    if importlib.util.find_spec("playwright") is None:
        return False, "playwright is not installed (pip install -e '.[test]')"
    if importlib.util.find_spec("pytest_playwright") is None:
        return False, "pytest-playwright is not installed (pip install -e '.[test]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return False, f"no chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)"
    return True, ""


def _require_browser() -> bool:
    return os.environ.get("REQUIRE_BROWSER", "").strip().lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis: no per-example deadline on CI's 2 slow cores; print the reproduction blob.
    try:
        from hypothesis import settings
    except ImportError:
        return
    settings.register_profile("ci", deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None)
    in_ci = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci else "dev"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.nodeid.split("[", 1)[0] not in LONGEST)     # (a stable sort)
    browser_items = []
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") is not None:
            browser_items.append(item)
    if not browser_items:
        return
    ok, why = _have_browser()
    if ok:
        return
    if _require_browser():
        raise pytest.UsageError(f"REQUIRE_BROWSER=1 but browser tests cannot run: {why}")
    skip = pytest.mark.skip(reason=f"browser test skipped: {why}")
    for item in browser_items:
        item.add_marker(skip)


#: ``make test`` runs ``pytest -n N --dist loadfile``: a worker runs a module's tests together (they
#: share its module-scoped servers and browser pages), with two refinements (pytest_xdist_make_scheduler):
#: these tests run alone, first (each longer than most modules) ...
LONGEST = ("tests/browser/test_browser_tables.py::test_four_seats_play_a_whole_subastral_game_and_no_page_holds_another_hand",)
#: ... and these modules' tests (seeded games, no shared state) are handed out one by one.
SPREAD_OVER_WORKERS = ("tests/rules/test_conformance.py",)


def work_unit(nodeid: str) -> str:
    """The unit of work a pytest-xdist worker takes for ``--dist loadfile``: the test's module, or the
    test itself (LONGEST, SPREAD_OVER_WORKERS)."""
    module = nodeid.split("::", 1)[0]
    if module in SPREAD_OVER_WORKERS or nodeid.split("[", 1)[0] in LONGEST:
        return nodeid
    return module


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ModuleScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False      # in collection order: the LONGEST first (below)
    return ModuleScheduling(config, log)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name, playwright):
    """pytest-playwright hook: launch Debian's chromium instead of a Playwright-downloaded one, with
    DISABLED_FEATURES off too."""
    if browser_name not in (None, "chromium"):
        return browser_type_launch_args
    args = list(CHROMIUM_ARGS)
    if browser_type_launch_args.get("headless", True):
        args.insert(0, "--headless")
    extra = [a for a in browser_type_launch_args.get("args", []) if a not in args]
    launch = {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args + extra}
    launch["args"].append(disabled_features_switch(playwright, launch))
    return launch


@pytest.fixture(autouse=True)
def _no_request_leaves_the_machine(request):
    """A test's ``page`` sends no request to another server than this machine's (OutsideRequests);
    the table tests' own browser contexts are checked by ``SeatPage.close``."""
    if "page" not in request.fixturenames:
        yield
        return
    outside = OutsideRequests(request.getfixturevalue("context"))
    yield
    outside.check()


# --------------------------------------------------------------------------- helpers


def _stop_panel_server(server_id: str, timeout: float = 10.0) -> None:
    """Stop the one threaded Panel server ``server_id`` (other servers keep running)."""
    from panel.io.state import state

    thread = state._threads.pop(server_id, None)
    entry = state._servers.get(server_id)
    if thread is not None:
        try:
            thread.stop()          # schedules the IOLoop shutdown; run() then stops the bokeh server
        except RuntimeError:
            pass                   # already stopping
        thread.join(timeout)
    elif entry is not None:
        with contextlib.suppress(AssertionError):   # bokeh refuses to stop twice
            entry[0].stop()
    state._servers.pop(server_id, None)
    if entry is not None:
        state._server_config.pop(getattr(entry[0], "_tornado", None), None)


# --------------------------------------------------------------------------- Panel servers


#: Where a served page's errors are logged and nowhere else: Tornado's loop ("Exception in callback":
#: a page's update run with ``pn.state.execute`` that raised), Bokeh's server and Panel.
SERVER_LOGGERS = ("tornado.application", "tornado.general", "bokeh", "panel")


class _LoggedErrors(logging.Handler):
    """Every record of ERROR or worse logged while a test's servers run."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not self.closing(record):
            self.records.append(record)

    @staticmethod
    def closing(record: logging.LogRecord) -> bool:
        """A page's connection closed while the server wrote to it (a test's browser page closed at its
        end): no update of a page that is still there was lost."""
        import asyncio

        from tornado.iostream import StreamClosedError
        from tornado.websocket import WebSocketClosedError

        error = record.exc_info[1] if record.exc_info else None
        return isinstance(error, (asyncio.CancelledError, StreamClosedError, WebSocketClosedError))


@pytest.fixture
def serve_app(request):
    """Serve Panel apps in-process; ``url = serve_app(factory)``.

    ``factory`` is anything ``pn.serve`` accepts for one route: a function returning a Panel
    object (called once per browser session -- preferred), a Panel object, or a template.
    Options: ``path`` (route, default ``"app"``), ``timeout`` (start-up seconds), and any other
    keyword is passed to ``pn.serve`` (e.g. ``liveness=True``).  Returns
    ``http://127.0.0.1:<port>/<path>``.  Every server started this way is stopped at teardown.
    """
    import panel as pn
    from panel.io.state import state

    started: list[str] = []

    def _serve(factory, *, path: str = "app", timeout: float = 30.0, **kwargs) -> str:
        server_id = uuid.uuid4().hex
        opts = dict(port=0, address="127.0.0.1", threaded=True, show=False, verbose=False,
                    server_id=server_id)
        opts.update(kwargs)
        thread = pn.serve({path: factory}, **opts)
        started.append(server_id)
        deadline = time.monotonic() + timeout
        while server_id not in state._servers:
            if not thread.is_alive():
                raise RuntimeError("Panel server thread died during start-up (see captured log)")
            if time.monotonic() > deadline:
                raise TimeoutError(f"Panel server did not start within {timeout:.0f}s")
            time.sleep(0.02)
        port = state._servers[server_id][0].port
        # The socket is bound before the id is registered; make sure it accepts connections.
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"Panel server on port {port} does not accept connections")
                time.sleep(0.02)
        return f"http://127.0.0.1:{port}/{path.strip('/')}"

    # An error on the server's loop is only logged there, and the page's update it was part of never
    # reaches the browser: a test would wait for it and time out, or pass without seeing it. Any such
    # error fails the test, with its traceback (a test that provokes one on purpose names it by a
    # pattern its log lines match: ``@pytest.mark.server_errors("not in list")``).
    errors = _LoggedErrors()
    for name in SERVER_LOGGERS:
        logging.getLogger(name).addHandler(errors)
    try:
        yield _serve
    finally:
        for server_id in reversed(started):
            _stop_panel_server(server_id)
        for name in SERVER_LOGGERS:
            logging.getLogger(name).removeHandler(errors)
    formatter = logging.Formatter("%(name)s: %(message)s")
    marker = request.node.get_closest_marker("server_errors")
    expected = [re.compile(pattern) for pattern in (marker.args if marker else ())]
    unexpected = [said for said in map(formatter.format, errors.records)
                  if not any(pattern.search(said) for pattern in expected)]
    if unexpected:
        pytest.fail("the server logged errors while the test ran (each stops the page update it was part of):\n"
                    + "\n".join(unexpected[:5]), pytrace=False)


@pytest.fixture(scope="session")
def panel_cli_server():
    """The real CLI path: ``python -m panel serve apps/explorer`` in its own process group.

    Yields the app URL (``http://127.0.0.1:<port>/explorer``).  The whole process group is
    killed at teardown (so ``--num-procs`` workers, if ever used, die too).
    """
    if not EXPLORER_APP.exists():
        pytest.fail(f"{EXPLORER_APP.relative_to(ROOT)} does not exist")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile(prefix="panel-serve-", suffix=".log", delete=False)
    cmd = [
        sys.executable, "-m", "panel", "serve", str(EXPLORER_APP),
        "--address", "127.0.0.1", "--port", str(port),
        f"--allow-websocket-origin=127.0.0.1:{port}", f"--allow-websocket-origin=localhost:{port}",
        "--liveness",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        try:
            wait_for_http(f"{base}/liveness", timeout=90, proc=proc)
        except (TimeoutError, RuntimeError) as exc:
            log.flush()
            tail = Path(log.name).read_text(errors="replace")[-4000:]
            pytest.fail(f"`panel serve` did not come up: {exc}\n--- server log ---\n{tail}")
        yield f"{base}/{EXPLORER_APP.stem}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)   # stragglers (e.g. forked workers) in the group
        log.close()
        with contextlib.suppress(OSError):
            os.unlink(log.name)

"""Playtest-table benchmarks: ``make bench-tables`` (or ``python benchmarks/tables.py``).

1. **Many seats**: ``--tables`` tables (default 10) x 4 seats, one real Chromium page per seat (40
   browser sessions) on one ``panel serve`` process. Moves are clicked in the movers' pages, table
   after table. Each page records (in the page) when each step first shows in its board: the time a
   Bokeh model change carrying "Step k / k" arrives, to the next animation frame after it (drawn).
   Latency of a move = the last of its table's four pages to show it, minus the time of the click
   on Confirm (both read from the same clock). Reported: p50/p95/max, errors (page errors and
   server log errors), and the server's memory per session: its resident size with all pages open
   minus with one page open, over the other pages. Also each page's main thread per move (Chromium's
   own counters, CDP ``Performance.getMetrics``, summed over the pages and divided by the pages'
   moves): all its work, and the parts in scripts, style recalculations and layout; ``--plots``
   against none shows what following the plots costs a browser. And the CPU a move costs, by
   process: Chromium's renderers, its other processes, the server and Playwright's driver (their
   user and system time, read with psutil): the main thread's counters are wall time, which grows
   when pages wait for a busy CPU; these add up to what the machine did.
2. **Crash loop**: ``--restarts`` times (default 100): start the server, open one seat's page of a
   table where the other seats are bots, check that every move acknowledged so far (shown by a
   page before the crash) is in the database and shown again, click a move, and SIGKILL the server
   at a random moment (0-400 ms after the click, so some kills land while a move or a bot's move is
   being taken). Reported: acknowledged moves, moves lost (target: 0), restarts.

Targets (issue "Playtest tables"): p95 <= 300 ms, no errors, <= 30 MB per session; zero
acknowledged moves lost over 100 SIGKILL restarts. A table page makes its score and card plots
when their card is first opened; ``--plots`` opens them in every page (for information).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.table_seats import choose_and_confirm  # noqa: E402
from tests.helpers.tables_server import PAGE_JS, TablesServer  # noqa: E402

TARGET_P95_MS = 300
TARGET_MB_PER_SESSION = 30

#: Chromium's counters of a page's main thread (cumulative; durations in seconds).
MAIN_THREAD = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "RecalcStyleCount", "LayoutDuration")


def main_thread(session) -> dict[str, float]:
    """The page's :data:`MAIN_THREAD` counters now (``session``: its CDP session, Performance enabled)."""
    return {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"] if m["name"] in MAIN_THREAD}


def per_page_move(before: list[dict], after: list[dict], page_moves: int) -> dict[str, float]:
    """The counters' growth summed over the pages, per page and move (``page_moves``: each page's moves
    seen, added up): durations in ms, counts as they are."""
    total = {name: sum(a[name] - b[name] for b, a in zip(before, after)) for name in MAIN_THREAD}
    return {name: value / page_moves * (1 if name.endswith("Count") else 1000) for name, value in total.items()}


#: The processes a many-seats run uses, by kind, told apart by their command lines (the first kind
#: whose mark is in it): Chromium's page renderers, its other processes (browser, GPU, network,
#: storage), the ``panel serve`` process and Playwright's driver.
PROCESS_KINDS = (("renderers", "--type=renderer"), ("chromium", "chromium"), ("server", "panel serve"),
                 ("playwright", "playwright/driver"))


def kind_of(command: str) -> str | None:
    """The :data:`PROCESS_KINDS` kind of a process with this command line; None for another."""
    return next((kind for kind, mark in PROCESS_KINDS if mark in command), None)


def cpu_by_kind() -> dict[str, float]:
    """CPU seconds (user and system) used so far by this process's descendants (the server, the
    browser, Playwright's driver), summed by :data:`PROCESS_KINDS`: the whole machine's work for the
    pages, however it is shared out, where Chromium's own counters give one page's main thread."""
    import psutil        # (installed with dask[distributed], the test extra that make bench-tables installs)

    totals = {kind: 0.0 for kind, _ in PROCESS_KINDS}
    for process in psutil.Process().children(recursive=True):
        try:
            kind = kind_of(" ".join(process.cmdline()))
            if kind is not None:
                times = process.cpu_times()
                totals[kind] += times.user + times.system
        except psutil.Error:        # (a process that ended meanwhile)
            continue
    return totals


def cpu_per_move(before: dict[str, float], after: dict[str, float], moves: int) -> dict[str, float]:
    """Each kind's CPU per move in ms (all the pages at the move's table, and the server), and their ``total``."""
    figures = {kind: (after[kind] - before[kind]) / moves * 1000 for kind in before}
    return {**figures, "total": sum(figures.values())}


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def read_moves(db: Path, table_id: str) -> list[tuple[int, dict]]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return [(seat, json.loads(action)) for seat, action in
                connection.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY step", (table_id,))]
    finally:
        connection.close()


def make_tables(db: Path, count: int, game: str, players: int, controllers=None, seed: int = 100):
    """Tables created in the database before the server starts (it restores them): (table, tokens)."""
    from explorer.tables.hub import TableHub

    hub = TableHub(db, bot_delay=3600)         # this process's bots never move
    made = [hub.create(game, players, seed=seed + i, controllers=controllers) for i in range(count)]
    hub.close()
    return made


class Follower:
    """A table's game replayed from the database, to know whose move it is."""

    def __init__(self, db: Path, table):
        from rules.registry import get_game

        self.db, self.id = db, table.id
        self.spec = get_game(table.record.game)
        self.state = self.spec.new_game(table.record.players, table.record.seed, table.record.variants)
        self.step = 0

    def catch_up(self, at_least: int = 0, timeout: float = 30.0) -> int:
        """Replay the moves the database holds; first wait (reading it every 20 ms) until it holds
        ``at_least``: a move clicked a moment ago may not be written yet, and the state before it
        would name the last mover again, whose page still shows the buttons of the move just made."""
        deadline = time.monotonic() + timeout
        moves = read_moves(self.db, self.id)
        while len(moves) < at_least:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {self.id}: {len(moves)} moves in the database after {timeout:.0f} s, "
                                   f"{at_least} clicked")
            time.sleep(0.02)
            moves = read_moves(self.db, self.id)
        for seat, data in moves[self.step:]:
            self.state = self.spec.apply(self.state, seat, self.spec.decode_action(data))
        self.step = len(moves)
        return self.step


def launch(playwright):
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    return playwright.chromium.launch(executable_path=chromium, args=[
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows"])


def open_page(browser, url: str, errors: list):
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    context.add_init_script(PAGE_JS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(".table-status", state="visible", timeout=60_000)
    return page


def wait_seen(page, step: int, timeout: float = 30.0) -> None:
    """Until the page has shown step ``step`` or a later one."""
    deadline = time.monotonic() + timeout
    while True:
        # (at least: bots may move on at once, and a page shows only the latest of quick moves)
        seen = page.evaluate("(step) => Object.entries(window.__seen).some(([k, t]) => Number(k) >= step && t > 0)", step)
        if seen:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"step {step} not shown after {timeout:.0f}s")
        page.wait_for_timeout(20)


# ---------------------------------------------------------------------------------------------
def many_seats(tables: int, moves: int, workdir: Path, plots: bool = False) -> dict:
    from playwright.sync_api import sync_playwright

    db = workdir / "many.sqlite3"
    made = make_tables(db, tables, "subastral", 4)
    server = TablesServer(db).start()
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            links = [[f"{server.base}/tables?table={t.id}&seat={tokens[s]}" for s in range(4)] for t, tokens in made]
            pages = [[None] * 4 for _ in made]
            pages[0][0] = open_page(browser, links[0][0], errors)
            time.sleep(1.0)
            one = rss_mb(server.proc.pid)
            t = time.perf_counter()
            for i in range(len(made)):
                for s in range(4):
                    if pages[i][s] is None:
                        pages[i][s] = open_page(browser, links[i][s], errors)
            opened_s = time.perf_counter() - t
            if plots:                                     # every page follows the score and card plots too
                for row in pages:
                    for page in row:
                        page.get_by_text("Score curves and cards").first.click()
                        page.locator(".plot-scores").first.wait_for(state="visible", timeout=60_000)
            time.sleep(1.0)
            cdp = [page.context.new_cdp_session(page) for row in pages for page in row]
            for session in cdp:
                session.send("Performance.enable")
            before = [main_thread(session) for session in cdp]
            cpu_before = cpu_by_kind()
            followers = [Follower(db, table) for table, _ in made]
            rng = random.Random(7)
            clicks: dict[tuple[int, int], int] = {}       # (table, step) -> index of the click in the mover's page
            movers: dict[tuple[int, int], int] = {}
            clicked = [0] * len(followers)                # per table: the step of its last move clicked
            start = time.perf_counter()
            for _ in range(moves):
                for i, follower in enumerate(followers):
                    step = follower.catch_up(at_least=clicked[i])
                    if follower.spec.is_over(follower.state):
                        continue
                    seat = follower.spec.to_move(follower.state)[0]
                    page = pages[i][seat]
                    wait_seen(page, step)                 # the mover's page shows where the table is
                    choose_and_confirm(page, rng)
                    movers[(i, step + 1)] = seat
                    clicked[i] = step + 1
                    clicks[(i, step + 1)] = page.evaluate("window.__confirmed.length") - 1
            for i, last in enumerate(clicked):            # every page shows the last move
                for page in pages[i]:
                    wait_seen(page, last)
            elapsed = time.perf_counter() - start
            after = [main_thread(session) for session in cdp]
            cpu_after = cpu_by_kind()
            page_moves = 4 * len(movers)                   # every move shows in its table's four pages
            all_open = rss_mb(server.proc.pid)
            seen = [[page.evaluate("window.__seen") for page in row] for row in pages]
            confirmed = [[page.evaluate("window.__confirmed") for page in row] for row in pages]
            latencies = []
            for (i, step), seat in movers.items():
                clicked = confirmed[i][seat][clicks[(i, step)]]
                shown = [seen[i][s].get(str(step)) for s in range(4)]
                latencies.append(max(shown) - clicked)
            browser.close()
    finally:
        server_errors = server.errors()
        server.stop()
    sessions = tables * 4
    return {"tables": tables, "sessions": sessions, "moves": len(latencies), "moves_per_s": len(latencies) / elapsed,
            "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "max": max(latencies)},
            "errors": errors + server_errors, "open_all_pages_s": opened_s,
            "server_rss_mb": {"one_page": one, "all_pages": all_open},
            "mb_per_session": (all_open - one) / (sessions - 1),
            "main_thread_per_page_move": per_page_move(before, after, page_moves),
            "cpu_per_move_ms": cpu_per_move(cpu_before, cpu_after, len(movers))}


# ---------------------------------------------------------------------------------------------
def crash_loop(restarts: int, workdir: Path, seed: int = 11) -> dict:
    from playwright.sync_api import sync_playwright

    db = workdir / "crash.sqlite3"
    (table, tokens), = make_tables(db, 1, "subastral", 4, controllers=["human", "greedy", "greedy", "greedy"], seed=seed)
    link_of = lambda t, tok: f"{server.base}/tables?table={t.id}&seat={tok}"  # noqa: E731
    server = TablesServer(db, bot_delay=0.05)
    rng = random.Random(seed)
    acknowledged: list = []            # the moves some page showed before a crash, in order
    lost = games = 0
    errors: list[str] = []
    kills_mid_move = 0
    start = time.perf_counter()
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for restart in range(restarts):
                server.start()
                follower = Follower(db, table)
                stored = read_moves(db, table.id)
                if [json.dumps(a, sort_keys=True) for a in stored[:len(acknowledged)]] != \
                        [json.dumps(a, sort_keys=True) for a in acknowledged]:
                    lost += sum(1 for a, b in zip(acknowledged, stored) if a != b) + max(0, len(acknowledged) - len(stored))
                page = open_page(browser, link_of(table, tokens[0]), errors)
                step = follower.catch_up()
                try:
                    wait_seen(page, step)               # the restored table shows everything stored
                except TimeoutError:
                    page.screenshot(path=str(workdir.parent / "crash-loop-failure.png"), full_page=True)
                    raise TimeoutError(f"after restart {restart}, the page does not show step {step} "
                                       f"(it shows {page.evaluate('window.__seen')}); server log:\n"
                                       + server.log_text()[-4000:]) from None
                if follower.spec.is_over(follower.state):   # a finished game: the next one, same seats
                    page.context.close()
                    server.kill(signal.SIGTERM)
                    from explorer.tables.hub import TableHub
                    hub = TableHub(db, bot_delay=3600)
                    table = hub.rematch(table.id)
                    hub.close()
                    acknowledged, games = [], games + 1
                    continue
                # Wait for the bots, then click a move and kill the server a moment later.
                deadline = time.monotonic() + 30
                while 0 not in follower.spec.to_move(follower.state) and time.monotonic() < deadline:
                    page.wait_for_timeout(20)
                    follower.catch_up()
                wait_seen(page, follower.step)
                choose_and_confirm(page, rng)
                page.wait_for_timeout(rng.randrange(400))
                shown = [int(k) for k, v in page.evaluate("window.__seen").items() if v > 0]
                server.kill(signal.SIGKILL)
                kills_mid_move += 1
                acked_steps = max(shown, default=0)
                acknowledged = read_moves(db, table.id)[:acked_steps]
                if len(acknowledged) < acked_steps:     # a move shown but not in the file: lost
                    lost += acked_steps - len(acknowledged)
                page.context.close()
        finally:
            browser.close()
            server.stop()
    return {"restarts": restarts, "acknowledged_moves_last_game": len(acknowledged), "games_finished": games,
            "moves_lost": lost, "page_errors": errors, "seconds": time.perf_counter() - start}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=12, help="moves per table in the many-seats run")
    parser.add_argument("--restarts", type=int, default=100)
    parser.add_argument("--plots", action="store_true",
                        help="also open every page's score and card plots (made on demand; closed by default)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    out = {}
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as folder:
        workdir = Path(folder)
        if args.tables:
            many = out["many_seats"] = many_seats(args.tables, args.moves, workdir, plots=args.plots)
            lat = many["latency_ms"]
            print(f"{many['tables']} tables x 4 seats = {many['sessions']} browser sessions, one server process"
                  + (", every page's plots open" if args.plots else "") + "; "
                  f"{many['moves']} moves clicked ({many['moves_per_s']:.1f}/s)")
            print(f"  move -> every seat's page updated: p50 {lat['p50']:.0f} ms, p95 {lat['p95']:.0f} ms, "
                  f"max {lat['max']:.0f} ms  (target p95 <= {TARGET_P95_MS} ms: "
                  f"{'met' if lat['p95'] <= TARGET_P95_MS else 'MISSED'})")
            print(f"  errors: {len(many['errors'])}" + (f" ({many['errors'][:3]})" if many["errors"] else " (target: none: met)"))
            work = many["main_thread_per_page_move"]
            print(f"  each page's main thread per move: {work['TaskDuration']:.0f} ms (script {work['ScriptDuration']:.0f} ms, "
                  f"style {work['RecalcStyleDuration']:.0f} ms in {work['RecalcStyleCount']:.0f} recalculations, "
                  f"layout {work['LayoutDuration']:.0f} ms)")
            cpu = many["cpu_per_move_ms"]
            print(f"  CPU per move, its table's four pages and the server: {cpu['total']:.0f} ms (Chromium's renderers "
                  f"{cpu['renderers']:.0f} ms, its other processes {cpu['chromium']:.0f} ms, the server {cpu['server']:.0f} ms, "
                  f"Playwright's driver {cpu['playwright']:.0f} ms)")
            rss = many["server_rss_mb"]
            print(f"  server memory: {rss['one_page']:.0f} MB with one page, {rss['all_pages']:.0f} MB with "
                  f"{many['sessions']}: {many['mb_per_session']:.1f} MB per session (target <= {TARGET_MB_PER_SESSION} MB: "
                  f"{'met' if many['mb_per_session'] <= TARGET_MB_PER_SESSION else 'MISSED'})")
        if args.restarts:
            crash = out["crash_loop"] = crash_loop(args.restarts, workdir)
            print(f"{crash['restarts']} SIGKILL restarts, each 0-400 ms after a clicked move "
                  f"({crash['games_finished']} games finished, then rematched): {crash['moves_lost']} acknowledged "
                  f"moves lost (target 0: {'met' if crash['moves_lost'] == 0 else 'MISSED'}); "
                  f"page errors: {len(crash['page_errors'])}; {crash['seconds']:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    ok = True
    if "many_seats" in out:
        many = out["many_seats"]
        ok &= many["latency_ms"]["p95"] <= TARGET_P95_MS and not many["errors"] and many["mb_per_session"] <= TARGET_MB_PER_SESSION
    if "crash_loop" in out:
        ok &= out["crash_loop"]["moves_lost"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

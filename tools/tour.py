"""A screenshot tour of every page, at the three screen sizes we support, in both languages, with the
checks a reader of the screenshots would make: ``make tour`` (``python tools/tour.py [--out DIR]
[--only TEXT] [--sizes 1366x768,...] [--langs en,ja]``).

It serves the app as ``make serve`` does (on a free port, with a new tables database holding one
table per game: a seat's page and the spectator's), opens each page in Debian's Chromium (a phone
size as a phone: touch, and the page's viewport tag obeyed), saves a screenshot per page, size and
language under ``--out`` (default ``tour/``: each page at its whole height, what scrolls inside the
page's frame on a laptop too) and checks each page as drawn:

- **overflow**: the page is wider than the screen (a sideways scroll bar, or a phone's zoomed-out page);
- **overlap**: two visible texts or controls cover each other (neither inside the other);
- **cut**: a visible text or control reaches past the screen's left or right edge;
- **spill**: a text runs past the box it is drawn in (a card, a slot, a zone: the nearest element with
  a border or a background, unless a scrolling one);
- **id**: a card or component id in the text (``tropical_rainforest-3``, ``gem_white-bh``);
- **english**: on a Japanese page, English words in the text (names of games and of this tool,
  ``docs/`` words such as JSON and CSV, and a seat's own name in the table are allowed);
- **outside**: a request to another server than this machine.

It prints one line per finding and a summary, writes them to ``<out>/report.txt``, and exits 1 when
there is any: the screenshots are for looking at, the findings for fixing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.page_check import findings, read_stable, wait_for_stylesheets  # noqa: E402  (the project's root on the path first)

GAMES = ("subastral", "starligned", "biome_blitz", "jump_gate", "stellar")
SIZES = ((1366, 768), (1440, 900), (390, 844))
LANGS = ("en", "ja")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")

#: On a laptop's screen a page scrolls inside its ``#main`` (the header and the sidebar stay): a full-page
#: screenshot held the first screen only, and what lay below it was never seen. Laid out at its whole
#: height for the screenshot (after the checks, which read the page as the visitor has it).
UNROLL_CSS = ("#container.vh-100 { height: auto !important; min-height: 100vh; overflow: visible !important; }"
              " #content, #main, #sidebar { overflow: visible !important; height: auto !important; }")


def unroll(page) -> None:
    page.add_style_tag(content=UNROLL_CSS)
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def free_port() -> int:
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_tables(db: Path) -> dict[str, tuple[str, str]]:
    """One two-seat table per game in ``db``, a few moves in: (table id, seat 0's token) by game."""
    from explorer.tables.hub import TableHub
    import rules

    hub = TableHub(db, bot_delay=0)
    try:
        out = {}
        for game in GAMES:
            spec = rules.get_game(game)
            players = 2 if 2 in spec.player_counts else min(spec.player_counts)
            table, tokens = hub.create(game, players, seed=7, controllers=("human",) + ("greedy",) * (players - 1))
            out[game] = (table.id, tokens[0])
        return out
    finally:
        hub.close()


def serve(port: int, db: Path) -> subprocess.Popen:
    command = [str(ROOT / ".venv" / "bin" / "rules-explorer"), "serve", "--address", "127.0.0.1", "--port", str(port),
               "--db", str(db)]
    if not Path(command[0]).exists():
        command[0:1] = [sys.executable, "-m", "explorer.cli"]
    log = open(tempfile.mktemp(prefix="tour-serve-", suffix=".log"), "w")
    proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "RULES_EXPLORER_BOT_DELAY": "0"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/liveness", timeout=2):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"the server stopped: see {log.name}")
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer in 120 s: see {log.name}")


def pages(tables: dict[str, tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(name, address, what shows the page is drawn) of every page."""
    out = [("home", "/", "body"), ("tutorial-index", "/tutorial", "body")]
    for game in GAMES:
        table, token = tables[game]
        out += [(f"explorer-{game}", f"/explorer?game={game}", ".step-counter"),
                (f"tutorial-{game}", f"/tutorial?game={game}", ".step-counter, .tutorial-step"),
                (f"rules-{game}", f"/rules?game={game}", "body"),
                (f"seat-{game}", f"/tables?table={table}&seat={token}", ".step-counter, .seat-bar"),
                (f"spectator-{game}", f"/tables?table={table}", ".step-counter, .seat-bar"),
                (f"cards-{game}", f"/cards?game={game}", ".cards-status")]
    out += [("analysis", "/analysis", "body"), ("tables-lobby", "/tables", "body")]
    return out


def settle(page, ready: str, timeout: float = 60.0) -> None:
    """Wait for the page's sign of being drawn, then until its DOM has not changed for 400 ms (in the
    document or any shadow root, those made meanwhile too) and every stylesheet it links has loaded
    (``page_check.wait_for_stylesheets``), at most ``timeout``. Panel's panes link their stylesheets
    inside their shadow roots, loaded after the DOM is drawn; a
    screenshot taken when only the DOM was still showed headings at the browser's own size, not the
    page's (the explorer's "Set-up" small, where people saw it at 28 px)."""
    deadline = time.monotonic() + timeout
    page.wait_for_selector(ready, state="attached", timeout=timeout * 1000)
    page.evaluate("""(limit) => new Promise((done) => {
      let last = performance.now();
      const seen = () => { last = performance.now(); };
      const watched = new WeakSet(), roots = [];
      const watch = (root) => {
        watched.add(root);
        roots.push(root);
        new MutationObserver(seen).observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
      };
      watch(document);
      const start = performance.now();
      (function check() {
        for (let i = 0; i < roots.length; i++)
          for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot && !watched.has(el.shadowRoot)) { watch(el.shadowRoot); seen(); }
        const now = performance.now();
        if (now - last > 400 || now - start > limit) done(); else setTimeout(check, 100);
      })();
    })""", timeout * 1000)
    wait_for_stylesheets(page, deadline)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "tour"))
    parser.add_argument("--only", default="", help="pages whose name contains this text (comma-separated)")
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES))
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--base", default="", help="an app already served (its tables are not made then)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    sizes = [tuple(map(int, s.split("x"))) for s in args.sizes.split(",")]
    langs = args.langs.split(",")
    proc = None
    work = Path(tempfile.mkdtemp(prefix="tour-"))
    if args.base:
        base, tables = args.base.rstrip("/"), {game: ("none", "none") for game in GAMES}
    else:
        db = work / "tables.sqlite"
        tables = make_tables(db)
        port = free_port()
        proc = serve(port, db)
        base = f"http://127.0.0.1:{port}"
    chosen = [p for p in pages(tables) if not args.only or any(o in p[0] for o in args.only.split(","))]
    report: list[str] = []
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for lang in langs:
                for w, h in sizes:
                    phone = w < 600
                    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=phone, has_touch=phone,
                                                  device_scale_factor=2 if phone else 1, locale=lang)
                    outside: list[str] = []
                    context.on("request", lambda r: outside.append(r.url) if r.url.startswith(("http", "ws"))
                               and urlsplit(r.url).hostname not in LOCAL_HOSTS else None)
                    folder = out / f"{lang}-{w}x{h}"
                    folder.mkdir()
                    for name, address, ready in chosen:
                        page = context.new_page()
                        errors: list[str] = []
                        page.on("pageerror", lambda e: errors.append(str(e)))
                        url = base + address + ("&" if "?" in address else "?") + f"lang={lang}"
                        where = f"{lang} {w}x{h} {name}"
                        try:
                            page.goto(url, timeout=60000)
                            settle(page, ready)
                            found = findings(read_stable(page, w), lang, (w, h))
                            unroll(page)
                            page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
                        except Exception as error:      # a page that does not draw is a finding too
                            found = [f"failed: {type(error).__name__}: {str(error).splitlines()[0]}"]
                        found += [f"javascript error: {e.splitlines()[0]}" for e in errors]
                        found += [f"outside: {u}" for u in dict.fromkeys(outside)]
                        outside.clear()
                        for line in found:
                            report.append(f"{where}: {line}")
                            print(f"{where}: {line}", flush=True)
                        print(f"{where}: {len(found)} finding(s)", file=sys.stderr, flush=True)
                        page.close()
                    context.close()
            browser.close()
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    (out / "report.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    kinds: dict[str, int] = {}
    for line in report:
        kind = line.split(": ", 2)[1].split(":")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"tour: {len(chosen) * len(sizes) * len(langs)} screenshots in {out}; "
          f"{len(report)} finding(s){': ' + ', '.join(f'{k} {n}' for k, n in sorted(kinds.items())) if kinds else ''}")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())

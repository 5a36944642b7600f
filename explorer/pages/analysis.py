"""The Analysis page: a paired A/B comparison of seeded bot games, watched live (docs/architecture.md, "Explorer").

The numbers all come from :func:`play.sweep.compare`: the same deals played under setting A and
setting B (a variant switch, or the bots), with 95% confidence intervals. This module adds only
what a page needs around it, in three layers (docs/architecture.md, "Plots"):

* :class:`RunSettings`, a frozen record of one comparison's arguments, and :class:`AnalysisRun`,
  the model: it runs ``compare`` and holds the statistics of the finished chunks as they arrive
  (``stats``, ``history``), then the final ``result`` -- partial when stopped;
* pure functions from statistics to plot data (dicts of columns) and from a result to the CSV and
  JSON downloads: testable without a browser (the figures are ``explorer/plots/analysis.py``'s);
* :class:`AnalysisPage`, the ``Viewer``: widgets from its parameters, a background thread per run,
  and one Bokeh figure per plot, given each chunk's numbers in place.

Live updates and threads
    The run happens in a background thread, so the server keeps serving. Each finished chunk
    assigns new values on the model (in that thread); the page never touches Bokeh models from it:
    in a served page the refresh is scheduled on the document's own loop (``add_next_tick_callback``
    holds the document lock), at most once until it has run, by ``explorer/plots/live.py``'s
    ``OnLoop``. Each refresh sets the progress line, summary and buttons, and then, in a loop
    callback of its own, gives the plots their new data (in place, as the play page's plots); so
    the texts go out at once, never behind the plots.

    The run is a blocking call (``compare``), so it needs a thread of its own whichever way it is
    started (an ``async`` callback would hand it to an executor thread all the same); what crosses
    from that thread to the page goes through Panel's ``pn.state.execute`` on the page's loop
    (``OnLoop``). By default the games are played in local worker processes (``executor=
    "processes"``; their fork server is started with the page, ``play.sweep.warm_process_pool``):
    the thread then only gathers chunks, and the server's interpreter is free to draw them. Played
    "in this process", the run keeps the interpreter lock nearly all the time, so it waits for the
    page to draw (``_pace``); that cost the page 1.7 times the command line's time for the same
    500 paired games (``make bench-ui``), the reason for the default.

Stopping
    ``compare`` keeps the chunks finished so far when interrupted (Ctrl-C); the Stop button asks for
    the same thing, and so does closing the page: ``compare`` asks ``cancel`` (the stop's flag) while
    chunks are played, and gives up the chunks in play (local worker processes are ended; in this
    process, a chunk is played a game at a time and asked between games), and the progress callback
    raises :class:`StopRequested` (a ``KeyboardInterrupt``) after a chunk finishes. The result says
    ``interrupted``; the server's analysis slot is free at once. (Stop used to wait for the chunks in
    play: with MCTS bots, minutes to hours, and two closed tabs held both slots.) The statistics cover
    the games ``0 .. n-1`` of the gap-free prefix of chunks, exactly as ``compare`` reports them.

Languages
    The page's texts are in ``explorer/locales/<lang>/analysis.json``; ``AnalysisPage(lang=...)``
    shows them in one language, and :func:`create_page` takes it from the address (``?lang=``) or
    the browser, with a switch to load the page in the other. The downloads are data and stay
    English (their column names, and the question as ``compare``'s result records it).
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import panel as pn
import param
from panel.io.callbacks import PeriodicCallback

import rules
from explorer.cardfiles import standard_file
from explorer.plots.analysis import (DifferenceFigure, DistributionFigure, EnvelopeFigure, IntervalFigure, envelope_data,
                                     score_distribution_data)
from explorer.core.i18n import bot_name, literal, text
from explorer.core.limits import RunsAtOnce
from explorer.web.request import page_language
from explorer.core.stylesheets import stylesheet
from play.bots import BOTS, EndlessGame
from rules.fields import SEED_LIMIT
from rules.protocol import AnyGame
from rules.rulebook import LANGUAGES
from play.sweep import DEFAULT_CHUNK, compare, paired_stats, warm_process_pool
from explorer.plots.live import OnLoop, figure_pane, show_figure
from explorer.core.session import (VariantSwitches, player_label, switches_class, variant_label, variant_note,
                                   variant_options, variant_value_label)
from explorer.web.shell import PageTemplate, heading, use_page_design
from explorer.components.whole_number import WholeNumberInput
from explorer.pages.analysis_decks import DeckChooser, card_names, card_table_html, pairing_text, verdict_text
from play.run_file import card_data, run_record

#: Where each setting's mark sits beside its seat on a categorical x axis.
SETTING_OFFSET = {"A": -0.15, "B": 0.15}
BUSY_CSS = stylesheet("components/busy")
SEAT_TABLE_CSS = stylesheet("components/seat_table")
#: How often a run in a served page waits for its plots to be drawn (see AnalysisPage._pace).
PACE_SECONDS = 0.5
#: How often, at most, a served page redraws its plots while a run in worker processes goes on (the
#: texts follow every chunk): six plots redrawn for every chunk (every ~0.15 s of a quick run) keep
#: the browser busy on a core the games need. (A run in this process paces itself: ``_pace``.)
PLOTS_SECONDS = 0.5
#: How often a running page's progress line shows the time taken so far (milliseconds).
TICK_MS = 1000
EXECUTORS = {"In this process": "inprocess", "Local processes": "processes", "Dask cluster": "dask"}
#: What one page may ask of its server (a served page's settings come from anyone who opens it): games
#: per setting, chunks a run (each adds a point to the plots' history), and local worker processes.
MAX_GAMES = 100_000
MAX_CHUNKS = 2_000
MAX_WORKERS = max(2, os.cpu_count() or 1)
#: How many analyses may run at once on a server (``$RULES_EXPLORER_MAX_ANALYSIS_RUNS``, ``rules-explorer
#: serve --max-analysis-runs``; 0: none): one more is refused and the page says so.
MAX_RUNS_ENV, DEFAULT_MAX_RUNS = "RULES_EXPLORER_MAX_ANALYSIS_RUNS", 2
#: The pages whose run's thread has not ended.
_running = RunsAtOnce(MAX_RUNS_ENV, DEFAULT_MAX_RUNS)


def max_analysis_runs() -> int:
    """How many analyses may run at once on this server (``$RULES_EXPLORER_MAX_ANALYSIS_RUNS``)."""
    return _running.limit


def server_scheduler() -> str | None:
    """The Dask scheduler this process was given (``DASK_SCHEDULER_ADDRESS``), if any."""
    return os.environ.get("DASK_SCHEDULER_ADDRESS") or None


def executor_options(lang: str = "en", dask: bool = True) -> dict[str, str]:
    """``EXECUTORS`` with its names in ``lang`` (the executor menu's choices); Dask only with ``dask``
    (a scheduler to run on)."""
    return {text(f"analysis.executor.{value}", lang): value for value in EXECUTORS.values() if dask or value != "dask"}


# ---------------------------------------------------------------------------- the model
@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """The arguments of one paired comparison (what :func:`play.sweep.compare` takes)."""

    game: str
    players: int
    games: int
    seed: int
    variants_a: Mapping[str, Any] = field(default_factory=dict)
    variants_b: Mapping[str, Any] = field(default_factory=dict)
    bots_a: tuple = ("random",)
    bots_b: tuple = ("random",)
    executor: str = "inprocess"
    workers: int | None = None
    scheduler: str | None = None
    chunk: int = DEFAULT_CHUNK
    until_ci: float | None = None
    curves: bool = True          # the provisional-score envelopes (a score per decision)
    cards_b: Mapping[str, Any] | None = None     # B's card file (parsed JSON); None: the standard file
    cards_b_name: str = "standard"               # how the page names it (explorer/pages/analysis_decks.py)
    cards_a: Mapping[str, Any] | None = None     # A's, likewise
    cards_a_name: str = "standard"

    def compare_arguments(self) -> dict:
        """Keyword arguments for ``compare`` (the same comparison, run anywhere)."""
        return {"game_id": self.game, "players": self.players, "games": self.games, "seed": self.seed,
                "variants_a": dict(self.variants_a), "variants_b": dict(self.variants_b),
                "bots_a": tuple(self.bots_a), "bots_b": tuple(self.bots_b), "executor": self.executor,
                "workers": self.workers, "scheduler": self.scheduler or None, "chunk": self.chunk,
                "until_ci": self.until_ci, "curves": self.curves,
                "cards_a": None if self.cards_a is None else dict(self.cards_a),
                # (``compare`` plays B with A's file when B has none: B's standard file, said so)
                "cards_b": (dict(self.cards_b) if self.cards_b is not None else
                            None if self.cards_a is None else standard_file(self.game))}

    def played(self, game: AnyGame) -> tuple[AnyGame, AnyGame]:
        """``game`` as A and as B play it: each with its own card file, if it has one."""
        a, b = (game if cards is None else game.with_card_file(dict(cards)) for cards in (self.cards_a, self.cards_b))
        return a, b


class StopRequested(KeyboardInterrupt):
    """Raised from the progress callback: ``compare`` keeps the chunks finished so far, as for Ctrl-C."""


class AnalysisRun(param.Parameterized):
    """One comparison's results as they arrive: assigned (never mutated), so watchers notice.

    ``run(settings)`` plays it in the calling thread; ``request_stop()`` (any thread) ends it, giving
    up the chunk in play (``compare``'s ``cancel``). ``stats`` is ``play.sweep.paired_stats`` of the finished prefix;
    ``history`` one point per seat per update: the score difference B - A with its interval, for
    the convergence plot; ``result`` the dict ``compare`` returned (plus the question), at the end.
    """

    status = param.Selector(default="idle", objects=["idle", "running", "done", "stopped", "failed"])
    settings = param.ClassSelector(class_=RunSettings, default=None, allow_None=True)
    games_done = param.Integer(default=0, doc="Games of each setting in the finished prefix of chunks.")
    elapsed = param.Number(default=0.0, doc="Seconds the run took, as of its last finished chunk (or its end): "
                                            "``seconds`` counts on while it runs.")
    stats = param.Dict(default=None, allow_None=True, doc="paired_stats of the finished prefix.")
    history = param.List(default=[], doc="Per update and seat: games, seat, mean, low, high of B - A.")
    result = param.Dict(default=None, allow_None=True, doc="What compare returned, once finished or stopped.")
    error = param.String(default="", doc="Why the last run failed.")
    error_texts = param.Dict(default={}, doc="Why, in each language, where the page words it (else ``error``).")

    def __init__(self, **params):
        super().__init__(**params)
        self._stop = threading.Event()
        self._started = 0.0         # (time.perf_counter) when the run began

    @property
    def running(self) -> bool:
        return self.status == "running"

    def begin(self, settings: RunSettings) -> None:
        """The run begins now (its thread calls ``run``; a page says so before the thread has started)."""
        self._started = time.perf_counter()
        self.param.update(status="running", settings=settings, games_done=0, elapsed=0.0)

    @property
    def seconds(self) -> float:
        """Seconds the run has taken: so far while it runs (a chunk can take minutes), else ``elapsed``."""
        return time.perf_counter() - self._started if self.running else self.elapsed

    def request_stop(self) -> None:
        self._stop.set()

    @property
    def stopping(self) -> bool:
        """Has a stop been asked for since the run began?"""
        return self._stop.is_set()

    def run(self, settings: RunSettings, pace: Callable[[], None] | None = None) -> dict | None:
        """Play the comparison here (call it from a background thread in a page); returns the result.

        ``pace``, if given, is called after each update (a page waits there until it has drawn it).
        """
        self._stop.clear()
        self.begin(settings)
        start = self._started
        self.param.update(stats=None, history=[], result=None, error="", error_texts={})

        def progress(played, prefix):
            # A chunk finishing out of order (processes, Dask) adds nothing until the gap before it is filled.
            if prefix is not None and prefix.tallies[0].games != self.games_done:
                stats = paired_stats([prefix], settings.players)
                self.param.update(stats=stats, games_done=stats["games"], elapsed=time.perf_counter() - start,
                                  history=self.history + difference_points(stats))
                if pace is not None:
                    pace()
            if self._stop.is_set():
                raise StopRequested

        try:
            result = compare(**settings.compare_arguments(), progress=progress, cancel=self._stop.is_set)
        except EndlessGame as error:        # (the cards or variants chosen: said in the page's words)
            self.param.update(status="failed", error=str(error), elapsed=time.perf_counter() - start,
                              error_texts={lang: text("analysis.endless", lang, seed=error.seed, moves=f"{error.moves:,}")
                                           for lang in LANGUAGES})
            return None
        except Exception as error:  # noqa: BLE001 - shown on the page (a bad scheduler address, ...)
            self.param.update(status="failed", error=f"{type(error).__name__}: {error}",
                              elapsed=time.perf_counter() - start)
            return None
        result = {"question": question(settings), **result}
        stats = result["results"]
        history = self.history if stats["games"] == self.games_done else self.history + difference_points(stats)
        self.param.update(stats=stats, games_done=stats["games"], history=history, result=result,
                          elapsed=time.perf_counter() - start,
                          status="stopped" if result["interrupted"] else "done")
        return result


# ---------------------------------------------------------------------------- words
def _player(seat: int, lang: str = "en") -> str:
    """``Player 1`` / ``プレイヤー1``."""
    return player_label(seat) if lang == "en" else text("explorer.player", lang, n=seat + 1)


def _session_words(function: str, game: str | None, name: str, lang: str) -> str | None:
    """A variant's label or note in ``lang`` (``variant_label`` / ``variant_note`` of
    ``explorer.core.session``); None without a game."""
    if game is None:
        return None
    return {"variant_label": variant_label, "variant_note": variant_note}[function](game, name, lang)


def _variant_name(game: str | None, name: str, lang: str = "en") -> str:
    """A variant in a question: its name in words in English, its label in other languages."""
    if lang == "en":
        return name.replace("_", " ")
    return _session_words("variant_label", game, name, lang) or name.replace("_", " ")


def _variant_words(name: str, a: Any, b: Any, lang: str = "en", game: str | None = None) -> str:
    words = _variant_name(game, name, lang)
    if isinstance(a, bool):
        return text("analysis.change.on" if b else "analysis.change.off", lang, variant=words)
    if game is not None:
        a, b = (variant_value_label(game, name, value, lang) for value in (a, b))
    return text("analysis.change.value", lang, variant=words, a=a, b=b)


def _changes(settings: RunSettings, lang: str) -> list[str]:
    """What B changes from A, each in words: "disturbance", "playing greedy bots instead of random"."""
    changes = [_variant_words(name, settings.variants_a.get(name), value, lang, settings.game)
               for name, value in sorted(settings.variants_b.items()) if settings.variants_a.get(name) != value]
    if settings.cards_a != settings.cards_b:
        # (a side without a file plays the standard one: a copy of it on the other side changes nothing)
        standard = standard_file(settings.game)
        if (settings.cards_a or standard) != (settings.cards_b or standard):
            changes.append(text("analysis.change.cards" if settings.cards_a is None else "analysis.change.other_cards", lang))
    if tuple(settings.bots_a) != tuple(settings.bots_b):
        changes.append(text("analysis.change.bots", lang, a="/".join(bot_name(b, lang) for b in settings.bots_a),
                            b="/".join(bot_name(b, lang) for b in settings.bots_b)))
    return changes


def _listed(words: Sequence[str], lang: str) -> str:
    """"a", "a and b", "a, b and c" (in Japanese "a、b、c")."""
    if len(words) < 2:
        return "".join(words)
    return text("analysis.question.separator", lang).join(words[:-1]) + text("analysis.question.and", lang) + words[-1]


def question(settings: RunSettings, lang: str = "en") -> str:
    """The comparison as a question: "Does disturbance change the scores at 4 players?"."""
    changes = _changes(settings, lang)
    if not changes:
        return text("analysis.question.same", lang, players=settings.players)
    key = "analysis.question.one" if len(changes) == 1 else "analysis.question.many"
    return text(key, lang, changes=_listed(changes, lang), players=settings.players)


def answer(settings: RunSettings | None, stats: Mapping | None, lang: str = "en") -> str:
    """The question answered in sentences, from the paired differences B - A of the finished games: a
    seat whose difference's 95% interval excludes 0 gets its own ("Disturbance raises Player 1's score
    by 1.4 points (95% CI 1.3 to 1.5) on the same deals."); the others share one ("Players 2 and 3:
    no difference beyond the noise of 200 games (the 95% CI includes 0)."). Empty before any game."""
    if not stats or settings is None:
        return ""
    changes = _changes(settings, lang)
    change = _listed(changes, lang) if changes else text("analysis.answer.b", lang)
    change = change[:1].upper() + change[1:]
    sentences, unchanged = [], []
    for seat in stats["difference_b_minus_a"]:
        ci = seat["score_difference"]
        player = _player(seat["seat"], lang)
        if not seat["significant"] or ci["mean"] is None:
            unchanged.append(player)
            continue
        raises = ci["mean"] > 0
        low, high = (ci["low"], ci["high"]) if raises else (-ci["high"], -ci["low"])     # (the drop's interval)
        sentences.append(text("analysis.answer.raises" if raises else "analysis.answer.lowers", lang, change=change,
                              player=player, points=f"{abs(ci['mean']):.1f}", low=f"{low:.1f}", high=f"{high:.1f}"))
        # (to the headline's tenth: it said "1.6 points higher (95% CI 0.7 to 2.4)" over "by 1.55 points
        # (95% CI 0.69 to 2.41)", the same figure twice, said two ways)
    if unchanged:
        sentences.append(text("analysis.answer.same", lang, players=_listed(unchanged, lang), games=stats["games"]))
    return "\n\n".join(sentences)          # (one paragraph each)


def progress_line(run: AnalysisRun, lang: str = "en") -> str:
    settings = run.settings
    if settings is None:
        return text("analysis.progress.not_run", lang)
    done = text("analysis.progress.games", lang, done=run.games_done, total=settings.games)
    # (an error's own message may hold a card file's words: literal text in this Markdown line)
    error = run.error_texts[lang] if lang in run.error_texts else literal(run.error)
    state = "" if run.status == "idle" else text(f"analysis.status.{run.status}", lang, error=error)
    return f"{done} · {text('analysis.progress.elapsed', lang, seconds=run.seconds)} · {state}"


def _interval(ci: Mapping, key: str = "mean") -> str:
    """``80.45 [75.96, 84.94]`` for a mean, ``31.7% [21.3%, 44.2%]`` for a rate."""
    form = "{:.1%}" if key == "rate" else "{:.2f}"
    if ci[key] is None:
        return "–"
    if ci["low"] is None:
        return form.format(ci[key])
    return f"{form.format(ci[key])} [{form.format(ci['low'])}, {form.format(ci['high'])}]"


def _points(ci: Mapping | None) -> str:
    """A difference of rates in percentage points: ``+4.1 [+1.2, +7.0]``."""
    if ci is None or ci["mean"] is None:
        return "–"
    if ci["low"] is None:
        return f"{100 * ci['mean']:+.1f}"
    return f"{100 * ci['mean']:+.1f} [{100 * ci['low']:+.1f}, {100 * ci['high']:+.1f}]"


def summary_markdown(stats: Mapping | None, lang: str = "en") -> str:
    """The final numbers per seat: means and win rates of A and B, and the paired difference."""
    if not stats:
        return ""
    rows = [text("analysis.summary.header", lang), "|---|---|---|---|---|---|"]
    for a, b, d in zip(stats["a"]["seats"], stats["b"]["seats"], stats["difference_b_minus_a"]):
        mark = " *" if d["significant"] else ""
        rows.append(f"| {_player(a['seat'], lang)} | {_interval(a['score'])} | {_interval(b['score'])} | "
                    f"{_interval(d['score_difference'])}{mark} | {_interval(a['win_rate'], 'rate')} | "
                    f"{_interval(b['win_rate'], 'rate')} |")
    length = text("analysis.summary.length", lang, a=_interval(stats["a"]["game_length"]),
                  b=_interval(stats["b"]["game_length"]))
    spread = text("analysis.summary.spread", lang, a=_interval(stats["a"]["score_spread"]),
                  b=_interval(stats["b"]["score_spread"]))
    first = text("analysis.summary.first_player", lang,
                 a=_interval(stats["a"]["first_player_advantage"]["win_rate"], "rate"),
                 b=_interval(stats["b"]["first_player_advantage"]["win_rate"], "rate"),
                 fair=f"{stats['a']['first_player_advantage']['fair_share']:.1%}",
                 diff=_points(stats.get("first_player_difference")))
    return ("\n".join(rows) + f"\n\n{length} {spread} {first} "
            + text("analysis.summary.note", lang, games=stats["games"]))


# ---------------------------------------------------------------------------- plot data (pure)
def seat_interval_data(stats: Mapping | None, statistic: str) -> dict:
    """Per seat and setting, ``statistic`` ("score" or "win_rate") with its interval, as columns."""
    columns: dict[str, list] = {k: [] for k in ("seat", "setting", "x", "value", "low", "high")}
    if stats:
        key = "rate" if statistic == "win_rate" else "mean"
        for setting in ("A", "B"):
            for seat in stats[setting.lower()]["seats"]:
                ci = seat[statistic]
                if ci[key] is None:
                    continue
                columns["seat"].append(seat["seat"])
                columns["setting"].append(setting)
                columns["x"].append(seat["seat"] + SETTING_OFFSET[setting])
                columns["value"].append(ci[key])
                columns["low"].append(ci[key] if ci["low"] is None else ci["low"])
                columns["high"].append(ci[key] if ci["high"] is None else ci["high"])
    players = len(stats["a"]["seats"]) if stats else 0
    fair = stats["a"]["first_player_advantage"]["fair_share"] if stats else None
    return {"columns": columns, "players": players, "games": stats["games"] if stats else 0, "fair_share": fair}


def game_length_data(stats: Mapping | None) -> dict:
    """Mean game length (decisions) with its interval, for A and B."""
    columns: dict[str, list] = {k: [] for k in ("setting", "x", "value", "low", "high")}
    for x, setting in enumerate(("A", "B")):
        ci = stats[setting.lower()]["game_length"] if stats else {"mean": None}
        if ci["mean"] is None:
            continue
        columns["setting"].append(setting)
        columns["x"].append(x)
        columns["value"].append(ci["mean"])
        columns["low"].append(ci["mean"] if ci["low"] is None else ci["low"])
        columns["high"].append(ci["mean"] if ci["high"] is None else ci["high"])
    return {"columns": columns, "games": stats["games"] if stats else 0}


def difference_points(stats: Mapping) -> list[dict]:
    """One convergence point per seat: games so far and the score difference B - A with its interval."""
    points = []
    for seat in stats["difference_b_minus_a"]:
        ci = seat["score_difference"]
        if ci["low"] is not None:
            points.append({"games": stats["games"], "seat": seat["seat"], "mean": ci["mean"],
                           "low": ci["low"], "high": ci["high"]})
    return points


def difference_history_data(history: Sequence[Mapping], planned: int | None = None) -> dict:
    """Per seat, the difference B - A and its interval against the number of games (columns);
    ``planned``: the games the run will play at most (the x axis covers the whole run)."""
    seats: dict[int, dict[str, list]] = {}
    for point in sorted(history, key=lambda p: (p["seat"], p["games"])):
        columns = seats.setdefault(point["seat"], {k: [] for k in ("games", "mean", "low", "high")})
        for key in columns:
            columns[key].append(point[key])
    return {"seats": seats, "games": max((p["games"] for p in history), default=0), "planned": planned}


def plot_data(stats: Mapping | None, history: Sequence[Mapping], planned: int | None = None) -> dict:
    """Every plot's data for the statistics of a run so far (``None``: no games yet) of ``planned`` games."""
    return {"scores": seat_interval_data(stats, "score"), "win_rates": seat_interval_data(stats, "win_rate"),
            "length": game_length_data(stats), "difference": difference_history_data(history, planned),
            "distribution": score_distribution_data(stats), "envelope": envelope_data(stats)}


# ---------------------------------------------------------------------------- downloads (pure)
CSV_FIELDS = ("statistic", "setting", "seat", "value", "low", "high", "games")


def result_rows(result: Mapping) -> list[dict]:
    """Every number of a comparison as tidy rows (``CSV_FIELDS``); seats are 1-based players."""
    stats = result["results"]
    rows = []

    def add(statistic, setting, seat, ci, key="mean"):
        rows.append({"statistic": statistic, "setting": setting, "seat": "" if seat is None else seat + 1,
                     "value": ci[key], "low": ci["low"], "high": ci["high"], "games": ci["n"]})

    for setting in ("a", "b"):
        side = stats[setting]
        for seat in side["seats"]:
            add("score", setting.upper(), seat["seat"], seat["score"])
            add("win_rate", setting.upper(), seat["seat"], seat["win_rate"], "rate")
        # (the deal's start player, whichever seat it was: no one seat)
        add("first_player_win_rate", setting.upper(), None, side["first_player_advantage"]["win_rate"], "rate")
        add("game_length", setting.upper(), None, side["game_length"])
        add("score_spread", setting.upper(), None, side["score_spread"])
    for seat in stats["difference_b_minus_a"]:
        add("score_difference", "B-A", seat["seat"], seat["score_difference"])
        add("win_rate_difference", "B-A", seat["seat"], seat["win_rate_difference"])
    if "first_player_difference" in stats:
        add("first_player_win_rate_difference", "B-A", None, stats["first_player_difference"])
    return rows


def result_csv(result: Mapping) -> str:
    out = io.StringIO()
    out.write(f"# {result.get('question', '')} game={result['game']} players={result['players']} "
              f"seed={result['seed']} interrupted={result['interrupted']}\n")
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: ("" if v is None else v) for k, v in row.items()} for row in result_rows(result))
    return out.getvalue()


def result_json(result: Mapping) -> str:
    return json.dumps(result, indent=1, ensure_ascii=False) + "\n"


def run_file_json(result: Mapping, settings: RunSettings) -> str:
    """The run file (``play/run_file.py``) of a finished comparison: ``rules-explorer compare --run`` re-runs it."""
    played_a, played_b = settings.played(rules.get_game(settings.game))
    cards_a = card_data(played_a, settings.players, settings.seed, settings.variants_a)
    cards_b = card_data(played_b, settings.players, settings.seed, settings.variants_b)
    return json.dumps(run_record(result, cards_a, cards_b), indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------- the page
class AnalysisPage(pn.viewable.Viewer):
    """The A/B analysis page: settings, Run/Stop, live plots, final numbers and downloads.

    ``AnalysisPage()``; ``run`` is its :class:`AnalysisRun`; ``start()``/``stop()`` are what the
    buttons do; ``thread`` is the background thread of the current run. ``lang`` is the language of
    its texts, read when the page is made (the language switch loads the page again).
    """

    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the page's texts.")

    game = param.Selector(default="subastral", objects={rules.get_game(g).title: g for g in rules.GAMES},
                          doc="Which game's rules.")
    players = param.Selector(default=4, objects=[2, 3, 4, 5], doc="Number of players.")
    bot_a = param.Selector(default="random", objects=list(BOTS), label="Bots in A")
    bot_b = param.Selector(default="random", objects=list(BOTS), label="Bots in B")
    variants_a = param.ClassSelector(class_=VariantSwitches, doc="Setting A's variant switches.")
    variants_b = param.ClassSelector(class_=VariantSwitches, doc="Setting B's variant switches.")
    games = param.Integer(default=500, bounds=(1, MAX_GAMES), doc="Games per setting (each deal is played under A and B).")
    # (Every game's seed, seed + i, below SEED_LIMIT: what a browser's number and a position file hold exactly.)
    seed = param.Integer(default=1, bounds=(1 - SEED_LIMIT, SEED_LIMIT - MAX_GAMES), doc="Game i is dealt from seed + i.")
    executor = param.Selector(default="processes", objects=EXECUTORS, doc="Where the games are played.")
    workers = param.Integer(default=2, bounds=(1, MAX_WORKERS), doc="Local processes.")
    scheduler = param.String(default="", constant=True,
                             doc="Dask scheduler address (tcp://host:8786); empty: DASK_SCHEDULER_ADDRESS. Set when "
                                 "the page is made, never from the page: a visitor's address would be a connection "
                                 "the server makes for them.")
    chunk = param.Integer(default=50, bounds=(1, MAX_GAMES), label="Chunk size", doc="Games per chunk (the plots update per chunk).")
    stop_when_precise = param.Boolean(default=False, label="Stop when precise",
                                      doc="Sequential stopping: stop once every seat's difference interval is this narrow.")
    ci_half_width = param.Number(default=1.0, bounds=(0.001, None), label="± points",
                                 doc="Half-width of the difference interval that is precise enough.")

    def __init__(self, **params):
        super().__init__(**params)
        lang = self.lang
        # Dask only with a scheduler the process was given (a served page: DASK_SCHEDULER_ADDRESS, never an
        # address typed in the page; a notebook: AnalysisPage(scheduler=...)).
        dask = bool(self.scheduler or server_scheduler())
        if self.executor == "dask" and not dask:
            raise ValueError("executor='dask' needs a scheduler: AnalysisPage(scheduler=...) or DASK_SCHEDULER_ADDRESS")
        self.param.executor.objects = executor_options(lang, dask=dask)
        if self.executor == "processes":
            warm_process_pool()         # (the first Run then finds the workers' fork server started)
        self.run = AnalysisRun()
        self.thread: threading.Thread | None = None
        self._ticking: PeriodicCallback | None = None      # (brings the elapsed time up to date: _tick_while_running)
        # From the run's thread: once, on the document's own loop, which holds its lock.
        self._on_run_change = OnLoop(self.refresh)
        self._on_plots_due = OnLoop(self.refresh_plots, self._on_run_change.document)
        self._document = self._on_run_change.document
        if self._document is not None:      # (a run is the page's: it ends with it)
            self._document.on_session_destroyed(lambda context: self.stop())
        self._drawn = threading.Condition()
        self.drawn_games = 0            # games_done of the run as last drawn
        self._paced_at = 0.0            # (time.monotonic) when the run last waited for its plots
        self._plotted_at = 0.0          # (time.monotonic) when the plots were last given data
        self._plots_later = False       # a redraw is scheduled for the end of the current interval
        self.sent = plot_data(None, [])     # what the figures show
        self.figures = {name: self._figure(name, data) for name, data in self.sent.items()}
        self.panes = {name: figure_pane(shown.figure, f"analysis-{name.replace('_', '-')}")
                      for name, shown in self.figures.items()}
        self.question = heading("", css_classes=["analysis-question"], sizing_mode="stretch_width")
        self.progress = pn.pane.Markdown(progress_line(self.run, lang), css_classes=["analysis-progress"],
                                         stylesheets=[BUSY_CSS])
        self.summary = pn.pane.Markdown("", css_classes=["analysis-summary"], sizing_mode="stretch_width",
                                        stylesheets=[SEAT_TABLE_CSS])
        # (its words come from the page's own texts and numbers: no value typed in a form reaches it)
        self.answer = pn.pane.Markdown("", css_classes=["analysis-answer"], sizing_mode="stretch_width",
                                       styles={"font-size": "1.1em"})
        self.run_button = pn.widgets.Button(label=text("analysis.run", lang), color="primary", css_classes=["analysis-run"])
        # (grey until a run can be stopped: a disabled button in the warning colour looked active)
        self.stop_button = pn.widgets.Button(label=text("analysis.stop", lang), color="default", disabled=True,
                                             css_classes=["analysis-stop"])
        #: Why Run started nothing (shown until a run starts).
        self.notice = pn.pane.HTML("", css_classes=["analysis-notice"], visible=False, sizing_mode="stretch_width",
                                   styles={"color": "#a4262c"}, margin=(0, 10))
        self.run_button.on_click(lambda event: self.start())
        self.stop_button.on_click(lambda event: self.stop())
        self.csv_download = pn.widgets.FileDownload(callback=self._csv_file, filename="analysis.csv",
                                                    label=text("analysis.download_csv", lang),
                                                    disabled=True, css_classes=["analysis-csv"])
        self.json_download = pn.widgets.FileDownload(callback=self._json_file, filename="analysis.json",
                                                     label=text("analysis.download_json", lang), disabled=True,
                                                     css_classes=["analysis-json"])
        self.variant_box = pn.Column(margin=0)
        self.deck_a = DeckChooser(self.game, lang, setting="A")
        self.deck_b = DeckChooser(self.game, lang)
        for deck in (self.deck_a, self.deck_b):
            deck.param.watch(self._show_question, ["data"])
        self.verdict = pn.pane.HTML("", css_classes=["analysis-verdict"], sizing_mode="stretch_width",
                                    styles={"font-size": "1.2em", "font-weight": "bold"})
        self.pairing = pn.pane.HTML("", css_classes=["analysis-pairing"], sizing_mode="stretch_width")
        self.card_table = pn.pane.HTML("", css_classes=["analysis-cards"], sizing_mode="stretch_width")
        self.run_download = pn.widgets.FileDownload(callback=self._run_file, filename="analysis-run.json",
                                                    label=text("analysis.download_run", lang), disabled=True,
                                                    css_classes=["analysis-run-file"])
        self._on_game_change()
        self.param.watch(self._on_game_change, ["game"])
        self.param.watch(self._show_question, ["players", "bot_a", "bot_b"])
        self.run.param.watch(self._on_run_change, ["stats", "games_done", "status", "history"])
        self.controls = self._controls()
        #: The six plots, shown once a run has started: before, they would be six empty frames.
        self.plots = pn.FlexBox(*self.panes.values(), flex_wrap="wrap", sizing_mode="stretch_width", visible=False,
                                css_classes=["analysis-plots"])
        #: A finished (or stopped) run's numbers to take away: shown once there are some.
        self.downloads = pn.FlexBox(self.csv_download, self.json_download, self.run_download, flex_wrap="wrap",
                                    visible=False, css_classes=["analysis-downloads"])
        self.results = pn.Column(
            # (Run and Stop under the question, not at the foot of the settings: below the fold on a
            # laptop, and last of all on a phone, where the settings come after the results)
            self.question, self.progress, pn.Row(self.run_button, self.stop_button, margin=0), self.notice,
            self.verdict, self.pairing, self.answer, self.plots,
            self.summary, self.card_table, self.downloads,
            sizing_mode="stretch_width", css_classes=["analysis-results"])
        self._layout = pn.Row(self.controls, self.results, sizing_mode="stretch_width", css_classes=["analysis-page"])

    # ------------------------------------------------------------------ settings
    #: The settings whose widgets show their parameter's doc as a tooltip (in ``lang``: ``analysis.doc.<name>``).
    DESCRIBED = ("game", "players", "games", "seed", "chunk", "executor", "workers", "ci_half_width")

    def _controls(self) -> pn.Column:
        lang = self.lang

        def widget(name, kind=None, **kw):
            kind = kind or pn.widgets.Select
            words = {"name": text(f"analysis.label.{name}", lang)}
            if name in self.DESCRIBED:
                words["description"] = text(f"analysis.doc.{name}", lang)
            return kind.from_param(self.param[name], css_classes=[f"analysis-{name.replace('_', '-')}"], **words, **kw)

        bots = {bot_name(name, lang): name for name in BOTS}
        # (The scheduler is said, not asked: the page's process was given it.)
        scheduler = pn.pane.Markdown(text("analysis.scheduler_note", lang), css_classes=["analysis-scheduler"],
                                     margin=(0, 10))
        self.executor_widgets = {"processes": widget("workers", pn.widgets.IntInput), "dask": scheduler}
        self.param.watch(self._show_executor_widgets, ["executor"])
        self._show_executor_widgets()
        return pn.Column(
            heading(text("analysis.heading", lang)),
            widget("game"), widget("players"), widget("bot_a", options=bots), widget("bot_b", options=bots),
            self.variant_box, self.deck_a, self.deck_b,
            widget("games", pn.widgets.IntInput), widget("seed", WholeNumberInput),
            widget("chunk", pn.widgets.IntInput), widget("executor"), *self.executor_widgets.values(),
            widget("stop_when_precise", pn.widgets.Checkbox), widget("ci_half_width", pn.widgets.FloatInput),
            width=300, css_classes=["analysis-controls"])

    def _show_executor_widgets(self, *events) -> None:
        for executor, widget in self.executor_widgets.items():
            widget.visible = self.executor == executor

    def _on_game_change(self, *events) -> None:
        spec = rules.get_game(self.game)
        for deck in (self.deck_a, self.deck_b):
            if deck.game != self.game:
                deck.set_game(self.game)
        counts = list(spec.player_counts)
        self.param.players.objects = counts
        if self.players not in counts:
            self.players = 4 if 4 in counts else counts[0]
        switches = switches_class(spec)
        a, b = switches(), switches()
        # B differs from A by default: the first on/off variant switched on, so the page asks a question.
        for variant in spec.variants:
            if isinstance(variant.default, bool):
                setattr(b, variant.name, not variant.default)
                break
        for old in (self.variants_a, self.variants_b):
            if old is not None:
                old.param.unwatch(old._analysis_watcher)
        for switches_object in (a, b):
            names = [n for n in switches_object.param if n != "name"]
            switches_object._analysis_watcher = switches_object.param.watch(self._show_question, names or ["name"])
        self.variants_a, self.variants_b = a, b
        self.variant_box[:] = [self._variant_widgets(a, "A"), self._variant_widgets(b, "B")]
        self._show_question()

    def _variant_widgets(self, switches: VariantSwitches, setting: str) -> pn.Column:
        lang = self.lang
        widgets = [pn.pane.Markdown(text("analysis.variants_in", lang, setting=setting), margin=(0, 10))]
        for name, parameter in switches.param.objects("existing").items():
            if name == "name":
                continue
            kind = pn.widgets.Checkbox if isinstance(parameter, param.Boolean) else pn.widgets.Select
            words = {} if kind is pn.widgets.Checkbox else {"options": variant_options(self.game, name, lang)}
            if lang != "en":       # the variants' own words, where explorer.core.session has them in lang
                label = _session_words("variant_label", self.game, name, lang)
                note = _session_words("variant_note", self.game, name, lang)
                if label:
                    words["name"] = label
                if note and kind is pn.widgets.Select:
                    words["description"] = note
            widgets.append(kind.from_param(switches.param[name], css_classes=[f"variant-{setting.lower()}-{name}"], **words))
        if len(widgets) == 1:
            widgets.append(pn.pane.Markdown(text("analysis.no_variants", lang), margin=(0, 10)))
        return pn.Column(*widgets, margin=0)

    @staticmethod
    def _chosen(switches: VariantSwitches) -> dict:
        return {name: getattr(switches, name) for name in switches.param if name != "name"}

    def settings(self) -> RunSettings:
        """The comparison the widgets describe."""
        return RunSettings(
            game=self.game, players=self.players, games=self.games, seed=self.seed,
            variants_a=self._chosen(self.variants_a), variants_b=self._chosen(self.variants_b),
            bots_a=(self.bot_a,), bots_b=(self.bot_b,), executor=self.executor,
            workers=self.workers if self.executor == "processes" else None,
            scheduler=(self.scheduler or None) if self.executor == "dask" else None, chunk=self.chunk,
            until_ci=self.ci_half_width if self.stop_when_precise else None,
            cards_a=self.deck_a.data, cards_a_name=self.deck_a.label,
            cards_b=self.deck_b.data, cards_b_name=self.deck_b.label)

    def _show_question(self, *events) -> None:
        if self.variants_a is not None and self.variants_b is not None:
            self.question.object = f"### {question(self.settings(), self.lang)}"

    # ------------------------------------------------------------------ running
    def start(self) -> threading.Thread | None:
        """Start a run in a background thread (nothing if one is running, or if it is refused: too many
        chunks, or the server's limit of analyses at once reached; the notice under the buttons says why)."""
        if self.thread is not None and self.thread.is_alive():
            return None
        settings = self.settings()
        self.question.object = f"### {question(settings, self.lang)}"
        chunks = -(-settings.games // settings.chunk)
        if chunks > MAX_CHUNKS:
            least = -(-settings.games // MAX_CHUNKS)
            return self._refuse("analysis.refused.chunks", chunks=f"{chunks:,}", most=f"{MAX_CHUNKS:,}",
                                least=f"{least:,}")
        if not _running.take(self):
            return self._refuse("analysis.refused.busy", limit=_running.limit)
        self.notice.visible = False
        # Played in this process, the run waits for the page's drawing (``_pace``); played elsewhere it
        # leaves the interpreter free, and a wait would only hold back the chunks already finished.
        pace = self._pace if settings.executor == "inprocess" else None
        self.thread = threading.Thread(target=self._play, args=(settings, pace), daemon=True, name="analysis-run")
        # The buttons and the progress line ("0 / 2000 games · running", turning) change at once, before
        # the thread's first chunk: starting the worker processes alone took seconds ("Not run yet." showed).
        self.run.begin(settings)
        self.thread.start()
        self._tick_while_running()
        return self.thread

    def _tick_while_running(self) -> None:
        """Bring the progress line's elapsed time up to date every ``TICK_MS`` while the run plays, on
        the page's loop: it changed only when a chunk finished, and said "0.0 s" for minutes while a
        first chunk of MCTS games played. (Stops itself when the run has ended: ``refresh`` has then
        written the final line.)"""
        if self._ticking is None or not self._ticking.running:
            self._ticking = pn.state.add_periodic_callback(self._tick, TICK_MS)

    def _tick(self) -> None:
        if not self.run.running:
            if self._ticking is not None:
                self._ticking.stop()
            return
        line = progress_line(self.run, self.lang)
        if self.progress.object != line:
            self.progress.object = line

    def _play(self, settings: RunSettings, pace: Callable[[], None] | None) -> None:
        try:
            self.run.run(settings, pace=pace)
        finally:
            _running.give_back(self)

    def _refuse(self, key: str, **values: Any) -> None:
        """Start nothing and change nothing: the notice under the buttons says why (``key``: its text)."""
        self.notice.object = html.escape(text(key, self.lang, **values))
        self.notice.visible = True
        return None

    def stop(self) -> None:
        self.run.request_stop()
        with self._drawn:               # (a run waiting for its plots to be drawn goes on to stop)
            self._drawn.notify_all()

    def _pace(self) -> None:
        """After a chunk's update, in a served page: wait until its plots are drawn, at most every
        ``PACE_SECONDS`` of running.

        A run in this process keeps the interpreter lock nearly all the time; without a pause the
        server's loop would send the updates only when the run ends, all at once, and on a busy
        machine it drew a chunk in seconds while the run went on to the next ones. A pause at every
        chunk, though, cost a chunk's drawing each time (six plots): a quick run of 300 paired games
        took 2.4 times as long on the page as on the command line. So the run pauses for its plots
        twice a second; the chunks between are drawn with the next pause's data. (The bound only
        keeps a page whose loop has stopped from holding the run.)
        """
        if self._document is None:
            return
        now = time.monotonic()
        if now - self._paced_at < PACE_SECONDS:
            return
        games = self.run.games_done
        with self._drawn:
            self._drawn.wait_for(lambda: self.drawn_games >= games or self.run.stopping, timeout=30.0)
        self._paced_at = time.monotonic()

    def refresh(self) -> None:
        """Bring the progress line, summary and buttons up to date with the run, then the plots.

        In a served page the plots (six redrawn: the slow part) follow in a loop callback of their
        own, so the texts go out at once in a small message instead of waiting behind them.
        """
        run = self.run
        with pn.io.hold():
            self.progress.object = progress_line(run, self.lang)
            busy = ["analysis-progress", "busy"] if run.running else ["analysis-progress"]
            if self.progress.css_classes != busy:
                self.progress.css_classes = busy
            self.answer.object = answer(run.settings, run.stats, self.lang)
            pair = run.result["pairing"] if run.result else None
            self.verdict.object = html.escape(verdict_text(run.stats, pair, self.lang))
            self.pairing.object = html.escape(pairing_text(pair, run.stats["games"] if run.stats else 0, self.lang))
            self.card_table.object = self._card_table()
            self.summary.object = summary_markdown(run.stats, self.lang)
            finished = run.result is not None
            self.run_button.disabled = run.running
            self.stop_button.param.update(disabled=not run.running, button_type="warning" if run.running else "default")
            self.plots.visible = run.settings is not None
            self.csv_download.disabled = self.json_download.disabled = self.run_download.disabled = not finished
            self.downloads.visible = finished
        wait = self._plotted_at + PLOTS_SECONDS - time.monotonic()
        paced = run.settings is None or run.settings.executor == "inprocess"      # (its run waits for each draw)
        if self._document is None or not run.running or paced or wait <= 0:
            self._on_plots_due()
        elif not self._plots_later:         # (drawn at the interval's end, with the data of then)
            self._plots_later = True
            self._document.add_timeout_callback(self._plots_after_wait, int(wait * 1000))

    def _plots_after_wait(self) -> None:
        self._plots_later = False
        self.refresh_plots()

    def _figure(self, name: str, data: Mapping):
        """A new figure for the plot ``name`` showing ``data``, in the page's language."""
        lang = self.lang
        if name in ("scores", "win_rates"):
            statistic = {"scores": "score", "win_rates": "win_rate"}[name]
            return IntervalFigure(data, name=name, title=text(f"analysis.plot.{name}", lang),
                                  ylabel=text(f"analysis.axis.{statistic}", lang), lang=lang, fair_share=name == "win_rates")
        if name == "length":
            return IntervalFigure(data, name=name, title="", ylabel=text("analysis.axis.decisions_per_game", lang),
                                  value=text("analysis.axis.decisions", lang), lang=lang)
        kind = {"difference": DifferenceFigure, "distribution": DistributionFigure, "envelope": EnvelopeFigure}[name]
        return kind(data, lang=lang)

    def refresh_plots(self) -> None:
        """Give the plots the run's statistics (then a waiting run may go on: ``_pace``)."""
        run = self.run
        games = run.games_done         # read first: what is drawn is at least this recent
        data = plot_data(run.stats, run.history, run.settings.games if run.settings else None)
        with pn.io.hold():
            for name, shown in self.figures.items():
                if data[name] != self.sent[name] and not shown.show(data[name]):     # other seats: a new figure
                    self.figures[name] = self._figure(name, data[name])
                    show_figure(self.panes[name], self.figures[name].figure)
        self.sent = data
        self._plotted_at = time.monotonic()
        with self._drawn:
            self.drawn_games = games
            self._drawn.notify_all()

    def _csv_file(self) -> io.StringIO:
        return io.StringIO(result_csv(self.run.result) if self.run.result else "")

    def _json_file(self) -> io.StringIO:
        return io.StringIO(result_json(self.run.result) if self.run.result else "")

    def _card_table(self) -> str:
        """The finished run's per-card table, cards named as A's and B's card files print them."""
        run = self.run
        if run.result is None or run.settings is None:
            return ""
        games = list(run.settings.played(rules.get_game(run.settings.game)))
        cards = {row["card"] for side in ("a", "b") for row in run.stats[side]["cards"]}
        return card_table_html(run.stats, self.lang, card_names(games, cards, self.lang))

    def _run_file(self) -> io.StringIO:
        return io.StringIO(run_file_json(self.run.result, self.run.settings) if self.run.result else "")

    def __panel__(self):
        return self._layout


def create_page(lang: str | None = None) -> pn.template.BaseTemplate:
    """The served page: the analysis in a template (``page.analysis`` is the :class:`AnalysisPage`),
    in ``lang`` (else the address's ``?lang=``, else the browser's language)."""
    use_page_design()
    lang = lang or page_language()
    analysis = AnalysisPage(lang=lang)
    # No busy spinner: Panel keeps every spinner in its global state and updates them all when any
    # session is busy, from that session's thread, which breaks the other documents' locks when the
    # explorer and this page are served by one process (the explorer has none for the same reason).
    template = PageTemplate(page="analysis", lang=lang, title=text("analysis.page_title", lang),
                            sidebar=[analysis.controls], main=[analysis.results])
    template.analysis = analysis
    return template

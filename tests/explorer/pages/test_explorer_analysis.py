"""The Analysis page and the move advisor, without a browser (explorer/pages/analysis.py, explorer/components/advisor.py).

The page's numbers must be ``play.sweep.compare``'s, live or final, stopped or not; its plot data
are checked against statistics small enough to work out by hand. The advisor must find a move
that clearly wins, and must not change its mind when only cards its seat cannot see change.
"""

from __future__ import annotations

import csv
import json
import random

import pytest

import rules
from explorer.components.advisor import MoveAdvisor, advice_plot_data, advise
from explorer.pages.analysis import (
    AnalysisPage, AnalysisRun, RunSettings, difference_history_data, difference_points, game_length_data, plot_data,
    answer, question, result_csv, result_json, result_rows, seat_interval_data, summary_markdown,
)
from explorer.plots.analysis import DifferenceFigure, IntervalFigure, setting_columns
from explorer.core.session import GameSession
from play.sweep import compare
from tests.helpers.analysis import known_stats
from tests.helpers.served import FakeLoop, run_next_tick, served_document

SETTINGS = RunSettings(game="subastral", players=3, games=40, seed=11, variants_a={"disturbance": False},
                       variants_b={"disturbance": True}, chunk=10)


def without_timing(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("elapsed_s", "question")}


# ---------------------------------------------------------------------------- plot data from known statistics
def test_seat_interval_data_puts_a_left_and_b_right_of_each_seat_with_its_interval():
    data = seat_interval_data(known_stats(), "score")
    columns = data["columns"]
    assert columns["setting"] == ["A", "A", "B", "B"]
    assert columns["x"] == [-0.15, 0.85, 0.15, 1.15]
    assert columns["value"] == [11, 19, 15, 19]
    # Seat 0 in A: scores 10 and 12, sd 1.414, se 1: 11 +- 1.96.
    assert columns["low"][0] == pytest.approx(11 - 1.96, abs=1e-3)
    assert columns["high"][0] == pytest.approx(11 + 1.96, abs=1e-3)
    assert data["players"] == 2 and data["games"] == 2


def test_win_rate_data_holds_rates_and_the_fair_share():
    data = seat_interval_data(known_stats(), "win_rate")
    assert data["columns"]["value"] == [0.0, 1.0, 0.0, 1.0]
    assert data["fair_share"] == 0.5
    assert all(lo <= v <= hi for v, lo, hi in zip(*(data["columns"][k] for k in ("value", "low", "high"))))


def test_game_length_data_holds_a_and_b():
    columns = game_length_data(known_stats())["columns"]
    assert columns["setting"] == ["A", "B"] and columns["value"] == [31, 32]


def test_difference_points_track_the_interval_as_games_accumulate():
    points = difference_points(known_stats())
    assert points == [{"games": 2, "seat": 0, "mean": 4.0, "low": 4.0, "high": 4.0},
                      {"games": 2, "seat": 1, "mean": 0.0, "low": 0.0, "high": 0.0}]
    later = [{**p, "games": 4} for p in points]
    data = difference_history_data(points + later)
    assert data["games"] == 4
    assert data["seats"][0] == {"games": [2, 4], "mean": [4.0, 4.0], "low": [4.0, 4.0], "high": [4.0, 4.0]}


def test_no_statistics_yet_gives_empty_plots():
    assert seat_interval_data(None, "score")["columns"]["value"] == []
    assert game_length_data(None)["columns"]["value"] == []
    assert difference_history_data([])["seats"] == {}


def drawn(page: AnalysisPage, name: str) -> dict:
    """What a plot's figure holds: each named source's data, and the figure's fixed ranges."""
    shown = page.figures[name]
    fig = shown.figure
    return {"sources": {key: dict(source.data) for key, source in shown.sources.items()},
            "x": (fig.x_range.start, fig.x_range.end), "y": (fig.y_range.start, fig.y_range.end)}


def test_every_plot_shows_its_data_with_and_without_statistics_in_fixed_ranges():
    stats = known_stats()
    page = AnalysisPage()
    for stats_or_none in (None, stats):
        page.run.param.update(stats=stats_or_none, history=difference_points(stats) if stats_or_none else [])
        page.refresh_plots()
        data = plot_data(stats_or_none, page.run.history)
        for name in ("scores", "win_rates", "length"):
            shown = drawn(page, name)
            for setting in ("A", "B"):
                assert shown["sources"][setting] == setting_columns(data[name]["columns"], setting)
                low, high = shown["y"]
                assert all(low < v < high for v in shown["sources"][setting]["low"] + shown["sources"][setting]["high"])
        for name in ("distribution", "envelope"):
            assert drawn(page, name)["sources"] == data[name]
    assert drawn(page, "difference")["sources"] == difference_history_data(difference_points(stats))["seats"]
    assert page.figures["scores"].figure.xaxis[0].major_label_overrides == {0: "Player 1", 1: "Player 2"}
    assert (page.figures["scores"].figure.x_range.start, page.figures["scores"].figure.x_range.end) == (-0.5, 1.5)
    assert isinstance(page.figures["length"], IntervalFigure) and isinstance(page.figures["difference"], DifferenceFigure)


def test_a_run_with_one_update_still_shows_each_seats_difference():
    """All chunks done before the page drew one (a fast run on local processes): one point per seat,
    which a line and a band do not draw, and the plot showed nothing but its zero line. Each point is
    also a dot with its interval as a bar, over the same source."""
    from bokeh.models import GlyphRenderer, Scatter, Segment

    data = difference_history_data(difference_points(known_stats()))
    assert all(len(columns["games"]) == 1 for columns in data["seats"].values())
    figure = DifferenceFigure(data).figure
    for seat, columns in data["seats"].items():
        drawn_with = {type(r.glyph) for r in figure.select({"type": GlyphRenderer})
                      if r.data_source.name.endswith(f"difference-{seat}")}
        assert {Scatter, Segment} <= drawn_with, drawn_with


def test_four_seats_names_are_slanted_under_the_per_seat_plots():
    """On a phone, four seats' names level under a per-seat plot ran into one another in Japanese
    ("プレイヤー1プレイヤー2プレイヤー3プレイヤー4"): from four seats they are slanted; two stay level."""
    from explorer.plots.analysis import SLANTED

    def orientation(players: int) -> object:
        data = {"columns": {name: [] for name in ("setting", "x", "value", "low", "high")}, "games": 0, "players": players}
        return IntervalFigure(data, name="scores", title="Mean score per seat", ylabel="score", lang="ja").figure.xaxis[0].major_label_orientation

    assert orientation(4) == orientation(5) == SLANTED and orientation(2) == "horizontal"


def test_the_question_is_asked_in_words():
    base = dict(game="subastral", players=4, games=10, seed=1)
    assert question(RunSettings(**base, variants_a={"disturbance": False}, variants_b={"disturbance": True})) \
        == "Does disturbance change the scores at 4 players?"
    assert question(RunSettings(**base, bots_a=("random",), bots_b=("greedy",))) \
        == "Does playing greedy bots instead of random change the scores at 4 players?"
    assert "same setting" in question(RunSettings(**base))


def test_summary_names_each_seat_and_marks_a_significant_difference():
    text = summary_markdown(known_stats())
    assert "| Player 1 | 11.00 [9.04, 12.96] | 15.00 [13.04, 16.96] | 4.00 [4.00, 4.00] * |" in text
    assert "| 0.0% [" in text
    assert "Player 2" in text and "2 games" in text


# ---------------------------------------------------------------------------- the model
def test_a_run_through_the_model_equals_compare_with_the_same_arguments():
    run = AnalysisRun()
    seen = []
    run.param.watch(lambda event: seen.append(event.new), "games_done")
    result = run.run(SETTINGS)
    expected = compare(**SETTINGS.compare_arguments())
    assert without_timing(result) == without_timing(expected)
    assert run.stats == expected["results"] and run.status == "done"
    assert seen == [10, 20, 30, 40], "the statistics arrive chunk by chunk"
    # The convergence plot's last points are the final differences.
    final = {p["seat"]: p for p in run.history if p["games"] == 40}
    for seat in expected["results"]["difference_b_minus_a"]:
        assert final[seat["seat"]]["mean"] == seat["score_difference"]["mean"]
    assert result["question"] == "Does disturbance change the scores at 3 players?"


def test_sequential_stopping_is_compare_s_own():
    settings = RunSettings(**{**SETTINGS.__dict__, "games": 200, "until_ci": 3.0})
    result = AnalysisRun().run(settings)
    expected = compare(**settings.compare_arguments())
    assert without_timing(result) == without_timing(expected)
    assert result["results"]["games"] < 200


def test_stopping_mid_run_keeps_the_finished_chunks():
    run = AnalysisRun()
    run.param.watch(lambda event: run.request_stop() if event.new >= 20 else None, "games_done")
    result = run.run(SETTINGS)
    assert run.status == "stopped" and result["interrupted"] is True
    assert result["results"]["games"] == 20
    # The partial statistics are exactly those of the first 20 games.
    assert result["results"] == compare(**{**SETTINGS.compare_arguments(), "games": 20})["results"]


def test_a_failed_run_says_why():
    run = AnalysisRun()
    assert run.run(RunSettings(**{**SETTINGS.__dict__, "executor": "nowhere"})) is None
    assert run.status == "failed" and "nowhere" in run.error


# ---------------------------------------------------------------------------- the page
def test_the_page_generates_variant_widgets_and_asks_its_question():
    page = AnalysisPage()
    assert page.question.object == "### Does disturbance change the scores at 4 players?"
    page.players = 3
    assert "at 3 players" in page.question.object
    page.game = "stellar"           # two players only; three variants, two of them with several choices
    assert page.players == 2
    assert set(page.settings().variants_a) == {v.name for v in rules.get_game("stellar").variants}
    page.game = "biome_blitz"       # its switches at their defaults: A and B differ by their bots only
    page.bot_b = "greedy"
    assert "greedy" in page.question.object


def test_the_seed_keeps_every_games_seed_one_a_browser_and_a_position_file_hold():
    """Game i is dealt from seed + i: the seed's box stops where the run's last game would pass SEED_LIMIT
    (a browser's number holds a whole number exactly below it, a position file refuses one past it); a
    value from outside the box (a forged message) is refused and changes nothing."""
    from explorer.pages.analysis import MAX_GAMES
    from rules.fields import SEED_LIMIT

    page = AnalysisPage()
    [seed] = [w for w in page.controls.objects if "analysis-seed" in getattr(w, "css_classes", [])]
    assert (seed.start, seed.end) == (1 - SEED_LIMIT, SEED_LIMIT - MAX_GAMES)
    page.seed = SEED_LIMIT - MAX_GAMES              # (its last game's seed: SEED_LIMIT - 1)
    for forged in (SEED_LIMIT - MAX_GAMES + 1, -SEED_LIMIT, 10 ** 100):
        with pytest.raises(ValueError):
            page.seed = forged
        assert page.seed == SEED_LIMIT - MAX_GAMES and page.settings().seed == page.seed


def test_a_run_shows_it_is_running_from_the_click_on():
    """Starting the worker processes alone took seconds, during which the page said "Not run yet.":
    the progress line names the run and turns (CSS class ``busy``) as soon as Run is clicked, until it ends."""
    page = AnalysisPage(players=3, games=20_000, seed=11, chunk=10)
    assert page.progress.object == "Not run yet: choose the settings (beside this, or below it on a small screen), then Run. The plots appear here as the games are played." and "busy" not in page.progress.css_classes
    assert not page.plots.visible       # (six empty frames before any run)
    thread = page.start()
    try:
        assert "/ 20000 games" in page.progress.object and "running" in page.progress.object
        assert "busy" in page.progress.css_classes and page.run_button.disabled
        assert page.plots.visible
    finally:
        page.stop()
        thread.join(30)
    assert page.run.status == "stopped" and "busy" not in page.progress.css_classes
    assert page.plots.visible           # (a stopped run's numbers stay on show)


def test_the_page_runs_in_a_background_thread_and_offers_csv_and_json():
    page = AnalysisPage(players=3, games=40, seed=11, chunk=10)
    assert page.csv_download.disabled and page.stop_button.disabled and not page.downloads.visible
    # Stop is grey while it can stop nothing, in the warning colour while a run goes (disabled in the
    # warning colour, it looked ready to click).
    stop_looks = [(page.stop_button.disabled, page.stop_button.button_type)]
    page.stop_button.param.watch(lambda *events: stop_looks.append((page.stop_button.disabled, page.stop_button.button_type)),
                                 ["disabled", "button_type"])
    thread = page.start()
    thread.join(30)
    assert page.run.status == "done" and not page.run_button.disabled and page.stop_button.disabled
    assert stop_looks[0] == stop_looks[-1] == (True, "default") and (False, "warning") in stop_looks
    assert page.downloads.visible
    expected = compare(**SETTINGS.compare_arguments())            # (played in this process)
    # The page plays in local worker processes by default: the same games, the same numbers.
    assert page.settings().compare_arguments() == {**SETTINGS.compare_arguments(), "executor": "processes", "workers": 2}
    assert page.sent["scores"]["games"] == 40 and page.figures["scores"].figure.title.text.endswith("(40 games)")
    assert len(page.figures["scores"].sources["A"].data["value"]) == 3
    assert not page.csv_download.disabled
    assert page.progress.object.startswith("40 / 40 games")
    assert page.answer.object == answer(page.run.settings, page.run.stats) and "Player 1" in page.answer.object

    rows = list(csv.DictReader(line for line in page._csv_file().getvalue().splitlines() if not line.startswith("#")))
    assert len(rows) == len(result_rows(page.run.result))
    by_key = {(r["statistic"], r["setting"], r["seat"]): r for r in rows}
    for seat in expected["results"]["difference_b_minus_a"]:
        row = by_key[("score_difference", "B-A", str(seat["seat"] + 1))]
        assert float(row["value"]) == seat["score_difference"]["mean"]
        assert float(row["low"]) == seat["score_difference"]["low"]
    for seat in expected["results"]["a"]["seats"]:
        assert float(by_key[("score", "A", str(seat["seat"] + 1))]["value"]) == seat["score"]["mean"]
    # The first player is the deal's start player, no one seat; and the paired difference is there too.
    first = expected["results"]["a"]["first_player_advantage"]["win_rate"]
    assert float(by_key[("first_player_win_rate", "A", "")]["value"]) == first["rate"]
    difference = by_key[("first_player_win_rate_difference", "B-A", "")]
    assert float(difference["value"]) == expected["results"]["first_player_difference"]["mean"]
    data = json.loads(page._json_file().getvalue())
    assert data["results"] == json.loads(json.dumps(expected["results"]))
    assert data["question"] == "Does disturbance change the scores at 3 players?"


def test_the_downloads_of_a_stopped_run_hold_its_partial_numbers():
    run = AnalysisRun()
    run.param.watch(lambda event: run.request_stop() if event.new >= 10 else None, "games_done")
    result = run.run(SETTINGS)
    text = result_csv(result)
    assert "interrupted=True" in text.splitlines()[0]
    assert json.loads(result_json(result))["results"]["games"] == 10


# ---------------------------------------------------------------------------- the advisor
def position_after(game_id: str, players: int, seed: int, moves: int):
    """The state after the first ``moves`` decisions of a game of seeded random moves (a generator per
    seat, fixed here rather than by the bots' seed rule, so the positions below stay the same), and the
    whole game's moves."""
    spec = rules.get_game(game_id)
    rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(players)]
    state, actions, position = spec.new_game(players, seed), [], None
    while spec.to_move(state):
        if len(actions) == moves:
            position = state
        seat = spec.to_move(state)[0]
        action = rngs[seat].choice(spec.legal_actions(state, seat))
        actions.append((seat, action))
        state = spec.apply(state, seat, action)
    return spec, position if position is not None else state, actions


def test_the_advisor_ranks_a_clearly_winning_move_first():
    # Subastral, 3 players, seed 2: move 84 is Player 1's last decision of the game, so what it
    # takes now is final. Taking cloud 3 into the journal scores 78; every other take 58 or less.
    spec, state, actions = position_after("subastral", 3, 2, 84)
    assert spec.to_move(state) == (0,) and all(seat != 0 for seat, _ in actions[85:])
    now = {str(a): spec.scores(spec.apply(state, 0, a))[0] for a in spec.legal_actions(state, 0)}
    best = max(now, key=now.get)
    assert sorted(now.values())[-1] - sorted(now.values())[-2] >= 10

    values = advise(spec, state, 0, budget=60, seed=3)
    assert values[0].label == best == "take cloud 3 to journal"
    assert values[0].mean == now[best] and values[0].low > values[1].high
    assert [v.mean for v in values] == sorted((v.mean for v in values), reverse=True)
    assert values[0].rollouts == 60 // len(values)


@pytest.mark.parametrize("game_id,players", [("subastral", 3), ("stellar", 2)])
def test_the_advice_does_not_change_when_only_cards_the_seat_cannot_see_differ(game_id, players):
    spec, state, _ = position_after(game_id, players, 4, 12)
    seat = spec.to_move(state)[0]
    other = spec.sample_hidden(state, seat, random.Random(99))
    assert other._replace(seed=state.seed) != state if hasattr(state, "seed") else other != state, \
        "the two positions differ in hidden cards (not only in the seed a re-dealt world draws)"
    assert spec.observe(other, seat) == spec.observe(state, seat), "...and only in cards the seat cannot see"
    first = advise(spec, state, seat, budget=120, seed=5)
    second = advise(spec, other, seat, budget=120, seed=5)
    assert [v.label for v in first] == [v.label for v in second]
    assert first == second
    assert advise(spec, state, seat, budget=120, seed=6) != first, "another seed: other rollouts"


def test_the_win_share_objective_stays_between_nought_and_one():
    spec, state, _ = position_after("subastral", 3, 4, 12)
    values = advise(spec, state, spec.to_move(state)[0], budget=30, seed=1, objective="win share")
    assert all(0 <= v.mean <= 1 for v in values)


def test_the_advisor_component_advises_the_seat_to_move_and_forgets_a_stale_position():
    session = GameSession(game="subastral", players=3, seed=2)
    _, _, actions = position_after("subastral", 3, 2, 0)
    for seat, action in actions[:84]:
        session.play(seat, action)
    advisor = MoveAdvisor(session=session, budget=60, seed=3)
    assert advisor.seat() == 0 and "Player 1" in advisor.status
    advisor.start().join(30)
    assert advisor.values[0].label == "take cloud 3 to journal" and not advisor.busy
    assert "10 rollouts per move" in advisor.message.object
    assert advisor.plot_data["move"][-1] == "take cloud 3 to journal", "the best move is drawn on top"
    shown = advisor.chart.source.data
    assert {name: shown[name] for name in advice_plot_data([])} == advice_plot_data(advisor.values) == advisor.plot_data
    assert advisor.plot.object.y_range.factors[-1] == "take cloud 3 to journal"
    session.goto(83)
    assert advisor.values == [] and advisor.advised is None
    session.viewing_seat = 1
    assert advisor.seat() == 1 and "no move" in advisor.status


def test_the_distribution_and_envelope_plots_follow_a_run():
    from explorer.plots.analysis import DistributionFigure, EnvelopeFigure, envelope_data, score_distribution_data
    from play.sweep import compare

    result = compare("subastral", 3, 20, 2, variants_b={"disturbance": True}, executor="inprocess", chunk=10, curves=True)
    stats = result["results"]
    shares = score_distribution_data(stats)
    assert sum(shares["A"]["share"]) == pytest.approx(1, abs=1e-4) and sum(shares["B"]["share"]) == pytest.approx(1, abs=1e-4)
    envelope = envelope_data(stats)
    assert envelope["A"]["decision"][0] == 1 and len(envelope["B"]["mean"]) == len(envelope["B"]["decision"])
    assert all(lo <= m <= hi for lo, m, hi in zip(envelope["A"]["low"], envelope["A"]["mean"], envelope["A"]["high"]))
    for data in (shares, envelope, envelope_data(None)):
        shown = (DistributionFigure if data is shares else EnvelopeFigure)(data)
        assert {key: dict(source.data) for key, source in shown.sources.items()} == data


# ---------------------------------------------------------------------------- a served page's loop
def test_a_refresh_asked_for_from_a_thread_is_handed_to_the_loop_and_one_asked_for_while_it_runs_follows_it():
    from explorer.plots.live import OnLoop

    loop = FakeLoop()
    document = served_document(loop)
    runs, during = [], []

    def refresh():
        runs.append(len(runs))
        if len(runs) == 1:
            update()                                   # e.g. the run's thread finishes a chunk meanwhile
            during.append(len(document.session_callbacks))

    update = OnLoop(refresh, document)
    update()
    update()                                           # before it ran: the same run
    assert len(loop.callbacks) == 1 and not document.session_callbacks   # the document is not touched here
    loop.callbacks.pop()()                             # on the loop: added to the document there
    assert len(document.session_callbacks) == 1
    run_next_tick(document)
    # A run scheduled during the first would go out before that run's messages and hold them back.
    assert runs == [0] and during == [0] and len(document.session_callbacks) == 1
    run_next_tick(document)
    assert runs == [0, 1] and not document.session_callbacks and not loop.callbacks


def test_a_served_page_sends_the_progress_line_before_redrawing_its_plots():
    from panel.io.state import set_curdoc

    loop = FakeLoop()
    document = served_document(loop)
    with set_curdoc(document):
        page = AnalysisPage(players=3, games=20, seed=11, chunk=10)
    page.run.run(RunSettings(game="subastral", players=3, games=20, seed=11, chunk=10))
    with set_curdoc(document):
        run_next_tick(document, loop)                  # the texts: at once, in a message of their own
        assert page.progress.object.startswith("20 / 20 games") and page.drawn_games == 0
        assert page.figures["scores"].figure.title.text.endswith("(0 games)")
        assert page.figures["scores"].sources["A"].data["value"] == []
        run_next_tick(document, loop)                  # then the plots
    assert page.drawn_games == 20 and page.figures["scores"].figure.title.text.endswith("(20 games)")
    assert len(page.figures["scores"].sources["A"].data["value"]) == 3
    assert not document.session_callbacks


# ---------------------------------------------------------------------------- plots read at a glance (issue #22, item 9)
@pytest.fixture(scope="module")
def curves_run() -> dict:
    """A short Subastral run with the provisional-score curves, as the page runs it."""
    return compare(**RunSettings(**{**SETTINGS.__dict__, "games": 10}).compare_arguments())


def page_after(result: dict, planned: int = 40) -> AnalysisPage:
    """A page showing ``result`` as the statistics of a run of ``planned`` games."""
    page = AnalysisPage(players=3)
    stats = result["results"]
    page.run.param.update(settings=RunSettings(**{**SETTINGS.__dict__, "games": planned}), stats=stats,
                          history=difference_points(stats))
    page.refresh_plots()
    return page


def glyph_colours(shown, setting: str) -> set[str]:
    """The colours of every glyph reading the setting's source (lines, bands, marks)."""
    source = shown.sources[setting]
    colours = set()
    for renderer in shown.figure.renderers:
        if renderer.data_source is source:
            glyph = renderer.glyph
            colours |= {getattr(glyph, name) for name in ("line_color", "fill_color") if isinstance(getattr(glyph, name, None), str)}
    return colours


def test_a_and_b_keep_one_colour_each_on_every_plot_and_their_bands_differ_in_kind(curves_run):
    page = page_after(curves_run)
    for setting in ("A", "B"):
        colours = [glyph_colours(page.figures[name], setting) for name in ("scores", "win_rates", "length", "distribution",
                                                                           "envelope")]
        assert all(found == colours[0] for found in colours) and len(colours[0]) == 1, (setting, colours)
    assert glyph_colours(page.figures["envelope"], "A") != glyph_colours(page.figures["envelope"], "B")
    bands = {setting: next(r.glyph for r in page.figures["envelope"].figure.renderers
                           if r.data_source is page.figures["envelope"].sources[setting] and hasattr(r.glyph, "y1"))
             for setting in ("A", "B")}
    # Where the bands overlap both show: A's filled, B's hatched (not two fills of the same alpha).
    assert bands["A"].fill_alpha > 0 and bands["A"].hatch_pattern is None
    assert bands["B"].hatch_pattern and bands["B"].fill_alpha == 0
    labels = [item.label.value for legend in page.figures["envelope"].figure.legend for item in legend.items]
    assert labels == ["Setting A", "Setting B"]


def test_every_legend_of_the_page_sits_beside_its_plot(curves_run):
    from bokeh.models import Legend

    page = page_after(curves_run)
    for name, shown in page.figures.items():
        fig = shown.figure
        assert not [model for model in fig.center if isinstance(model, Legend)], f"{name}: a legend over the data"
        if name != "length":
            assert [model for model in fig.right if isinstance(model, Legend)], name


def test_the_envelope_spans_the_decisions_recorded_and_the_convergence_plot_the_whole_run(curves_run):
    page = page_after(curves_run, planned=40)
    envelope = page.figures["envelope"].figure
    last = max(max(curves_run["results"][key]["score_curve"]["decision"]) for key in ("a", "b"))
    assert (envelope.x_range.start, envelope.x_range.end) == (0, last)
    difference = page.figures["difference"].figure
    assert (difference.x_range.start, difference.x_range.end) == (0, 40), "the games still to come have their room"
    assert max(page.sent["difference"]["seats"][0]["games"]) == 10


def test_the_envelope_reaches_the_last_decision_of_the_game():
    result = compare("subastral", 3, 1, 5, variants_b={"disturbance": True}, executor="inprocess", curves=True)
    for key in ("a", "b"):
        stats = result["results"][key]
        assert max(stats["score_curve"]["decision"]) == stats["game_length"]["mean"]


# ---------------------------------------------------------------------------- what a page may ask of its server
def test_no_page_chooses_a_dask_scheduler_the_server_connects_to(monkeypatch):
    """A served page once took a scheduler address in a text field: anyone who opened it could have the
    server connect wherever they liked (a port scanner, and a Dask "scheduler" of their own sends the
    server pickles). The scheduler is the process's setting: DASK_SCHEDULER_ADDRESS, or the page's
    constructor in a notebook; the page offers Dask only then, and says so without a field."""
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    page = AnalysisPage()
    assert list(page.param.executor.objects) == ["inprocess", "processes"]
    with pytest.raises(ValueError):
        page.executor = "dask"                   # (what a forged message from the executor menu asks)
    assert page.executor == "processes"
    with pytest.raises(TypeError):
        page.scheduler = "tcp://203.0.113.9:8786"
    widgets = [item for item in page.controls.objects if hasattr(item, "value")]
    assert not any(getattr(item, "css_classes", None) == ["analysis-scheduler"] for item in widgets)
    assert "analysis-scheduler" in [item.css_classes[0] for item in page.controls.objects if item.css_classes]
    with pytest.raises(ValueError, match="needs a scheduler"):
        AnalysisPage(executor="dask")

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:8786")
    served = AnalysisPage(executor="dask")
    assert "dask" in served.param.executor.objects
    assert served.settings().scheduler is None          # (compare then reads DASK_SCHEDULER_ADDRESS itself)
    own = AnalysisPage(scheduler="tcp://10.0.0.5:8786", executor="dask")
    assert own.settings().scheduler == "tcp://10.0.0.5:8786"


def test_a_page_asks_for_a_bounded_run():
    """Games, worker processes and chunks (each a point in the plots' history) are bounded: a forged
    value is refused by the parameter, a run of too many chunks by Run, which says why and changes
    nothing (the last run's results stay)."""
    from explorer.pages.analysis import MAX_CHUNKS, MAX_GAMES, MAX_WORKERS

    page = AnalysisPage(players=3, games=40, seed=11, chunk=10, executor="inprocess")
    page.start().join(30)
    before = page.run.result
    assert page.run.status == "done" and not page.notice.visible
    for name, value in (("games", MAX_GAMES + 1), ("games", 10**12), ("workers", MAX_WORKERS + 1), ("workers", 0),
                        ("chunk", 0)):
        with pytest.raises(ValueError):
            setattr(page, name, value)
    page.param.update(games=MAX_GAMES, chunk=MAX_GAMES // MAX_CHUNKS - 1)
    assert page.start() is None
    assert page.notice.visible and page.notice.object == (
        "Not started: 2,041 chunks is more than a run may have (2,000). Choose a chunk of at least 50 games, or fewer games.")
    assert page.run.result is before and page.run.status == "done" and page.run.settings.games == 40
    page.param.update(games=20, chunk=10)
    page.start().join(30)
    assert page.run.status == "done" and page.run.settings.games == 20 and not page.notice.visible


def test_the_server_runs_a_bounded_number_of_analyses_at_once(monkeypatch):
    """At most $RULES_EXPLORER_MAX_ANALYSIS_RUNS runs at once on a server (pages opened one after another
    cannot take every core): one more is refused with a notice until one ends; 0 allows none."""
    monkeypatch.setenv("RULES_EXPLORER_MAX_ANALYSIS_RUNS", "1")
    first = AnalysisPage(players=3, games=20_000, seed=11, chunk=100, executor="inprocess")
    other = AnalysisPage(lang="ja", players=3, games=20, seed=11, chunk=10, executor="inprocess")
    thread = first.start()
    try:
        assert other.start() is None
        assert other.notice.visible and "1" in other.notice.object and "開始しませんでした" in other.notice.object
        assert other.run.status == "idle"
    finally:
        first.stop()
        thread.join(30)
    assert first.run.status == "stopped"
    other.start().join(30)
    assert other.run.status == "done" and not other.notice.visible
    monkeypatch.setenv("RULES_EXPLORER_MAX_ANALYSIS_RUNS", "0")
    assert first.start() is None and "0" in first.notice.object


def test_a_served_page_s_run_ends_with_its_session():
    """A run is its page's: when Bokeh ends the page's session (the tab closed), the run stops after the
    chunk it is playing (it went on for as long as its settings said, holding the server's cores)."""
    from panel.io.state import set_curdoc

    loop = FakeLoop()
    document = served_document(loop)
    with set_curdoc(document):
        page = AnalysisPage(players=3, games=20_000, seed=11, chunk=100, executor="inprocess")
    thread = page.start()
    for callback in list(document.session_destroyed_callbacks):
        callback(None)
    thread.join(30)
    assert not thread.is_alive() and page.run.status == "stopped"


def test_stop_gives_up_the_chunk_in_play_and_frees_the_server_s_slot(monkeypatch):
    """MCTS bots in A, one worker process, chunks of 50 paired 4-player games: a chunk is some 12 minutes
    (a paired game ~15 s). Stop (and a closed tab) waited for it, the page saying "running", its worker
    busy, and two closed tabs held both of the server's slots (an outside test). Now the worker is ended
    at once: the run stops with the chunks finished before (none), and another page can run."""
    monkeypatch.setenv("RULES_EXPLORER_MAX_ANALYSIS_RUNS", "1")
    page = AnalysisPage(players=4, games=500, seed=3, chunk=50, bot_a="mcts", executor="processes", workers=1)
    thread = page.start()
    try:
        wait_for(lambda: page.run.status == "running", "the run to start")
        page.stop()
        thread.join(120)            # (not a speed bound: the chunk in play would take some 12 minutes)
        assert not thread.is_alive() and page.run.status == "stopped"
        assert page.run.result["interrupted"] is True and page.run.games_done == 0
    finally:
        page.stop()
    other = AnalysisPage(players=3, games=10, seed=3, chunk=10, executor="inprocess")
    other.start().join(60)
    assert other.run.status == "done" and not other.notice.visible


def wait_for(predicate, what: str, seconds: float = 60.0) -> None:
    """Until ``predicate()`` holds (a state of the page), or fail naming ``what`` after ``seconds``."""
    import time

    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)

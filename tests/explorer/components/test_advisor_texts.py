"""The move advisor and the variant switches' labels and notes in English and Japanese
(explorer/components/advisor.py, explorer/core/session.py; explorer/locales/<lang>/advisor.json).

The English is exactly what it was before the texts moved to the locale files; in Japanese the
advisor shows Japanese, the moves as the rules name them in Japanese, and none of its English labels.
"""

from __future__ import annotations

import random
import re

import pytest
from bokeh.models import HoverTool, LabelSet, Whisker

import rules
from explorer.components.advisor import ROW_HEIGHT, AdviceFigure, MoveAdvisor, advice_plot, advice_plot_data
from explorer.core.session import GameSession, switches_class, variant_label, variant_note
from explorer.core.i18n import text

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

#: Every static English text of the advisor, as it read before it moved to the locale files.
ENGLISH_LABELS = ("Rollouts (all moves)", "Rollouts in all, shared evenly between the legal moves.", "Seed",
                  "Seed of the re-dealt worlds and the random bots: the same seed, the same advice.", "Objective",
                  "What a rollout records for the seat.", "Advise", "Estimated value per move", "final score",
                  "win share", "Press Advise", "rollouts per move", "in all", "Best:", "Playing", "Player",
                  "has no move to make now", "The game is over", "No advice", "cannot re-deal", "95% interval")


def session_after(moves: int, game: str = "subastral", players: int = 3, seed: int = 2) -> GameSession:
    session = GameSession(game=game, players=players, seed=seed)
    bots = {}
    for _ in range(moves):
        seats = session.spec.to_move(session.state)
        if not seats:
            break
        seat = seats[0]
        # A uniformly random move from a generator per seat (fixed here, not by the bots' seed rule, so the
        # positions these texts are checked at stay the same).
        rng = bots.setdefault(seat, random.Random(5 + seat))
        session.play(seat, rng.choice(session.spec.legal_actions(session.state, seat)))
    return session


def shown(advisor: MoveAdvisor) -> list[str]:
    """Every text the advisor shows: its inputs' labels, tips and choices, the button, the status."""
    said = []
    for widget in advisor.inputs.values():
        said += [widget.name, widget.description]
    said += list(advisor.inputs["objective"].options)
    said += [advisor.button.label, advisor.status]
    return said


def chart_texts(advisor: MoveAdvisor) -> list[str]:
    """The title, the axis labels and the hover's names of the chart the advisor's pane shows."""
    figure = advisor.plot.object
    assert figure is advisor.chart.figure
    tips = [name for tool in figure.select({"type": HoverTool}) for name, _ in tool.tooltips]
    return [figure.title.text, *(axis.axis_label for axis in figure.xaxis + figure.yaxis), *tips]


# ---------------------------------------------------------------------------- English: unchanged
def test_the_english_advisor_reads_as_before():
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=20, seed=1)
    assert shown(advisor) == ["Rollouts (all moves)", "Rollouts in all, shared evenly between the legal moves.",
                              "Seed", "Seed of the re-dealt worlds and the random bots: the same seed, the same advice.",
                              "Objective", "What a rollout records for the seat.", "score", "win share",
                              "Advise", "Press Advise for Player 1's moves."]
    assert advisor.inputs["objective"].options == {"score": "score", "win share": "win share"}
    assert chart_texts(advisor) == ["Estimated value per move", "final score", "move", "move", "final score",
                                    "95% interval"]
    statuses = []
    advisor.param.watch(lambda event: statuses.append(event.new), "status")
    values = advisor.compute()
    assert sorted(v.label for v in values) == sorted(str(a) for a in session.spec.legal_actions(session.state, 0))
    assert all(v.label == str(v.action) for v in values)
    assert statuses == ["Playing 20 rollouts for Player 1…",
                        f"Player 1: 4 rollouts per move, 20 in all (seed 1). Best: **{values[0].label}**"]
    assert values[0].label == "take cloud 4 to hand"      # rollouts seeded by the one seed rule (play/seeds.py)
    advisor.objective = "win share"
    assert chart_texts(advisor)[:2] == ["Estimated value per move", "final score"], "the advice shown is in points"
    advisor.compute()
    assert chart_texts(advisor)[:2] == ["Estimated value per move", "win share"]
    advisor.values = []
    advisor.objective = "score"
    assert chart_texts(advisor)[:2] == ["Estimated value per move", "final score"], "no advice: the objective chosen"


def test_the_english_prompts_and_failures_read_as_before(monkeypatch):
    session = session_after(3)
    mover = session.spec.to_move(session.state)[0]
    session.viewing_seat = (mover + 1) % 3
    advisor = MoveAdvisor(session=session, budget=5)
    assert advisor.status == f"Player {(mover + 1) % 3 + 1} has no move to make now."
    session.viewing_seat = None
    assert advisor.status == f"Press Advise for Player {mover + 1}'s moves."
    monkeypatch.setattr(type(session.spec), "sample_hidden", lambda self, state, seat, rng: None)
    advisor.compute()
    assert advisor.status == ("No advice: Subastral cannot re-deal hidden information (no sample_hidden): "
                              "the advisor would have to peek at the real cards")
    over = session_after(10_000)
    assert MoveAdvisor(session=over).status == "The game is over: no move to advise."


def test_the_english_variant_labels_and_notes_are_the_switches_own():
    """What the sidebar shows: each switch in words of its own (the locale file's English label, not
    words made from its name: "Scan without face down variant" read like a typo), the same as the
    switch's parameter label, and the parameter's doc as the note."""
    assert variant_label("subastral", "disturbance") == "Disturbance variant"
    assert variant_label("stellar", "satellite_clear", "en") == "Row cleared after a satellite"
    assert variant_label("jump_gate", "scan_without_face_down", "en") == "Scan without a face-down resource"
    assert variant_note("subastral", "disturbance", "en") == (
        "After the last turn, everyone passes one hand card left, straight into the neighbour's journal. "
        "(source: the rules text, 擾乱バリアント (disturbance variant); docs/readings.md, Subastral 10)")
    for game in rules.GAMES:
        spec = rules.get_game(game)
        switches = switches_class(spec)
        for variant in spec.variants:
            parameter = switches.param[variant.name]
            label = text(f"advisor.variant.{game}.{variant.name}.label", "en")     # (every switch is named)
            made = variant.name.replace("_", " ").capitalize()
            if isinstance(variant.default, bool) and variant.name != "disturbance":    # (a published variant's name)
                assert label != f"{made} variant", label
            assert variant_label(game, variant.name, "en") == parameter.label == label
            assert variant_note(game, variant.name, "en") == parameter.doc


# ---------------------------------------------------------------------------- Japanese
def test_the_japanese_advisor_shows_japanese_and_none_of_its_english_labels(monkeypatch):
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=20, seed=1, lang="ja")
    statuses = []
    advisor.param.watch(lambda event: statuses.append(event.new), "status")
    values = advisor.compute()
    assert [v.label for v in values] == [session.spec.action_label(v.action, "ja") for v in values]
    assert all(JAPANESE.search(v.label) for v in values)
    assert statuses[0] == "プレイヤー1のために20回のロールアウトを実行中…"
    assert statuses[1] == f"プレイヤー1：1手あたり4回、合計20回のロールアウト（シード1）。最善手：**{values[0].label}**"
    assert advisor.inputs["objective"].options == {"得点": "score", "勝ちの取り分": "win share"}
    texts = shown(advisor) + chart_texts(advisor) + statuses
    assert chart_texts(advisor) == ["手ごとの推定価値", "最終得点", "手", "手", "最終得点", "95%信頼区間"]
    advisor.objective = "win share"
    advisor.compute()
    texts += chart_texts(advisor)
    assert "手ごとの推定価値" in texts and "最終得点" in texts and "勝ちの取り分" in texts
    for said in texts:
        assert JAPANESE.search(said), said
        for english in ENGLISH_LABELS:
            assert english not in said, (english, said)
    # the chart's columns keep their names: the same data in both languages
    assert list(advisor.chart.source.data) == ["move", "value", "low", "high", "colour"]
    assert advisor.chart.source.data["move"] == [v.label for v in reversed(advisor.values)]
    assert advice_plot(advisor.plot_data, lang="ja")["columns"] == advice_plot(advisor.plot_data)["columns"]

    prompts = []
    session.viewing_seat = 1
    prompts.append(advisor.status)
    session.viewing_seat = None
    prompts.append(advisor.status)
    monkeypatch.setattr(type(session.spec), "sample_hidden", lambda self, state, seat, rng: None)
    advisor.compute()
    prompts.append(advisor.status)
    prompts.append(MoveAdvisor(session=session_after(10_000), lang="ja").status)
    assert prompts == ["プレイヤー2には今選べる手がありません。", "「相談する」を押すとプレイヤー1の手を評価します。",
                       "助言できません：Subastralは見えない情報を配り直せません（sample_hidden がありません）。"
                       "相談役が本物のカードをのぞき見ることになります",
                       "ゲームは終わりました。相談できる手はありません。"]
    for said in prompts:
        assert not any(english in said for english in ENGLISH_LABELS), said


def test_a_change_of_language_relabels_the_advisor_and_clears_its_advice():
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=10)
    figure = advisor.chart.figure
    advisor.compute()
    assert advisor.values and figure.y_range.factors
    advisor.lang = "ja"
    assert advisor.values == [] and advisor.advised is None
    assert shown(advisor)[-2:] == ["相談する", "「相談する」を押すとプレイヤー1の手を評価します。"]
    assert advisor.inputs["objective"].value == "score"
    # the same figure, relabelled and emptied in place
    assert advisor.plot.object is advisor.chart.figure is figure
    assert chart_texts(advisor)[:3] == ["手ごとの推定価値", "最終得点", "手"]
    assert all(column == [] for column in advisor.chart.source.data.values()) and figure.y_range.factors == []
    advisor.lang = "en"
    assert shown(advisor)[-2:] == ["Advise", "Press Advise for Player 1's moves."]
    assert chart_texts(advisor)[:3] == ["Estimated value per move", "final score", "move"]
    assert advisor.plot.object is figure


def test_the_chart_is_one_bokeh_figure_that_each_advice_patches_in_place():
    """Bars from 0 to each move's mean in the seat's colour, the best on top, a whisker over its 95%
    interval; a second advice, a cleared one, give the same figure (the pane's object unchanged) new
    columns, categories and height."""
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=20, seed=1)
    chart, figure = advisor.chart, advisor.chart.figure
    assert isinstance(chart, AdviceFigure) and advisor.plot.object is figure
    assert figure.height == 160 and figure.y_range.factors == []
    assert not figure.visible and advisor.plot.visible, "no empty chart: the figure hidden, never its pane"
    first = advisor.compute()
    assert figure.visible and advisor.plot.visible
    columns = dict(chart.source.data)
    assert columns == {"move": [v.label for v in reversed(first)], "value": [v.mean for v in reversed(first)],
                       "low": [v.low for v in reversed(first)], "high": [v.high for v in reversed(first)],
                       "colour": ["#2f6fdb"] * len(first)}
    assert figure.y_range.factors == columns["move"] and figure.y_range.factors[-1] == first[0].label, "best on top"
    assert figure.height == 70 + ROW_HEIGHT * len(first)
    # the axis spans the intervals, not 0 to the best (close values must look apart)
    assert min(v.low for v in first) > figure.x_range.start > 0 and figure.x_range.end >= max(v.high for v in first)
    [whisker] = figure.select({"type": Whisker})
    assert whisker.source is chart.source and (whisker.base, whisker.lower, whisker.upper) == ("move", "low", "high")
    [marks] = [r for r in figure.renderers if r.glyph.__class__.__name__ == "Scatter"]     # a dot per move
    assert marks.data_source is chart.source and figure.select_one({"type": HoverTool}).renderers == [marks]
    assert (marks.glyph.x, marks.glyph.y) == ("value", "move")

    advisor.budget, advisor.seed = 40, 2
    second = advisor.compute()
    assert second != first
    assert advisor.plot.object is figure and advisor.chart is chart, "patched, not replaced"
    assert chart.source.data["value"] == [v.mean for v in reversed(second)]
    assert figure.y_range.factors[-1] == second[0].label

    session.goto(5)                               # another position: the advice is stale
    assert advisor.values == []
    assert advisor.plot.object is figure and figure.height == 160 and figure.y_range.factors == []
    assert all(column == [] for column in chart.source.data.values())
    assert not figure.visible and advisor.plot.visible
    assert figure.title.text == "Estimated value per move"


def test_the_chart_grows_with_the_number_of_moves():
    data = advice_plot_data([])
    assert advice_plot(data)["structure"]["height"] == 160
    many = {"move": [f"move {n}" for n in range(12)], "value": [1.0] * 12, "low": [0.5] * 12, "high": [2.0] * 12}
    shown = AdviceFigure(advice_plot(data))
    shown.show(advice_plot(many, seat=1))
    assert shown.figure.height == 70 + ROW_HEIGHT * 12 and shown.figure.y_range.factors == many["move"]
    # Each move's name above its dot, not beside the axis (where long names squeezed a phone's plot).
    [names] = shown.figure.select({"type": LabelSet})
    assert names.source is shown.source and names.text == "move" and names.x_units == "screen"
    assert shown.figure.yaxis[0].major_label_text_font_size == "0px"
    assert set(shown.source.data["colour"]) == {advice_plot(many, seat=1)["columns"]["colour"][0]} != {"#2f6fdb"}
    assert (shown.figure.x_range.start, shown.figure.x_range.end) == (pytest.approx(0.35), pytest.approx(2.15))
    below = {**many, "low": [-1.0] * 12}
    shown.show(advice_plot(below))
    assert shown.figure.x_range.start < -1.0


@pytest.mark.parametrize("game", [g for g in rules.GAMES if rules.get_game(g).variants])
def test_every_variant_has_a_japanese_label_and_note(game):
    for variant in rules.get_game(game).variants:
        label, note = variant_label(game, variant.name, "ja"), variant_note(game, variant.name, "ja")
        assert JAPANESE.search(label) and JAPANESE.search(note)
        assert label != variant_label(game, variant.name, "en")
        assert "variant" not in label and "(source:" not in note and "出典" in note
        assert not re.search(r"\b(the|is|are|when|which|with)\b", note), note


def test_a_variant_the_locale_files_do_not_name_yet_falls_back_to_its_english(monkeypatch):
    from rules.protocol import Variant
    spec = rules.get_game("subastral")
    extra = Variant(name="new_rule", default=False, description="Something new.", source="a test")
    monkeypatch.setattr(type(spec), "variants", (*spec.variants, extra))
    assert variant_label("subastral", "new_rule", "ja") == "New rule variant"
    assert variant_note("subastral", "new_rule", "ja") == "Something new. (source: a test)"
    with pytest.raises(KeyError):
        variant_label("subastral", "no_such_variant")


# ---------------------------------------------------------------------------- served: trust and cost
HOSTILE = "N<img src=x id=pwn onerror=alert(1)>"


def test_a_card_files_words_in_the_advice_show_as_text_never_as_markup():
    """The status is Markdown, which passes HTML through: a move's label (a card file names its cards)
    and a failure's reason are written as literal text (an outside tester's alert ran from a biome name)."""
    from explorer.cardfiles import standard_file
    from rules import replay as replay_files

    cards = standard_file("subastral")
    for biome in cards["biomes"]:
        biome["name"] = HOSTILE
    spec = rules.get_game("subastral").with_card_file(cards)
    session = GameSession(game="subastral", players=2, seed=3)
    session.load({**replay_files.record(spec, 2, 3, {}, []), "cards": cards})
    advisor = MoveAdvisor(session=session, budget=12, seed=1)
    labels = [value.label for value in advisor.compute()]
    assert any(HOSTILE in label for label in labels)
    assert HOSTILE in labels[0]             # (the best move plays a biome: its name is in the status)
    assert "<img" not in advisor.status and "Best: **play N&lt;img src=x id=pwn onerror=alert(1)&gt; " in advisor.status
    assert "<img" not in advisor._failure(ValueError(HOSTILE))


def test_advice_stops_when_its_position_changes_and_counts_against_the_servers_limit(monkeypatch):
    """Advice is a core's work while it lasts (Jump Gate's largest budget: minutes): its rollouts end
    when the position it is for changes (or its page closes: the same stop), and at most
    ``$RULES_EXPLORER_MAX_ADVICE_RUNS`` are worked out at once (0: none)."""
    import threading

    from explorer.components import advisor as advisor_module

    session = session_after(2, game="jump_gate", players=2)
    advisor = MoveAdvisor(session=session, budget=100_000, seed=1)
    started, rollouts = threading.Event(), []
    real = advisor_module.advise

    def watched(*args, should_stop, **kwargs):
        def stop():
            rollouts.append(1)
            started.set()
            return should_stop()
        return real(*args, should_stop=stop, **kwargs)

    monkeypatch.setattr(advisor_module, "advise", watched)
    thread = advisor.start()
    assert started.wait(60), "no rollout began"
    seat = session.spec.to_move(session.state)[0]
    session.play(seat, session.spec.legal_actions(session.state, seat)[0])     # the position moves on
    thread.join(60)
    assert not thread.is_alive(), "the rollouts went on for a position left behind"
    assert len(rollouts) < 1000 and advisor.values == [] and not advisor.busy
    # The server's limit: one at once, the second refused in words; none at all with 0.
    monkeypatch.setenv(advisor_module.MAX_ADVICE_RUNS_ENV, "1")
    other = MoveAdvisor(session=session_after(2, game="jump_gate", players=2), budget=10)
    assert advisor_module._advising.take("someone else's advice")
    try:
        assert other.compute() == [] and other.status.startswith("No advice: this server's limit of advice")
    finally:
        advisor_module._advising.give_back("someone else's advice")
    assert other.compute() and other.status.startswith("Player ")
    monkeypatch.setenv(advisor_module.MAX_ADVICE_RUNS_ENV, "0")
    assert other.compute() == [] and other.status == "No advice: this server works out no advice."


def test_the_chart_shows_and_hides_once_the_page_styled_its_figure():
    """A served page's design gives the pane's model, the figure itself, ``ImportedStyleSheet`` models;
    the Bokeh pane's own ``visible`` changed then raised a TypeError (Panel copies the figure's
    properties, its stylesheets too, back onto the pane) in the page's refresh, and the advice never
    reached the page. The figure's ``visible`` is changed instead."""
    from bokeh.models import ImportedStyleSheet

    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=10)
    advisor.chart.figure.stylesheets = [ImportedStyleSheet(url="bundled/theme/bootstrap.css")]
    advisor.compute()
    assert advisor.chart.figure.visible and advisor.chart.figure.y_range.factors
    assert "(seed 0)" in advisor.status == advisor.message.object and not advisor.button.disabled
    session.goto(5)
    assert not advisor.chart.figure.visible

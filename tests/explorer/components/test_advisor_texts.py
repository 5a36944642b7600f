"""The move advisor and the variant switches' labels and notes in English and Japanese
(explorer/components/advisor.py, explorer/core/session.py; explorer/locales/<lang>/advisor.json).

The English is exactly what it was before the texts moved to the locale files; in Japanese the
advisor shows Japanese, the moves as the rules name them in Japanese, and none of its English labels.
"""

from __future__ import annotations

import random
import re

import holoviews as hv
import pytest

import rules
from explorer.components.advisor import MoveAdvisor, advice_plot, advice_plot_data
from explorer.core.session import GameSession, switches_class, variant_label, variant_note

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

#: Every static English text of the advisor, as it read before it moved to the locale files.
ENGLISH_LABELS = ("Rollouts (all moves)", "Rollouts in all, shared evenly between the legal moves.", "Seed",
                  "Seed of the re-dealt worlds and the random bots: the same seed, the same advice.", "Objective",
                  "What a rollout records for the seat.", "Advise", "Estimated value per move", "final score",
                  "win share", "Press Advise", "rollouts per move", "in all", "Best:", "Playing", "Player",
                  "has no move to make now", "The game is over", "No advice", "cannot re-deal")


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
    figure = hv.render(advisor._chart())
    tips = [name for tool in figure.tools if hasattr(tool, "tooltips") for name, _ in tool.tooltips]
    return [figure.title.text, *(axis.axis_label for axis in figure.xaxis + figure.yaxis), *tips]


@pytest.fixture(scope="module", autouse=True)
def bokeh():
    hv.extension("bokeh")


# ---------------------------------------------------------------------------- English: unchanged
def test_the_english_advisor_reads_as_before():
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=20, seed=1)
    assert shown(advisor) == ["Rollouts (all moves)", "Rollouts in all, shared evenly between the legal moves.",
                              "Seed", "Seed of the re-dealt worlds and the random bots: the same seed, the same advice.",
                              "Objective", "What a rollout records for the seat.", "score", "win share",
                              "Advise", "Press Advise for Player 1's moves."]
    assert advisor.inputs["objective"].options == {"score": "score", "win share": "win share"}
    assert chart_texts(advisor) == ["Estimated value per move", "final score", "move", "move", "final score"]
    statuses = []
    advisor.param.watch(lambda event: statuses.append(event.new), "status")
    values = advisor.compute()
    assert sorted(v.label for v in values) == sorted(str(a) for a in session.spec.legal_actions(session.state, 0))
    assert all(v.label == str(v.action) for v in values)
    assert statuses == ["Playing 20 rollouts for Player 1…",
                        f"Player 1: 4 rollouts per move, 20 in all (seed 1). Best: **{values[0].label}**"]
    assert values[0].label == "take cloud 4 to hand"      # rollouts seeded by the one seed rule (play/seeds.py)
    advisor.objective = "win share"
    assert chart_texts(advisor)[:2] == ["Estimated value per move", "win share"]


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
    """What the sidebar showed: an on/off switch's "<label> variant" checkbox, a selector's label, and
    the parameter's doc as the note."""
    assert variant_label("subastral", "disturbance") == "Disturbance variant"
    assert variant_label("stellar", "satellite_clear", "en") == "Satellite clear"
    assert variant_note("subastral", "disturbance", "en") == (
        "After the last turn, everyone passes one hand card left, straight into the neighbour's journal. "
        "(source: the rules text, 擾乱バリアント (disturbance variant); docs/readings.md, Subastral 10)")
    for game in rules.GAMES:
        spec = rules.get_game(game)
        switches = switches_class(spec)
        for variant in spec.variants:
            parameter = switches.param[variant.name]
            on_off = isinstance(variant.default, bool)
            assert variant_label(game, variant.name, "en") == (f"{parameter.label} variant" if on_off else parameter.label)
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
    advisor.objective = "win share"
    texts += chart_texts(advisor)
    assert "手ごとの推定価値" in texts and "最終得点" in texts and "勝ちの取り分" in texts
    for said in texts:
        assert JAPANESE.search(said), said
        for english in ENGLISH_LABELS:
            assert english not in said, (english, said)
    # the chart's columns keep their names: the same data in both languages
    assert [d.name for d in advice_plot(advisor.plot_data, lang="ja").get(0).dimensions()] == \
        [d.name for d in advice_plot(advisor.plot_data).get(0).dimensions()] == ["move", "final score"]

    prompts = []
    session.viewing_seat = 1
    prompts.append(advisor.status)
    session.viewing_seat = None
    prompts.append(advisor.status)
    monkeypatch.setattr(type(session.spec), "sample_hidden", lambda self, state, seat, rng: None)
    advisor.compute()
    prompts.append(advisor.status)
    prompts.append(MoveAdvisor(session=session_after(10_000), lang="ja").status)
    assert prompts == ["プレイヤー2には今指せる手がありません。", "「相談する」を押すとプレイヤー1の手を評価します。",
                       "助言できません：Subastralは見えない情報を配り直せません（sample_hidden がありません）。"
                       "相談役が本物のカードをのぞき見ることになります",
                       "ゲームは終わりました。相談できる手はありません。"]
    for said in prompts:
        assert not any(english in said for english in ENGLISH_LABELS), said


def test_a_change_of_language_relabels_the_advisor_and_clears_its_advice():
    session = session_after(6, players=2, seed=3)
    advisor = MoveAdvisor(session=session, budget=10)
    advisor.compute()
    assert advisor.values
    advisor.lang = "ja"
    assert advisor.values == [] and advisor.advised is None
    assert shown(advisor)[-2:] == ["相談する", "「相談する」を押すとプレイヤー1の手を評価します。"]
    assert advisor.inputs["objective"].value == "score"
    advisor.lang = "en"
    assert shown(advisor)[-2:] == ["Advise", "Press Advise for Player 1's moves."]


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

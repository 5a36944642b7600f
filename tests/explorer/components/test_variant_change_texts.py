"""What the page says after a variant flip (issue #22, item 6), in English and Japanese.

``ReplayProblem`` shows ``session.variant_change``: a note when every move is still legal, the
prominent cut-line notice otherwise, both with the scores at the end of the line before and after,
per player. The numbers are the rules' own; the words come from ``explorer/locales``.
"""

from __future__ import annotations

import re

import pytest

from explorer.components.timeline import ReplayProblem, variant_change_text
from explorer.core.i18n import literal
from explorer.core.session import GameSession
from tests.helpers.seeded_games import autoplay_as_before

SEED = 8
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH = ("Variants changed", "still legal", "Scores", "Player", "final", "moves", "not over", "Disturbance",
           "cut line", "old line", " on ", " off")


def flipped(lang: str) -> tuple[GameSession, ReplayProblem]:
    """A finished game whose disturbance variant is then switched on: every move stays legal."""
    session = GameSession(game="subastral", players=4, seed=SEED)
    notice = ReplayProblem(session=session, lang=lang)
    session.autoplay("greedy")
    session.variant_switches.disturbance = True
    return session, notice


def cut(lang: str) -> tuple[GameSession, ReplayProblem]:
    """A disturbance game whose variant is then switched off: its first pass becomes illegal."""
    session = GameSession(seed=7, variants={"disturbance": True})
    notice = ReplayProblem(session=session, lang=lang)
    autoplay_as_before(session, "greedy")
    session.variant_switches.disturbance = False
    return session, notice


def scores_said(change: dict, score: str, separator: str) -> str:
    return separator.join(score.format(player=player, before=before, after=after)
                          for player, (before, after) in enumerate(zip(change["before"]["scores"],
                                                                     change["after"]["scores"]), start=1))


def unchanged(change: dict) -> bool:
    return change["before"]["scores"] == change["after"]["scores"]


def test_a_flip_that_leaves_every_move_legal_says_so_with_each_player_s_scores():
    session, notice = flipped("en")
    change = session.variant_change
    moves = len(session.log)
    assert notice.change_text() == (
        "**Variants changed: Disturbance variant off → on.** Every move of this line is still legal under the new "
        f"rules.  \nUnder the old rules these {moves} moves ended the game; under the new ones it is not over yet, "
        "so play on from the line's end. Scores at the end of the line, "
        + ("unchanged: " + scores_said(change, "Player {player} {before}", ", ") if unchanged(change) else
           "before → now: " + scores_said(change, "Player {player} {before} → {after}", ", ")) + ".")
    assert notice.change.visible and notice.change.object == notice.change_text()
    assert not notice.alert.visible and notice.text() == ""


def test_the_same_in_japanese():
    session, notice = flipped("ja")
    change = session.variant_change
    moves = len(session.log)
    said = notice.change_text()
    assert said == ("**バリアントを変更しました：擾乱バリアント オフ → オン。** 新しいルールでも、この手順のすべての手が有効です。  \n"
                    f"変更前のルールではこの{moves}手でゲームが終わっていましたが、新しいルールではまだ終わっていません。"
                    "手順の最後から続けて遊べます。 "
                    + ("手順の終わりの得点（変わりません）：" + scores_said(change, "プレイヤー{player} {before}", "、")
                       if unchanged(change) else
                       "手順の終わりの得点（変更前 → 変更後）：" + scores_said(change, "プレイヤー{player} {before} → {after}", "、"))
                    + "。")
    for words in ENGLISH:
        assert words not in said, words


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_flip_that_cuts_the_line_says_which_move_why_and_both_lines_scores(lang):
    session, notice = cut(lang)
    change, problem = session.variant_change, session.replay_problem
    said = notice.text()
    assert notice.alert.visible and notice.alert.object == said and not notice.change.visible
    head, scores = said.rsplit("  \n", 1)
    if lang == "en":
        assert head.startswith(f"**The variant change cut this line at move {problem['move']}.** {literal(problem['text'])}")
        assert head.endswith("Variants changed: Disturbance variant on → off.")
        assert scores == ("Scores, the whole old line → the cut line: "
                          + scores_said(change, "Player {player} {before} → {after}", ", ")
                          + f" (the game is over after {change['before']['moves']} moves → the game is over after {change['after']['moves']} moves).")
    else:
        assert head.startswith(f"**バリアントの変更により、この手順は{problem['move']}手目で切れました。**")
        assert head.endswith("バリアントを変更しました：擾乱バリアント オン → オフ。")
        assert scores == ("得点（元の手順全体 → 切れた手順）："
                          + scores_said(change, "プレイヤー{player} {before} → {after}", "、")
                          + f"（{change['before']['moves']}手で終局 → {change['after']['moves']}手で終局）。")
        for words in ENGLISH:
            assert words not in said, words


def test_one_move_is_one_move():
    session = GameSession(game="subastral", players=3, seed=SEED)
    session.autoplay("greedy", until_over=False)
    session.variants = {"disturbance": True}
    assert "The line ends as before: 1 move played, the game is not over yet." in variant_change_text(session, session.variant_change)
    assert "（1手、対局中）" in variant_change_text(session, session.variant_change, "ja")


def test_a_flip_before_any_move_says_there_is_none():
    session = GameSession(game="subastral", players=3, seed=SEED)
    notice = ReplayProblem(session=session, lang="en")
    session.variants = {"disturbance": True}
    assert "This line has no moves yet." in notice.change_text()
    assert "この手順にはまだ手がありません。" in variant_change_text(session, session.variant_change, "ja")


def test_the_notes_go_once_the_line_changes_and_the_rules_words_are_escaped():
    session, notice = flipped("en")
    session.goto(4)
    assert notice.change.visible                       # stepping along the same line keeps it
    session.reset()
    assert not notice.change.visible and not notice.alert.visible
    hostile = '<img src=x onerror="alert(1)"> & <b>'
    session.replay_problem = {"move": 999, "seat": 1, "action": hostile, "message": hostile, "text": hostile}
    assert notice.alert.visible and "<img" not in notice.alert.object and "<b>" not in notice.alert.object
    assert "&lt;img" in notice.alert.object

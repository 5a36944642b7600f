"""The lines of play name a line left for a what-if position by where it begins (issue #22, item 6),
in English and Japanese, and switch back to it."""

from __future__ import annotations

import pytest

from explorer.components.timeline import BranchesPanel
from explorer.core.session import GameSession

SEED = 8

#: How the panel lists the dealt line left for the what-if one, and then the what-if line (1 move) left.
SAID = {
    "en": ("{moves} moves from the deal of Subastral (3 players, seed 8)<br><small>played with Disturbance variant: on</small>",
           "1 move from a what-if position of Subastral (3 players)<br><small>played with Disturbance variant: off</small>"),
    "ja": ("Subastral（3人、シード8）の配りから{moves}手<br><small>擾乱バリアント：オンで対局</small>",
           "Subastral（3人）のもしもの局面から1手<br><small>擾乱バリアント：オフで対局</small>"),
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_line_left_for_a_what_if_position_is_listed_by_where_it_begins_and_its_rules(lang):
    session = GameSession(game="subastral", players=3, seed=SEED, variants={"disturbance": True})
    panel = BranchesPanel(session=session, lang=lang)
    session.autoplay("greedy", then_goto=5)
    position = session.position()
    position["variants"] = {"disturbance": False}
    session.load_position(position)
    session.autoplay("greedy", until_over=False)
    dealt, what_if = SAID[lang]
    old = session.branches[0]
    assert panel._describe(old) == f'<div class="branch-line">{dealt.format(moves=len(old.log))}</div>'
    panel.switch(0)
    assert session.log == list(old.log) and session.start is None and not panel.message
    assert panel._describe(session.branches[0]) == f'<div class="branch-line">{what_if}</div>'


@pytest.mark.parametrize("lang, said", [("en", ("the deal", "the what-if position", "no deal to tell")),
                                        ("ja", ("配り", "もしもの局面", "配りの記録はありません"))])
@pytest.mark.parametrize("game", ["subastral", "stellar", "biome_blitz", "jump_gate", "starligned"])
def test_the_event_log_begins_with_the_what_if_position_not_an_empty_deal(game, lang, said):
    """An outside review: after Apply, the log read "Step 0 the deal" with nothing under it."""
    from explorer.components.timeline import EventLog

    deal, position, note = said
    session = GameSession(game=game, players=2 if game == "stellar" else 3, seed=SEED)
    log = EventLog(session=session, lang=lang)
    first = log.lines().split('<div class="step" data-step="1"')[0]
    assert f'<span class="who">{deal}</span><ul><li>' in first and note not in first
    session.load_position(session.position())
    first = log.lines()
    assert f'<span class="who">{position}</span>' in first and note in first and "<ul></ul>" not in first
    assert position in log.form.heading.object and deal not in log.form.heading.object   # "Pin a note to step 0 (the what-if position)"

"""Every game's tutorial (``explorer/tutorials/<game>.json``) can be played to its end in both
languages: each move it asks for is legal, each wrong move it offers is refused by the engine with a
rule the rulebook explains, every rule of the rulebook is taught, and a learner who leaves and comes
back finds the same game."""

from __future__ import annotations

import copy
import html
import json
import re

import pytest

import rules
from explorer.boards.registry import board_for
from explorer.core.links import rule_reference
from explorer.pages.tutorial import TUTORIALS, TutorialPage, TutorialRun, parse, tutorial
from rules.protocol import InvalidPosition
from rules.rulebook import LANGUAGES, rulebook
from tools.page_check import ID


def walk(run: TutorialRun) -> list[str]:
    """Play the tutorial to its end: every wrong move first (each refused), then the right one."""
    messages = []
    while not run.finished:
        step = run.current
        if step.do is None:
            run.next()
            continue
        for move in step.wrong:
            before = run.session.state
            assert run.choose(move) is False, (run.game, step.id)
            assert run.session.state is before and run.message, (run.game, step.id)
            # The rule's source is said once: by the step's rule line when the refusal names its rule.
            if f"[{run.rule.title[run.lang]}](" in run.message:
                assert rule_reference(run.game, run.rule, run.lang) not in run.message, run.message
            messages.append(run.message)
        assert run.choose(step.do) is True, (run.game, step.id)
    return messages


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", rules.GAMES)
def test_the_tutorial_plays_to_its_end_and_explains_each_wrong_move(game, lang):
    run = TutorialRun(game=game, lang=lang)
    book = rulebook(game)
    messages = walk(run)
    assert run.finished and messages, "a tutorial offers at least one wrong move"
    for message in messages:
        # Each explanation names a rule of the rulebook (its title, linked to the rules page).
        assert any(f"[{rule.title[lang]}](" in message for rule in book.rules), message
        # ... and the cards as players name them, never by the ids files use ("'arctic_tundra-3' is not
        # in Player 1's hand", "starter cards are interstellar_cloud-3-1star and ...", 'leafcutter_ant').
        assert not ID.findall(re.sub(r"\]\([^)]*\)", "]", message)), message
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", message), message


@pytest.mark.parametrize("game", rules.GAMES)
def test_the_tutorial_teaches_every_rule_of_the_rulebook(game):
    script, book = tutorial(game), rulebook(game)
    taught = [step.rule for step in script.steps]
    assert set(taught) <= {rule.id for rule in book.rules}, set(taught) - {rule.id for rule in book.rules}
    assert {rule.id for rule in book.rules} <= set(taught), f"not taught: {[r.id for r in book.rules if r.id not in taught]}"
    assert sum(step.do is not None for step in script.steps) >= 3, "the learner makes at least three moves"
    for step in script.steps:
        for move in (step.do, *step.wrong) if step.do else ():
            assert set(move.label) == set(LANGUAGES)


@pytest.mark.parametrize("game", rules.GAMES)
def test_each_step_highlights_a_zone_of_the_board_it_shows(game):
    run = TutorialRun(game=game)
    board = board_for(run.session)
    while not run.finished:
        step = run.current
        if step.zone:
            for selector in step.zone.split(","):
                name = selector.strip().split()[-1].lstrip(".")
                assert re.search(rf'class="[^"]*\b{re.escape(name)}\b', board.html()), (game, step.id, step.zone)
        if step.do is None:
            run.next()
        else:
            run.choose(step.do)


@pytest.mark.parametrize("game", rules.GAMES)
def test_a_learner_who_comes_back_finds_the_same_game(game):
    run = TutorialRun(game=game)
    states = []
    while not run.finished:
        states.append((run.step, run.session.state))
        step = run.current
        run.next() if step.do is None else run.choose(step.do)
    for step, state in states[:: max(1, len(states) // 5)]:
        back = TutorialRun(game=game, step=step)
        assert back.step == step and tuple(back.session.state) == tuple(state)
    run.go(1)
    assert run.step == 1 and tuple(run.session.state) == tuple(states[1][1])


def test_a_malformed_tutorial_is_refused_naming_the_field():
    data = json.loads((TUTORIALS / f"{rules.GAMES[0]}.json").read_text(encoding="utf-8"))
    for change, where in ((lambda d: d["steps"][0]["say"].pop("ja"), "steps[0].say"),
                          (lambda d: d.update(game="chess"), "game"),
                          (lambda d: d.update(steps=[]), "steps")):
        broken = copy.deepcopy(data)
        change(broken)
        with pytest.raises(InvalidPosition) as caught:
            parse(broken)
        assert where in str(caught.value)


def click_move(page, index: int, version: int | None = None) -> None:
    """What the browser sends when the move button ``index`` of the list ``version`` (the shown one) is clicked."""
    page.moves._handle_msg({"select": index, "version": page.moves.version if version is None else version})


def test_the_moves_are_one_list_and_a_click_on_a_list_no_longer_shown_plays_nothing():
    """The step's moves are labels drawn by the browser (no widget per move); a click carries the
    version of the list it was made on, so a second click sent before the next step arrived is not
    taken for a move of that next step."""
    game = rules.GAMES[0]
    script = tutorial(game)
    first, second = [index for index, step in enumerate(script.steps) if step.do is not None][:2]
    page = TutorialPage(run=TutorialRun(game=game, step=first))
    run = page.run
    [group] = page.moves.groups
    assert [action["label"] for action in group["actions"]] == [move.label["en"] for move in run.choices()]
    shown = page.moves.version
    index = [move.label["en"] for move in run.choices()].index(script.steps[first].do.label["en"])
    click_move(page, index)
    assert run.step == first + 1
    run.go(second)
    log = list(run.session.log)
    for stale in range(len(group["actions"])):     # the old list's buttons, whatever now stands at their place
        click_move(page, stale, version=shown)
    click_move(page, 99)                           # no such button
    assert run.step == second and run.session.log == log and not run.message
    run.go(next(index for index, step in enumerate(script.steps) if step.do is None))
    assert page.moves.groups == []                 # a step that asks for no move offers none
    tempting = next(index for index, step in enumerate(script.steps) if step.wrong)
    run.go(tempting)
    shown, labels = page.moves.version, [move.label["en"] for move in run.choices()]
    click_move(page, labels.index(script.steps[tempting].wrong[0].label["en"]))
    assert run.message and run.step == tempting and page.moves.version == shown   # the same list: its clicks still land
    click_move(page, labels.index(script.steps[tempting].do.label["en"]), version=shown)
    assert run.step == tempting + 1


@pytest.mark.parametrize("control", ["move", "next", "back"])
def test_a_click_reaches_the_page_as_one_message(control):
    """The work a learner's click starts runs while the page's document holds its changes (Panel's
    ``hold``): they are sent together when it ends, in one message, not one message per change."""
    import panel as pn
    from bokeh.document import Document
    from panel.io.state import set_curdoc

    game = rules.GAMES[0]
    script = tutorial(game)
    first_move = next(index for index, step in enumerate(script.steps) if step.do is not None)
    first_next = next(index for index, step in enumerate(script.steps) if step.do is None)
    page = TutorialPage(run=TutorialRun(game=game, step={"move": first_move, "next": first_next, "back": 2}[control]))
    document = Document()
    run, held = page.run, []

    def watched(act):
        def run_it(*args):
            held.append(document.callbacks.hold_value)
            return act(*args)
        return run_it
    run.choose, run.next, run.back = watched(run.choose), watched(run.next), watched(run.back)
    step = run.step
    with set_curdoc(document):
        document.add_root(pn.panel(page).get_root(document))
        if control == "move":
            labels = [move.label["en"] for move in run.choices()]
            click_move(page, labels.index(script.steps[step].do.label["en"]))
        elif control == "next":
            page.next_button.clicks += 1
        else:
            page.back_button.clicks += 1
    assert run.step == (step - 1 if control == "back" else step + 1)
    assert held == ["combine"]


END = "end"


@pytest.mark.parametrize("raw, step", [("3", 2), ("+3", 2), ("1", 0), ("0", 0), ("+000", 0), ("\u00b2", 0), ("-2", 0),
                                       ("-99999999", 0), ("1_0", 0), ("", 0), (None, 0), ("999999", END),
                                       ("1000000", END), ("1000001", END), ("9" * 21, END), ("9" * 5000, END),
                                       ("0" * 30 + "3", 2)])
def test_the_addresss_step_is_read_as_digits_only(monkeypatch, raw, step):
    """``?step=`` is a whole number in ASCII digits (``int()`` read "²" as a digit and failed on it, and
    on 5,000 digits, before the page was built), the step as the page numbers it: ``step=3`` opens
    "Step 3" (it opened "Step 4": a teacher's link to step 8 sent the class to step 9); any number past
    the last step opens the end, however long (above 10**6 it opened the start, below it the end);
    anything else opens the tutorial at its start."""
    from explorer.pages import tutorial as page

    monkeypatch.setattr(page, "query_arg", {"step": raw, "game": "subastral"}.get)
    template = page.create_tutorial_page(lang="en")
    assert template.tutorial.run.step == (template.tutorial.run.total if step == END else step)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_index_says_what_a_tutorial_is_and_each_games_goal(lang):
    """The tutorials' index was a bare list of links: now what a tutorial is, and under each its game's
    goal in a line (the rules' first summary, as on the home page), its steps counted in the page's language."""
    from explorer.core.i18n import text
    from explorer.pages.tutorial import available, tutorial, tutorials_index_html
    from rules.rulebook import rulebook

    page = tutorials_index_html(lang)
    assert html.escape(text("home.tutorial.text", lang)) in page
    for game in available():
        assert html.escape(rulebook(game).rules[0].summary[lang]) in page
        assert html.escape(text("tutorial.steps", lang, n=len(tutorial(game).steps))) in page
    assert ("（" in page and "(" not in page.replace('href="', "")) if lang == "ja" else "steps)" in page


def test_the_progress_bar_counts_the_step_on_show():
    """"Step 1 / 27" over an empty bar looked like a disabled field: the bar counts the step shown."""
    game = rules.GAMES[0]
    page = TutorialPage(run=TutorialRun(game=game, step=0))
    total = page.run.total
    assert (page.progress.value, page.progress.max) == (1, total) and f"Step 1 of {total}" in page.head.object
    page.run.go(total - 1)
    assert page.progress.value == total and f"Step {total} of {total}" in page.head.object


@pytest.mark.parametrize("game", rules.GAMES)
def test_the_zone_link_follows_the_step_and_hides_without_a_zone(game):
    """"Show it on the board" names the zone the step highlights (the board pane's tutorial-zone-<n>
    and the script's selectors); past the last step, where no zone is highlighted, it hides."""
    script = tutorial(game)
    page = TutorialPage(run=TutorialRun(game=game, step=0))
    for number in (0, 1, len(script.steps) - 1):
        page.run.go(number)
        zone = script.steps[number].zone
        link = page.zone_link
        assert (link.zone, f"tutorial-zone-{link.index}") == (zone, page.board._pane.css_classes[-1])
    page.run.go(len(script.steps))                                      # finished: no step, no zone
    assert page.run.finished and (page.zone_link.zone, page.zone_link.index) == ("", -1)

"""The live plots fitted to each game (issue #22, item 9): card groups named in the page's language, and
Jump Gate's NavComp cards drawn from their deck on its deck-draw plot.

Fast (no browser): the plots are drawn as Bokeh models (``pn.panel(plots).get_root()``) and read from
them: the unseen-by-group bars' categories, the deck-draw plot's rows and points, the stacks' hover
names and the colour key above the plots.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import panel as pn
import pytest
from bokeh.models import FactorRange

import rules
from explorer.core.i18n import text
from explorer.core.session import GameSession
from explorer.plots.game import HIDDEN_CARD, game_text, session_draw_data
from explorer.plots.live import LivePlots

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
STEP = 40


@pytest.fixture(scope="module", params=rules.GAMES)
def played(request) -> GameSession:
    """A greedy game of each game, the cursor at step ``STEP`` (cards drawn, some still unseen)."""
    session = GameSession(game=request.param, seed=3)
    session.autoplay("greedy", then_goto=STEP)
    return session


def group_names(session: GameSession, lang: str) -> list[str]:
    """Each group's name in ``lang``, from the game's ``card_info`` (in the game's order): its
    ``group_names``, or in English its ``group_name``."""
    out: dict[str, str] = {}
    for info in session.card_data()["info"].values():
        out.setdefault(info["group"], info["group_name"] if lang == "en" else info.get("group_names", {}).get(lang))
    return list(out.values())


def legend_names(markup: str) -> list[str]:
    """The names of the colour key's swatches (the text of each ``legend-item``)."""
    parts: list[str] = []
    parser = HTMLParser()
    parser.handle_data = parts.append
    parser.feed(markup)
    return parts[1:]           # (the first text is the key's title)


def shown_group_names(plots: LivePlots) -> list[str]:
    """Every group name the drawn plots show: the bars' categories and hover names, the deck-draw
    plot's points (and its rows, in a game plotted by group), the stacks by number, the colour key."""
    pn.panel(plots).get_root()
    figures = {name: plots.figures[name].figure for name, pane in plots.panes.items() if pane.visible}
    hidden = text("plots.hidden_card", plots.lang)
    shown = list(figures["by_group"].x_range.factors)
    shown += plots.figures["by_group"].source.data["group_name"]
    shown += plots.figures["draws"].source.data["group_name"]
    if isinstance(figures["draws"].y_range, FactorRange):
        shown += list(figures["draws"].y_range.factors)
    if "by_number" in figures:
        shown += plots.figures["by_number"].source.data["group_name"]
    ring = game_text("plots.legend.ring", plots.session.game, plots.lang)      # (what a ringed dot means)
    shown += [name for name in legend_names(plots.legend.object) if name != ring]
    return [name for name in shown if name != hidden]


# ------------------------------------------------------------------ groups in the page's language


def test_a_japanese_page_names_every_card_group_in_japanese(played):
    english, japanese = set(group_names(played, "en")), group_names(played, "ja")
    for seat in (None, 1):
        played.viewing_seat = seat
        try:
            plots = LivePlots(session=played, lang="ja")
            shown = shown_group_names(plots)
        finally:
            played.viewing_seat = None
        assert shown and not english & set(shown), f"English group names on a Japanese page: {sorted(english & set(shown))}"
        assert set(shown) <= set(japanese) and all(JAPANESE.search(name) for name in shown), shown
        # one bar per group of the game, in its order, and a swatch for each in the colour key
        assert list(plots.figures["by_group"].figure.x_range.factors) == japanese
        assert legend_names(plots.legend.object)[:len(japanese)] == japanese


def test_an_english_page_names_the_groups_as_before(played):
    plots = LivePlots(session=played, lang="en")
    shown = shown_group_names(plots)
    english = group_names(played, "en")
    assert shown and set(shown) <= set(english)
    assert list(plots.figures["by_group"].figure.x_range.factors) == english


def test_changing_the_page_language_renames_the_groups():
    session = GameSession(game="subastral", seed=3)
    session.autoplay("greedy", then_goto=STEP)
    plots = LivePlots(session=session, lang="en")
    assert "Savanna" in shown_group_names(plots)
    plots.lang = "ja"
    shown = shown_group_names(plots)
    assert "サバンナ" in shown and "Savanna" not in shown
    assert "サバンナ" in plots.sent["by_group"]["columns"]["group_name"]
    plots.lang = "en"
    assert "Savanna" in shown_group_names(plots)


# ------------------------------------------------------------------ Jump Gate's NavComp cards drawn


@pytest.fixture(scope="module")
def jump_gate() -> GameSession:
    session = GameSession(game="jump_gate", seed=3)
    session.autoplay("greedy")
    return session


def navcomp_draws(session: GameSession) -> tuple[Counter, Counter]:
    """Per step, the NavComp cards drawn (as the rules' events name them) and the seat that drew."""
    cards: Counter = Counter()
    seats: Counter = Counter()
    for step in range(1, len(session.log) + 1):
        for event in session.spec.events(session.state_at(step)):
            if event.kind == "draw":
                cards.update((step, card) for card in event.cards)
                seats[(step, event.seat)] += 1
    return cards, seats


def test_jump_gates_draw_plot_holds_every_navcomp_card_drawn(jump_gate):
    session = jump_gate
    session.viewing_seat = None
    end = len(session.log)
    session.goto(end)
    expected, _ = navcomp_draws(session)
    assert sum(expected.values()) > 10
    columns = session_draw_data(session, seat=None, upto=end)
    drawn = Counter((step, card) for step, card, group in zip(columns["step"], columns["card"], columns["group"])
                    if group == "navcomp")
    assert drawn == expected
    for lang, row in (("en", "NavComp card"), ("ja", "手札カード")):
        plots = LivePlots(session=session, lang=lang)
        pn.panel(plots).get_root()
        figure = plots.figures["draws"].figure
        data = plots.figures["draws"].source.data
        assert isinstance(figure.y_range, FactorRange) and row in figure.y_range.factors
        navcomp = {card for card, info in session.card_data()["info"].items() if info["group"] == "navcomp"}
        assert Counter(y for y, card in zip(data["y"], data["card"]) if card in navcomp) == {row: sum(expected.values())}
        # no number axis means anything for Jump Gate: the cards are plotted by group, and no plot by number
        assert figure.yaxis[0].axis_label == ("Resource or NavComp card", "資源または手札カード")[lang == "ja"]
        assert not plots.panes["by_number"].visible
        assert "NavComp" in figure.title.text if lang == "en" else "手札カード" in figure.title.text


def test_a_seat_sees_its_own_navcomp_draws_and_only_that_others_drew(jump_gate):
    session = jump_gate
    end = len(session.log)
    expected, seats = navcomp_draws(session)
    columns = session_draw_data(session, seat=1, upto=end)
    own = Counter((step, card) for step, card, group in zip(columns["step"], columns["card"], columns["group"])
                  if group == "navcomp")
    assert own and own == Counter({(step, card): n for (step, card), n in expected.items() if seats[(step, 1)]})
    hidden = Counter(step for step, card in zip(columns["step"], columns["card"]) if card == HIDDEN_CARD)
    assert hidden and hidden == Counter({step: n for (step, seat), n in seats.items() if seat != 1})


def test_two_groups_one_card_file_names_alike_are_told_apart():
    """A card file may give two groups one name (Biome Blitz ecosystems both "Savanna"): the plots'
    categories must differ (Bokeh refused them, and the Plots tab stayed on "Drawing…"), so the second
    is followed by its id."""
    from explorer.cardfiles import standard_file
    from rules import replay as replay_files

    cards = standard_file("biome_blitz")
    cards["ecosystems"][1]["name"] = cards["ecosystems"][0]["name"]
    spec = rules.get_game("biome_blitz").with_card_file(cards)
    session = GameSession(game="biome_blitz", players=2, seed=3)
    session.load({**replay_files.record(spec, 2, 3, {}, []), "cards": cards})
    plots = LivePlots(session=session, lang="en")
    pn.panel(plots).get_root()
    factors = list(plots.figures["by_group"].figure.x_range.factors)
    assert len(factors) == len(set(factors))
    assert factors.count("Animal (Savanna)") == 1 and "Animal (Savanna) (animal_RAI)" in factors

"""A tutorial dealt with an edited card file (``/tutorial?game=<id>&cards=<saved name>``): the script's
moves are judged by the engine with the edited cards; a step the file makes unplayable says so, with the
engine's refusal and a link to the explorer, and the remaining steps can still be read; a name the card
library refuses gives a notice and the standard tutorial."""

from __future__ import annotations

import html

import pytest

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.components.card_editor import CardEditor
from explorer.pages.tutorial import TutorialPage, TutorialRun, create_tutorial_page, tutorial

GAME = "biome_blitz"


def edited(animal: str, **fields) -> dict:
    data = standard_file(GAME)
    [card] = [card for card in data["animals"] if card["id"] == animal]
    card.update(fields)
    return data


@pytest.fixture
def library(tmp_path, monkeypatch):
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "cards"))
    library = CardLibrary()
    library.save(GAME, "bright ant", edited("leafcutter_ant", stars=6))       # only a figure the script never pays
    library.save(GAME, "dear ant", edited("leafcutter_ant", cost={"leaf": 2}))  # the learner's scripted purchase pays 1 leaf
    library.save(GAME, "cheap fennec", edited("fennec", cost={"leaf": 1, "water": 1}))
    return library


def page_for(lang: str, cards: str | None, step: int = 0) -> tuple[TutorialPage, object]:
    """The served page's tutorial (and the template) for ``/tutorial?game=biome_blitz&cards=...``."""
    template = create_tutorial_page(GAME, lang, step, cards=cards)
    assert isinstance(template.tutorial, TutorialPage)
    return template.tutorial, template


def click_move(page: TutorialPage, label: str) -> None:
    """What the browser sends when the move button showing ``label`` is clicked."""
    labels = [action["label"] for action in page.moves.groups[0]["actions"]]
    page.moves._handle_msg({"select": labels.index(label), "version": page.moves.version})


def play_through(page: TutorialPage) -> None:
    """The learner's way with the page's buttons: Next, or the step's move."""
    run = page.run
    while not run.finished and not run.reading:
        step = run.current
        if step.do is None:
            page.next_button.clicks += 1
        else:
            click_move(page, step.do.label[run.lang])


def ant_stars(run: TutorialRun) -> int:
    [ant] = [card for card in run.session.spec.cards.animals if card.id == "leafcutter_ant"]
    return ant.stars


def test_a_file_that_changes_only_stars_plays_the_whole_tutorial_with_the_edited_cards(library):
    page, _ = page_for("en", "bright ant")
    run = page.run
    assert run.cards == "bright ant" and run.blocked is None
    assert "Played with the card file “bright ant”" in page.head.object
    play_through(page)
    assert run.finished and ant_stars(run) == 6
    standard = TutorialRun(game=GAME)
    standard.go(standard.total)
    assert ant_stars(standard) == 2
    assert run.session.log == standard.session.log                 # the same deal and script ...
    assert run.session.public_view()["scores"] != standard.session.public_view()["scores"]  # ... scored with the file
    assert "Well done" in page.say.object and "tutorial-blocked" not in page.say.object


@pytest.mark.parametrize("lang, says", [("en", "Step 15 cannot be played with the card file “dear ant”"),
                                        ("ja", "ステップ15はカードファイル「dear ant」では遊べません")])
def test_a_file_that_makes_the_learners_scripted_move_illegal_stops_at_that_step(library, lang, says):
    page, _ = page_for(lang, "dear ant")
    run = page.run
    stop = [step.id for step in tutorial(GAME).steps].index("discover")
    assert run.blocked is not None and run.blocked.step == stop and not run.blocked.reply
    play_through(page)
    assert run.step == stop and run.reading
    standard = TutorialRun(game=GAME, step=stop)
    assert run.session.log == standard.session.log                 # the game stands where the step begins
    said = html.unescape(page.say.object)
    assert says in said and run.blocked.error.reason_in(lang) in said
    assert html.escape(run.explorer_href()) in page.say.object
    assert "cards=dear+ant" in run.explorer_href() and f"lang={lang}" in run.explorer_href()
    assert page.moves.groups == [] and run.choices() == []         # no move is offered as if it could be played
    with pytest.raises(ValueError):
        run.choose(tutorial(GAME).steps[stop].do)
    assert page.next_button.visible
    log = list(run.session.log)
    page.next_button.clicks += 1                                    # a teacher reads on
    assert run.step == stop + 1 and run.session.log == log and "tutorial-reading" in page.say.object
    while not run.finished:
        page.next_button.clicks += 1
    assert run.session.log == log
    done = html.unescape(page.say.object)
    assert ("can be played up to step 15" if lang == "en" else "ステップ15まで遊べます") in done
    assert "Well done" not in done


def test_a_scripted_reply_the_file_makes_illegal_stops_there_and_a_wrong_move_it_makes_legal_is_not_offered(library):
    page, _ = page_for("en", "cheap fennec")
    run = page.run
    assert run.blocked is not None and run.blocked.reply and run.blocked.move.seat == 1
    steps = tutorial(GAME).steps
    discover = [step.id for step in steps].index("discover")
    run.go(discover)
    # The fennec at 1 leaf + 1 water: "pay leaf + water for the fennec", a wrong move of the script, is legal now.
    assert len(steps[discover].wrong) == 2 and [move.action["type"] for move in run.choices()].count("discover") == 1
    play_through(page)
    assert run.step == run.blocked.step
    assert "the rules engine refuses Player 2's scripted reply" in html.unescape(page.say.object)


@pytest.mark.parametrize("name, reason", [("../../etc/passwd", "not a simple name"), ("ghost", "no saved biome_blitz card file"),
                                          ("<img src=x onerror=alert(1)>", "not a simple name")])
def test_a_name_the_library_refuses_gives_a_notice_and_the_standard_tutorial(library, name, reason):
    for lang, standard in (("en", "The standard cards are shown"), ("ja", "標準のカード")):
        page, template = page_for(lang, name)
        [notice] = [part for part in template.main if "tutorial-cards-refused" in getattr(part, "css_classes", [])]
        assert standard in notice.object and "<img" not in notice.object
        assert lang == "ja" or reason in notice.object.replace("\\", "")
        assert page.run.cards is None and page.run.session.spec.cards.is_standard
        assert "tutorial-cards" not in page.head.object


def test_the_card_editor_links_a_saved_file_to_its_tutorial(library):
    editor = CardEditor(game=GAME, lang="ja", library=library)
    assert editor.load_saved("dear ant")
    editor.refresh()
    assert editor.tutorial_href() == "/tutorial?game=biome_blitz&lang=ja&cards=dear+ant"
    assert "cards-open-tutorial" in editor.explorer_link.object and "「dear ant」でチュートリアルを開く" in editor.explorer_link.object


def test_the_explorer_link_opens_the_stopped_game_at_its_position_with_the_edited_file(library):
    from urllib.parse import parse_qs, urlsplit

    from explorer.pages.app import addressed_session

    run = TutorialRun(game=GAME, cards="dear ant", card_file=library.load(GAME, "dear ant"))
    run.go(run.blocked.step)
    address = {key: values[0] for key, values in parse_qs(urlsplit(run.explorer_href()).query).items()}
    session, notice = addressed_session(address.get, "en")
    assert notice is None and not session.spec.cards.is_standard
    assert session.spec.card_file(session.state) == run.session.spec.card_file(run.session.state) == library.load(GAME, "dear ant")
    assert session.cursor == len(run.session.log) and session.log[:session.cursor] == run.session.log
    assert session.spec.encode(session.state) == run.session.spec.encode(run.session.state)
    # The scripted move the file refuses is refused there too: the explorer's engine is the tutorial's.
    step = tutorial(GAME).steps[run.blocked.step]
    with pytest.raises(Exception, match="does not match the cost 2 leaf"):
        session.play(step.do.seat, step.do.action)


@pytest.mark.parametrize("moves", ['[{"seat": 0, "action": {"type": "fly"}}]', "not json", '{"seat": 0}'])
def test_moves_in_the_address_the_engine_refuses_open_the_standard_cards_with_the_reason(library, moves):
    from explorer.pages.app import addressed_session

    session, notice = addressed_session({"game": GAME, "cards": "dear ant", "moves": moves}.get, "en")
    assert "The address's moves cannot be played with the card file dear ant" in notice
    assert session.spec.cards.is_standard
    _, notice = addressed_session({"game": GAME, "cards": "dear ant", "moves": moves}.get, "ja")
    assert "標準のカード" in notice


def test_a_refusal_that_quotes_a_files_card_name_shows_the_name_as_text(library):
    """An outside tester saved a card file naming an animal ``<img src=x onerror=alert(5)> ...``: a wrong
    move's explanation quoted the engine's reason, the name in it, as Markdown, and the learner's browser
    ran the script. The name is now shown as its characters, wherever a refusal quotes it."""
    from explorer.core.links import refusal_markdown
    from rules.protocol import IllegalAction

    hostile = "<img src=x onerror=alert(5)> [click](javascript:alert(6)) **bold**"
    library.save(GAME, "hostile ant", edited("leafcutter_ant", name=hostile))
    page, _ = page_for("en", "hostile ant", step=14)
    wrong = "Compete: the Leafcutter ant against the Beaver (pay leaf)"
    click_move(page, wrong)
    said = page.run.message
    assert "&lt;img src=x onerror=alert(5)&gt; \\[click\\](javascript:alert(6)) \\*\\*bold\\*\\*" in said, said
    assert "<img" not in said
    assert page.alert.object == said and page.alert.styles.get("overflow-wrap") == "anywhere"   # (a long name wraps)
    # The explorer's and the tables' pickers explain a refused move with refusal_markdown: the same.
    [move] = [move for move in page.run.choices() if move.label["en"] == wrong]
    with pytest.raises(IllegalAction) as refused:
        page.run.session.play(move.seat, move.action)
    explained = refusal_markdown(GAME, refused.value, "en")
    assert "&lt;img src=x onerror=alert(5)&gt;" in explained and "<img" not in explained

"""Guided tutorials: a scripted game that teaches its rules one step at a time, in English or Japanese.

A tutorial is a data file, ``explorer/tutorials/<game>.json``: a fixed deal (players, seed, variants,
or a position file) seen from the learner's seat, and steps in the order the rules are needed. Each
step names the rule it teaches (an id of the game's rulebook, ``rules/rulebook.py``), the zone of the
board it talks about (a CSS selector of the board's HTML, highlighted), and what it says. A step either
waits for "Next", or asks for a move (``do``) and offers tempting wrong ones beside it (``wrong``:
moves the rules forbid, each with why in both languages): the engine judges every attempt, and a
refused one is explained with the rule its ``IllegalAction`` names. After the learner's move, the
other seats' scripted replies (``then``) are played.

:class:`TutorialRun` is the learner's way through one tutorial, without Panel (tests and notebooks
drive it); :class:`TutorialPage` is its page, ``/tutorial?game=<id>&lang=<en|ja>&step=<n>``: the step
is kept in the address, so a learner can leave and come back to where they were, numbered as the page
numbers it ("Step 8 of 32" is ``step=8``; any number past the last step is the tutorial's end).

With ``&cards=NAME`` the tutorial is dealt with the card file saved as ``NAME`` in the card library
(``explorer/cardfiles.py``: a name, never a path; a name the library refuses gives a notice and the
standard tutorial). The script's moves are then judged by the engine with the edited cards: the first
scripted move (a learner's ``do`` or a ``then`` reply) it refuses stops the game at that step
(:class:`Blocked`): the step says so, with the engine's refusal and a link to the explorer with the
edited file at that position (``/explorer?...&cards=NAME&moves=...``), and "Next" still leads through the remaining steps' texts, the board staying where the
game stopped. A wrong move the edited cards make legal is no longer offered (its "why" would be untrue).
A step's text that quotes a figure the file changed is not checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from html import escape as esc
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urlencode

import panel as pn
import param

import rules
from explorer.boards.registry import board_for
from explorer.cardfiles import CardFileError, served_library
from explorer.components.address import Address
from explorer.components.picker import ActionButtons
from explorer.core.i18n import literal, text
from explorer.core.links import explorer_path, rule_link_html, rule_reference, rules_href, tutorial_href
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.web.request import LONG_WORDS_WRAP, WHOLE_NUMBER, page_language, query_arg, shown_value
from explorer.web.shell import FIND_IN_PAGE_JS, HEADING_CSS, PageTemplate, use_page_design
from rules.protocol import IllegalAction, InvalidPosition
from rules.replay import record
from rules.rulebook import LANGUAGES, Rule, rulebook

TUTORIALS = Path(__file__).resolve().parent.parent / "tutorials"


@dataclass(frozen=True)
class Move:
    seat: int
    action: Mapping[str, Any]            # the action's JSON form (``spec.encode_action``)
    label: Mapping[str, str] | None      # the button's text, per language (the learner's moves)
    why: Mapping[str, str] | None        # a wrong move: why the rules forbid it, per language


@dataclass(frozen=True)
class Step:
    id: str
    rule: str                            # the rulebook rule it teaches
    zone: str | None                     # CSS selector of the board zone it talks about
    say: Mapping[str, str]
    do: Move | None                      # the move to make (None: "Next" goes on)
    wrong: tuple[Move, ...]
    then: tuple[Move, ...]               # the other seats' replies, played after ``do``


@dataclass(frozen=True)
class Script:
    game: str
    players: int
    seed: int
    variants: Mapping[str, Any]
    position: Mapping[str, Any] | None
    seat: int                            # the learner's seat (whose view the board shows)
    title: Mapping[str, str]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Blocked:
    """The first scripted move the engine refuses with an edited card file: at which step, which move
    (the learner's ``do`` or one of the ``then`` replies), and the engine's refusal."""
    step: int
    move: Move
    reply: bool
    error: IllegalAction


def _texts(value, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES) or not all(
            isinstance(t, str) and t.strip() for t in value.values()):
        raise InvalidPosition(f"needs a non-empty text in each of {', '.join(LANGUAGES)}", where=where)
    return dict(value)


def _move(data, where: str, seat: int | None, labelled: bool, wrong: bool = False) -> Move:
    if not isinstance(data, dict) or not isinstance(data.get("action"), dict):
        raise InvalidPosition('a move is an object with "action" (and "seat")', where=where)
    seat = data.get("seat", seat)
    if type(seat) is not int:
        raise InvalidPosition("needs a seat number", where=f"{where}.seat")
    return Move(seat, data["action"], _texts(data.get("label"), f"{where}.label") if labelled else None,
                _texts(data.get("why"), f"{where}.why") if wrong else None)


def parse(data, where: str = "tutorial") -> Script:
    """A tutorial from its JSON data, or InvalidPosition naming the field that is wrong."""
    if not isinstance(data, dict):
        raise InvalidPosition("must be an object", where=where)
    game = data.get("game")
    if game not in rules.GAMES:
        raise InvalidPosition(f"unknown game {game!r}", where=f"{where}.game")
    seat = data.get("seat", 0)
    steps = []
    for i, step in enumerate(data.get("steps") or ()):
        at = f"{where}.steps[{i}]"
        if not isinstance(step, dict) or not isinstance(step.get("rule"), str):
            raise InvalidPosition('a step is an object with "rule" and "say"', where=at)
        do = None if step.get("do") is None else _move(step["do"], f"{at}.do", seat, labelled=True)
        wrong = tuple(_move(m, f"{at}.wrong[{j}]", do.seat if do else seat, labelled=True, wrong=True)
                      for j, m in enumerate(step.get("wrong") or ()))
        if wrong and do is None:
            raise InvalidPosition("wrong moves need a move to make (do)", where=f"{at}.wrong")
        then = tuple(_move(m, f"{at}.then[{j}]", None, labelled=False) for j, m in enumerate(step.get("then") or ()))
        steps.append(Step(str(step.get("id", i)), step["rule"], step.get("zone"), _texts(step.get("say"), f"{at}.say"),
                          do, wrong, then))
    if not steps:
        raise InvalidPosition("needs at least one step", where=f"{where}.steps")
    return Script(game, data.get("players", 2), data.get("seed", 1), data.get("variants") or {},
                  data.get("position"), seat, _texts(data.get("title"), f"{where}.title"), tuple(steps))


@lru_cache(maxsize=None)
def tutorial(game: str) -> Script:
    path = TUTORIALS / f"{game}.json"
    if not path.exists():
        raise InvalidPosition(f"there is no tutorial for {game!r}", where="game")
    return parse(json.loads(path.read_text(encoding="utf-8")), where=f"{game} tutorial")


def available() -> tuple[str, ...]:
    """The games with a tutorial, in the registry's order."""
    return tuple(game for game in rules.GAMES if (TUTORIALS / f"{game}.json").exists())


class TutorialRun(param.Parameterized):
    """One learner's way through a tutorial: the game at the current step and what they tried."""

    game = param.String(default="subastral", constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES))
    step = param.Integer(default=0, bounds=(0, None), doc="Steps done (the current step's index).")
    message = param.String(default="", doc="The explanation of the last refused attempt (Markdown), or ''.")
    attempts = param.Integer(default=0, doc="Refused attempts at the current step.")
    cards = param.String(default=None, allow_None=True, constant=True,
                         doc="The name of the saved card file the game is dealt with (None: the standard cards).")

    def __init__(self, card_file: Mapping[str, Any] | None = None, **params):
        """``card_file``: the JSON data of the card file named ``cards`` (both or neither); raises
        InvalidPosition when the game refuses it (or the script's position under it)."""
        super().__init__(**params)
        if (card_file is None) != (self.cards is None):
            raise ValueError("a tutorial with a card file needs both its name (cards) and its data (card_file)")
        self.script = script = tutorial(self.game)
        self.book = rulebook(self.game)
        self.session = GameSession(game=self.game, players=script.players, seed=script.seed,
                                   variants=dict(script.variants))
        self._position = script.position
        if card_file is not None:
            spec = rules.get_game(self.game).with_card_file(card_file)
            if self._position is None:
                first = spec.new_game(script.players, script.seed, dict(script.variants))
                self.session.load(record(spec, script.players, script.seed, dict(script.variants), [], state=first),
                                  cursor=0)
            else:
                self._position = {**self._position, "cards": card_file}
        if self._position is not None:
            self.session.load_position(self._position)
        self.session.seat_players = {seat: "human" for seat in range(self.session.players)}
        self.session.viewing_seat = self.script.seat
        self._at_start = self.session.state
        self.blocked = self._first_refusal() if card_file is not None else None
        self.go(self.step)

    def _first_refusal(self) -> Blocked | None:
        """Play the whole script: the first scripted move the engine refuses (None: every one is legal)."""
        for index, step in enumerate(self.script.steps):
            for move in ((step.do,) if step.do else ()) + step.then:
                try:
                    self.session.play(move.seat, move.action)
                except IllegalAction as error:
                    return Blocked(index, move, move is not step.do, error)
        return None

    # ------------------------------------------------------------------ where the learner is
    @property
    def total(self) -> int:
        return len(self.script.steps)

    @property
    def finished(self) -> bool:
        return self.step >= self.total

    @property
    def current(self) -> Step | None:
        return None if self.finished else self.script.steps[self.step]

    @property
    def reading(self) -> bool:
        """True from the step the card file stops on: its steps are read, not played."""
        return self.blocked is not None and self.step >= self.blocked.step

    @property
    def rule(self) -> Rule | None:
        return None if self.finished else self.book.rule(self.current.rule)

    def choices(self) -> list[Move]:
        """The moves offered at this step (the right one among the wrong ones, ordered by label)."""
        step = self.current
        if step is None or step.do is None or self.reading:
            return []
        wrong = step.wrong if self.cards is None else tuple(move for move in step.wrong if not self._legal(move))
        return sorted((step.do, *wrong), key=lambda move: move.label[self.lang])

    def _legal(self, move: Move) -> bool:
        """Whether the engine accepts ``move`` now (the game unchanged)."""
        spec = self.session.spec
        try:
            spec.apply(self.session.state, move.seat, spec.decode_action(move.action))
        except IllegalAction:
            return False
        return True

    def go(self, step: int) -> None:
        """Jump to ``step`` (0 .. total): the game as the steps before it leave it."""
        step = max(0, min(int(step), self.total))
        self.session.reset() if self._position is None else self.session.load_position(self._position)
        self.session.viewing_seat = self.script.seat
        played = step if self.blocked is None else min(step, self.blocked.step)
        for done in self.script.steps[:played]:
            for move in ((done.do,) if done.do else ()) + done.then:
                self.session.play(move.seat, move.action)
        self.param.update(step=step, message="", attempts=0)

    # ------------------------------------------------------------------ what the learner does
    def choose(self, move: Move) -> bool:
        """Try ``move`` (one of :meth:`choices`): True if it was the step's move (the tutorial goes on);
        False if the rules refused it, with ``message`` saying why and which rule forbids it."""
        step = self.current
        if step is None or step.do is None or move not in self.choices():
            raise ValueError("that move is not offered at this step")
        try:
            self.session.play(move.seat, move.action)
        except IllegalAction as error:
            self.param.update(message=self.explain(move, error), attempts=self.attempts + 1)
            return False
        if move is not step.do:         # a wrong move the rules allow: a broken script, never shown to learners
            raise RuntimeError(f"{self.game} tutorial step {step.id!r}: a wrong move was legal")
        for reply in step.then:
            self.session.play(reply.seat, reply.action)
        self.param.update(step=self.step + 1, message="", attempts=0)
        return True

    def next(self) -> None:
        """Go on from a step that asks for no move."""
        step = self.current
        if step is not None and (step.do is None or self.reading):
            self.param.update(step=self.step + 1, message="", attempts=0)

    def back(self) -> None:
        self.go(self.step - 1)

    def explain(self, move: Move, error: IllegalAction) -> str:
        """Why a refused move is refused (Markdown): the script's words, then the rule the engine names."""
        lang = self.lang
        rule = self.book.for_refusal(error.rule)
        # (The engine's reason as its text: it may quote a card file's names, which anyone may write.)
        lines = [move.why[lang] if move.why else literal(error.reason_in(lang))]
        if rule is not None:
            link = f"[{rule.title[lang]}]({rules_href(self.game, lang, rule.id)})"
            # (Where the rule comes from, unless the step's own rule line above says it already.)
            source = "" if rule == self.rule else f" ({rule_reference(self.game, rule, lang)})"
            lines.append(text("refusal.rule", lang, title=link, summary=rule.summary[lang]) + source)
        if move.why:
            lines.append(text("tutorial.engine_says", lang, reason=literal(error.reason_in(lang))))
        return "  \n".join(lines)

    # ------------------------------------------------------------------ with an edited card file
    def explorer_href(self) -> str:
        """The explorer dealing this tutorial's game (players, seed) with the card file, at the position
        shown: after the moves played so far (``&moves=``; a tutorial that begins from a position file
        links to the deal only, the explorer's address having no position)."""
        args: dict[str, Any] = {"game": self.game, "players": self.session.players, "seed": self.script.seed}
        if self.cards:
            args["cards"] = self.cards
        session = self.session
        if self._position is None and session.log:
            moves = [{"seat": seat, "action": session.spec.encode_action(action)} for seat, action in session.log[:session.cursor]]
            args["moves"] = json.dumps(moves, separators=(",", ":"), ensure_ascii=False)
        return f"{explorer_path()}?" + urlencode({**args, "lang": self.lang})

    def refusal(self) -> str | None:
        """Why the step the card file stops on cannot be played (plain text, in the run's language), or None."""
        blocked, lang = self.blocked, self.lang
        if blocked is None:
            return None
        move = blocked.move
        shown = move.label[lang] if move.label else json.dumps(dict(move.action), ensure_ascii=False)
        return text("tutorial.cards.blocked", lang, name=self.cards, step=blocked.step + 1,
                    who=text("tutorial.cards.reply" if blocked.reply else "tutorial.cards.yours", lang, player=move.seat + 1),
                    move=shown, reason=blocked.error.reason_in(lang))


# --------------------------------------------------------------------------- the page

TUTORIAL_CSS = stylesheet("tutorial")
#: The board's own rules inside a tutorial (its move counter hidden).
TUTORIAL_BOARD_CSS = stylesheet("tutorial_board")

# The zone a step talks about, highlighted: one rule per zone of the script, switched on by a class of
# the board's pane (a changed class reaches the page; a changed stylesheet is not re-applied there).
# The rule's declarations are css/tutorial_zone.css; its selectors come from the script.
HIGHLIGHT = stylesheet("tutorial_zone").strip()


def _highlight_rule(index: int, zone: str) -> str:
    """The CSS rule highlighting ``zone`` (selectors, comma-separated) while the pane has its class."""
    selectors = ", ".join(f":host(.tutorial-zone-{index}) {part.strip()}" for part in zone.split(","))
    return f"{selectors} {{ {HIGHLIGHT} }}"


class ZoneLink(pn.custom.JSComponent):
    """"Show it on the board": a button that scrolls the zone the step talks about into view. The step's
    words and its zone could be screens apart (on a phone the hand and journal are some 1,500 pixels
    below the text); the button finds the board pane marked ``tutorial-zone-<index>`` and, inside it,
    the first element ``zone`` (the script's selectors) matches. Hidden while the step names no zone."""

    zone = param.String(default="", doc="The zone's CSS selectors, as the script gives them ('' for none).")
    index = param.Integer(default=-1, doc="The zone's number: the board pane carries tutorial-zone-<index>.")
    label = param.String(default="", doc="The button's words, in the page's language.")

    _esm = FIND_IN_PAGE_JS + """
    export function render({ model, el }) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "zone-link";
      el.appendChild(button);
      function draw() {
        button.textContent = model.label;
        button.hidden = !model.zone;
      }
      button.addEventListener("click", () => {
        const board = find(document, (e) => e.classList.contains(`tutorial-zone-${model.index}`));
        const zone = board && board.shadowRoot && board.shadowRoot.querySelector(model.zone);
        if (zone) zone.scrollIntoView({ block: "center", behavior: "smooth" });
      });
      model.on("change:zone", draw);
      model.on("change:label", draw);
      draw();
    }
    """
    _stylesheets = [stylesheet("tutorial_zone_link")]


class TutorialPage(pn.viewable.Viewer):
    """The tutorial's page: progress, the step's explanation and rule, the moves to try, the board."""

    run = param.ClassSelector(class_=TutorialRun, constant=True)

    def __init__(self, **params):
        super().__init__(**params)
        run = self.run
        lang = run.lang
        self.template: PageTemplate | None = None      # the page's template, once in one (its language switch)
        self.board = board_for(run.session, run.lang)
        self._zones = sorted({step.zone for step in run.script.steps if step.zone})
        self._board_classes = list(self.board._pane.css_classes)
        self.board._pane.stylesheets = [*self.board._pane.stylesheets, TUTORIAL_BOARD_CSS,
                                        *(_highlight_rule(index, zone) for index, zone in enumerate(self._zones))]
        self.head = pn.pane.HTML("", sizing_mode="stretch_width", stylesheets=[TUTORIAL_CSS, HEADING_CSS],
                                css_classes=["tutorial-head-pane"])
        self.progress = pn.indicators.Progress(value=0, max=run.total, sizing_mode="stretch_width", height=10,
                                               css_classes=["tutorial-progress"], margin=(0, 10))
        self.say = pn.pane.HTML("", sizing_mode="stretch_width", stylesheets=[TUTORIAL_CSS], css_classes=["tutorial-step"])
        # The step's moves, drawn in the browser from their labels (as the explorer's picker draws its
        # own): a step then costs the page one changed list, not new Bokeh widgets, each a shadow root
        # whose stylesheets the browser parses again (Subastral's 27 steps, Chromium's main thread in a
        # trace: 4.2 s before, 2.8 s after, the stylesheets' parsing 0.28 s of the difference). A click
        # on a list the page no longer shows (a second click sent before the next step arrived) carries
        # the old list's version and is ignored, not taken for a move of the new step.
        self.moves = ActionButtons(css_classes=["tutorial-moves"], sizing_mode="stretch_width", margin=(0, 5))
        self._offered: list[Move] = []
        self.moves.on_choose = self._choose
        self.next_button = pn.widgets.Button(label=text("tutorial.next", lang), color="primary",
                                             css_classes=["tutorial-next"], width=110)
        self.next_button.on_click(lambda event: self._in_one_message(run.next))
        self.back_button = pn.widgets.Button(label=text("tutorial.back", lang), css_classes=["tutorial-back"], width=90)
        self.back_button.on_click(lambda event: self._in_one_message(run.back))
        # (the three on one line on a phone: 390 px wide, its margins and the page's padding)
        self.restart_button = pn.widgets.Button(label=text("tutorial.restart", lang), css_classes=["tutorial-restart"],
                                                width=110)
        self.restart_button.on_click(lambda event: self._in_one_message(run.go, 0))
        # (Its refusals may quote a card file's name of one long word: it wraps, as the page's other alerts do.)
        self.alert = pn.pane.Alert(" ", alert_type="warning", visible=False, css_classes=["tutorial-message"], margin=(4, 5),
                                   styles=LONG_WORDS_WRAP)
        self.zone_link = ZoneLink(label=text("tutorial.show_zone", lang), css_classes=["tutorial-zone-link"],
                                  margin=(0, 10))
        self.address = Address()
        self._layout = pn.Column(
            self.address, self.head, self.progress, self.say, self.zone_link, self.moves, self.alert,
            pn.Row(self.back_button, self.next_button, self.restart_button, margin=0, styles={"flex-wrap": "wrap"}),
            self.board, sizing_mode="stretch_width", css_classes=["tutorial"])
        run.param.watch(self._draw, ["step", "message"])
        self._draw()

    def keep_step_in_switch(self) -> None:
        """The header's language switch (once the page is in its template) leads to the step shown."""
        if self.template is not None:
            self.template.keep_in_switch(game=self.run.game, step=str(self.run.step + 1), cards=self.run.cards)

    @staticmethod
    def _in_one_message(act, *args) -> None:
        """A learner's click, ``act(*args)``, reaches the page as one message: the board, the step's
        words, its moves, the progress and the address change together (as a table page follows a
        move), not one message per change (measured on the Subastral tutorial: 25 websocket frames a
        step, 10.5 kB, against 9 and 7.1 kB), and no half-drawn step shows between them."""
        with pn.io.hold():
            act(*args)

    def _draw(self, *events) -> None:
        run, lang = self.run, self.run.lang
        game = run.game
        title = run.script.title[lang]
        self.keep_step_in_switch()
        shown = min(run.step + 1, run.total)
        cards = (f'<span class="tutorial-cards">{esc(text("tutorial.cards.using", lang, name=run.cards))}</span>'
                 if run.cards else "")
        self.head.object = (f'<div class="tutorial-head"><h2>{esc(title)}</h2>'
                            f'<span class="progress-text">{esc(text("tutorial.progress", lang, step=shown, total=run.total))}</span>'
                            f'{cards}</div>')
        self.progress.value = shown         # (the step on show counts: step 1 of 27 is not an empty bar)
        step, rule = run.current, run.rule
        if step is None:
            done = (text("tutorial.cards.done", lang, name=run.cards, step=run.blocked.step + 1) if run.blocked
                    else text("tutorial.done", lang))
            self.say.object = (f'<div class="tutorial-say tutorial-done">{esc(done)}</div>'
                               f'<p><a href="{esc(rules_href(game, lang))}">{esc(text("explorer.rules_link", lang, game=rules.get_game(game).title))}</a>'
                               f' · <a href="{esc(explorer_path())}?lang={lang}">{esc(text("tutorial.to_explorer", lang))}</a></p>')
        else:
            self.say.object = (f'<div class="tutorial-say" data-step="{esc(step.id)}">{esc(step.say[lang])}</div>'
                               f'<div class="tutorial-rule">{esc(text("tutorial.rule", lang))} '
                               f'{rule_link_html(game, rule, lang)} · {esc(rule_reference(game, rule, lang))}</div>'
                               f'{self._blocked_html()}')
        offered = run.choices()
        actions = [{"label": move.label[lang], "index": index} for index, move in enumerate(offered)]
        self.moves.show([{"title": "", "kind": "tutorial", "actions": actions}] if actions else [], offered != self._offered)
        self._offered = offered
        self.next_button.visible = step is not None and (step.do is None or run.reading)
        self.back_button.disabled = run.step == 0
        self.alert.param.update(object=run.message or " ", visible=bool(run.message))
        zone = step.zone if step is not None else None
        self.board._pane.css_classes = self._board_classes + ([f"tutorial-zone-{self._zones.index(zone)}"] if zone else [])
        self.zone_link.param.update(zone=zone or "", index=self._zones.index(zone) if zone else -1)
        # (in place, not a new history entry per step: Back leaves the tutorial; a reload opens this step)
        self.address.search = "?" + urlencode({"game": game, "lang": lang, "step": run.step + 1,   # (as "Step 8 of 32")
                                               **({"cards": run.cards} if run.cards else {})})

    def _blocked_html(self) -> str:
        """At the step the card file stops on: why, the explorer link and how to read on; after it: a
        line saying the steps are read only. Nothing before it (or with the standard cards)."""
        run, lang = self.run, self.run.lang
        if not run.reading:
            return ""
        link = (f'<a class="tutorial-cards-explorer" href="{esc(run.explorer_href())}" target="_blank">'
                f'{esc(text("tutorial.cards.go_on", lang, name=run.cards))}</a>')
        if run.step == run.blocked.step:
            return (f'<div class="tutorial-blocked" role="status"><p>{esc(run.refusal())}</p>'
                    f'<p>{link}</p><p>{esc(text("tutorial.cards.read_on", lang))}</p></div>')
        return (f'<div class="tutorial-reading">{esc(text("tutorial.cards.reading", lang, name=run.cards, step=run.blocked.step + 1))}'
                f' {link}</div>')

    def _choose(self, index: int, version: int) -> None:
        """A move button's click: the move at ``index`` of the list ``version`` (only the list shown now)."""
        if version == self.moves.version and 0 <= index < len(self._offered):
            self._in_one_message(self.run.choose, self._offered[index])

    def __panel__(self):
        return self._layout


def tutorials_index_html(lang: str) -> str:
    """Every tutorial: its title (a link), its number of steps and its game's goal in a line (the rules'
    first summary, as the home page gives it), under what a tutorial is."""
    items = "".join(
        f'<li><a class="tutorial-link" href="{esc(tutorial_href(game, lang))}">{esc(tutorial(game).title[lang])}</a>'
        f' <span class="quiet">{esc(text("tutorial.steps", lang, n=len(tutorial(game).steps)))}</span>'
        f'<p class="tutorial-goal">{esc(rulebook(game).rules[0].summary[lang])}</p></li>' for game in available())
    return (f'<h2>{esc(text("tutorial.index", lang))}</h2><p class="tutorial-lead">{esc(text("home.tutorial.text", lang))}</p>'
            f'<ul class="tutorials">{items}</ul>')


def tutorial_run(game: str, lang: str, step: int, cards: str | None) -> tuple[TutorialRun, str | None]:
    """The run for ``game`` dealt with the saved card file ``cards`` (a name the served library
    resolves), and None; or the standard tutorial and why not (plain text in ``lang``) when the library
    or the game refuses the name or the file."""
    if cards is not None:
        try:
            return TutorialRun(game=game, lang=lang, step=step, cards=cards, card_file=served_library().load(game, cards)), None
        except (CardFileError, InvalidPosition) as error:
            return TutorialRun(game=game, lang=lang, step=step), text("workshop.address.cards", lang, name=shown_value(cards),
                                                                       problem=error.problem_in(lang))
    return TutorialRun(game=game, lang=lang, step=step), None


#: A step number past every tutorial's end (the run opens its end for any step past its last).
PAST_THE_END = 10 ** 6


def asked_step(raw: str | None) -> int:
    """The step an address's ``step=`` asks for, counted from 0 (the page numbers steps from 1): any
    number past the last step opens the end, however many digits it has; anything that is not a whole
    number from 1 (in ASCII digits) opens the first step."""
    if raw is None or not WHOLE_NUMBER.fullmatch(raw) or raw.startswith("-"):
        return 0
    digits = raw.lstrip("+").lstrip("0")
    if not digits:
        return 0
    number = PAST_THE_END if len(digits) > len(str(PAST_THE_END)) else min(int(digits), PAST_THE_END)
    return number - 1


def create_tutorial_page(game: str | None = None, lang: str | None = None, step: int | None = None,
                         cards: str | None = None):
    """The page for ``/tutorial``: the game, language, step and card file from the address (see the module)."""
    use_page_design()
    lang = lang or page_language()
    game = game or query_arg("game")
    cards = cards if cards is not None else query_arg("cards")
    notice = None
    if step is None:
        step = asked_step(query_arg("step"))
    if game is None:
        body = pn.pane.HTML(tutorials_index_html(lang), sizing_mode="stretch_width", css_classes=["tutorial-index"],
                            stylesheets=[TUTORIAL_CSS, HEADING_CSS])
    elif game not in available():
        body = pn.pane.Alert(literal(text("tutorial.unknown", lang, game=shown_value(game), games=", ".join(available()))),
                             alert_type="warning", css_classes=["tutorial-refused"], styles=LONG_WORDS_WRAP)
    else:
        run, notice = tutorial_run(game, lang, step, cards)
        body = TutorialPage(run=run)
    main = [body]
    if notice:
        # (it holds the address's name: shown as it is, never read as HTML or Markdown)
        main.insert(0, pn.pane.Alert(literal(notice), alert_type="warning", css_classes=["tutorial-cards-refused"],
                                     styles=LONG_WORDS_WRAP))
    template = PageTemplate(page="tutorial", lang=lang, title=text("tutorial.page_title", lang), main=main)
    template.tutorial = body if isinstance(body, TutorialPage) else None     # (tests reach the run through it)
    if isinstance(body, TutorialPage):
        body.template = template
        body.keep_step_in_switch()
    return template

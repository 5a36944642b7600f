"""The explorer's one model object: a game being looked at, step by step (docs/architecture.md, "Explorer").

A :class:`GameSession` holds what the explorer shows: which game, how many players, the seed, the
variant switches, the action log, the cursor (how many actions of the log are applied in the
viewed state) and the viewing seat. It speaks to the rules only through the protocol
(``rules.get_game``, ``new_game``, ``apply``, ``to_move``, ``legal_actions``, ``events``,
``observe``, the plots' ``deck_knowledge``, ``inventory`` and ``card_info``, and the replay
helpers), so it knows no game's rules. Views ask it, never a state (docs/architecture.md, "Plots").

Every change *assigns* new values (``log``, ``branches``, ``variants`` are replaced, never
mutated), so Panel components that watch a parameter always notice. The states along the log are
cached per prefix, so moving the cursor costs one list lookup.

Variant switches
    ``variants`` (a Dict) holds the chosen value of every variant of the game, defaults included;
    it is what the rules receive. ``variant_switches`` is a small Parameterized object with one
    parameter per variant, generated from the spec: ``param.Boolean`` for an on/off variant,
    ``param.Selector`` otherwise (e.g. ``session.variant_switches.disturbance``). Widgets are made
    from it with ``from_param``. The two are kept in step: flipping a switch assigns a new
    ``variants`` dict and vice versa. (The switches live on their own object, not on the session
    class, because each game has other variants and Param adds parameters to classes, not to
    single objects.)

Lines and branches
    ``play`` at the end of the log appends; at a past cursor it starts a new line there, and the
    old line is kept (as a :class:`Line`) in ``branches``; ``switch_branch(i)`` brings it back
    (the ``branch`` of docs/architecture.md, "Explorer"). ``undo``/``redo``/``goto`` only move the cursor.
    A what-if position (``load_position``) starts a line elsewhere; the line it replaces is kept too,
    with where it began (``Line.origin``), so switching back restores its game, players, start and log.

Changing ``players`` or ``seed`` deals a new game (empty log). Changing a variant replays the
same log under the new rules, stopping at the first move that became illegal; which move, and
the rules' message, are kept in ``replay_problem``, and the whole old line in ``branches``.
What the change did is kept in ``variant_change`` (see :meth:`GameSession._replay_under`): the
variants before and after, the move that became illegal (or None: every move is still legal) and
the scores at the end of the line before and after, until the line changes again.

Notes
    ``notes`` holds the notes pinned to the line's moves (:mod:`explorer.core.notes`): ``add_note``
    pins one as the viewing seat (or the teacher), ``visible_notes`` gives those the viewpoint may
    read. A note stays while the moves up to its step stay: a line replaced at an earlier step keeps
    its notes in ``branches`` (``Line.notes``), and they come back with it. ``replay``/``load`` carry
    them (the replay's ``notes`` key).
"""

from __future__ import annotations

import json
import keyword
import re
import time
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

import param

import rules
from rules import replay as replay_files
from rules.replay import SEED_LIMIT
from explorer.core.i18n import event_text, text
from explorer.core.notes import TEACHER, NoteRefused, check_note, note_visible
from play.bots import BOTS, bot_move
from explorer.core.viewpoint import Viewpoint
from rules.protocol import ALL, GameSpec, IllegalAction, RulesError

Move = tuple  # (seat, action)


#: What the board says when nobody's hand is shown: a spectator at a shared table.
SPECTATOR_VIEW = "Spectator view: no hand is shown"
#: The actions bots play in one go before they stop in a game that has not ended (``autoplay``), by bot:
#: the lowest of the bots playing counts. A card file or a position can make a game that never ends
#: (``play.bots.MOVE_LIMIT``); a line keeps every state it reaches, and a page waits for its bots, so the
#: explorer stops far sooner than a simulation: at about three times the longest of 300 random games
#: (6,007 actions, Jump Gate) and eight times the longest of 30 greedy ones (253), where a greedy
#: move takes some 1 ms (2,000 of them: about 2 s).
AUTOPLAY_LIMITS = {"random": 20_000, "greedy": 2_000, "mcts": 2_000}


def autoplay_limit(agents: Mapping[int, str]) -> int:
    """How many actions ``agents`` (seat -> bot name) play in one go at most: the lowest of their
    :data:`AUTOPLAY_LIMITS` (0 without a bot)."""
    return min((AUTOPLAY_LIMITS.get(name, min(AUTOPLAY_LIMITS.values())) for name in agents.values()), default=0)


def bots_to_move(spec: GameSpec, state, agents: Mapping[int, str]) -> bool:
    """Whether the game goes on with only ``agents``' seats to move."""
    waiting = spec.to_move(state)
    return bool(waiting) and all(seat in agents for seat in waiting)


def bot_moves(spec: GameSpec, state, agents: Mapping[int, str], seed: int, step: int):
    """The bots' moves from ``state`` (after ``step`` actions of the game dealt from ``seed``), each with the
    state it leads to, while only ``agents``' seats are to move: seat ``s`` at step ``k`` plays
    ``play.bots.bot_move(agents[s], ..., seed, k)`` (the one seed rule, ``play/seeds.py``). Endless
    where the game is: the caller stops it."""
    while bots_to_move(spec, state, agents):
        seat = spec.to_move(state)[0]
        action = bot_move(agents[seat], spec, state, seat, seed, step)
        state = spec.apply(state, seat, action)
        step += 1
        yield (seat, action), state


def player_label(seat: int | None) -> str:
    """How the explorer names a seat: seats are 0-based in the rules, players 1-based on screen."""
    return "Teacher (everything)" if seat is None else f"Player {seat + 1}"


@dataclass(frozen=True, kw_only=True)
class Line:
    """A line of play kept aside: its moves, where its cursor stood, and the variants it was played under.

    ``forked_at`` is the number of moves it shares with the line that replaced it. ``origin`` is None
    when the line begins where the current line begins (a fork, a line cut by a variant change);
    else where it begins, as JSON text: its replay file without moves and variants (``game``,
    ``version``, ``players``, ``seed``, and ``cards``, ``start`` when it has them; the start position
    without its variants). A line left for a what-if position has one.
    """

    log: tuple
    cursor: int
    variants: tuple
    forked_at: int
    origin: str | None = None
    notes: tuple = ()

    def __str__(self) -> str:
        if self.origin is not None:
            return f"{len(self.log)} moves from another start"
        return f"{len(self.log)} moves, forked after move {self.forked_at}"


class VariantSwitches(param.Parameterized):
    """Base of the per-game classes holding one parameter per variant (see ``switches_class``).

    The parameters' ``label`` and ``doc`` are the English ones; the sidebar shows a switch in the
    page's language with :func:`variant_label` and :func:`variant_note`.
    """


def variant_label(game: str, name: str, lang: str = "en") -> str:
    """What the sidebar calls variant ``name`` of ``game`` in ``lang``: an on/off switch's checkbox
    label (``"Disturbance variant"``), or a switch with choices' selector label (``"Row cleared after a
    satellite"``).

    From the locale files (``advisor.variant.<game>.<name>.label``), whose English one is the switch's
    parameter label too; a variant they do not name yet gets English words made from its name.
    """
    return _label_in_locale(game, name, lang) or _made_label(_variant(game, name))


def _label_in_locale(game: str, name: str, lang: str) -> str | None:
    try:
        return text(f"advisor.variant.{game}.{name}.label", lang)
    except KeyError:
        return None


def _made_label(variant) -> str:
    """A label made from a variant's name, for a variant the locale files do not name yet."""
    label = variant.name.replace("_", " ").capitalize()
    return f"{label} variant" if _is_on_off(variant) else label


def variant_note(game: str, name: str, lang: str = "en") -> str:
    """The note under variant ``name`` of ``game`` in the sidebar, in ``lang``: what it changes and its
    source (in English, the switch's parameter ``doc``; locale files: ``advisor.variant.<game>.<name>.note``)."""
    try:
        return text(f"advisor.variant.{game}.{name}.note", lang)
    except KeyError:
        return _variant_doc(_variant(game, name))


def variant_summary(game: str, name: str, lang: str = "en") -> str:
    """:func:`variant_note` without its source, which every note gives last, in brackets ("(source:
    ...)", "（出典：...）"): what the switch changes, for the sidebar, which links to the rules page's
    section on the switch for the source (file names and rules-text headings, for designers)."""
    note = variant_note(game, name, lang)
    source = re.search(r"\s*[（(](?:source: |出典：)", note)
    return note[:source.start()] if source else note


def variant_value_label(game: str, name: str, value, lang: str = "en") -> str:
    """A variant's setting as players read it: an on/off switch's "on"/"off" ("オン"/"オフ"), a choice
    by its words (``per_card`` -> "Per ecosystem card", "生態系カード1枚ごと"; locale files:
    ``advisor.variant.<game>.<name>.value.<value>``); a choice they do not name yet, its id in words."""
    if isinstance(value, bool):
        return text(f"variants.{'on' if value else 'off'}", lang)
    try:
        return text(f"advisor.variant.{game}.{name}.value.{value}", lang)
    except KeyError:
        return str(value).replace("_", " ")


def variant_options(game: str, name: str, lang: str = "en") -> dict[str, Any]:
    """A choice variant's options for a selector: ``{words: value}`` in ``lang``."""
    return {variant_value_label(game, name, value, lang): value for value in _variant(game, name).choices}


def variants_text(game: str, variants: Mapping, lang: str = "en") -> str:
    """Settings in words, each variant by its label: ``{"disturbance": True}`` -> "Disturbance variant:
    on" ("擾乱バリアント：オン"); ``{"ecosystem_bonus": "per_card"}`` -> "Ecosystem bonus: Per ecosystem card"."""
    words = [text("variants.setting", lang, variant=variant_label(game, name, lang),
                  value=variant_value_label(game, name, value, lang))
             for name, value in sorted(variants.items())]
    return text("variants.separator", lang).join(words)


def _variant(game: str, name: str):
    for variant in rules.get_game(game).variants:
        if variant.name == name:
            return variant
    raise KeyError(f"{game} has no variant {name!r}")


def _is_on_off(variant) -> bool:
    return isinstance(variant.default, bool) and set(variant.choices) == {False, True}


def _variant_doc(variant) -> str:
    return f"{variant.description} (source: {variant.source})"


_SWITCH_CLASSES: dict[tuple[str, int], type[VariantSwitches]] = {}


def switches_class(spec: GameSpec) -> type[VariantSwitches]:
    """The Parameterized class with one switch per variant of ``spec`` (made once per game)."""
    key = (spec.id, id(spec.variants))
    if key in _SWITCH_CLASSES:
        return _SWITCH_CLASSES[key]
    params: dict[str, param.Parameter] = {}
    for variant in spec.variants:
        name = variant.name
        if not name.isidentifier() or keyword.iskeyword(name) or hasattr(VariantSwitches, name):
            raise ValueError(f"variant name {name!r} of {spec.id} cannot be a parameter name")
        label = _label_in_locale(spec.id, name, "en") or _made_label(variant)
        doc = _variant_doc(variant)
        if _is_on_off(variant):
            params[name] = param.Boolean(default=variant.default, label=label, doc=doc)
        else:
            params[name] = param.Selector(default=variant.default, objects=list(variant.choices), label=label, doc=doc)
    cls = type(f"{spec.title.replace(' ', '')}Variants", (VariantSwitches,), params)
    _SWITCH_CLASSES[key] = cls
    return cls


def _bounds(spec: GameSpec) -> tuple[int, int]:
    return min(spec.player_counts), max(spec.player_counts)


class GameSession(param.Parameterized):
    """One game under exploration: set-up, log, cursor, derived state and point of view."""

    game = param.Selector(default=rules.GAMES[0], objects=list(rules.GAMES), doc="Which game's rules (an id from rules.GAMES).")
    players = param.Integer(default=4, bounds=(1, None), doc="Number of players; bounded by the game's player_counts.")
    seed = param.Integer(default=1, bounds=(1 - SEED_LIMIT, SEED_LIMIT - 1),
                         doc="Seed of the deal: the same seed and moves give the same game (a browser holds it exactly).")
    variants = param.Dict(default={}, doc="Every variant's chosen value (defaults completed); replaced, never mutated.")
    variant_switches = param.ClassSelector(class_=VariantSwitches, doc="One Boolean/Selector per variant, for widgets.")
    bot = param.Selector(default="greedy", objects=list(BOTS), doc="Bot used by autoplay when none is named.")
    #: Whether the last ``autoplay`` stopped at its limit, bots still to move (see ``AUTOPLAY_LIMITS``).
    stopped_at_limit: bool = False
    setup_refused = param.ClassSelector(class_=RulesError, default=None, allow_None=True,
                                        doc="Why the last players or seed chosen could not be dealt (a card file "
                                            "with too few cards for them): the setting went back, and nothing "
                                            "else changed. None once one is dealt.")
    variants_refused = param.ClassSelector(class_=RulesError, default=None, allow_None=True,
                                           doc="Why the last variants chosen could not hold the what-if position the "
                                               "line starts from: the variants and their switches went back, and "
                                               "nothing else changed. None once variants are taken.")

    log = param.List(default=[], item_type=tuple, doc="The line of play: (seat, action) pairs. Replaced, never mutated.")
    cursor = param.Integer(default=0, bounds=(0, 0), doc="How many actions of the log are applied in the viewed state.")
    branches = param.List(default=[], item_type=Line, doc="Lines replaced by a new move at a past cursor, or cut by a variant change.")
    replay_problem = param.Dict(default=None, allow_None=True,
                                doc="Set when a variant change cut the log short: which move, and why it is now illegal.")
    variant_change = param.Dict(default=None, allow_None=True,
                                doc="What the last variant change did to the line (see _replay_under); None once the "
                                    "line changes otherwise.")
    viewing_seat = param.Selector(default=None, objects=[None], allow_None=True,
                                  doc="None: the teacher sees everything; a seat (0-based): only what that seat may see.")
    teacher = param.Boolean(default=True, constant=True,
                            doc="False: viewing_seat None is a spectator (observe(state, None) only), not the teacher. "
                                "Shared tables' spectators use it.")

    start = param.Dict(default=None, allow_None=True,
                       doc="The what-if position the line begins from (a position file), or None: a deal from the seed.")
    seat_players = param.Dict(default={}, doc="Who plays each seat when playing on: 'human' or a bot name (seat -> name).")
    selected_action = param.Dict(default=None, allow_None=True,
                                 doc="The action a person is about to confirm (its JSON), for boards to preview; None otherwise.")
    notes = param.List(default=[], item_type=dict,
                       doc="Notes pinned to the line's moves ({step, seat, text, at}; explorer.core.notes). Replaced, never mutated.")
    notes_public = param.Boolean(default=False,
                                 doc="Every note may be read (a table ended before its game was over); else once the game is over.")

    ended_early = param.Integer(default=None, allow_None=True, bounds=(0, None),
                                doc="The step at which the line was ended before its game's end (a playtest table its "
                                    "creator ended): there no one is to move, and every view says so. None: the line "
                                    "ends only with its game.")
    spec = param.Parameter(default=None, constant=True, doc="The GameSpec in use (a replay may bring its own card file).")
    state = param.Parameter(default=None, constant=True, doc="The state after `cursor` actions of the log (derived).")

    def __init__(self, **params):
        spec = rules.get_game(params.get("game", self.param.game.default))
        params.setdefault("players", self._default_players(spec))
        if params["players"] not in spec.player_counts:
            spec.check_players(params["players"])      # raises, naming the allowed counts
        super().__init__(**params)
        self._updating = False
        self._switch_watcher = None
        self._states: list = []            # _states[i]: the state after i actions of self.log
        self._observations: dict = {}      # (step, seat) -> observe() of _states[step]
        self._step_keys: dict = {}         # step -> (the state there, its key): see step_key
        self._cards: tuple | None = None   # (spec, first state, card answers) of the current line
        self._note_events: dict = {}       # (step key, observer) -> observe()["events"], for notes
        self._deal(**self._setup(spec, self.variants, self.players, self.seed))
        self.param.watch(self._on_setup_change, ["players", "seed"])
        self.param.watch(self._on_game_change, ["game"])
        self.param.watch(self._on_variants_change, ["variants"])
        self.param.watch(self._on_line_change, ["log", "cursor"])

    @staticmethod
    def _default_players(spec: GameSpec) -> int:  # noqa: D102
        return 4 if 4 in spec.player_counts else spec.player_counts[0]

    # ------------------------------------------------------------------ what the UI asks
    @property
    def viewpoint(self) -> Viewpoint:
        """The point of view every view of the page reads through: the viewing seat, a spectator, or
        (``viewing_seat`` None where the page has a teacher) the teacher, who sees ``ALL``."""
        return Viewpoint.of(self.viewing_seat, teacher=self.teacher)

    @property
    def sees_all(self) -> bool:
        """The teacher's view: every hand and every event in full (never at a shared table)."""
        return self.viewpoint.sees_all

    @property
    def at_start(self) -> bool:
        return self.cursor == 0

    @property
    def at_end(self) -> bool:
        return self.cursor == len(self.log)

    def state_at(self, step: int):
        """The state after ``step`` actions of the log (cached)."""
        if type(step) is not int or not 0 <= step <= len(self.log):
            raise IndexError(f"step {step!r} is outside the log (0..{len(self.log)})")
        return self._extend_states(self.log, step)

    def observation(self, seat: int | str | None, step: int | None = None) -> dict:
        """``observe(state, seat)`` of the state after ``step`` actions (default: the cursor), cached.
        ``seat`` may be ``ALL`` only where the page has a teacher (:class:`Viewpoint` refuses it
        elsewhere)."""
        step = self.cursor if step is None else step
        self.viewpoint.check(seat)
        ended = step == self.ended_early
        key = (step, seat, ended)
        if key not in self._observations:
            state = self.state_at(step)
            seen = self.spec.observe(state, seat)
            if ended and not self.spec.is_over(state):      # no one moves any more: ``ended_early``
                seen = {**seen, "to_move": [], "legal_actions": [], "ended_early": True}
            self._observations[key] = seen
        return self._observations[key]

    def deck_knowledge(self, seat: int | str | None, step: int | None = None) -> dict | None:
        """What ``seat`` can infer about the unseen cards after ``step`` actions (default: the cursor):
        ``spec.deck_knowledge``, asked through the page's viewpoint as :meth:`observation` is (a seat's
        page may ask for its own seat only, a table's spectator for ``None`` only). ``None`` is the
        spectator's inference; the teacher (``ALL``) gets it too (the plots show what can be inferred
        from the table). None for a game that does not answer."""
        step = self.cursor if step is None else step
        self.viewpoint.check(seat)
        return self.spec.deck_knowledge(self.state_at(step), None if seat == ALL else seat)

    def card_data(self) -> dict | None:
        """The line's public card data, the same for every viewpoint (it needs only the card file the
        line is played with, no hidden zone): ``{"copies": {card: copies}, "info": {card:
        card_info}}``. The copies are ``inventory`` (every card on the table), else the cards a
        spectator has not seen at the deal; None when the game answers neither. Kept per line."""
        cards = self._line_cards()
        if "data" not in cards:
            spec, first = self.spec, self.state_at(0)
            copies = spec.inventory(first)
            if copies is None:
                knowledge = spec.deck_knowledge(first, None)
                copies = None if knowledge is None else knowledge["unseen"]
            cards["data"] = None if copies is None else {"copies": dict(copies),
                                                         "info": {card: self.card_info(card) for card in copies}}
        return cards["data"]

    def card_set(self):
        """The card file the line is played with (public: what is printed on the cards, no position),
        as the rules read it (``spec.card_set``), for a board that names a card by what is printed on it."""
        return self.spec.card_set(self.state_at(0))

    def card_info(self, card: str) -> dict | None:
        """How the plots group and order ``card`` (a name as events and observations give it, e.g. a
        rotated Starligned card): ``spec.card_info``, from the line's card file alone, so the same for
        every viewpoint. Kept per line."""
        info = self._line_cards()["info"]
        if card not in info:
            info[card] = self.spec.card_info(self.state_at(0), card)
        return info[card]

    def _line_cards(self) -> dict:
        """The card answers kept for the current line (its spec and first state): new when either changes."""
        spec, first = self.spec, self.state_at(0)
        if self._cards is None or self._cards[0] is not spec or self._cards[1] is not first:
            self._cards = (spec, first, {"info": {}})
        return self._cards[2]

    def step_key(self, step: int) -> object:
        """An opaque key for the state after ``step`` actions: the same object while that state is,
        a new one when the line changes there (a new move, branch, variant or deal). Views cache what
        they computed for a step under it, without ever holding the state."""
        state = self.state_at(step)
        entry = self._step_keys.get(step)
        if entry is None or entry[0] is not state:
            if len(self._step_keys) > len(self._states):      # forget steps past a line cut shorter
                self._step_keys = {at: kept for at, kept in self._step_keys.items() if at < len(self._states)}
            entry = self._step_keys[step] = (state, object())
        return entry[1]

    def view(self, step: int | None = None) -> dict:
        """The observation every view of the page draws: ``observe`` of the state after ``step``
        actions (default: the cursor) from the page's :attr:`viewpoint`."""
        return self.observation(self.viewpoint.observer, step)

    def public_view(self, step: int | None = None) -> dict:
        """The part of every observation that every viewer shares, with the scores
        (``spec.public_scores``: ``scores``, ``winners``, ``score_breakdown``) after ``step`` actions
        (default: the cursor): what score curves over the whole line read, step by step."""
        step = self.cursor if step is None else step
        return self.spec.public_scores(self.state_at(step))

    def event_texts(self, step: int | None = None, seat: Any = "viewing") -> list[str]:
        """Plain-language events of the action that led to ``step``, as ``seat`` may see them.

        ``seat`` defaults to the viewing seat (a spectator's view when ``teacher`` is off); ``None``
        (or ``ALL``) is the teacher, who reads every event in full: only where the page has one.
        """
        return [text for _, text in self.event_items(step, seat)]

    def event_items(self, step: int | None = None, seat: Any = "viewing", lang: str = "en") -> list[tuple[str, str]]:
        """As :meth:`event_texts`, each event as ``(kind, text)`` (its kind names the rule it applies),
        in ``lang`` where the game writes its events in it."""
        step = self.cursor if step is None else step
        seat = self.viewpoint.observer if seat == "viewing" else ALL if seat is None else seat
        # the teacher's list keeps an event with nothing to say, as the rules give it
        return [(event["kind"], event_text(event, lang))
                for event in self.observation(seat, step)["events"] if event["text"] or seat == ALL]

    def event_log(self, upto: int | None = None, seat: Any = "viewing") -> list[dict]:
        """Every step from the deal to ``upto`` (default: the cursor): who acted and what happened."""
        upto = self.cursor if upto is None else upto
        return [{"step": step, "seat": self.log[step - 1][0] if step else None,
                 "events": self.event_texts(step, seat)} for step in range(upto + 1)]

    # ------------------------------------------------------------------ notes
    def add_note(self, step: int, note_text: str, author: int | str | None = "viewing") -> dict:
        """Pin a note to ``step`` of the line (0: the deal), written by ``author`` (default: the
        viewing seat, or the teacher where the page has one); returns it. NoteRefused (naming the
        problem) for a step past the line's end, a blank or over-long text, or a page that has no
        seat and no teacher (a spectator): nothing changes."""
        step, cleaned = check_note(step, note_text, len(self.log))
        if author == "viewing":
            author = self.viewing_seat if self.viewing_seat is not None else TEACHER if self.teacher else None
        if author is None:
            raise NoteRefused("spectator")
        note = {"step": step, "seat": author, "text": cleaned, "at": round(time.time(), 3)}
        self.notes = [*self.notes, note]
        return note

    def visible_notes(self, viewer: Any = "viewing") -> list[dict]:
        """The notes ``viewer`` (default: the page's viewpoint) may read, in step order
        (:func:`explorer.core.notes.note_visible`: everybody's once the game is over)."""
        viewer = self.viewpoint.observer if viewer == "viewing" else viewer
        if not self.notes:
            return []
        ended = self.notes_public or bool(self.spec.is_over(self.state_at(len(self.log))))
        shown = [note for note in self.notes
                 if note["step"] <= len(self.log) and note_visible(note, viewer, ended, self._events_for_note)]
        return sorted(shown, key=lambda note: note["step"])

    def _events_for_note(self, step: int, observer: Any) -> Any:
        """What ``observe`` gives ``observer`` for the move that led to ``step`` (any viewpoint: only
        compared, never shown), cached per state."""
        key = (self.step_key(step), observer)
        if key not in self._note_events:
            if len(self._note_events) > 4096:
                self._note_events = {}
            self._note_events[key] = self.spec.observe(self.state_at(step), observer)["events"]
        return self._note_events[key]

    def describe_move(self, step: int) -> str:
        """``"Player 2: take cloud 3 to journal"``: the move that led to ``step``, as the teacher reads it."""
        seat, action = self.log[step - 1]
        return f"{player_label(seat)}: {action}"

    def replay(self) -> dict:
        """The current line as a replay file (docs/formats.md)."""
        start = self.spec.encode(self._states[0]) if self.start is not None else None
        return replay_files.record(self.spec, self.players, self.seed, self.variants, self.log,
                                   state=self._states[0], start=start, notes=self.notes)

    def save(self) -> dict:
        """The current line as a replay file: what "save" writes (``load`` reads it back)."""
        return self.replay()

    def position(self) -> dict:
        """The viewed state as a position file (for the setup editor and "save position")."""
        return self.spec.encode(self.state)

    # ------------------------------------------------------------------ moving along the line
    def goto(self, step: int) -> None:
        if type(step) is not int or not 0 <= step <= len(self.log):
            raise ValueError(f"step must be between 0 and {len(self.log)}, not {step!r}")
        self.cursor = step

    def undo(self) -> bool:
        """One action back; False at the start."""
        if self.cursor == 0:
            return False
        self.cursor = self.cursor - 1
        return True

    def redo(self) -> bool:
        """One action forward along the log; False at its end."""
        if self.cursor >= len(self.log):
            return False
        self.cursor = self.cursor + 1
        return True

    def play(self, seat: int, action) -> None:
        """Play ``action`` (an Action or its JSON form) for ``seat`` at the cursor.

        At the end of the log it is appended. At a past cursor, the log's own next move just steps
        forward; any other move starts a new line there and the old line is kept in ``branches``.
        Raises IllegalAction, and the session is then unchanged.
        """
        if isinstance(action, Mapping):
            action = self.spec.decode_action(action)
        new_state = self.spec.apply(self.state, seat, action)
        move = (seat, action)
        if self.cursor < len(self.log) and self.log[self.cursor] == move:
            self.cursor = self.cursor + 1
            return
        self._continue_line([move], [new_state], self.cursor + 1)

    def follow(self, moves: Sequence[Move], states: Sequence) -> None:
        """Append moves played elsewhere (a shared table) with the states they led to; cursor to the end.

        The states are taken as they are (immutable values, shared with the table), not replayed. A
        selected action belonged to the old position: it is cleared in the same batch (one redraw).
        """
        if len(moves) != len(states):
            raise ValueError(f"{len(moves)} moves but {len(states)} states")
        if not moves:
            return
        self._extend_states(self.log, len(self.log))
        self._states.extend(states)
        self._set_line(self.log + list(moves), len(self.log) + len(moves), selected_action=None)

    def autoplay(self, bots: str | Sequence[str | None] | Mapping[int, str | None] | None = None,
                 until_over: bool = True, then_goto: int | None = None, limit: int | None = None,
                 seconds: float | None = None) -> int:
        """Let bots play from the cursor; returns how many actions they played.

        ``bots``: one bot name for every seat (default: the ``bot`` parameter), a list with a name
        per seat, or a mapping seat -> name; a seat without a bot (``None``) is played by a person,
        and the bots stop when it must decide. ``until_over=False`` plays a single action. Seat
        ``s``'s move at step ``k`` is ``play.bots.bot_move(name, ..., seed, k)`` (the one seed rule,
        ``play/seeds.py``), so the same session seed gives the same game as ``rules-explorer play``. As with ``play``, playing at a past cursor starts a new line. The cursor ends after
        the bots' last action, or at ``then_goto``. The bots stop after ``limit`` actions (default: the
        lowest of their :data:`AUTOPLAY_LIMITS`) in a game that has not ended: what they played is kept,
        and they can play on from there (``stopped_at_limit`` says whether they stopped so).
        ``seconds``: they also stop after the move that ends that long after the start (a page's quick
        part, ``explorer.components.picker.ActionPicker.play_bots``; the moves do not depend on it).
        """
        if bots is None or isinstance(bots, str):
            names = {seat: bots or self.bot for seat in range(self.players)}
        elif isinstance(bots, Mapping):
            names = {seat: bots.get(seat) for seat in range(self.players)}
        else:
            names = dict(enumerate(bots))
            if len(names) != self.players:
                raise ValueError(f"give one bot per seat ({self.players}), not {len(names)}")
        agents = {seat: name for seat, name in names.items() if name}
        if limit is None:
            limit = autoplay_limit(agents)
        moves: list[Move] = []
        states: list = []
        deadline = None if seconds is None else time.perf_counter() + seconds
        failed: Exception | None = None
        try:
            for move, state in bot_moves(self.spec, self.state, agents, self.seed, self.cursor):
                if len(moves) >= limit:
                    break
                moves.append(move)
                states.append(state)
                if not until_over or (deadline is not None and time.perf_counter() >= deadline):
                    break
        except (RulesError, ValueError) as error:
            # A bot that fails keeps the moves played before it (they were lost with the error: a page
            # said "Step 0 / 0" after 48 moves); the error is raised once they are on the line.
            if not moves:
                raise
            failed, then_goto = error, None
        self.stopped_at_limit = until_over and len(moves) >= limit and bots_to_move(self.spec, states[-1] if states else self.state, agents)
        last = self.cursor + len(moves) if moves else len(self.log)
        end = self.cursor + len(moves) if then_goto is None else then_goto
        if type(end) is not int or not 0 <= end <= last:
            raise ValueError(f"then_goto must be between 0 and {last}, not {then_goto!r}")
        self.put_moves(self.cursor, moves, states, end)
        if failed is not None:
            raise failed
        return len(moves)

    def put_moves(self, at: int, moves: Sequence[Move], states: Sequence, cursor: int | None = None) -> bool:
        """Put ``moves`` (with the states they lead to) after step ``at`` of the line, the cursor to
        ``cursor`` (default: after the last of them); returns whether the log changed.

        At the end of the log they are appended; at a past step, the log's own continuation changes
        nothing, and any other moves start a new line there, the old one kept in ``branches`` (as
        :meth:`play` does). ``states`` are taken as they are (immutable values), not replayed.
        """
        if len(moves) != len(states):
            raise ValueError(f"{len(moves)} moves but {len(states)} states")
        if type(at) is not int or not 0 <= at <= len(self.log):
            raise ValueError(f"at must be between 0 and {len(self.log)}, not {at!r}")
        end = at + len(moves) if cursor is None else cursor
        if not moves or list(self.log[at:at + len(moves)]) == list(moves):
            self.goto(end)                 # nothing new: the log's own continuation
            return False
        self._continue_line(list(moves), list(states), end, at=at)
        return True

    def branch(self, index: int) -> None:
        """Branch: bring back the kept line ``branches[index]`` (see :meth:`switch_branch`)."""
        self.switch_branch(index)

    def switch_branch(self, index: int) -> None:
        """Make ``branches[index]`` the current line; the current line takes its place in ``branches``.

        A line that began elsewhere (it was left for a what-if position) comes back as it was: its
        game, card file, players, seed and start position, moves and cursor. Raises RulesError,
        changing nothing, if where it began cannot be read again.
        """
        line = self.branches[index]
        branches = list(self.branches)
        branches[index] = self._line_record(forked_at=line.forked_at)
        variants = dict(line.variants)
        here = self._origin() if line.origin is not None else None
        if line.origin is not None and line.origin != here:
            spec, first, setup = _read_origin(line.origin, variants)
            values = self._setup(spec, variants, setup["players"], setup["seed"])
            self._states = [first]
            self._observations = {}
            self._set_line(list(line.log), line.cursor, branches=_rebased(branches, here, line.origin),
                           replay_problem=None, game=spec.id, start=setup.get("start"), selected_action=None,
                           notes=list(line.notes), **values)
            return
        values = {}
        if variants != self.variants:
            values = self._setup(self.spec, variants, self.players, self.seed)
        self._states = [self._root(self.spec, self.players, self.seed, variants)]
        self._observations = {}
        self._set_line(list(line.log), line.cursor, branches=branches, replay_problem=None, notes=list(line.notes),
                       **values)

    # ------------------------------------------------------------------ new games
    def reset(self) -> None:
        """A new deal from game/players/seed/variants: empty log, no branches."""
        self._deal(**self._setup(self.spec, self.variants, self.players, self.seed))

    def load(self, data: Mapping, cursor: int | None = None) -> None:
        """Take over a replay file: its game, players, seed, variants and moves.

        Raises InvalidReplay, changing nothing, if the file is malformed or a move is illegal.
        The cursor goes to ``cursor`` (default: the end).
        """
        spec, first, moves = replay_files.read(data)
        states = [first]
        for i, (seat, action) in enumerate(moves):
            try:
                states.append(spec.apply(states[-1], seat, action))
            except IllegalAction as error:
                raise replay_files.illegal_move(spec, i + 1, seat, action, error) from None
        cursor = len(moves) if cursor is None else cursor
        if type(cursor) is not int or not 0 <= cursor <= len(moves):
            raise ValueError(f"cursor must be between 0 and {len(moves)}, not {cursor!r}")
        values = self._setup(spec, data["variants"], data["players"], data["seed"])
        self._states = states
        self._observations = {}
        self._set_line(list(moves), cursor, branches=[], replay_problem=None, game=spec.id,
                       start=dict(data["start"]) if "start" in data else None, selected_action=None,
                       notes=replay_files.notes(data), notes_public=False, **values)

    def load_position(self, data: Mapping) -> None:
        """Start a new line from a what-if position (a position file): empty log, cursor at 0.

        The line shown, if it has moves, is kept under ``branches`` with where it began (as are the
        lines kept before), so :meth:`switch_branch` can bring it back.
        Raises InvalidPosition, changing nothing, if the position does not decode.
        """
        if not isinstance(data, Mapping) or "game" not in data:
            raise replay_files.InvalidPosition('a position is an object with "game", "version", "variants" and "state"', where="position")
        spec = rules.get_game(data["game"])
        if "cards" in data:
            spec = spec.with_card_file(data["cards"])
        state = spec.decode(data)
        start = spec.encode(state)
        players = len(spec.scores(state))  # one score per seat
        branches = self.branches + ([self._line_record(forked_at=0)] if self.log else [])
        branches = _rebased(branches, self._origin(), _origin(spec, players, self.seed, state, start))
        values = self._setup(spec, start["variants"], players, self.seed)
        self._states = [state]
        self._observations = {}
        self._set_line([], 0, branches=branches, replay_problem=None, game=spec.id, start=start, selected_action=None,
                       **values)

    # ------------------------------------------------------------------ playing on
    def controller(self, seat: int) -> str:
        """'human' or the bot name that plays ``seat`` (default: 'human', a person)."""
        return self.seat_players.get(seat, "human")

    def play_on(self, seat: int, action) -> int:
        """A person plays ``action`` for ``seat``; then the bots play until a person must decide.

        Returns how many bot actions followed. Raises IllegalAction, changing nothing.
        """
        self.play(seat, action)
        return self.advance_bots()

    def bot_seats(self) -> dict[int, str | None]:
        """Per seat, the bot that plays it, or None where a person does (``seat_players``)."""
        return {seat: (None if self.controller(seat) == "human" else self.controller(seat)) for seat in range(self.players)}

    def advance_bots(self) -> int:
        """Let the seats played by bots act from the cursor until a person must decide or the game ends."""
        bots = self.bot_seats()
        if not any(bots.values()):
            return 0
        return self.autoplay(bots)

    # ------------------------------------------------------------------ internals
    def _setup(self, spec: GameSpec, variants: Mapping | None, players: int, seed: int) -> dict:
        """Point the parameters that depend on the spec at ``spec``; returns the values to assign.

        Updates the players' bounds, the viewing-seat choices and the variant switches (quietly);
        the caller assigns the returned values together with the new line.
        """
        self.param.players.bounds = _bounds(spec)
        if players not in spec.player_counts:
            players = self._default_players(spec)
        known = {v.name for v in spec.variants}
        variants = spec.check_variants({k: v for k, v in (variants or {}).items() if k in known})
        switches = self.variant_switches
        if switches is None or type(switches) is not switches_class(spec):
            if switches is not None and self._switch_watcher is not None:
                switches.param.unwatch(self._switch_watcher)
            switches = switches_class(spec)(**variants)
            self._switch_watcher = switches.param.watch(self._on_switch, list(variants)) if variants else None
        else:
            self._quietly(switches, **variants)
        seats = [None, *range(players)]
        self.param.viewing_seat.objects = seats
        viewing = self.viewing_seat if self.viewing_seat in seats else None
        # (variants taken with the line these values go with: no refusal left to tell)
        return dict(spec=spec, players=players, seed=seed, variants=variants,
                    variant_switches=switches, viewing_seat=viewing, variants_refused=None)

    def _quietly(self, target: param.Parameterized | None = None, **values) -> None:
        """Assign ``values`` (one batch of events) without this session's dealing/replaying watchers."""
        updating, self._updating = self._updating, True
        try:
            with param.edit_constant(self):
                (target or self).param.update(**values)
        finally:
            self._updating = updating

    def _root(self, spec: GameSpec, players: int, seed: int, variants: Mapping, start: Mapping | None = "current"):
        """The first state of a line: the what-if position (under ``variants``) or the seed's deal."""
        start = self.start if start == "current" else start
        if start is None:
            return spec.new_game(players, seed, variants)
        return spec.decode({**start, "variants": dict(variants)})

    def _deal(self, **values) -> None:
        spec = values.get("spec", self.spec)
        values.setdefault("start", None)
        self._states = [self._root(spec, values.get("players", self.players), values.get("seed", self.seed),
                                   values.get("variants", self.variants), values["start"])]
        self._observations = {}
        self._set_line([], 0, branches=[], replay_problem=None, selected_action=None, notes=[], **values)

    def _extend_states(self, log: Sequence[Move], step: int):
        """``_states[step]`` along ``log``, applying the moves not yet cached."""
        spec = self.spec
        while len(self._states) <= step:
            i = len(self._states) - 1
            seat, action = log[i]
            self._states.append(spec.apply(self._states[i], seat, action))
        return self._states[step]

    def _origin(self) -> str:
        """Where the current line begins, as :attr:`Line.origin` says it."""
        return _origin(self.spec, self.players, self.seed, self.state_at(0), self.start)

    def _line_record(self, forked_at: int) -> Line:
        return Line(log=tuple(self.log), cursor=self.cursor, variants=tuple(sorted(self.variants.items())),
                    forked_at=forked_at, notes=tuple(self.notes))

    def _continue_line(self, moves: list, states: list, cursor: int, at: int | None = None) -> None:
        """Put ``moves`` after step ``at`` (default: the cursor): appended at the end, or a new line
        forking from a past step."""
        at = self.cursor if at is None else at
        extra = {}
        if at < len(self.log):
            extra["branches"] = self.branches + [self._line_record(forked_at=at)]
        self._extend_states(self.log, at)
        del self._states[at + 1:]
        self._states.extend(states)
        self._observations = {k: v for k, v in self._observations.items() if k[0] <= at}
        self._set_line(self.log[:at] + list(moves), cursor, **extra)

    def _set_line(self, log: list, cursor: int, **extra) -> None:
        """Assign ``log``, ``cursor``, the derived ``state`` and ``extra`` in one batch.

        ``_states`` must already be the states along ``log`` (or a prefix of them).
        """
        if "spec" in extra:
            with param.edit_constant(self):
                self._quietly(spec=extra.pop("spec"))
        state = self._extend_states(log, cursor)
        self.param.cursor.bounds = (0, len(log))
        if log is not self.log:
            extra["log"] = log     # Param compares lists item by item and would report an unchanged one
            extra.setdefault("variant_change", None)     # it described the line being replaced
            if "notes" not in extra and self.notes:     # a note stays while the moves up to it stay
                shared = next((i for i, (old, new) in enumerate(zip(self.log, log)) if old != new),
                              min(len(self.log), len(log)))
                kept = [note for note in self.notes if note["step"] <= shared]
                if len(kept) != len(self.notes):
                    extra["notes"] = kept
        self._quietly(cursor=cursor, state=state, **extra)

    # ------------------------------------------------------------------ watchers
    def _on_setup_change(self, *events) -> None:
        if self._updating:
            return
        try:        # (the deal first: a card file can hold too few cards for more players)
            self._root(self.spec, self.players, self.seed, self.variants, None)
        except RulesError as error:
            # Changing nothing; said in setup_refused (the picker shows it) and in one warning line: a
            # slider's change is no call that could take an exception.
            self._quietly(setup_refused=error, **{e.name: e.old for e in events})
            self.param.warning(f"not dealt, the setting went back: {error}")
            return
        self.setup_refused = None
        self.reset()

    def _on_game_change(self, event) -> None:
        if self._updating:
            return
        spec = rules.get_game(event.new)
        self._deal(**self._setup(spec, {}, self._default_players(spec), self.seed))

    def _on_switch(self, *events) -> None:
        if not self._updating:
            try:
                self.variants = {**self.variants, **{e.name: e.new for e in events}}
            except IllegalAction:
                # Refused (a what-if position these variants cannot hold): the switch went back and
                # variants_refused says why (the picker shows it). A switch is a widget: no caller to tell.
                pass

    def _on_variants_change(self, event) -> None:
        if not self._updating:
            self._replay_under(event.new, event.old or {})

    def _on_line_change(self, *events) -> None:
        """``log`` or ``cursor`` was assigned from outside (e.g. a slider): keep the derived state right."""
        if self._updating:
            return
        old_log = next((e.old for e in events if e.name == "log"), None)
        if old_log is not None:
            shared = 0
            for old, new in zip(old_log, self.log):
                if old != new:
                    break
                shared += 1
            del self._states[shared + 1:]
            self._observations = {k: v for k, v in self._observations.items() if k[0] <= shared}
            try:
                self._extend_states(self.log, len(self.log))
            except RulesError:
                del self._states[shared + 1:]
                self._quietly(log=old_log)
                raise
            self._set_line(self.log, min(self.cursor, len(self.log)), variant_change=None,
                           notes=[note for note in self.notes if note["step"] <= shared])
            return
        self._set_line(self.log, min(self.cursor, len(self.log)))

    def _replay_under(self, variants: Mapping, old_variants: Mapping) -> None:
        """The variants changed: replay the same moves under the new rules, up to the first illegal one.

        What changed is kept in ``variant_change``: ``{"before": end, "after": end, "illegal": problem}``,
        where an ``end`` is the line's end as the rules score it (``variants``, ``moves``, ``over``, and
        ``scores``, one per seat, from ``spec.scores``): before, the whole old line under the old
        variants; after, the line replayed (or cut) under the new ones. ``illegal`` is the
        ``replay_problem`` (the first move the new rules refuse, which cuts the line) or None when
        every move is still legal.
        """
        before = self._line_end(self._extend_states(self.log, len(self.log)), self.log, old_variants)
        values = self._setup(self.spec, variants, self.players, self.seed)
        log, cursor, problem = self.log, self.cursor, None
        try:
            self._states = [self._root(self.spec, self.players, self.seed, values["variants"])]
        except RulesError as error:      # a what-if position that these variants cannot hold
            # Nothing changes: the variants go back, and their switches, which _setup had turned already
            # (a page's switch showed the new value while the game kept the old rules).
            self._quietly(variants=dict(old_variants), variants_refused=error)
            self._quietly(self.variant_switches, **old_variants)
            raise IllegalAction(str(error), rule="variants: the start position must be valid under them") from None
        self._observations = {}
        for i, (seat, action) in enumerate(log):
            try:
                self._states.append(self.spec.apply(self._states[i], seat, action))
            except RulesError as error:
                problem = {"move": i + 1, "seat": seat, "action": str(action), "message": str(error),
                           "text": f"Move {i + 1} ({player_label(seat)}: {self.spec.action_label(action, 'en')}) is illegal "
                                   f"under these rules: {error}"}
                break
        if problem is not None:
            kept = Line(log=tuple(log), cursor=cursor, variants=tuple(sorted(old_variants.items())),
                        forked_at=problem["move"] - 1, notes=tuple(self.notes))
            values["branches"] = self.branches + [kept]
            log = log[:problem["move"] - 1]
        after = self._line_end(self._states[len(log)], log, values["variants"])
        change = {"before": before, "after": after, "illegal": problem}
        self._set_line(log, min(cursor, len(log)), replay_problem=problem, variant_change=change, **values)

    def _line_end(self, state, log: Sequence[Move], variants: Mapping) -> dict:
        """The end of a line as a variant change reports it (see :meth:`_replay_under`)."""
        return {"variants": dict(variants), "moves": len(log), "over": bool(self.spec.is_over(state)),
                "scores": list(self.spec.scores(state))}


def _origin(spec: GameSpec, players: int, seed: int, first, start: Mapping | None) -> str:
    """Where a line begins, as :attr:`Line.origin` says it: from ``new_game(players, seed)``, or from
    the what-if position ``start`` (its first state ``first`` carries the card file)."""
    data = replay_files.record(spec, players, seed, None, [], state=first, start=start)
    del data["variants"], data["actions"]           # a line's variants are its own (Line.variants)
    if "start" in data:
        data["start"] = {key: value for key, value in data["start"].items() if key != "variants"}
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _read_origin(origin: str, variants: Mapping) -> tuple[GameSpec, Any, dict]:
    """The spec, first state and replay header (``players``, ``seed``, ``start``...) of a line that
    begins at ``origin``, under ``variants``. Raises InvalidReplay if the rules cannot read it."""
    data = {**json.loads(origin), "variants": dict(variants), "actions": []}
    if "start" in data:
        data["start"] = {**data["start"], "variants": dict(variants)}
    spec, first, _ = replay_files.read(data)
    return spec, first, data


def _rebased(lines: Sequence[Line], old: str, new: str) -> list[Line]:
    """``lines`` once the current line begins at ``new`` instead of ``old``: a line that began where
    the current one did now begins at ``old``; one that begins at ``new``, where the current one does."""
    rebased = []
    for line in lines:
        origin = old if line.origin is None else line.origin
        rebased.append(replace(line, origin=None if origin == new else origin))
    return rebased


class FixedViewSession(GameSession):
    """A session seen from one viewpoint, fixed when it is made: a seat, or a spectator (``seat=None``;
    never the teacher). A shared table's page is one: any server-side widget of a page, hidden or
    disabled, can be fired from the browser, so a page that must show one seat is built on a session
    that cannot show another (docs/architecture.md, "One viewpoint per page"). ``viewing_seat`` is a constant
    parameter: assigning it raises, and a set-up that would drop the seat (fewer players) is refused.
    """

    viewing_seat = param.Selector(default=None, objects=[None], allow_None=True, constant=True,
                                  doc="The seat whose view the page shows (None: a spectator), fixed when it opens.")
    teacher = param.Boolean(default=False, constant=True, doc="Always False: no everything-seeing view here.")

    _fixed_seat: int | None = None

    def __init__(self, *, seat: int | None, **params):
        if params.pop("teacher", False):
            raise ValueError("a fixed view is a seat's or a spectator's, never the teacher's")
        super().__init__(**params)
        if seat is not None and seat not in range(self.players):
            raise ValueError(f"seat {seat!r} is not at this {self.players}-player game")
        with param.edit_constant(self):
            self.viewing_seat = seat
        self._fixed_seat = seat

    def _setup(self, spec: GameSpec, variants: Mapping | None, players: int, seed: int) -> dict:
        values = super()._setup(spec, variants, players, seed)
        if values["viewing_seat"] != self._fixed_seat:
            raise ValueError(f"this view is fixed to {player_label(self._fixed_seat)}, "
                             f"whom a {values['players']}-player game does not seat")
        return values

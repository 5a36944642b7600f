"""The game protocol every rules engine answers (docs/protocol.md).

A game is a :class:`GameSpec`: it creates states, lists legal actions, applies them and answers
questions about a state. States and actions are immutable values, so branching, undo and caching
cost nothing, and every change is visible as a replaced value.

Only the standard library is used here; nothing in ``rules`` may import a UI package.
"""

from __future__ import annotations

import abc
import json
import math
import random
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, Iterable, NoReturn, Protocol, Sequence, TypeGuard, TypeVar, cast

#: A seat at the table: 0 is "Player 1".
Seat = int
#: Parsed JSON (a position, action or card file as read, before a game checks it): its shape is what
#: the game's ``decode`` checks, so nothing more can be said of it here.
JSON = Any
#: A JSON object as the protocol's answers build it (observations, encodings, breakdowns).
JSONObject = dict[str, Any]
#: Who looks: a seat, ``None`` for a spectator, or :data:`ALL`.
Viewer = Seat | str | None

#: A game's state and action types (each game's own immutable values).
S = TypeVar("S")
A = TypeVar("A")
#: A game's card set (the components new games are dealt from).
C = TypeVar("C", bound="CardSetLike")

#: The all-seeing viewpoint: ``observe(state, ALL)`` is the same kind of observation as a seat's, with
#: nothing hidden (every hand, every face-down card, the decks in order) and every event in full. It
#: is for the teacher of the explorer; a seat's or a spectator's page never asks for it
#: (``explorer/core/viewpoint.py``). A string, so an observation's ``"viewer"`` stays JSON.
ALL = "all"


def sees(viewer: Viewer, seat: Seat) -> bool:
    """Whether ``viewer`` (a seat, ``None`` for a spectator, or :data:`ALL`) sees what only ``seat`` may."""
    return viewer == seat or viewer == ALL


def acts(viewer: Viewer) -> TypeGuard[Seat]:
    """Whether ``viewer`` is a seat (that has legal actions of its own), not a spectator or :data:`ALL`."""
    return viewer is not None and viewer != ALL


class RulesError(Exception):
    """Base class of every error a rules engine raises on purpose."""


class IllegalAction(RulesError):
    """An action that the rules do not allow now. The state it was applied to is unchanged.

    ``rule`` names the rule that forbids it, ``reason`` says why, in words a player understands;
    ``reasons`` says it in every language the game writes it in (``rules/eventtexts.py``; the English
    is ``reason``).
    """

    def __init__(self, reason: str, *, rule: str, reasons: Mapping[str, str] | None = None):
        self.reason = reason
        self.rule = rule
        self.reasons = dict(reasons) if reasons else {"en": reason}
        super().__init__(f"{reason} (rule: {rule})")

    def reason_in(self, lang: str) -> str:
        """Why, in ``lang`` (English where the game does not say it in that language)."""
        return self.reasons.get(lang, self.reason)


class InvalidPosition(RulesError):
    """A position, replay or action file that cannot be read: the message says what is wrong."""

    def __init__(self, problem: str, *, where: str | None = None, problems: Mapping[str, str] | None = None):
        self.problem = problem
        self.where = where
        #: What is wrong in every language the code says it in (``rules/eventtexts.py``; English: ``problem``).
        self.problems = dict(problems) if problems else {"en": problem}
        super().__init__(f"{where}: {problem}" if where else problem)

    def problem_in(self, lang: str) -> str:
        """The message in ``lang``: where (a field path, the same in every language; a whole file named
        by the words ``file.where.<where>`` give, in ``lang``), then what is wrong."""
        from rules.eventtexts import shared_templates  # here: eventtexts imports rules.rulebook, which imports this module

        problem = self.problems.get(lang, self.problem)
        if not self.where:
            return problem
        where = shared_templates().get(f"file.where.{self.where}", {}).get(lang, self.where)
        return f"{where}: {problem}"


class InvalidReplay(InvalidPosition):
    """A replay file that is malformed, or whose moves do not replay legally."""


def shown(value: object, most: int = 40) -> str:
    """``value`` as a message quotes it: its ``repr``, cut short after ``most`` characters (a number of
    300 digits in a file was quoted whole, in a message of 360 characters)."""
    try:
        text = repr(value)
    except ValueError:      # (an integer past Python's digit limit)
        return "…"
    return text if len(text) <= most else text[:most - 10] + "…"


def key_names(keys: Iterable[object], most: int = 5) -> list[str]:
    """A file's keys as a message names them: as written when printable and short (``score``, ``top-6``),
    else quoted by :func:`shown` (a key of 200,000 characters was quoted whole; one holding U+202E turned
    the page's own words after it around; ANSI escapes reached a terminal); the first ``most``, then "…"."""
    names = sorted(str(key) for key in keys)
    quoted = [name if name.isprintable() and 0 < len(name) <= 40 else shown(name) for name in names[:most]]
    return quoted + ["…"] * (len(names) > most)


def _bad(key: str, where: str | None, **values: Any) -> NoReturn:
    """Raise :class:`InvalidPosition` with the shared text ``file.<key>`` (``rules/data/messages.json``)
    in every language; ``values`` fill it as in :func:`rules.eventtexts.say_shared`."""
    from rules.eventtexts import say_shared  # here: eventtexts imports rules.rulebook, which imports this module

    problems = say_shared(f"file.{key}", **values)
    raise InvalidPosition(problems["en"], where=where, problems=problems)


def _listed(items: Iterable[Any]) -> dict[str, str]:
    """Items joined by each language's comma ("a, b"; "a、b")."""
    from rules.eventtexts import joined

    return joined(items)


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A rule switch: a published variant, or an ambiguity in the rules with our ruling as default."""

    name: str
    default: Any
    description: str
    source: str
    choices: tuple[Any, ...] = (False, True)

    def check(self, value: Any) -> Any:
        if value not in self.choices or type(value) is not type(self.default):
            _bad("variant_value", "variants", name=repr(self.name), choices=str(list(self.choices)), value=shown(value))
        return value


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing the last ``apply`` did, in structured form and in plain language.

    ``visible_to`` is ``None`` when every seat may see it; otherwise the seats that may. Other seats
    (and spectators) get ``public_text`` instead, and no ``cards``. ``texts`` and ``public_texts``
    hold the same in every language (``rules/eventtexts.py``; ``text`` is the English one), where the
    game's events are written in its resource file.
    """

    kind: str
    text: str
    seat: Seat | None = None
    cards: tuple[str, ...] = ()
    cloud: int | None = None
    visible_to: tuple[Seat, ...] | None = None
    public_text: str | None = None
    texts: Mapping[str, str] | None = None
    public_texts: Mapping[str, str] | None = None

    def text_in(self, lang: str) -> str:
        """The full text in ``lang`` (English where the game has no text in it)."""
        return (self.texts or {}).get(lang, self.text)

    def seen_by(self, seat: Seat | str | None) -> JSONObject:
        """The JSON form of this event as ``seat`` may see it (``None`` = spectator, :data:`ALL` = in
        full): with ``texts``, per language, when the game writes them."""
        data: JSONObject
        if self.visible_to is None or seat == ALL or (seat is not None and seat in self.visible_to):
            data = {"kind": self.kind, "text": self.text, "seat": self.seat}
            if self.cards:
                data["cards"] = list(self.cards)
            if self.texts:
                data["texts"] = dict(self.texts)
        else:
            data = {"kind": self.kind, "text": self.public_text or "", "seat": self.seat}
            if self.public_texts:
                data["texts"] = dict(self.public_texts)
        if self.cloud is not None:
            data["cloud"] = self.cloud
        return data


#: The kinds of :class:`PositionField`: what a person edits, and how the editor shows it.
FIELD_KINDS = ("cards", "card", "seat", "number", "choice", "flag")


@dataclass(frozen=True, kw_only=True)
class PositionField:
    """One thing a person edits in a what-if position, in words (:meth:`GameSpec.position_fields`).

    ``path``: the keys from the position's ``"state"`` to the value, e.g. ``("hands", 1)`` (Player 2's
    hand) or ``("clouds", "3")``. ``kind`` (:data:`FIELD_KINDS`):

    - ``"cards"``: a list of card ids; ``ordered``: their order matters (a deck: the first is drawn
      first), else the editor may show them sorted;
    - ``"card"``: one card id, or null for an empty slot;
    - ``"seat"``: a seat's index (0 in the file is "Player 1" on the page);
    - ``"number"``: a whole number; ``shown_from``: what players call the file's 0 (1 for a round:
      round 0 in the file is "Round 1"); ``low``/``high``: the range the file allows;
    - ``"choice"``: one of ``choices`` (the file's values), named by ``choice_labels``;
    - ``"flag"``: true or false.

    ``optional``: null is allowed (no card, no seat, no number yet). ``label`` and ``group`` (the
    heading it goes under: a seat's name, or the table) and ``note`` (how to read it) are given in
    every language. ``cards``: the card ids that may go there, in the order to offer them (a zone of
    one deck offers that deck's cards). A field says nothing about which values are legal together:
    ``decode`` decides that, and says what and where.
    """

    path: tuple[str | int, ...]
    kind: str
    label: Mapping[str, str]
    group: Mapping[str, str]
    note: Mapping[str, str] | None = None
    ordered: bool = False
    optional: bool = False
    cards: tuple[str, ...] = ()
    choices: tuple[Any, ...] = ()
    choice_labels: tuple[Mapping[str, str] | str, ...] = ()
    shown_from: int = 0
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"PositionField {self.path}: kind must be one of {', '.join(FIELD_KINDS)}, not {self.kind!r}")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"PositionField {self.path}: one label per choice")

    @property
    def where(self) -> str:
        """How the rules' messages name the field: ``("hands", 1)`` -> ``"state.hands[1]"``."""
        return "state" + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in self.path)


@dataclass(frozen=True, kw_only=True)
class Turn:
    """The turn in progress (:meth:`GameSpec.turn_of`).

    ``seat`` is the seat whose turn it is, also while other seats answer decisions that belong to
    it (a trade partner's consent, an opponent's choice about the mover's card); ``None`` in a phase
    where the seats in ``to_move`` decide at once and none of them has the turn (a simultaneous play,
    a setup choice). ``number`` places the turn in the game: it is the same for every decision of
    one turn and larger for every later turn (a game may skip numbers, e.g. for a phase a variant
    leaves out), so a decision starts a new turn exactly when ``number`` differs from that of the
    decision before it.
    """

    seat: Seat | None
    number: int


class GameSpec(abc.ABC, Generic[S, A]):
    """What every game answers, in the same order for every game (docs/protocol.md).

    Subclasses set ``id``, ``title``, ``version``, ``player_counts`` and ``variants`` and implement the
    abstract methods. ``S`` is the game's state type and ``A`` its action type; a tool that serves any
    game holds a ``GameSpec[Any, Any]`` (:data:`AnyGame`). The concrete helpers below (``check_variants``, ``winners`` defaults, replays)
    are shared.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    variants: tuple[Variant, ...] = ()
    #: Kinds of the events that bring cards out of the deck into view (the explorer's deck-draw plot).
    deck_event_kinds: tuple[str, ...] = ("draw", "reveal")
    #: The numeric keys of a seat's :meth:`score_breakdown` that are parts of its total (Subastral's
    #: ``mixed`` and ``matching``); its other numeric keys beside ``total`` and ``seat`` are figures the
    #: tie-break reads (``journal_cards``, Jump Gate's ``planets``...). The explorer's score table and
    #: hovers say which is which from this, in every language.
    score_parts: tuple[str, ...] = ()

    # -- creating ------------------------------------------------------------------------------
    @abc.abstractmethod
    def new_game(self, players: int, seed: int, variants: Mapping[str, Any] | None = None) -> S:
        """A fresh state; every shuffle derives from ``seed``."""

    # -- playing -------------------------------------------------------------------------------
    @abc.abstractmethod
    def to_move(self, state: S) -> tuple[Seat, ...]:
        """Seats that must decide now (several = simultaneous); ``()`` when the game is over."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """Every legal action for ``seat``, in a stable order (empty if the seat need not act)."""

    @abc.abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> S:
        """The next state. Raises :class:`IllegalAction`; never changes ``state``."""

    # -- asking --------------------------------------------------------------------------------
    @abc.abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abc.abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """Points per seat: final when the game is over, provisional before."""

    def score(self, state: S, seat: Seat) -> int:
        """``scores(state)[seat]``: one seat's points, for a tool that weighs one seat's prospects (the
        greedy bot values each move it considers by it). A game that works out its scores seat by seat
        answers for that seat alone; the conformance suite holds it to ``scores``."""
        return self.scores(state)[seat]

    @abc.abstractmethod
    def winners(self, state: S) -> tuple[Seat, ...]:
        """Winning seats after the game's tie-breaks (several = a shared win)."""

    @abc.abstractmethod
    def score_breakdown(self, state: S, lang: str = "en") -> list[JSONObject]:
        """Per seat, each scoring category with its points; the categories' ``category`` and ``detail``
        texts in ``lang`` (the numbers and keys are the same in every language)."""

    def score_key(self, state: S) -> object:
        """What :meth:`score_breakdown` reads of ``state``, as one hashable value: two states with equal
        keys have equal breakdowns (a game names the fields its scoring counts, e.g. Subastral's
        ``(cards, journals)``; most moves leave them as they were). By default the state itself.
        The conformance suite checks the promise at every position it visits."""
        return state

    def public_score_breakdown(self, state: S) -> dict[str, list[JSONObject]]:
        """:meth:`score_breakdown` in every language of the interface (``{"en": [...], "ja": [...]}``):
        scores are public, so every observation carries it as ``"score_breakdown"`` and score tables
        and plots read it there, not from the state.

        Worked out once per :meth:`score_key` (:func:`_public_score_breakdown`): every seat's, the
        spectator's and the teacher's observation of one state, and of every state scored alike,
        share the same object, so nobody may change it."""
        try:
            return _public_score_breakdown(self, state)
        except TypeError:                           # (a key that cannot be hashed: worked out afresh)
            return _score_breakdowns(self, state)

    def public_scores(self, state: S) -> JSONObject:
        """The part of every observation that is the same for every viewer and holds the scores:
        ``{"scores", "winners", "score_breakdown"}`` as :meth:`observe` gives them, without the rest
        (what score curves over a whole line need, at a fraction of the cost)."""
        return {"scores": list(self.scores(state)), "winners": list(self.winners(state)),
                "score_breakdown": self.public_score_breakdown(state)}

    @abc.abstractmethod
    def observe(self, state: S, seat: Viewer) -> JSONObject:
        """A JSON-able view holding only what ``seat`` may see (``None`` = spectator).

        ``seat=ALL`` is the all-seeing view: the same fields, with every hidden zone filled in (a
        hand's or hidden pile's ``cards`` next to its ``count``, a deck's ``cards`` in draw order,
        face-down cards by name) and every event in full; its ``legal_actions`` are empty, as a
        spectator's. Whatever a seat sees, ``observe(state, ALL)`` shows the same way.

        Every observation holds the public ``scores``, ``winners`` and ``score_breakdown``
        (:meth:`public_score_breakdown`), the same for every viewer."""

    @abc.abstractmethod
    def events(self, state: S) -> tuple[Event, ...]:
        """What the ``apply`` that produced ``state`` did."""

    def action_label(self, action: A, lang: str = "en", state: S | None = None) -> str:
        """The action's name on a button, in ``lang``: ``str(action)`` in English (a game writes its
        other languages in its ``data/events.json``, keys ``action.*``). ``state``: the position it is
        offered in, for a game whose names say more with it (Starligned names a card with the half it
        shows there); give it only where the viewer may see what the action's own cards show (a
        seat's own actions, the teacher's)."""
        return str(action)

    def card_label(self, card: str) -> Mapping[str, str] | str:
        """The name printed on the card ``card`` (an id of the position files, ``"savanna-3"``) in every
        language (``{"en": "Savanna 3", "ja": ...}``); the id itself where the game prints no other
        name, or for an id that is not one of its cards."""
        return card

    def position_fields(self, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
        """What a person edits in the position ``data`` (as :meth:`encode` writes it), in words: the
        card zones, whose turn, the round... (the setup editor's form; anything not listed is edited
        as JSON). Default: nothing."""
        return ()

    # -- files ---------------------------------------------------------------------------------
    @abc.abstractmethod
    def encode(self, state: S) -> JSONObject:
        """The complete position: ``{"game", "version", "variants", "state"}``."""

    @abc.abstractmethod
    def decode(self, data: Mapping[str, Any]) -> S:
        """Read a position written by :meth:`encode` (or by hand); raises :class:`InvalidPosition`."""

    @abc.abstractmethod
    def encode_action(self, action: A) -> JSONObject: ...

    @abc.abstractmethod
    def decode_action(self, data: JSON) -> A:
        """Read an action written by :meth:`encode_action`; raises :class:`InvalidPosition`."""

    # -- optional questions (used by tests, tools and bots; None = not answered) ------------------
    def turns_taken(self, state: S) -> tuple[int, ...] | None:
        """Turns each seat has finished, for games where everyone must get the same number."""
        return None

    def turn_of(self, state: S) -> Turn | None:
        """The turn in progress (:class:`Turn`): whose it is and which one; ``None`` once the game is
        over (and from a game that does not answer). Tools ask this instead of guessing turns from
        action kinds."""
        return None

    def inventory(self, state: S) -> dict[str, int] | None:
        """How many of each physical card are on the table, in any zone: constant through a game."""
        return None

    def first_player(self, state: S) -> Seat | None:
        """The seat that plays first in ``state``'s game (the start player, drawn at the deal), as far as
        ``state`` still tells: ask it of a deal (``new_game``). None for a game without one, or a state
        that no longer tells (a lead that has passed on). What "first-player advantage" is measured by."""
        return None

    def set_aside(self, state: S) -> dict[str, int]:
        """The card file's cards this deal leaves out of play (in the box, or unused), by name: what the
        player count (or a variant) sets aside, whether the state keeps them (a box zone, also in the
        inventory) or not (never dealt). The inventory and these together are the whole file. Empty for a
        game that sets nothing aside."""
        return {}

    def sample_hidden(self, state: S, seat: Seat | None, rng: random.Random) -> S | None:
        """A state ``seat`` cannot tell from ``state``: everything it may not see re-dealt at random,
        the game's seed too (it names the chance to come: ``rules.chance.unknown_seed``).

        The observer test uses it (``observe`` must not change), and so can bots that must not peek.
        """
        return None

    def card_info(self, state: S, card: str) -> JSONObject | None:
        """How to group and order a card in plots: ``{"group", "group_name", "group_names", "number"}``.

        ``group`` is the group's id, ``group_name`` its name in English, ``group_names`` its name in
        every language the game words (``{"en": "Savanna", "ja": "サバンナ"}``, from the card file's
        ``name_ja``): the plots name a group in the page's language, else by ``group_name``."""
        return None

    def deck_knowledge(self, state: S, seat: Seat | None) -> JSONObject | None:
        """What ``seat`` can infer about the deck from what it has seen.

        ``{"deck_count", "unseen": {card: copies not visible to the seat (deck and others' hands)},
        "unseen_in_hands": how many of those sit in other hands, "end_card_depths": {draws before
        the end card: probability}}`` (``end_card_depths`` empty once the end card is out; None for a game
        without an end card).
        """
        return None

    def card_file(self, state: S) -> JSONObject | None:
        """The card data the state was played with, when it is not the game's standard file."""
        return None

    def with_card_file(self, data: JSON) -> GameSpec[S, A]:
        """The same game with another card file (its parsed JSON)."""
        _bad("no_card_file", "cards", game=self.title)

    def recorded(self, version: str) -> GameSpec[S, A]:
        """The game as it plays a record made with its rules ``version`` (a replay's, a table's): a
        seed and moves replay only as they were dealt and drawn then. Itself unless a later version
        changed what a seed gives (Biome Blitz 1.1: how dice and reshuffles are drawn); ``new_game``
        of the game given deals as ``version`` did. A version of another major number, or a later
        minor one, is refused before this is asked (``rules.fields.rules_version``)."""
        return self

    def version_of(self, state: S) -> str:
        """The rules version to record with a game played from ``state`` (its seed gives what that
        version gives: :meth:`recorded`). ``version`` unless the state keeps an older way."""
        return self.version

    # -- shared helpers ------------------------------------------------------------------------
    def variant(self, name: str) -> Variant:
        for variant in self.variants:
            if variant.name == name:
                return variant
        from rules.eventtexts import say_shared

        known = _listed(v.name for v in self.variants) if self.variants else say_shared("file.no_variants")
        _bad("no_variant", "variants", game=self.title, name=repr(name), known=known)

    def check_variants(self, variants: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults completed and every value checked; unknown names are an error."""
        if variants is None:
            variants = {}
        if not isinstance(variants, Mapping):
            _bad("variants_object", "variants")
        chosen = {v.name: v.default for v in self.variants}
        for name, value in variants.items():
            chosen[name] = self.variant(name).check(value)
        return chosen

    def check_new_game(self, players: Any, seed: Any, variants: Mapping[str, Any] | None) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """``new_game``'s arguments checked: the player count and the variants as sorted pairs."""
        players = self.check_players(players)
        if type(seed) is not int:
            raise TypeError(f"seed must be a whole number, not {seed!r}")
        return players, tuple(sorted(self.check_variants(variants).items()))

    def check_players(self, players: Any) -> int:
        if type(players) is not int or players not in self.player_counts:
            _bad("players", "players", game=self.title, counts=_listed(self.player_counts), value=shown(players))
        return players

    def describe(self) -> JSONObject:
        """Identity and switches, JSON-able (for ``rules-explorer games`` and the UI)."""
        return {
            "id": self.id,
            "title": self.title,
            "version": self.version,
            "player_counts": list(self.player_counts),
            "variants": [
                {"name": v.name, "default": v.default, "description": v.description, "source": v.source}
                for v in self.variants
            ],
        }


class CardSetLike(Protocol):
    """What :class:`ModuleGame` reads of a game's card set: whether it is the shipped one, and the
    file it was read from."""

    @property
    def is_standard(self) -> bool: ...

    @property
    def raw(self) -> Mapping[str, Any]: ...


class PhasedState(Protocol):
    """What :class:`ModuleGame` reads of a game's state: its phase (``"over"`` once the game ends)."""

    @property
    def phase(self) -> str: ...


PS = TypeVar("PS", bound=PhasedState)
C_contra = TypeVar("C_contra", bound=CardSetLike, contravariant=True)


class RulesModule(Protocol[PS, A, C_contra]):
    """A game's rules module (``rules/<game>/rules.py``): the turn, as functions."""

    def new_state(self, cards: C_contra, players: int, seed: int, variants: tuple[tuple[str, Any], ...]) -> PS: ...

    def to_move(self, state: PS) -> tuple[Seat, ...]: ...

    def legal_actions(self, state: PS, seat: Seat) -> Sequence[A]: ...

    def apply(self, state: PS, seat: Seat, action: A) -> PS: ...


class FilesModule(Protocol[PS, A]):
    """A game's position module (``rules/<game>/position.py``): its files. ``game`` is the game's own
    class (the module reads its card set, id and player counts), which only that module knows."""

    def encode(self, game: Any, state: PS) -> JSONObject: ...

    def decode(self, game: Any, data: JSON) -> PS: ...

    def encode_action(self, action: A) -> JSONObject: ...

    def decode_action(self, game: Any, data: JSON) -> A: ...


class ModuleGame(GameSpec[PS, A], Generic[PS, A, C]):
    """The shape every game of this project has: the turn in a rules module, the files in a position
    module, the components in a card set. This class answers the protocol calls from them, so a
    game's class holds only what is its own (the observer, scoring, events).

    Subclasses set ``engine`` (its rules module: :class:`RulesModule`), ``files`` (its position module:
    :class:`FilesModule`), and ``standard_cards`` / ``parse_cards`` (``staticmethod``: the shipped
    card set, and a reader ``parse_cards(data, where=...)``), and say where a state keeps its card set
    (:meth:`card_set`). ``self.cards`` is the card set new games are dealt from.
    """

    engine: RulesModule[PS, A, C]
    files: FilesModule[PS, A]
    standard_cards: Callable[[], C]
    parse_cards: Callable[..., C]

    def __init__(self, cards: C | None = None):
        self.cards: C = cards or type(self).standard_cards()
        # The hot protocol calls go straight to the engine's functions: one call less per decision.
        self.to_move = self.engine.to_move              # type: ignore[method-assign]
        self.legal_actions = self.engine.legal_actions  # type: ignore[method-assign]
        self.apply = self.engine.apply                  # type: ignore[method-assign]

    def new_game(self, players: int, seed: int, variants: Mapping[str, Any] | None = None) -> PS:
        players, chosen = self.check_new_game(players, seed, variants)
        return self.engine.new_state(self.cards, players, seed, chosen)

    def to_move(self, state: PS) -> tuple[Seat, ...]:
        return self.engine.to_move(state)

    def legal_actions(self, state: PS, seat: Seat) -> Sequence[A]:
        return self.engine.legal_actions(state, seat)

    def apply(self, state: PS, seat: Seat, action: A) -> PS:
        return self.engine.apply(state, seat, action)

    def is_over(self, state: PS) -> bool:
        return state.phase == "over"

    @abc.abstractmethod
    def card_set(self, state: PS) -> C:
        """The card set ``state`` is played with."""

    def card_file(self, state: PS) -> JSONObject | None:
        cards = self.card_set(state)
        return None if cards.is_standard else dict(cards.raw)

    def with_card_file(self, data: JSON) -> ModuleGame[PS, A, C]:
        return type(self)(type(self).parse_cards(check_texts(check_json(data, what="cards"), where="cards"), where="cards"))

    def encode(self, state: PS) -> JSONObject:
        return self.files.encode(self, state)

    def decode(self, data: Mapping[str, Any]) -> PS:
        return self.files.decode(self, check_json(data, what="position"))

    def encode_action(self, action: A) -> JSONObject:
        return self.files.encode_action(action)

    def decode_action(self, data: JSON) -> A:
        return self.files.decode_action(self, check_json(data, what="action"))


#: Any game, as a tool that serves every game holds it (the registry's games).
AnyGame = GameSpec[Any, Any]


def dumps(data: JSON) -> str:
    """The project's JSON style for files people read and edit."""
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


#: How deeply a file's lists and objects may nest. The project's files need a handful of levels; the
#: limit keeps Python's recursion (parsing, ``repr`` in a message, copying) far from its own.
MAX_DEPTH = 100


def _max_int_digits() -> int:
    """The most digits Python turns into a number and back (``sys.get_int_max_str_digits``; 0 = any)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0


def check_json(data: JSON, *, what: str) -> JSON:
    """``data`` (parsed JSON, or the same built in Python) when every reader of files can handle it,
    else :class:`InvalidPosition`: lists and objects nested deeper than :data:`MAX_DEPTH`, a whole
    number with more digits than Python reads or writes (it could not even be named in a message), or
    a number that is not finite (NaN, Infinity: Python's json reads and writes them, JSON has none).

    The one check every way in shares: :func:`load_json` (hence every file the CLI, replays and card
    files read) and ``decode``, ``decode_action``, ``with_card_file`` and replays for data given as
    Python objects.
    """
    digits = _max_int_digits()
    too_big = 10 ** digits if digits else None

    def scalar_or_container(value: object) -> bool:
        """True for a list, tuple or mapping (to look into); a whole number is checked here."""
        if isinstance(value, (list, tuple, Mapping)):
            return True
        if isinstance(value, int) and too_big is not None and (value >= too_big or value <= -too_big):
            _bad("number_too_long", what, digits=digits)
        return False

    # Depth first with a stack of containers (recursion would fail where the data is deepest).
    stack: list[tuple[JSON, int]] = [((data,), -1)]
    while stack:
        node, depth = stack.pop()
        if depth >= MAX_DEPTH:
            _bad("too_deep", what, depth=MAX_DEPTH)
        if isinstance(node, Mapping):
            keys = [key for key in node if type(key) is not str]
            node = [*keys, *node.values()] if keys else node.values()
        for value in node:
            kind = type(value)
            if kind is float:       # (Python's json reads NaN, Infinity and 1e400; no other reader does)
                if not math.isfinite(cast(float, value)):
                    _bad("not_finite", what, value=value)
                continue
            if kind is str or kind is bool or value is None:
                continue
            if kind is dict or kind is list or kind is tuple or scalar_or_container(value):
                stack.append((value, depth + 1))
    return data


#: The longest text a card file may hold (a name, an ability's text, a note on where the data comes
#: from): the standard files' longest has 269.
CARD_TEXT_LIMIT = 1000


def check_texts(data: JSON, *, where: str) -> JSON:
    """``data`` (a card file's parsed JSON) when every text in it, key or value, shows what it holds
    (``rules.showable.text_problem``) and has at most :data:`CARD_TEXT_LIMIT` characters, else
    :class:`InvalidPosition` naming the first text that does not, as the games' card readers name a
    field (``cards: animals[3].name``; a key: the object that holds it), so the card editor marks it. A
    card file's names and texts are drawn on every page that plays with it, a playtest table's seats
    among them: a name holding U+202E showed its letters in another order, one of 3,000 line breaks
    stood taller than the board. (After :func:`check_json`: the nesting is bounded.)"""
    from rules.showable import text_problem

    def named(path: str) -> str:
        return f"{where}: {path}" if path else where

    stack: list[tuple[JSON, str]] = [(data, "")]       # (a value or a key, its path: a key's is its object's)
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if len(node) > CARD_TEXT_LIMIT:
                _bad("text_too_long", named(path), length=len(node), limit=CARD_TEXT_LIMIT)
            problem = text_problem(node)
            if problem is not None:
                _bad(f"text_{problem[0]}", named(path), **problem[1])
        elif isinstance(node, Mapping):
            for name, value in reversed(list(node.items())):     # (reversed: the first text is checked first)
                stack.append((value, f"{path}.{name}" if path else str(name)))
                stack.append((name, path))
        elif isinstance(node, (list, tuple)):
            stack.extend((value, f"{path}[{i}]") for i, value in reversed(list(enumerate(node))))
    return data


class _RepeatedKey(ValueError):
    """A key written twice in one JSON object (``load_json``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, refusing a key written twice: ``json`` keeps the last value
    without a word, so ``{"seed": 1, "seed": 7}`` loaded as seed 7 (an outside tester)."""
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise _RepeatedKey(key)
        members[key] = value
    return members


def load_json(text: str | bytes, *, what: str) -> JSON:
    """Parse JSON, turning syntax errors into :class:`InvalidPosition` that says where; the result
    passes :func:`check_json`. A key written twice in one object is refused (which value was meant?)."""
    values: dict[str, object]
    try:
        return check_json(json.loads(text, object_pairs_hook=_once_each), what=what)
    except RecursionError:  # nested past Python's own limit while parsing
        key, values = "too_deep", {"depth": MAX_DEPTH}
    except _RepeatedKey as repeated:
        shown = repeated.key if len(repeated.key) <= 60 else repeated.key[:60] + "…"
        key, values = "repeated_key", {"name": json.dumps(shown, ensure_ascii=False)}
    except UnicodeDecodeError as error:
        # (UTF-8, or UTF-16/32 where the file begins with their byte order mark: json reads those too)
        encoding = error.encoding.upper().removesuffix("-LE").removesuffix("-BE")
        if error.end >= len(error.object) and error.reason in ("unexpected end of data", "truncated data"):
            key, values = "text_cut", {"encoding": encoding}        # (a file cut off inside a character)
        else:
            key, values = "not_text", {"byte": f"0x{error.object[error.start]:02X}", "at": f"{error.start + 1:,}",
                                       "encoding": encoding}
    except json.JSONDecodeError as error:
        # raised below, outside the handler: the message says it all (as ``from None``)
        key, values = "not_json", {"error": str(error)}
    except ValueError:  # a whole number past Python's digit limit (the only other ValueError json raises)
        key, values = "number_too_long", {"digits": _max_int_digits()}
    _bad(key, what, **values)


def require_keys(data: Any, keys: Iterable[str], *, where: str, optional: Iterable[str] = ()) -> None:
    """Check that ``data`` is an object with exactly these keys (plus optional ones)."""
    if not isinstance(data, Mapping):
        _bad("object", where, kind=type(data).__name__)
    keys = set(keys)
    missing = keys - set(data)
    if missing:
        _bad("missing", where, keys=_listed(sorted(missing)))
    unknown = set(data) - keys - set(optional)
    if unknown:
        _bad("unknown_fields", where, keys=_listed(key_names(unknown)))


#: (game, score key) -> the breakdown in every language, the latest ``_BREAKDOWNS_KEPT`` worked out
#: (oldest out first); a lock, as a served page's threads may ask at once.
_breakdowns: dict[tuple[AnyGame, object], dict[str, list[JSONObject]]] = {}
_breakdowns_lock = threading.Lock()
_BREAKDOWNS_KEPT = 1024


def _public_score_breakdown(spec: GameSpec[S, Any], state: S) -> dict[str, list[JSONObject]]:
    """The breakdown in every language, remembered by (game, :meth:`GameSpec.score_key`) for the
    latest 1,024 keys: worked out afresh, it was most of an observation's cost, for every seat that
    looks at a state and again for each state a move leaves scored alike (most of them, and a sampled
    twin of a state). An explorer page reads its whole line twice when it opens (event log, score
    curves), so the room must hold a long line's keys (Jump Gate, keyed by state: ~700 steps)."""
    key = (spec, spec.score_key(state))
    found = _breakdowns.get(key)
    if found is None:
        found = _score_breakdowns(spec, state)
        with _breakdowns_lock:
            _breakdowns[key] = found
            while len(_breakdowns) > _BREAKDOWNS_KEPT:
                del _breakdowns[next(iter(_breakdowns))]
    return found


def _score_breakdowns(spec: GameSpec[S, Any], state: S) -> dict[str, list[JSONObject]]:
    from rules.rulebook import LANGUAGES            # rulebook reads this module: imported when first asked
    return {lang: spec.score_breakdown(state, lang) for lang in LANGUAGES}

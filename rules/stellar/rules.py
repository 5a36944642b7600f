"""Stellar's turn: setup, legal actions and their effects.

Follows the rules text (設定, 遊び, 望遠鏡, ノートブック, スペシャルカード, スコアリング) as read by
docs/readings.md, "Stellar". What the text leaves open is decided here, each with its reason:
- The 6/0 "played first" is the hand card of phase 2: the row has no slot 6 or 0, so the second card
  is the deck's top card (docs/readings.md, "Stellar 1").
- A hand card that must go face down still finds its row card by its printed number (switch
  ``face_down_row_number``: ``"three"`` uses the face-down value 3 instead).
- The opponent's choice to clear the row after a satellite was taken comes at phase 4, before the
  refill: "the other cards" are those still in the row, and "refill" is that phase's refill (switch
  ``satellite_clear``: ``"after_take"`` asks right after the take; cleared slots refill at once).
- A card goes face down only when it fits in no slot face up (docs/readings.md, "Stellar 2").
- A satellite in the telescope counts as no type for adjacency: its wildness is that it goes in any
  empty slot (switch ``satellite_any_type``: it counts as every type, so a card whose type is
  present may also go next to it).
- When the deck runs out, the discards are shuffled into a new deck (the rules: cleared cards "can
  be shuffled and used later as part of the deck"); every reshuffle is seeded from the state.
Decisions are split the way a player makes them: take a row card, play a hand card, place the
second card when it goes to the telescope; the opponent's clear; each player's final card.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, TypeVar

from rules.chance import seeded, shuffled
from rules.eventtexts import joined, named, player, say
from rules.protocol import IllegalAction, Seat
from rules.stellar.cards import FACE_DOWN_NUMBER, CardSet
from rules.stellar.state import make_state
from rules.stellar.state import (
    AT_CARDS, AT_CHOSEN, AT_DECK, AT_HANDS, AT_KNOWN_DOWN, AT_LOG, AT_NOTEBOOKS, AT_PENDING, AT_PENDING_SEEN,
    AT_PHASE, AT_PLAYERS, AT_ROUND, AT_ROW, AT_SATELLITE_TAKEN, AT_SEAT, AT_START_PLAYER, AT_TELESCOPES, AT_UNSEEN,
)
from rules.stellar.state import (
    CLEAR, EMPTY, FINAL, OVER, PLACE, PLAY, ROUNDS, ROW_SLOTS, STARTERS, TAKE,
    Action, Card, ChooseStarters, ClearRow, FinalNotebookCard, LogRecord, PlayToNotebook, PlayToTelescope,
    SlotMask, State, TakeRowCard, TelescopeEntry, face_down, without,
)

RULE_SETUP: Final = "setup: one starter to the telescope's top, the other to the notebook"
RULE_TAKE: Final = "turn phase 1: take a card from the numbered row"
RULE_PLAY: Final = "turn phase 2: play a hand card to the telescope or the notebook"
RULE_PLACE: Final = "turn phase 3: play the row card of the same number into the other area"
RULE_TELESCOPE: Final = "telescope placement rule"
RULE_FACE_DOWN: Final = "telescope placement rule: face down only when no slot fits"
RULE_SATELLITE: Final = "satellite cards: the opponent may clear the row"
RULE_FINAL: Final = "scoring: one last hand card to the notebook, the other is discarded"
RULE_TURN: Final = "turn order: only the player whose turn it is acts"
RULE_OVER: Final = "game end: no more turns after the last card"

APEX: Final = 0

#: What ``_masks`` knows of a telescope: ``(telescope, empty, near, satellites)``.
TelescopeMasks = tuple[tuple[TelescopeEntry, ...], SlotMask, tuple[SlotMask, ...], SlotMask]
#: An action object of the engine's own (``_Actions.decoded``): ``(action, kind, slot, face_down)``.
OwnAction = tuple[PlayToTelescope | PlayToNotebook, Card, int, bool]
#: What a per-seat tuple holds (``_Table._put``).
Zone = TypeVar("Zone")


# -- setup ---------------------------------------------------------------------------------------
def new_state(cards: CardSet, players: int, seed: int, variants: tuple[tuple[str, object], ...]) -> State:
    """Setup: two starters each, the fifth into the deck (or the box), two cards each, a row of five."""
    rng = seeded(seed)   # (the draws of random.Random(seed), faster)
    starters = list(cards.starters)
    rng.shuffle(starters)
    dealt, rest = starters[:2 * players], starters[2 * players:]
    to_box = dict(variants).get("fifth_starter_to_box", False)
    deck = list(cards.deck()) + ([] if to_box else rest)
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[2 * s:2 * s + 2])) for s in range(players))
    deck = deck[2 * players:]
    row = tuple(deck[:ROW_SLOTS])
    start = rng.randrange(players)
    empty_telescope = (EMPTY,) * cards.telescope.size
    return State(
        cards=cards, players=players, variants=variants, seed=seed, shuffles=0, deck=tuple(deck[ROW_SLOTS:]),
        discard=(), box=tuple(rest) if to_box else (), row=row, hands=hands,
        starters=tuple(tuple(sorted(dealt[2 * s:2 * s + 2])) for s in range(players)),
        telescopes=(empty_telescope,) * players, notebooks=((),) * players, start_player=start, seat=start,
        round=0, phase=STARTERS, pending=EMPTY, satellite_taken=False, log=(("setup", None, (), start),),
        unseen=hands, known_down=(0,) * players, pending_seen=False, chosen=(EMPTY,) * players,
    )


# -- who acts and what they may do ---------------------------------------------------------------
def to_move(state: State) -> tuple[Seat, ...]:
    phase = state.phase
    if phase == TAKE or phase == PLAY or phase == PLACE:  # almost every call
        return (state.seat,)
    if phase == OVER:
        return ()
    if phase == STARTERS or phase == FINAL:  # who holds starters (a hand) and has not chosen yet
        cards, chosen = state.starters if phase == STARTERS else state.hands, state.chosen
        return tuple(s for s in range(state.players) if cards[s] and chosen[s] == EMPTY)
    if phase == CLEAR:
        return ((state.seat + 1) % state.players,)
    return (state.seat,)


class _Actions:
    """Every action object a card set can need, built once, so legal_actions only picks."""

    def __init__(self, cards: CardSet):
        self.names = names = cards.kind_names
        slots = cards.telescope.slot_names
        self.take = tuple(TakeRowCard(slot=n) for n in range(1, ROW_SLOTS + 1))
        self.notebook = tuple(PlayToNotebook(card=name) for name in names)
        self.final = tuple(FinalNotebookCard(card=name) for name in names)
        # telescope[kind][face_down][slot]
        self.telescope = tuple(
            tuple(tuple(PlayToTelescope(card=name, slot=slot, face_down=down) for slot in slots) for down in (False, True))
            for name in names)
        self.clear = (ClearRow(clear=True), ClearRow(clear=False))
        #: starters[pair]: the two ChooseStarters of a (sorted) pair of starter cards, built when first asked
        self.starters: dict[tuple[Card, ...], tuple[ChooseStarters, ChooseStarters]] = {}
        #: cache: per telescope, its slot masks (see ``_masks``)
        self.masks: dict[int, TelescopeMasks] = {}
        #: slots_of[mask]: the slot indices in a slot bit mask, lowest first (every mask, built once)
        self.slots_of = tuple(tuple(i for i in range(len(slots)) if mask >> i & 1) for mask in range(1 << len(slots)))
        #: decoded[id(action)] = (action, kind, slot, face_down) for the PlayToTelescope and
        #: PlayToNotebook objects above (slot -1: the notebook). ``apply`` recognises the objects
        #: ``legal_actions`` handed out by identity (the stored action is compared with ``is``, so a
        #: reused id cannot fool it) and skips the name lookups; any other object takes the full path.
        self.decoded: dict[int, OwnAction] = {}
        for kind in range(len(names)):
            self.decoded[id(self.notebook[kind])] = (self.notebook[kind], kind, -1, False)
            for down in (False, True):
                for slot, action in enumerate(self.telescope[kind][down]):
                    self.decoded[id(action)] = (action, kind, slot, down)

    def starter_choices(self, pair: tuple[Card, ...]) -> tuple[ChooseStarters, ChooseStarters]:
        """The two ways to place a pair of starters: either to the telescope, the other to the notebook."""
        a, b = (self.names[k] for k in pair)
        choices = self.starters[pair] = (ChooseStarters(telescope=a, notebook=b), ChooseStarters(telescope=b, notebook=a))
        return choices


def actions_for(cards: CardSet) -> _Actions:
    """The action table of a card set, made on first use and kept with it (``CardSet.action_table``)."""
    return cards.action_table


def _masks(table: _Actions, cards: CardSet, telescope: tuple[TelescopeEntry, ...]) -> TelescopeMasks:
    """``(telescope, empty, near, satellites)`` for ``telescope``: the bit mask of its empty slots;
    per type index (the satellite's last), -1 when no card of the type lies face up in it, else the
    bit mask of the slots sharing an edge with such a card (the satellite's is always -1: it goes
    anywhere); and the bit mask of the slots next to a face-up satellite (``_near`` adds them under
    the switch ``satellite_any_type``). ``_where`` turns them into a card's slots.

    Cached per telescope in the card set's table: a turn asks about the same telescope for its legal
    actions and again when the move is applied. The cache is keyed by the tuple's id (cheaper than
    hashing twelve entries; successive states share an unchanged telescope tuple) and keeps the
    tuple itself, checked with ``is``: while it is cached it stays alive, so its id cannot be
    reused by another tuple. The quick apply paths fill it for the telescope they build
    (``_after_placing``), so a turn rarely scans a telescope.
    """
    found = table.masks.get(id(telescope))
    if found is not None and found[0] is telescope:
        return found
    types = len(cards.types)
    empty = satellites = 0
    near = [-1] * (types + 1)
    type_of = cards.type_of
    neighbours = cards.telescope.neighbours
    for i, entry in enumerate(telescope):
        if entry == EMPTY:
            empty |= 1 << i
        elif entry >= 0:
            t = type_of[entry]
            if t < types:  # not the satellite
                near[t] = neighbours[i] if near[t] < 0 else near[t] | neighbours[i]
            else:
                satellites |= neighbours[i]
    return _remember(table, telescope, empty, tuple(near), satellites)


def _remember(table: _Actions, telescope: tuple[TelescopeEntry, ...], empty: SlotMask, near: tuple[SlotMask, ...],
              satellites: SlotMask) -> TelescopeMasks:
    """Cache ``_masks``' answer for ``telescope``. The cache is emptied when it grows past 256: only
    the telescopes of the game in play are asked about again, and a cache that keeps thousands of
    old ones makes Python's garbage collector scan them over and over (it cost a 2-player playout
    2% of its time)."""
    if len(table.masks) > 256:
        table.masks.clear()
    table.masks[id(telescope)] = found = (telescope, empty, near, satellites)
    return found


def _after_placing(cards: CardSet, old: tuple[TelescopeEntry, ...], new: tuple[TelescopeEntry, ...], slot: int,
                   entry: TelescopeEntry) -> None:
    """Cache ``_masks`` for ``new``, which is ``old`` with ``entry`` put into its empty ``slot``, from
    ``old``'s cached masks instead of a scan of ``new``: the slot is no longer empty, and a face-up
    card adds the slot's neighbours to its type's mask (a satellite: to the satellites' mask).
    Nothing when ``old`` is not cached (``new`` is then scanned when first asked about)."""
    table = cards.action_table
    found = table.masks.get(id(old))
    if found is None or found[0] is not old:
        return
    _, empty, near, satellites = found
    empty &= ~(1 << slot)
    if entry >= 0:
        t = cards.type_of[entry]
        mask = cards.telescope.neighbours[slot]
        if t < len(near) - 1:  # not the satellite
            changed = [*near]
            changed[t] = mask if near[t] < 0 else near[t] | mask
            near = tuple(changed)
        else:
            satellites |= mask
    _remember(table, new, empty, near, satellites)


#: The last variants tuple asked about and its ``satellite_any_type`` setting (a game's states share
#: one tuple, so the switch is read once per game, not once per move).
_any_type_of: Final[list[object]] = [None, False]


def _near(state: State, found: TelescopeMasks) -> tuple[SlotMask, ...]:
    """The ``near`` masks of a ``_masks`` answer under the state's ``satellite_any_type`` switch: the
    slots next to a face-up satellite are added to every type present (asked only when there is one)."""
    variants = state.variants
    if variants is not _any_type_of[0]:
        _any_type_of[:] = variants, dict(variants).get("satellite_any_type", False)
    near, satellites = found[2], found[3]
    if not _any_type_of[1]:
        return near
    return tuple(mask | satellites if mask >= 0 else mask for mask in near[:-1]) + near[-1:]


def _where(empty: SlotMask, near: tuple[SlotMask, ...], card_type: int) -> tuple[SlotMask, bool]:
    """From ``_masks``: the slots where a card of ``card_type`` may go, and whether face down."""
    mask = near[card_type]
    if mask < 0:
        return empty, False  # a new type or a satellite: any empty slot
    mask &= empty
    return (mask, False) if mask else (empty, True)  # next to its type; else face down anywhere


def open_slots(state: State, telescope: tuple[TelescopeEntry, ...], kind: Card) -> tuple[SlotMask, bool]:
    """Bit mask of the slots of ``telescope`` where ``kind`` may go, and whether it must go face down.

    Telescope rule: a type already face up in the telescope goes next to (sharing an edge with) a
    card of its type (or, with ``satellite_any_type``, a satellite); a new type or a satellite goes
    in any empty slot; no such slot: face down in any empty slot.
    """
    cards = state.cards
    found = _masks(actions_for(cards), cards, telescope)
    return _where(found[1], _near(state, found), cards.type_of[kind])


def _telescope_actions(table: _Actions, kind: Card, mask: SlotMask, down: bool) -> list[PlayToTelescope]:
    """The PlayToTelescope objects of ``kind`` (face down or not) for the slots in ``mask``, in slot
    order. Picked from the prebuilt objects on each call: a cache of these tuples (there are many
    masks) would hold so many objects that the garbage collector's passes cost more than it saves.
    (A list comprehension: as cheap as ``map(placed.__getitem__, slots)`` interpreted, and a loop in
    place compiled, where the map called the tuple's ``__getitem__`` through the interpreter per slot:
    compiled 2-player Stellar plays 11% more decisions a second.)"""
    placed = table.telescope[kind][down]
    return [placed[slot] for slot in table.slots_of[mask]]


def legal_actions(state: State, seat: Seat) -> list[Action]:
    phase = state.phase
    cards = state.cards
    table = cards.action_table
    # The turn's own phases first: they are almost every call.
    if phase == TAKE:
        if seat != state.seat:
            return []
        row = state.row
        if EMPTY not in row:
            return list(table.take)
        take = table.take
        return [take[i] for i, card in enumerate(row) if card != EMPTY]
    if phase == PLAY:
        if seat != state.seat:
            return []
        telescope = state.telescopes[seat]
        found = table.masks.get(id(telescope))  # _masks' cache, looked up inline
        if found is None or found[0] is not telescope:
            found = _masks(table, cards, telescope)
        empty, near = found[1], found[2]
        if found[3]:  # a satellite lies face up: _near
            near = _near(state, found)
        out: list[Action] = []
        notebook = table.notebook
        telescope_actions = table.telescope
        slots_of = table.slots_of
        type_of = cards.type_of
        for kind in dict.fromkeys(state.hands[seat]):
            mask = near[type_of[kind]]  # _where, inlined
            if mask < 0:
                mask, down = empty, False
            else:
                mask &= empty
                mask, down = (mask, False) if mask else (empty, True)
            placed = telescope_actions[kind][down]
            out += [placed[slot] for slot in slots_of[mask]]  # _telescope_actions, inlined
            out.append(notebook[kind])
        return out
    if phase == PLACE:
        if seat != state.seat:
            return []
        pending = state.pending
        found = _masks(table, cards, state.telescopes[seat])
        near = _near(state, found) if found[3] else found[2]  # (open_slots)
        mask, down = _where(found[1], near, cards.type_of[pending])
        return list(_telescope_actions(table, pending, mask, down))
    if phase == STARTERS:
        pair = state.starters[seat] if 0 <= seat < state.players else ()
        if not pair or state.chosen[seat] != EMPTY:
            return []
        return list(table.starters.get(pair) or table.starter_choices(pair))
    if phase == FINAL:
        if not 0 <= seat < state.players or state.chosen[seat] != EMPTY:
            return []
        final = table.final
        return [final[k] for k in dict.fromkeys(state.hands[seat])]
    if phase == CLEAR:
        return list(table.clear) if seat == (state.seat + 1) % state.players else []
    return []  # OVER


# -- applying ------------------------------------------------------------------------------------
#: A State's fields as a list, ``list(state)``: the quick paths (``_take``, ``_play_quickly``,
#: ``_place_quickly``) change a few, by position (``state.AT_ROW``...), and make the next State of it
#: (``make_state``): an unchanged field costs nothing (reading a State's field by name costs far more
#: than a list item, and a state has 24). Each item has its field's type, which a list cannot say item
#: by item: the code reads them into typed locals.
Fields = list[Any]


class _Table:
    """A working copy of a state for one apply: it copies only what the action changes."""

    __slots__ = ("s", "cards", "players", "variants", "seed", "shuffles", "deck", "discard", "box", "row", "hands",
                 "starters", "telescopes", "notebooks", "start_player", "seat", "round", "phase", "pending",
                 "satellite_taken", "log", "unseen", "known_down", "pending_seen", "chosen")

    def __init__(self, state: State):
        self.s = state
        # Every field at once, in State order (much cheaper than one by name; the log starts afresh).
        (self.cards, self.players, self.variants, self.seed, self.shuffles, self.deck, self.discard, self.box, self.row,
         self.hands, self.starters, self.telescopes, self.notebooks, self.start_player, self.seat, self.round,
         self.phase, self.pending, self.satellite_taken, _, self.unseen, self.known_down, self.pending_seen,
         self.chosen) = state
        self.log: list[LogRecord] = []

    def freeze(self) -> State:
        return make_state((self.cards, self.players, self.variants, self.seed, self.shuffles, self.deck, self.discard,
                     self.box, self.row, self.hands, self.starters, self.telescopes, self.notebooks, self.start_player,
                     self.seat, self.round, self.phase, self.pending, self.satellite_taken, tuple(self.log),
                     self.unseen, self.known_down, self.pending_seen, self.chosen))

    @staticmethod
    def _put(zones: tuple[Zone, ...], seat: Seat, value: Zone) -> tuple[Zone, ...]:
        changed = list(zones)
        changed[seat] = value
        return tuple(changed)

    def set_hand(self, seat: Seat, hand: tuple[Card, ...]) -> None:
        self.hands = self._put(self.hands, seat, hand)

    def add_to_notebook(self, seat: Seat, card: Card) -> None:
        self.notebooks = self._put(self.notebooks, seat, tuple(sorted(self.notebooks[seat] + (card,))))
        self.log.append(("notebook", seat, (card,), None))

    def place(self, seat: Seat, card: Card, slot: int, down: bool, seen: bool = True) -> None:
        """``card`` into telescope ``slot``; face down, the other seats know it only when ``seen``."""
        old = self.telescopes[seat]
        telescope = list(old)
        telescope[slot] = entry = face_down(card) if down else card
        self.telescopes = self._put(self.telescopes, seat, tuple(telescope))
        _after_placing(self.cards, old, self.telescopes[seat], slot, entry)
        if down and seen:
            self.known_down = self._put(self.known_down, seat, self.known_down[seat] | 1 << slot)
        self.log.append(("telescope", seat, (card,), (slot, down, seen or not down)))

    def play_from_hand(self, seat: Seat, card: Card) -> bool:
        """Take ``card`` out of the hand; whether the other seats knew it was there."""
        hand, unseen = self.hands[seat], self.unseen[seat]
        i = hand.index(card)
        self.hands = self._put(self.hands, seat, hand[:i] + hand[i + 1:])
        if not _unseen_card(hand, unseen, card):
            return True
        self.unseen = self._put(self.unseen, seat, without(unseen, (card,)))
        return False

    def next_card(self) -> Card:
        """The deck's top card; an empty deck is first rebuilt from the shuffled discards."""
        if not self.deck:
            if not self.discard:
                return EMPTY
            pile = shuffled(f"stellar:{self.seed}:{self.shuffles}", self.discard)
            self.shuffles += 1
            self.deck, self.discard = tuple(pile), ()
            self.log.append(("reshuffle", None, (), len(pile)))
        card, self.deck = self.deck[0], self.deck[1:]
        return card

    def refill(self, skip: int = -1) -> None:
        """Phase 4: fill every empty row slot (but ``skip``) from the deck, slot 1 first."""
        row = list(self.row)
        for i in range(ROW_SLOTS):
            if row[i] == EMPTY and i != skip:
                card = self.next_card()
                if card == EMPTY:
                    self.log.append(("deck_empty", None, (), "refill"))
                    break
                row[i] = card
                self.log.append(("refill", None, (card,), i + 1))
        self.row = tuple(row)

    def finish_turn(self) -> None:
        """Phase 4 (the opponent's clear comes first if a satellite was taken), then the next turn."""
        if self.satellite_taken and self.s.variant("satellite_clear") == "before_refill":
            self.phase = CLEAR
            self.log.append(("clear_offer", (self.seat + 1) % self.players, (), None))
            return
        self.refill()
        self.end_turn()

    def end_turn(self) -> None:
        self.satellite_taken = False
        self.pending = EMPTY
        self.pending_seen = False
        if self.seat == (self.start_player - 1) % self.players:
            self.round += 1
            if self.round >= ROUNDS:
                self.final()
                return
        self.seat = (self.seat + 1) % self.players
        self.phase = TAKE
        self.log.append(("turn", self.seat, (), self.round))
        self.start_turn()

    def start_turn(self) -> None:
        """Phase TAKE begins. Only a position written with a short deck (a card file must hold enough
        for the whole game, ``cards.deck_cards_needed``) runs out of cards: with nothing in the row
        the take is skipped, and with no hand card either the whole turn."""
        if self.row.count(EMPTY) < ROW_SLOTS:  # a card to take
            return
        self.phase = PLAY
        self.log.append(("take_skipped", self.seat, (), None))
        if not self.hands[self.seat]:
            self.log.append(("turn_skipped", self.seat, (), None))
            self.end_turn()

    def final(self) -> None:
        """After round 11: each player with a hand card puts one into the notebook (if nobody has one,
        which only a position written so can bring about, the game is over at once)."""
        self.phase = FINAL
        self.log.append(("final", None, (), None))
        if not any(self.hands):
            self.phase = OVER
            self.log.append(("game_over", None, (), None))


def _unseen_card(hand: tuple[Card, ...], unseen: tuple[Card, ...], card: Card) -> bool:
    """Whether the other seats did not see ``card`` (a hand card) come into the hand: every copy of
    it in the hand is unseen (with a seen copy there, the one played is that one)."""
    return card in unseen and hand.count(card) == unseen.count(card)


def _illegal(key: str, rule: str, **values: object) -> NoReturn:
    """Refuse with the ``refusal.<key>`` text of ``data/events.json``, said in every language."""
    reasons = say("stellar", f"refusal.{key}", **values)
    raise IllegalAction(reasons["en"], rule=rule, reasons=reasons)


def _type_names(cards: CardSet, type_index: int) -> dict[str, str]:
    """A card type's name in each language, as the refusals write it (English in lower case)."""
    if type_index == cards.satellite_type:
        return say("stellar", "term.satellite")
    card_type = cards.types[type_index]
    english = card_type.name.lower()
    return {"en": english, "ja": card_type.name_ja or english}


def apply(state: State, seat: Seat, action: Action) -> State:
    phase = state.phase
    # The turn's own phases with the seat to move and the right kind of action: almost every call,
    # dispatched at once. Everything else takes the checks below (the same functions are reached,
    # so the results are the same; those checks name the rule an illegal action breaks).
    if type(seat) is int and seat == state.seat:
        if phase == TAKE:
            if type(action) is TakeRowCard:
                return _take(state, seat, action)
        elif phase == PLAY:
            if type(action) is PlayToTelescope or type(action) is PlayToNotebook:
                return _play_action(state, seat, action)
        elif phase == PLACE:
            if type(action) is PlayToTelescope:
                return _place(state, seat, action)
    if phase == OVER:
        _illegal("game_over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal("no_seat", RULE_TURN, seat=repr(seat), players=state.players)
    if phase == STARTERS:
        if type(action) is not ChooseStarters:
            _illegal("starters_first", RULE_SETUP, who=player(seat))
        return _starters(state, seat, action)
    if phase == FINAL:
        if type(action) is not FinalNotebookCard:
            _illegal("final_only", RULE_FINAL, who=player(seat))
        return _final(state, seat, action)
    if phase == CLEAR:
        chooser = (state.seat + 1) % state.players
        if seat != chooser:
            _illegal("clear_chooser", RULE_SATELLITE, chooser=player(chooser), who=player(seat))
        if type(action) is not ClearRow:
            _illegal("clear_first", RULE_SATELLITE, who=player(seat))
        return _clear(state, seat, action)
    if seat != state.seat:
        _illegal("not_your_turn", RULE_TURN, to_move=player(state.seat), who=player(seat))
    if phase == TAKE:
        if type(action) is not TakeRowCard:
            _illegal("take_first", RULE_TAKE, who=player(seat))
        return _take(state, seat, action)
    if phase == PLAY:
        if type(action) is PlayToNotebook or type(action) is PlayToTelescope:
            return _play_action(state, seat, action)
        _illegal("play_hand_card", RULE_PLAY, who=player(seat))
    # PLACE
    if type(action) is not PlayToTelescope:
        _illegal("place_second_card", RULE_PLACE, who=player(seat), card=state.cards.card_label(state.pending))
    return _place(state, seat, action)


def _own_legal(state: State, seat: Seat, action: Action) -> OwnAction | None:
    """``(action, kind, slot, face_down)`` (slot -1: the notebook) when ``action`` is one of the
    engine's own objects (see ``_Actions.decoded``) and legal for ``seat`` in phase PLAY or PLACE:
    its card is in hand (PLACE: the pending card) and, for the telescope, the slot and face-down
    flag are those ``_check_slot`` accepts (the masks only hold empty slots). Else None, and the
    caller takes the full checks, which name the rule an illegal action breaks."""
    cards = state.cards
    table = cards.action_table
    entry = table.decoded.get(id(action))
    if entry is None or entry[0] is not action:
        return None
    _, card, slot, down = entry
    if state.phase == PLACE:
        if card != state.pending:
            return None
    elif card not in state.hands[seat]:
        return None
    if slot < 0:
        return entry
    telescope = state.telescopes[seat]
    found = table.masks.get(id(telescope))  # _masks' cache, looked up inline
    if found is None or found[0] is not telescope:
        found = _masks(table, cards, telescope)
    near = _near(state, found) if found[3] else found[2]  # (_near only when a satellite lies face up)
    mask, must_go_down = _where(found[1], near, cards.type_of[card])
    return entry if down is must_go_down and mask >> slot & 1 else None


def _place(state: State, seat: Seat, action: PlayToTelescope) -> State:
    """Phase 3: the second card into the telescope, then phase 4 (or the opponent's clear)."""
    card = state.pending
    entry = _own_legal(state, seat, action)
    if entry is not None:
        slot, down = entry[2], entry[3]
    else:  # the full checks, with their messages
        pending = state.cards.card_name(card)
        if action.card != pending:
            _illegal("not_the_second_card", RULE_PLACE, card=state.cards.card_label(card),
                     offered=named(action.card, state.cards.kind_by_name.get(action.card) if isinstance(action.card, str)
                                   else None, state.cards.card_label))
        down = action.face_down
        slot = _check_slot(state, seat, card, action.slot, down)
    if not state.satellite_taken and len(state.deck) >= state.row.count(EMPTY):
        return _place_quickly(state, seat, card, slot, down)
    table = _Table(state)
    table.place(seat, card, slot, down, state.pending_seen)
    table.pending = EMPTY
    table.pending_seen = False
    table.finish_turn()
    return table.freeze()


def _place_quickly(state: State, seat: Seat, card: Card, slot: int, down: bool) -> State:
    """``_place`` for its commonest case, built without a working copy: no satellite taken this turn
    (no clear owed) and enough deck cards for the refill (no reshuffle)."""
    fields: Fields = list(state)
    telescopes = list(fields[AT_TELESCOPES])
    old = telescopes[seat]
    telescope = list(old)
    telescope[slot] = entry = face_down(card) if down else card
    telescopes[seat] = new = tuple(telescope)
    fields[AT_TELESCOPES] = tuple(telescopes)
    _after_placing(fields[AT_CARDS], old, new, slot, entry)
    seen = fields[AT_PENDING_SEEN]
    if down and seen:  # (_Table.place)
        known_down = fields[AT_KNOWN_DOWN]
        fields[AT_KNOWN_DOWN] = _Table._put(known_down, seat, known_down[seat] | 1 << slot)
    log: list[LogRecord] = [("telescope", seat, (card,), (slot, down, seen or not down))]
    fields[AT_PENDING], fields[AT_PENDING_SEEN] = EMPTY, False
    return _refill_and_next_turn(fields, list(fields[AT_ROW]), fields[AT_DECK], log)


def _refill_and_next_turn(fields: Fields, row: list[Card], deck: tuple[Card, ...], log: list[LogRecord]) -> State:
    """Phase 4 and ``_Table.end_turn`` on a state's ``fields`` (a list, changed here) when the deck
    holds a card for every empty row slot of ``row`` (so the row ends full: no reshuffle, no skipped
    take); ``fields`` hold the hands after the turn and nothing pending, no satellite taken (the
    callers see to that), ``log`` the turn's records so far."""
    drawn = 0
    while EMPTY in row:  # the empty slots, slot 1 first
        i = row.index(EMPTY)
        row[i] = card = deck[drawn]
        drawn += 1
        log.append(("refill", None, (card,), i + 1))
    fields[AT_ROW], fields[AT_DECK] = tuple(row), deck[drawn:]  # one slice for all the cards drawn
    seat, round_, players = fields[AT_SEAT], fields[AT_ROUND], fields[AT_PLAYERS]
    phase = TAKE
    if seat == (fields[AT_START_PLAYER] - 1) % players:
        fields[AT_ROUND] = round_ = round_ + 1
        if round_ >= ROUNDS:
            log.append(("final", None, (), None))
            phase = FINAL
            if not any(fields[AT_HANDS]):  # (_Table.final)
                log.append(("game_over", None, (), None))
                phase = OVER
    if phase == TAKE:
        fields[AT_SEAT] = seat = (seat + 1) % players
        log.append(("turn", seat, (), round_))
    fields[AT_PHASE], fields[AT_LOG] = phase, tuple(log)
    return make_state(fields)


def _hand_card(state: State, seat: Seat, name: object, rule: str) -> Card:
    card = state.cards.kind_by_name.get(name) if isinstance(name, str) else None
    if card is None or card not in state.hands[seat]:
        _illegal("not_in_hand", rule, card=named(name, card, state.cards.card_label), who=player(seat))
    return card


def _check_slot(state: State, seat: Seat, card: Card, slot_name: object, down: object) -> int:
    """The slot index for ``card``, or IllegalAction naming the telescope rule it breaks."""
    cards = state.cards
    slot = cards.telescope.slot_by_name.get(slot_name) if isinstance(slot_name, str) else None
    if slot is None:
        _illegal("no_telescope_slot", RULE_TELESCOPE, slot=repr(slot_name), slots=joined(cards.telescope.slot_names))
    if type(down) is not bool:
        _illegal("face_down_flag", RULE_TELESCOPE, value=repr(down))
    telescope = state.telescopes[seat]
    if telescope[slot] != EMPTY:
        _illegal("slot_filled", RULE_TELESCOPE, slot=slot_name)
    mask, must_go_down = open_slots(state, telescope, card)
    if down is must_go_down and mask >> slot & 1:
        return slot
    type_names = _type_names(cards, cards.type_of[card])
    if down and not must_go_down:
        _illegal("fits_face_up", RULE_FACE_DOWN, card=cards.card_label(card))
    if must_go_down and not down:
        _illegal("must_go_face_down", RULE_FACE_DOWN, card_type=type_names, card=cards.card_label(card))
    _illegal("must_touch", RULE_TELESCOPE, card_type=type_names)


def _starters(state: State, seat: Seat, action: ChooseStarters) -> State:
    """Setup: the choice stays secret (``State.chosen``) until every player has chosen; then all the
    starters are placed at once."""
    pair = state.starters[seat]
    if not pair or state.chosen[seat] != EMPTY:
        _illegal("starters_placed", RULE_SETUP, who=player(seat))
    kinds = state.cards.kind_by_name
    up = kinds.get(action.telescope) if isinstance(action.telescope, str) else None
    note = kinds.get(action.notebook) if isinstance(action.notebook, str) else None
    if up is None or note is None or sorted((up, note)) != sorted(pair):
        names = [state.cards.card_label(k) for k in pair]
        _illegal("starter_cards", RULE_SETUP, who=player(seat),
                 cards={"en": " and ".join(name["en"] for name in names), "ja": "と".join(name["ja"] for name in names)})
    chosen = _Table._put(state.chosen, seat, up)
    if any(state.starters[s] and chosen[s] == EMPTY for s in range(state.players)):  # someone is still to choose
        fields: Fields = list(state)
        fields[AT_CHOSEN], fields[AT_LOG] = chosen, (("starters_chosen", seat, (up, note), None),)
        return make_state(fields)
    table = _Table(state)
    for s in range(state.players):  # everyone has chosen: the starters are shown and placed
        if chosen[s] != EMPTY:
            first, second = state.starters[s]
            up = chosen[s]
            note = second if up == first else first
            table.starters = table._put(table.starters, s, ())
            table.log.append(("starters", s, (up, note), None))
            table.place(s, up, APEX, False)
            table.add_to_notebook(s, note)
    table.chosen = (EMPTY,) * state.players
    table.phase = TAKE
    table.log.append(("turn", state.seat, (), state.round))
    table.start_turn()
    return table.freeze()


def _take(state: State, seat: Seat, action: TakeRowCard) -> State:
    slot = action.slot
    if type(slot) is not int or not 1 <= slot <= ROW_SLOTS:
        _illegal("no_row_card", RULE_TAKE, slot=repr(slot), last=ROW_SLOTS)
    fields: Fields = list(state)  # (the commonest step of every game, kept cheap: see Fields)
    row = list(fields[AT_ROW])
    card = row[slot - 1]
    if card == EMPTY:
        _illegal("row_slot_empty", RULE_TAKE, slot=slot)
    row[slot - 1] = EMPTY
    hands = list(fields[AT_HANDS])
    hands[seat] = tuple(sorted(hands[seat] + (card,)))  # (seen by all: ``unseen`` stays)
    cards: CardSet = fields[AT_CARDS]
    log: tuple[LogRecord, ...] = (("take", seat, (card,), slot),)
    phase = PLAY
    # (Phase TAKE has nothing pending and no satellite taken yet: those fields stay as they are.)
    if cards.type_of[card] == len(cards.types):  # a satellite (cards.is_satellite, inlined)
        fields[AT_SATELLITE_TAKEN] = True
        if state.variant("satellite_clear") == "after_take":
            log += (("clear_offer", (seat + 1) % fields[AT_PLAYERS], (), None),)
            phase = CLEAR
    fields[AT_ROW], fields[AT_HANDS], fields[AT_PHASE], fields[AT_LOG] = tuple(row), tuple(hands), phase, log
    return make_state(fields)


def _play_action(state: State, seat: Seat, action: PlayToTelescope | PlayToNotebook) -> State:
    """Phase 2 from a PlayToTelescope or PlayToNotebook: the engine's own action objects are checked
    on indices (``_own_legal``); anything else, or anything illegal, through ``_play``."""
    entry = _own_legal(state, seat, action)
    if entry is not None:
        _, card, slot, down = entry
        # _play_checked, inlined
        if len(state.deck) >= 2 + state.row.count(EMPTY) and not state.satellite_taken and not down:
            return _play_quickly(state, seat, card, slot >= 0, slot)
        return _play_slowly(state, seat, card, slot >= 0, slot, down)
    if type(action) is PlayToNotebook:
        return _play(state, seat, action.card, False, None, False)
    return _play(state, seat, action.card, True, action.slot, action.face_down)


def _play(state: State, seat: Seat, name: object, to_telescope: bool, slot_name: object, down: bool) -> State:
    card = _hand_card(state, seat, name, RULE_PLAY)
    slot = _check_slot(state, seat, card, slot_name, down) if to_telescope else -1
    return _play_checked(state, seat, card, to_telescope, slot, down)


def _play_checked(state: State, seat: Seat, card: Card, to_telescope: bool, slot: int, down: bool) -> State:
    if len(state.deck) >= 2 + state.row.count(EMPTY) and not state.satellite_taken and not down:
        return _play_quickly(state, seat, card, to_telescope, slot)
    return _play_slowly(state, seat, card, to_telescope, slot, down)


def _play_slowly(state: State, seat: Seat, card: Card, to_telescope: bool, slot: int, down: bool) -> State:
    """Phases 2-3 (and 4 when the second card goes to the notebook), every case."""
    cards = state.cards
    table = _Table(state)
    seen = table.play_from_hand(seat, card)
    if to_telescope:
        table.place(seat, card, slot, down, seen)
    else:
        table.add_to_notebook(seat, card)
    # Phase 3: the row card of the played card's number; the 6/0 (no such slot) or an empty slot:
    # the deck's top card.
    number = cards.number_of[card]
    if down and state.variant("face_down_row_number") == "three":
        number = FACE_DOWN_NUMBER
    second = EMPTY
    if not cards.six_zero[card] or (down and number == FACE_DOWN_NUMBER):
        if 1 <= number <= ROW_SLOTS and table.row[number - 1] != EMPTY:
            second = table.row[number - 1]
            row = list(table.row)
            row[number - 1] = EMPTY
            table.row = tuple(row)
            table.log.append(("second", seat, (second,), number))
    if second == EMPTY:
        second = table.next_card()
        if second == EMPTY:
            table.log.append(("deck_empty", seat, (), "second card"))
        else:
            # Drawn for the telescope, it is the player's own until it lies there face up.
            table.log.append(("second" if to_telescope else "second_drawn", seat, (second,), None))
    if second == EMPTY:
        table.finish_turn()
    elif to_telescope:
        table.add_to_notebook(seat, second)
        table.finish_turn()
    else:
        table.pending = second
        table.pending_seen = table.log[-1][3] is not None  # from the row
        table.phase = PLACE
    return table.freeze()


def _play_quickly(state: State, seat: Seat, card: Card, to_telescope: bool, slot: int) -> State:
    """``_play`` for the commonest case, built without a working copy: a face-up play, no satellite
    taken this turn, and enough deck cards for the second card and the refill (no reshuffle).
    It must give exactly what ``_play`` gives (the golden playthroughs and a test check this).
    """
    fields: Fields = list(state)
    cards: CardSet = fields[AT_CARDS]
    hands = list(fields[AT_HANDS])
    hand = hands[seat]
    i = hand.index(card)
    hands[seat] = hand[:i] + hand[i + 1:]
    fields[AT_HANDS] = tuple(hands)
    unseen = fields[AT_UNSEEN]
    if card in unseen[seat] and _unseen_card(hand, unseen[seat], card):  # (_Table.play_from_hand)
        fields[AT_UNSEEN] = _Table._put(unseen, seat, without(unseen[seat], (card,)))
    if to_telescope:
        telescopes = list(fields[AT_TELESCOPES])
        old = telescopes[seat]
        telescope = list(old)
        telescope[slot] = card
        telescopes[seat] = new = tuple(telescope)
        fields[AT_TELESCOPES] = tuple(telescopes)
        _after_placing(cards, old, new, slot, card)
        log: list[LogRecord] = [("telescope", seat, (card,), (slot, False, True))]
    else:
        notebooks = list(fields[AT_NOTEBOOKS])  # (_Table.add_to_notebook)
        notebooks[seat] = tuple(sorted(notebooks[seat] + (card,)))
        fields[AT_NOTEBOOKS] = tuple(notebooks)
        log = [("notebook", seat, (card,), None)]
    row, deck = list(fields[AT_ROW]), fields[AT_DECK]
    number = cards.number_of[card]
    if not cards.six_zero[card] and 1 <= number <= ROW_SLOTS and row[number - 1] != EMPTY:
        second = row[number - 1]
        row[number - 1] = EMPTY
        log.append(("second", seat, (second,), number))
        seen = True
    else:
        second, deck = deck[0], deck[1:]
        log.append(("second" if to_telescope else "second_drawn", seat, (second,), None))
        seen = False
    if not to_telescope:
        fields[AT_ROW], fields[AT_DECK], fields[AT_PHASE], fields[AT_PENDING] = tuple(row), deck, PLACE, second
        fields[AT_LOG], fields[AT_PENDING_SEEN] = tuple(log), seen
        return make_state(fields)
    notebooks = list(fields[AT_NOTEBOOKS])  # (_Table.add_to_notebook)
    notebooks[seat] = tuple(sorted(notebooks[seat] + (second,)))
    fields[AT_NOTEBOOKS] = tuple(notebooks)
    log.append(("notebook", seat, (second,), None))
    # Phase 4: refill (the deck holds enough cards), then the next turn.
    return _refill_and_next_turn(fields, row, deck, log)


def _clear(state: State, seat: Seat, action: ClearRow) -> State:
    if type(action.clear) is not bool:
        _illegal("clear_flag", RULE_SATELLITE, value=repr(action.clear))
    table = _Table(state)
    table.satellite_taken = False
    after_take = state.variant("satellite_clear") == "after_take"
    if action.clear:
        cleared = tuple(card for card in state.row if card != EMPTY)
        table.discard = state.discard + cleared
        taken_slot = -1
        if after_take:
            # The taken satellite's slot stays empty until phase 4 (its row card comes from the deck).
            taken_slot = next((i for i, card in enumerate(state.row) if card == EMPTY), -1)
        table.row = (EMPTY,) * ROW_SLOTS
        table.log.append(("clear", seat, cleared, None))
        table.refill(skip=taken_slot)
    else:
        table.log.append(("no_clear", seat, (), None))
    if after_take:
        table.phase = PLAY
    else:
        table.refill()
        table.end_turn()
    return table.freeze()


def _final(state: State, seat: Seat, action: FinalNotebookCard) -> State:
    """After round 11: the choice stays secret (``State.chosen``) until every player holding a card
    has chosen; then each chosen card goes into its notebook and the rest of each hand is discarded."""
    if not state.hands[seat] or state.chosen[seat] != EMPTY:
        _illegal("final_placed", RULE_FINAL, who=player(seat))
    card = _hand_card(state, seat, action.card, RULE_FINAL)
    chosen = _Table._put(state.chosen, seat, card)
    if any(state.hands[s] and chosen[s] == EMPTY for s in range(state.players)):  # someone is still to choose
        fields: Fields = list(state)
        fields[AT_CHOSEN], fields[AT_LOG] = chosen, (("final_chosen", seat, (card,), None),)
        return make_state(fields)
    table = _Table(state)
    for s in range(state.players):  # everyone has chosen: the cards are shown
        if chosen[s] == EMPTY:
            continue
        hand = state.hands[s]
        i = hand.index(chosen[s])
        rest = hand[:i] + hand[i + 1:]
        table.set_hand(s, ())
        table.add_to_notebook(s, chosen[s])
        if rest:
            table.discard = table.discard + rest
            table.log.append(("final_discard", s, rest, None))
    table.unseen = ((),) * state.players
    table.chosen = (EMPTY,) * state.players
    table.phase = OVER
    table.log.append(("game_over", None, (), None))
    return table.freeze()

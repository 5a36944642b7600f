"""Subastral's turn: setup, legal actions and their effects.

Follows the rules text (ゲームのセットアップ, ゲームの流れ, ゲーム終了, 擾乱バリアント) as read by
docs/readings.md, "Subastral". What the text leaves open is decided as the readings say:
- a setup card repeating the 7th card's number goes back into the deck above the end card (ruling 2);
- the end card, when revealed, is set aside and the next card is drawn in its place (ruling 7);
- an empty deck skips the draw or reveal; an empty cloud cannot be taken; no takeable cloud skips
  the take (ruling 8).
Decisions are split the way a player makes them: play a card, then take a cloud (choosing hand or
journal only for 1<->6), then, only if several new biomes arrive together, one column at a time.
"""

from __future__ import annotations

from typing import Final, NoReturn

from rules.chance import seeded
from rules.eventtexts import Texts, joined, named, player, say
from rules.protocol import IllegalAction, Seat
from rules.subastral.cards import END_CARD, NUMBERS, Biome, Card, CardSet, invalid
from rules.subastral.state import make_state
from rules.subastral.state import (
    DISTURB, HAND, JOURNAL, NO_PASS, ORDER, OVER, PLAY, TAKE,
    Action, Journal, OpenColumn, PassCard, Pile, PlayCard, Record, State, TakeCloud,
)

RULE_SETUP: Final = "setup"
RULE_PLAY: Final = "turn step 1: play a card onto the cloud of its number"
RULE_TAKE: Final = "turn step 2: take all cards from another cloud"
RULE_ENDS: Final = "turn step 2, special rule: played on cloud 1 and took 6 (or 6 and 1)"
RULE_COLUMNS: Final = "journal: a column per biome, left to right in order of arrival; the taker orders several new ones"
RULE_TURN: Final = "turn order: only the player whose turn it is acts"
RULE_DISTURB: Final = "disturbance variant: pass one hand card to the left"
RULE_OVER: Final = "game end: no more turns after the last round"

CLOUDS: Final = len(NUMBERS)
#: Played on one end of the row and took the other: hand or journal (special rule).
ENDS_OF_ROW: Final[tuple[tuple[int, int], ...]] = ((1, CLOUDS), (CLOUDS, 1))


def cards_under_end_card(players: int) -> int:
    """Setup step 3: 6, 9, 12, 15 cards go under the game-end card for 2, 3, 4, 5 players."""
    return 3 * players


# -- setup ---------------------------------------------------------------------------------------
def new_state(cards: CardSet, players: int, seed: int, variants: tuple[tuple[str, object], ...]) -> State:
    """Setup steps 1-6; all chance comes from ``random.Random(seed)``."""
    rng = seeded(seed)   # (the draws of random.Random(seed), faster)
    deck = list(cards.deck(players))
    rng.shuffle(deck)
    under = cards_under_end_card(players)
    needed = 3 * players + 8 + 1 + under
    if len(deck) < needed:
        raise invalid("deck_too_small", "cards", name=repr(cards.name), count=len(deck), players=players, needed=needed)
    hands = tuple(tuple(sorted(deck[3 * seat:3 * seat + 3])) for seat in range(players))
    deck = deck[3 * players:]
    # Step 3: the bottom 3 x players cards go under the end card.
    deck = deck[:-under] + [END_CARD] + deck[-under:]
    # Step 5: one card per cloud regardless of number, then two more of different numbers.
    clouds = [[deck.pop(0)] for _ in range(CLOUDS)]
    first = deck.pop(0)
    clouds[cards.number_of[first] - 1].append(first)
    if all(cards.number_of[k] == cards.number_of[first] for k in deck[:deck.index(END_CARD)]):
        raise invalid("second_number", "cards", name=repr(cards.name), number=cards.number_of[first])
    while True:
        second = deck.pop(0)
        if cards.number_of[second] != cards.number_of[first]:
            break
        # Ruling 2: a repeated number goes back at a random place above the end card.
        deck.insert(rng.randrange(deck.index(END_CARD) + 1), second)
    clouds[cards.number_of[second] - 1].append(second)
    start = rng.randrange(players)
    return State(
        cards=cards, players=players, variants=variants, deck=tuple(deck),
        clouds=tuple(map(tuple, clouds)), hands=hands, journals=((),) * players,
        start_player=start, seat=start, round=0, phase=PLAY, played_cloud=0, pending=(),
        end_triggered=False, last_round=-1, passes=(NO_PASS,) * players, taken_cloud=0, known=((),) * players,
        log=(("setup", None, (), None, start),),
    )


# -- who acts and what they may do ---------------------------------------------------------------
def to_move(state: State) -> tuple[Seat, ...]:
    phase = state.phase
    if phase == OVER:
        return ()
    if phase == DISTURB:
        return tuple(s for s in range(state.players) if state.hands[s] and state.passes[s] == NO_PASS)
    return (state.seat,)


class _Actions:
    """Every action object a card set can need, built once, so legal_actions only picks."""

    def __init__(self, cards: CardSet):
        self.play = tuple(PlayCard(card=name) for name in cards.kind_names)
        self.passing = tuple(PassCard(card=name) for name in cards.kind_names)
        self.open = tuple(OpenColumn(biome=b.id) for b in cards.biomes)
        # take[played]: (cloud index, its TakeCloud actions) for every other cloud.
        self.take: dict[int, tuple[tuple[int, tuple[TakeCloud, ...]], ...]] = {}
        for played in NUMBERS:
            options = []
            for cloud in NUMBERS:
                if cloud == played:
                    continue
                actions: tuple[TakeCloud, ...]
                if (played, cloud) in ENDS_OF_ROW:
                    actions = (TakeCloud(cloud=cloud, to=HAND), TakeCloud(cloud=cloud, to=JOURNAL))
                else:
                    actions = (TakeCloud(cloud=cloud, to=HAND if cloud < played else JOURNAL),)
                options.append((cloud - 1, actions))
            self.take[played] = tuple(options)


def actions_for(cards: CardSet) -> _Actions:
    """The action table of a card set, made on first use and kept with it (``CardSet.action_table``)."""
    return cards.action_table


def _distinct(kinds: Pile) -> dict[Card, None]:
    """Hand cards without repeats, in order (copies of a kind are the same move)."""
    return dict.fromkeys(kinds)


def legal_actions(state: State, seat: Seat) -> list[Action]:
    phase = state.phase
    if phase == DISTURB:
        if state.hands[seat] and state.passes[seat] == NO_PASS:
            table = actions_for(state.cards)
            return [table.passing[k] for k in _distinct(state.hands[seat])]
        return []
    if seat != state.seat or phase == OVER:
        return []
    table = actions_for(state.cards)
    if phase == PLAY:
        play = table.play
        return [play[k] for k in _distinct(state.hands[seat])]
    if phase == TAKE:
        clouds = state.clouds
        return [a for i, actions in table.take[state.played_cloud] if clouds[i] for a in actions]
    # ORDER: each new biome still waiting may open the next column.
    biome_of = state.cards.biome_of
    waiting = sorted({biome_of[k] for k in state.pending})
    return [table.open[b] for b in waiting]


# -- applying ------------------------------------------------------------------------------------
class _Table:
    """A working copy of a state for one apply: it copies only what the action changes."""

    __slots__ = ("s", "cards", "deck", "clouds", "hands", "journals", "seat", "round", "phase",
                 "played_cloud", "pending", "end_triggered", "last_round", "passes", "taken_cloud", "known", "log")

    def __init__(self, state: State):
        self.s = state
        self.cards = state.cards
        self.deck = state.deck
        self.clouds = state.clouds
        self.hands = state.hands
        self.journals = state.journals
        self.seat = state.seat
        self.round = state.round
        self.phase = state.phase
        self.played_cloud = state.played_cloud
        self.pending = state.pending
        self.end_triggered = state.end_triggered
        self.last_round = state.last_round
        self.passes = state.passes
        self.taken_cloud = state.taken_cloud
        self.known = state.known
        self.log: list[Record] = []

    def freeze(self) -> State:
        s = self.s
        # (a State built as the tuple it is: NamedTuple's own constructor is a Python call)
        return make_state((
            s.cards, s.players, s.variants, self.deck, self.clouds, self.hands, self.journals, s.start_player,
            self.seat, self.round, self.phase, self.played_cloud, self.pending, self.end_triggered,
            self.last_round, self.passes, self.taken_cloud, self.known, tuple(self.log)))

    # -- zones -----------------------------------------------------------------------------
    def set_hand(self, seat: Seat, hand: Pile) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def set_cloud(self, cloud: int, cards: Pile) -> None:
        clouds = list(self.clouds)
        clouds[cloud - 1] = cards
        self.clouds = tuple(clouds)

    def next_card(self, seat: Seat, why: str) -> Card | None:
        """The deck's top card; the end card is set aside on the way (ruling 7). None if empty."""
        deck = self.deck
        if deck and deck[0] == END_CARD:
            deck = deck[1:]
            self.end_triggered = True
            self.last_round = self.round + 1
            self.log.append(("end_card", seat, (), None, self.last_round))
        if not deck:
            self.deck = deck
            self.log.append(("deck_empty", seat, (), None, why))
            return None
        self.deck = deck[1:]
        return deck[0]

    def draw(self, seat: Seat, why: str) -> None:
        card = self.next_card(seat, why)
        if card is not None:
            self.set_hand(seat, tuple(sorted(self.hands[seat] + (card,))))
            self.log.append(("draw", seat, (card,), None, why))

    def reveal_onto(self, cloud: int | None, seat: Seat) -> bool:
        """Reveal the top card onto ``cloud`` (None = the cloud of its number). False if none left."""
        card = self.next_card(seat, "refill")
        if card is None:
            return False
        target = cloud if cloud is not None else self.cards.number_of[card]
        self.set_cloud(target, self.clouds[target - 1] + (card,))
        self.log.append(("reveal", None, (card,), target, "emptied" if cloud is not None else "number"))
        return True

    def add_to_journal(self, seat: Seat, cards: Pile) -> Pile:
        """Add cards of biomes that have a column; return those of new biomes (ruling 4)."""
        biome_of = self.cards.biome_of
        columns = list(self.journals[seat])
        column_of = {biome_of[col[0]]: i for i, col in enumerate(columns)}
        new: list[Card] = []
        added: list[Card] = []
        for card in cards:
            i = column_of.get(biome_of[card])
            if i is None:
                new.append(card)
            else:
                columns[i] = columns[i] + (card,)
                added.append(card)
        if added:
            self.set_journal(seat, tuple(columns))
            self.log.append(("journal", seat, tuple(added), None, None))
        return tuple(new)

    def open_column(self, seat: Seat, biome: int, cards: Pile) -> None:
        column = tuple(card for card in cards if self.cards.biome_of[card] == biome)
        self.set_journal(seat, self.journals[seat] + (column,))
        self.log.append(("column", seat, column, None, len(self.journals[seat])))

    def set_journal(self, seat: Seat, columns: Journal) -> None:
        journals = list(self.journals)
        journals[seat] = columns
        self.journals = tuple(journals)

    # -- turn structure --------------------------------------------------------------------
    def place_new_biomes(self, seat: Seat, new: Pile) -> None:
        """One new biome opens its column at once; several wait for the taker's order."""
        biomes = {self.cards.biome_of[card] for card in new}
        if len(biomes) == 1:
            self.open_column(seat, biomes.pop(), new)
            self.finish_turn()
        else:
            self.pending = new
            self.phase = ORDER
            self.log.append(("order", seat, new, None, len(biomes)))

    def finish_turn(self) -> None:
        """Turn step 3 (refill), then the next turn."""
        self.pending = ()
        self.refill(self.s.seat)
        self.end_turn()

    def refill(self, seat: Seat) -> None:
        """Step 3 (docs/readings.md, "Subastral 5"): one card onto the cloud just taken, whatever its number (not onto another
        empty cloud a hand-written position may have; nothing when the take was skipped), then by
        number until two clouds hold 2+."""
        if self.taken_cloud:
            if not self.reveal_onto(self.taken_cloud, seat):
                return
        while sum(len(cloud) >= 2 for cloud in self.clouds) < 2:
            if not self.reveal_onto(None, seat):
                return

    def end_turn(self) -> None:
        """Pass the turn on; end the game after the last round; handle empty hands (step 0)."""
        state = self.s
        players = state.players
        last_of_round = (state.start_player - 1) % players
        self.taken_cloud = 0
        while True:
            ending = self.seat
            self.played_cloud = 0
            self.phase = PLAY
            if ending == last_of_round:
                if self.end_triggered and self.round >= self.last_round:
                    self.game_over()
                    return
                self.round += 1
            self.seat = (ending + 1) % players
            self.log.append(("turn", self.seat, (), None, self.round))
            if self.hands[self.seat]:
                return
            # Special rule: an empty hand at the start of the turn draws one card and ends the turn.
            self.log.append(("empty_hand", self.seat, (), None, None))
            self.draw(self.seat, "empty hand")

    def game_over(self) -> None:
        if self.s.variant("disturbance") and any(self.hands):
            self.phase = DISTURB
            self.log.append(("disturbance", None, (), None, None))
        else:
            self.phase = OVER
            self.log.append(("game_over", None, (), None, None))


def _illegal(key: str, rule: str, **values: object) -> NoReturn:
    """Refuse with the template ``refusal.<key>`` of ``data/events.json`` in every language (the
    English is ``reason``). Seats are named by ``player(seat)``; what the player sent (a card, a
    cloud, a seat) is quoted as its ``repr``."""
    reasons = say("subastral", f"refusal.{key}", **values)
    raise IllegalAction(reasons["en"], rule=rule, reasons=reasons)


def apply(state: State, seat: Seat, action: Action) -> State:
    phase = state.phase
    if type(action) is OpenColumn and phase != ORDER:
        _opened_by_itself(state, seat, action)
    if phase == OVER:
        _illegal("game_over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal("no_seat", RULE_TURN, seat=repr(seat), players=state.players)
    if phase == DISTURB:
        if type(action) is not PassCard:
            _illegal("disturbance_pass", RULE_DISTURB, who=player(seat))
        return _pass_card(state, seat, action)
    if seat != state.seat:
        _illegal("not_your_turn", RULE_TURN, current=player(state.seat), who=player(seat))
    if phase == PLAY:
        if type(action) is not PlayCard:
            _illegal("play_first", RULE_PLAY, who=player(seat))
        return _play(state, seat, action)
    if phase == TAKE:
        if type(action) is not TakeCloud:
            _illegal("take_now", RULE_TAKE, who=player(seat), cloud=state.played_cloud)
        return _take(state, seat, action)
    if type(action) is not OpenColumn:
        _illegal("choose_column", RULE_COLUMNS, who=player(seat))
    return _open(state, seat, action)


def _opened_by_itself(state: State, seat: Seat, action: OpenColumn) -> None:
    """Refuse, saying so, an ``OpenColumn`` for the last new biome of a take: once one biome is left
    waiting its column opens by itself (ruling 4 leaves nothing to choose), so that column was opened by
    the last apply, right after the one the taker chose. Any other stray ``OpenColumn`` goes on to the
    usual checks (whose turn, which phase)."""
    cards = state.cards
    log = state.log
    for before, record in zip(log, log[1:]):
        if (record[0] == "column" and before[0] == "column" and record[1] == seat == before[1]
                and cards.biomes[cards.biome_of[record[2][0]]].id == action.biome):
            biome = cards.biomes[cards.biome_of[record[2][0]]]
            _illegal("opened_by_itself", RULE_COLUMNS, who=player(seat), column=record[4],
                     biome={"en": biome.name, "ja": biome.name_ja or biome.name})


def _biome_named(biome: Biome) -> Texts:
    """A biome as players name it, in each language ("Subtropical desert", "亜熱帯砂漠")."""
    return {"en": biome.name, "ja": biome.name_ja or biome.name}


def _play(state: State, seat: Seat, action: PlayCard) -> State:
    cards = state.cards
    card = cards.kind_by_name.get(action.card) if isinstance(action.card, str) else None
    hand = state.hands[seat]
    if card is None or card not in hand:
        _illegal("not_in_hand", RULE_PLAY, card=named(action.card, card, cards.card_label), who=player(seat))
    cloud = cards.number_of[card]
    i = hand.index(card)
    hands = list(state.hands)
    hands[seat] = hand[:i] + hand[i + 1:]
    piles = list(state.clouds)
    piles[cloud - 1] += (card,)
    clouds = tuple(piles)
    # Built field by field (State order): the commonest step of every game, kept cheap.
    s = state
    known = s.known
    if card in known[seat]:
        # A watcher crosses off a copy seen going into this hand (the card played may be that one).
        mine = known[seat]
        i = mine.index(card)
        known = known[:seat] + (mine[:i] + mine[i + 1:],) + known[seat + 1:]
    played = make_state((
        s.cards, s.players, s.variants, s.deck, clouds, tuple(hands), s.journals, s.start_player, s.seat, s.round,
        TAKE, cloud, s.pending, s.end_triggered, s.last_round, s.passes, 0, known, (("play", seat, (card,), cloud, None),)))
    if clouds.count(()) < CLOUDS - 1:
        return played
    # Ruling 8: with no other cloud holding a card, the take is skipped.
    table = _Table(played)
    table.log = [*played.log, ("take_skipped", seat, (), None, None)]
    table.finish_turn()
    return table.freeze()


def _take(state: State, seat: Seat, action: TakeCloud) -> State:
    cloud, to = action.cloud, action.to
    played = state.played_cloud
    if type(cloud) is not int or not 1 <= cloud <= CLOUDS:
        _illegal("no_cloud", RULE_TAKE, cloud=repr(cloud))
    if cloud == played:
        _illegal("played_cloud", RULE_TAKE, cloud=cloud)
    taken = state.clouds[cloud - 1]
    if not taken:
        _illegal("empty_cloud", RULE_TAKE, cloud=cloud)
    if (played, cloud) in ENDS_OF_ROW:
        if to not in (HAND, JOURNAL):
            _illegal("ends_of_row", RULE_ENDS, cloud=cloud, to=repr(to))
    else:
        allowed = HAND if cloud < played else JOURNAL
        if to != allowed:
            _illegal("towards_deck" if allowed == HAND else "towards_sun", RULE_TAKE, cloud=cloud, played=played)
    table = _Table(state)
    table.set_cloud(cloud, ())
    table.taken_cloud = cloud
    table.log.append(("take", seat, taken, cloud, to))
    if to == HAND:
        table.set_hand(seat, tuple(sorted(state.hands[seat] + taken)))
        # Everyone saw these cards go into the hand (the bonus draw below is seen by the drawer only).
        known = state.known
        table.known = known[:seat] + (tuple(sorted(known[seat] + taken)),) + known[seat + 1:]
        table.draw(seat, "bonus")
        table.finish_turn()
    else:
        new = table.add_to_journal(seat, taken)
        if new:
            table.place_new_biomes(seat, new)
        else:
            table.finish_turn()
    return table.freeze()


def _open(state: State, seat: Seat, action: OpenColumn) -> State:
    cards = state.cards
    waiting = {cards.biome_of[k] for k in state.pending}
    biome = next((b for b, info in enumerate(cards.biomes) if info.id == action.biome), None)
    if biome not in waiting:
        names = joined(_biome_named(cards.biomes[b]) for b in sorted(waiting, key=lambda b: cards.biomes[b].id))
        _illegal("not_waiting", RULE_COLUMNS, biome=named(action.biome, biome, lambda b: _biome_named(cards.biomes[b])),
                 waiting=names)
    table = _Table(state)
    table.open_column(seat, biome, state.pending)
    rest = tuple(k for k in state.pending if cards.biome_of[k] != biome)
    table.pending = rest
    if len(waiting) == 2:
        table.open_column(seat, cards.biome_of[rest[0]], rest)
        table.finish_turn()
    return table.freeze()


def _pass_card(state: State, seat: Seat, action: PassCard) -> State:
    cards = state.cards
    if not state.hands[seat]:
        _illegal("nothing_to_pass", RULE_DISTURB, who=player(seat))
    if state.passes[seat] != NO_PASS:
        _illegal("already_passed", RULE_DISTURB, who=player(seat))
    card = cards.kind_by_name.get(action.card) if isinstance(action.card, str) else None
    if card is None or card not in state.hands[seat]:
        _illegal("not_in_hand", RULE_DISTURB, card=named(action.card, card, cards.card_label), who=player(seat))
    table = _Table(state)
    passes = list(state.passes)
    passes[seat] = card
    table.passes = tuple(passes)
    table.log.append(("pass_chosen", seat, (card,), None, None))
    if all(passes[s] != NO_PASS or not state.hands[s] for s in range(state.players)):
        # Everyone has chosen: all cards move at once, each into the left neighbour's journal.
        for giver in range(state.players):
            card = passes[giver]
            if card == NO_PASS:
                continue
            hand = table.hands[giver]
            i = hand.index(card)
            table.set_hand(giver, hand[:i] + hand[i + 1:])
            seen = table.known[giver]
            if card in seen:
                i = seen.index(card)
                table.known = table.known[:giver] + (seen[:i] + seen[i + 1:],) + table.known[giver + 1:]
            receiver = (giver + 1) % state.players
            table.log.append(("pass", giver, (card,), None, receiver))
            new = table.add_to_journal(receiver, (card,))
            if new:
                table.open_column(receiver, cards.biome_of[card], new)
        table.passes = (NO_PASS,) * state.players
        table.phase = OVER
        table.log.append(("game_over", None, (), None, None))
    return table.freeze()

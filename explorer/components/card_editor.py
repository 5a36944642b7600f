"""The card editor: a game's card file as tables, edited in the browser and checked by the game itself.

:class:`CardEditor` holds the file being edited (``data``, replaced at every edit, never mutated) and
what the game says of it (``problem``: the engine's :class:`~rules.protocol.InvalidPosition`, placed at
its deck, row and column by ``explorer.core.card_edits.locate``). Its methods are what the page's
widgets do (``edit``, ``add``, ``duplicate``, ``remove``, ``apply_ability``, ``save``, ``load_saved``,
``load_upload``...); each checks what it is given (a widget's message can be forged from the browser's
console: any value, row or name), and refuses what is not a value of its column, a row of the deck or
a file of the game with a message in ``notice``, changing nothing. A value of the right kind that the
game refuses (stars -1) stays in the draft, its cell marked and the game's message shown beside the
table (and, for an ability's parameter, beside its field in the ability form): a designer edits on from
there; such a file is never saved. A file's single cards (Stellar's satellites, Starligned's moon and
direction cards: ``card_edits.tables``) are one-row tables, without Add, Duplicate and Remove.

Files are saved in a :class:`~explorer.cardfiles.CardLibrary`; the standard file and every file's
checks come from the game (``rules/<game>/cards.py``), the vocabulary of abilities too
(``card_edits.vocabulary``). Texts from the file are shown escaped (Tabulator's plain-text cells, and
``html.escape`` in the panes this module writes).
"""

from __future__ import annotations

import html
import io
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import panel as pn
import param

import rules
from explorer.cardfiles import MAX_BYTES, CardFileError, CardLibrary, check_file, check_name, standard_file
from explorer.components.file_input import JsonFileInput
from explorer.core import card_edits
from explorer.core.card_edits import Column, DeckPath, EditRefused, Location
from explorer.core.i18n import text, texts
from explorer.core.links import tutorial_href
from explorer.core.stylesheets import stylesheet
from rules.protocol import InvalidPosition, dumps, load_json
from rules.rulebook import LANGUAGES

esc = html.escape
EDITOR_CSS = stylesheet("components/card_editor")
TABLE_CSS = stylesheet("components/card_table")
BUTTON_ROW_CSS = stylesheet("components/button_row")
#: Tabulator's editor per column kind (a column with choices gets a list).
EDITORS = {"int": {"type": "number"}, "bool": "tickCross", "text": "input", "json": "input"}
#: The class of the parts that show the file as it is written (its keys, ids and texts, in the file's
#: own words whatever the page's language): HTML's ``translate="no"`` for a widget. Texts within are
#: the file's, not the page's (``make tour`` reads them as such).
FILE_DATA = "file-data"
#: Deals compared to tell a set-aside chosen at random (Jump Gate's unused resources) from a fixed one (a box).
ASIDE_SEEDS = (0, 1, 2)


@dataclass(frozen=True)
class Draft:
    """What the editor works on, to open it again (the language switch: ``explorer.core.carry``): the
    game, the file as edited (JSON text: a copy no later edit reaches), the saved file it was loaded
    from, the name it was last saved under while unchanged, and the tables and cards shown."""

    game: str
    file: str
    source: str
    saved_as: str
    deck: DeckPath
    row: int | None
    sub_deck: DeckPath | None
    sub_row: int | None


@dataclass(frozen=True)
class PlayerCount:
    """The cards of a file at one player count, as the game deals them: ``in_play`` cards, ``set_aside``
    (the box, unused components: ``random`` when each deal chooses which), and ``copies`` per card name:
    those in play, or, when the set-aside is random, on the table with those set aside."""

    players: int
    in_play: int
    set_aside: int
    random: bool
    copies: dict[str, int]
    #: Why the game cannot deal this many players with the file (too few cards), else None.
    refused: InvalidPosition | None = None


def _plain(value: Any) -> Any:
    """A table cell's value as Python has it (pandas gives numpy numbers and NaN for empty cells)."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


class CardEditor(pn.viewable.Viewer):
    """One designer's card file, its tables and its checks. ``CardEditor(library=..., lang=..., game=...)``."""

    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), constant=True)
    game = param.Selector(default="biome_blitz", objects=list(rules.GAMES), doc="The game whose cards are edited.")

    def __init__(self, library: CardLibrary | None = None, **params):
        super().__init__(**params)
        self.library = library or CardLibrary()
        self.vocabulary = card_edits.vocabulary(self.game)
        self.standard: dict[str, Any] = standard_file(self.game)
        self.data: dict[str, Any] = standard_file(self.game)
        self.source = ""                       # the saved file the draft was loaded from ("": the standard file)
        self.saved_as = ""                     # the name the draft was last saved under, while unchanged since
        self.problem: InvalidPosition | None = None
        self.location: Location | None = None
        self.notice = ""
        #: A first click that asked before acting: ("delete", name) (``ask_delete``) or ("save", name) (``save``
        #: over a file this page did not load, or that changed since); any other action takes it back.
        self.asked: tuple[str, str] | None = None
        #: The version (``CardLibrary.version``) of each saved file as this page last loaded or saved it.
        self.known_versions: dict[str, str | None] = {}
        #: The draft of each other game, as it was left for another (``choose_game``): back to a game, back to it.
        self.left_drafts: dict[str, Draft] = {}
        #: The file as last loaded, uploaded, started or saved (``dumps``): the draft differs from it when
        #: it holds unsaved edits ("": not known, taken as unsaved).
        self.baseline = dumps(self.data)
        #: Per game, the draft with unsaved edits that a load, an upload or the standard cards replaced, and
        #: its baseline: "Bring back my edits" swaps it back (``bring_back``). Nothing typed is lost.
        self.replaced: dict[str, tuple[Draft, str]] = {}
        self.deck: DeckPath = _largest_deck(self.data)
        self.row: int | None = None
        self.sub_deck: DeckPath | None = None
        self.sub_row: int | None = None
        self._first_card_with_decks(self.data)
        self._build()
        self.refresh()

    # ------------------------------------------------------------------ the model: what the widgets do
    def t(self, key: str, *, escape: bool = False, **values) -> str:
        """The page's words for ``key``; ``escape``: as HTML, the words escaped and ``values`` (HTML
        already, e.g. :func:`_data`) put in as they are."""
        if not escape:
            return text(f"workshop.{key}", self.lang, **values)
        marks = {name: f"\x00{name}\x00" for name in values}
        out = esc(text(f"workshop.{key}", self.lang, **marks))
        for name, value in values.items():
            out = out.replace(marks[name], str(value))
        return out

    def key_label(self, key: str) -> str:
        """A file's key (a column, a table) as the page names it: in Japanese the word with the key after
        it, "星（stars）" (errors and the file name the key); in English, or a key the page has no word
        for (a key of the file's own), the key."""
        words = texts(self.lang)
        said = words.get(f"workshop.key.{self.game}.{key}") or words.get(f"workshop.key.{key}") or key
        return key if said == key else f"{said}（{key}）"

    def _refuse(self, error: Exception) -> bool:
        self.notice = self.t("refused", reason=_message(error, self.lang))
        return False

    def _take(self, data: dict[str, Any], *, keep_notice: bool = False) -> None:
        """The draft becomes ``data``; the game's verdict on it is asked again."""
        self.data = data
        self.saved_as = ""
        if not keep_notice:
            self.notice = ""
        self.validate()

    def validate(self) -> None:
        try:
            check_file(self.game, self.data)
        except InvalidPosition as error:
            self.problem = error
            self.location = card_edits.locate(self.data, error.where, error.problem, self.vocabulary, self.standard)
            self._go_to(self.location)
        else:
            self.problem = self.location = None

    def _go_to(self, location: Location) -> None:
        """Show the deck (and card) where the game's message points."""
        deck = location.deck
        if not deck and location.row is None:
            return
        self.deck = deck[:1]
        if len(deck) > 1 and isinstance(deck[1], int):
            self.row, self.sub_deck, self.sub_row = deck[1], deck, location.row
        elif location.row is not None:
            self.row = location.row
            self._pick_sub_deck()

    def _pick_sub_deck(self) -> None:
        if self.row is None:
            self.sub_deck = self.sub_row = None
            return
        subs = card_edits.sub_decks(self.data, self.deck, self.row, self.standard)
        if self.sub_deck not in subs:
            self.sub_deck = subs[0] if subs else None
            self.sub_row = None

    def choose_game(self, game_id: Any) -> bool:
        """Edit ``game_id``'s cards: the draft it was left with on this page (its edits, unsaved ones too,
        and the cards shown), else its standard file. The draft of the game left is kept for coming back:
        a switch to another game and back threw unsaved edits away (an outside tester)."""
        if game_id not in rules.GAMES:
            return self._refuse(CardFileError.say("unknown_game", game=repr(str(game_id)[:40]), games=", ".join(rules.GAMES)))
        if game_id == self.game:
            return True
        self.left_drafts[self.game] = self.draft()
        self.game = game_id
        self.vocabulary = card_edits.vocabulary(game_id)
        self.standard = standard_file(game_id)
        left = self.left_drafts.pop(game_id, None)
        if left is None:
            self.source = ""
            self._reset_place(standard_file(game_id), keep_replaced=False)
            return True
        self._resume(left)
        self.baseline = ""
        self.notice = self.t("draft_back", game=rules.get_game(game_id).title)
        return True

    def start_standard(self) -> bool:
        self.source = ""
        self._reset_place(standard_file(self.game))
        return True

    def _reset_place(self, data: dict[str, Any], *, keep_replaced: bool = True) -> None:
        """The draft becomes ``data`` (a load, an upload, the standard cards), shown from its first table.
        A draft with unsaved edits it replaces is kept for "Bring back my edits" (they were gone without
        a word; an outside tester). (Not on a switch of game: the game left keeps its draft.)"""
        kept = keep_replaced and self.has_unsaved_edits()
        if kept:
            self.replaced[self.game] = (self.draft(), self.baseline)
        self.deck, self.row, self.sub_deck, self.sub_row = _largest_deck(data), None, None, None
        self._first_card_with_decks(data)
        self._take(data)
        self.baseline = dumps(data)
        if kept:
            self.notice = self.t("edits_replaced")

    def has_unsaved_edits(self) -> bool:
        """Does the draft hold edits not in the file it was loaded, uploaded, started or saved from?"""
        return dumps(self.data) != self.baseline

    def bring_back(self) -> bool:
        """The draft a load, an upload or the standard cards replaced comes back; the one it replaces, if
        it holds unsaved edits, takes its place (so a second click undoes the first)."""
        old = self.replaced.pop(self.game, None)
        if old is None:
            return self._refuse(CardFileError(self.t("nothing_to_bring_back")))
        if self.has_unsaved_edits():
            self.replaced[self.game] = (self.draft(), self.baseline)
        draft, self.baseline = old
        self._resume(draft)
        self.notice = self.t("edits_back")
        return True

    def _first_card_with_decks(self, data: dict[str, Any]) -> None:
        """A deck whose cards hold decks (Subastral's biomes) opens on its first card, its own deck shown."""
        if card_edits.nested_keys(data, self.deck, self.standard):
            self.row = 0
            subs = card_edits.sub_decks(data, self.deck, 0, self.standard)
            self.sub_deck = subs[0] if subs else None

    def load_saved(self, name: Any) -> bool:
        if name is None and not self.library.names(self.game):
            return self._refuse(CardFileError(self.t("none_saved", game=rules.get_game(self.game).title)))
        try:
            version = self.library.version(self.game, check_name(name))     # (read first: a save in between is asked about)
            data = self.library.load(self.game, name)
        except (CardFileError, InvalidPosition) as error:
            return self._refuse(error)
        self.known_versions[name] = version
        self.source = name
        self._reset_place(data)
        self.saved_as = name
        return True

    def load_upload(self, content: Any) -> bool:
        """An uploaded file (its text): taken when it is this game's card file, even one the game refuses
        (its message then shows at its field); refused when it is not JSON, not this game's format, or
        holds something other than a card where its tables show cards (the game's message says what)."""
        if not isinstance(content, (str, bytes)) or len(content) > MAX_BYTES:
            return self._refuse(CardFileError(self.t("upload_size", limit=MAX_BYTES)))
        try:
            data = load_json(content, what="card file")
        except InvalidPosition as error:
            return self._refuse(error)
        where = card_edits.not_a_card(data, self.standard) if isinstance(data, dict) else None
        if (not isinstance(data, dict) or data.get("format") != self.standard.get("format") or not card_edits.decks(data)
                or where is not None):      # (not its tables' to show: refused, the game's message first)
            try:
                check_file(self.game, data)
            except InvalidPosition as error:
                return self._refuse(error)
            if where is not None:
                return self._refuse(CardFileError(self.t("not_a_card", where=where)))
        self.source = ""
        self._reset_place(data)
        return True

    def _columns(self, deck: DeckPath) -> dict[str, Column]:
        return {column.key: column for column in card_edits.columns(self.data, deck, self.vocabulary, self.standard)}

    def _deck(self, deck: Any) -> DeckPath:
        """``deck`` when it is one of the draft's tables (top, or inside a card), else EditRefused."""
        if not isinstance(deck, tuple):
            raise EditRefused("no such deck")
        if deck in card_edits.tables(self.data, self.standard):
            return deck
        if len(deck) == 3 and isinstance(deck[1], int) and (deck[0],) in card_edits.decks(self.data, self.standard):
            rows = card_edits.get(self.data, deck[:1])
            if 0 <= deck[1] < len(rows) and deck in card_edits.sub_decks(self.data, deck[:1], deck[1], self.standard):
                return deck
        raise EditRefused(f"no deck {card_edits.deck_name(deck)[:60]} in this file")

    def edit(self, deck: Any, row: Any, key: Any, value: Any) -> bool:
        """Give card ``row`` of ``deck`` the ``value`` in column ``key``."""
        try:
            deck = self._deck(deck)
            column = self._columns(deck).get(key) if isinstance(key, str) else None
            if column is None:
                raise EditRefused(f"{card_edits.deck_name(deck)} has no column {str(key)[:40]!r}")
            data = card_edits.set_field(self.data, deck, row, column, _plain(value))
        except EditRefused as error:
            return self._refuse(error)
        self._take(data)
        return True

    def add(self, deck: Any) -> bool:
        """A new card at the end of ``deck`` (a copy of its last: ``card_edits.add_row``), selected."""
        return self._change_rows(lambda data, deck: card_edits.add_row(data, deck, self.standard), deck,
                                 select=lambda data, deck: len(card_edits.get(data, deck)) - 1)

    def duplicate(self, deck: Any, row: Any) -> bool:
        return self._change_rows(card_edits.duplicate_row, deck, row, select=lambda data, deck: row + 1)

    def remove(self, deck: Any, row: Any) -> bool:
        return self._change_rows(card_edits.remove_row, deck, row, select=lambda data, deck: None)

    def _change_rows(self, change, deck: Any, *row: Any, select) -> bool:
        try:
            deck = self._deck(deck)
            data = change(self.data, deck, *row)
        except EditRefused as error:
            return self._refuse(error)
        self._take(data)
        self._select_in(deck, select(data, deck))
        return True

    def _select_in(self, deck: DeckPath, row: int | None) -> None:
        if len(deck) <= 1:
            self.deck, self.row = deck, row
            self._pick_sub_deck()
        else:
            self.sub_deck, self.sub_row = deck, row

    def select(self, row: Any) -> bool:
        """Select card ``row`` of the shown deck (None: none)."""
        rows = card_edits.cards(self.data, self.deck)
        if row is not None and (type(row) is not int or not 0 <= row < len(rows)):
            return False
        self.row = row
        self._pick_sub_deck()
        return True

    def select_sub(self, row: Any) -> bool:
        if self.sub_deck is None:
            return False
        rows = card_edits.get(self.data, self.sub_deck)
        if row is not None and (type(row) is not int or not 0 <= row < len(rows)):
            return False
        self.sub_row = row
        return True

    def show_deck(self, name: Any) -> bool:
        """Show the top-level table called ``name`` (``animals``; ``""``: the file's own numbers), its first
        card's own deck with it if it has one."""
        deck = next((deck for deck in card_edits.tables(self.data, self.standard) if card_edits.deck_name(deck) == name), None)
        if deck is None:
            return False
        if deck == self.deck:
            return True
        self.deck, self.row, self.sub_deck, self.sub_row = deck, None, None, None
        self._first_card_with_decks(self.data)
        return True

    def ability(self) -> dict[str, Any] | None:
        """The selected ability (a card of a deck of abilities), when the game's vocabulary has effects."""
        if not self.vocabulary.effects or self.sub_deck is None or self.sub_row is None:
            return None
        card = card_edits.get(self.data, self.sub_deck)[self.sub_row]
        return card if "effect" in card else None

    def apply_ability(self, values: Any) -> bool:
        """The selected ability rewritten from the ability form's ``values`` (typed parameters)."""
        old = self.ability()
        if old is None or not isinstance(values, dict):
            return self._refuse(EditRefused("no ability is selected"))
        try:
            card = card_edits.build_ability(self.vocabulary, old, values)
            data = card_edits.set_card(self.data, self.sub_deck, self.sub_row, card)
        except EditRefused as error:
            return self._refuse(error)
        self._take(data)
        return True

    def change_effect(self, values: Any, effect: Any) -> bool:
        """The ability form's effect changed: the ability takes it, with the parameters of the form that it has."""
        if not isinstance(values, dict) or not isinstance(effect, str) or effect not in self.vocabulary.effects:
            return self._refuse(EditRefused(f"effect is one of {', '.join(self.vocabulary.effects)}"))
        kinds = card_edits.ability_parameters(self.vocabulary, effect)
        kept = {key: value for key, value in values.items() if key in kinds or key in self.vocabulary.ability_keys}
        return self.apply_ability(kept | {"effect": effect})

    def _table_keys(self) -> set[str]:
        """The file's keys shown as tables: its decks, single cards and own numbers."""
        return ({deck[0] for deck in card_edits.tables(self.data, self.standard) if deck}
                | set(card_edits.file_numbers(self.data)))

    def other_fields(self) -> dict[str, Any]:
        """The file's fields that are not tables (its format, name, notes, and what no table holds)."""
        tables = self._table_keys()
        return {key: value for key, value in self.data.items() if key not in tables}

    def apply_other_fields(self, content: Any) -> bool:
        if not isinstance(content, str) or len(content) > MAX_BYTES:
            return self._refuse(EditRefused("the other fields are a JSON object"))
        try:
            fields = load_json(content, what="fields")
        except InvalidPosition as error:
            return self._refuse(error)
        decks = self._table_keys()
        if not isinstance(fields, dict) or set(fields) & decks:
            return self._refuse(EditRefused(self.t("other_fields_object")))
        self._take(_ordered(self.data, fields, decks))
        return True

    def save(self, name: Any) -> bool:
        """Save the draft as ``name``. Over a saved file this page did not load or save, or one saved
        from elsewhere since (another tab, another designer), a first click asks, naming it; a second
        one replaces it (its version is kept beside the library). The later of two tabs saving one file
        replaced the other's edits without a word (an outside tester)."""
        if self.problem is not None:
            return self._refuse(CardFileError(self.t("save_invalid")))
        try:
            current = self.library.version(self.game, check_name(name))
        except CardFileError as error:
            return self._refuse(error)
        if current is not None and current != self.known_versions.get(name) and self.asked != ("save", name):
            self.asked = ("save", name)
            self.notice = self.t("save_ask", name=name)
            return False
        self.asked = None
        try:
            self.library.save(self.game, name, self.data)
        except (CardFileError, InvalidPosition, OSError) as error:
            return self._refuse(error)
        self.known_versions[name] = self.library.version(self.game, name)
        self.source = self.saved_as = name
        self.baseline = dumps(self.data)
        self.notice = self.t("saved", name=name)
        return True

    def delete_saved(self, name: Any) -> bool:
        try:
            self.library.delete(self.game, check_name(name))
        except CardFileError as error:
            return self._refuse(error)
        if self.saved_as == name:
            self.saved_as = ""
        self.notice = self.t("deleted", name=name)
        return True

    def ask_delete(self, name: Any) -> bool:
        """The Delete button: a first click asks (the button and the notice name the file), a second
        one on the same file deletes it. One click deleted the file the menu happened to show, the
        first saved name on a page just opened (an outside tester). Any other action asks again."""
        if name is None and not self.library.names(self.game):
            return self._refuse(CardFileError(self.t("none_saved", game=rules.get_game(self.game).title)))
        if self.asked != ("delete", name):
            try:
                if self.library.version(self.game, check_name(name)) is None:
                    raise CardFileError.say("no_file", game=self.game, name=repr(name))
            except CardFileError as error:
                return self._refuse(error)
            self.asked = ("delete", name)
            self.notice = self.t("delete_ask", name=name)
            return False
        self.asked = None
        return self.delete_saved(name)

    def changes(self) -> list[dict[str, Any]]:
        return card_edits.diff(self.standard, self.data)

    def counts(self) -> dict[int, int] | None:
        """Cards in play (every deck) at each player count, as the game deals them; None while refused."""
        per_count = self.player_counts()
        return None if per_count is None else {each.players: each.in_play for each in per_count if each.refused is None}

    def player_counts(self) -> list[PlayerCount] | None:
        """The file's cards at each player count the game allows (:class:`PlayerCount`), with the
        standard variants, as the game deals them; None while the game refuses the file."""
        if self.problem is not None:
            return None
        game = check_file(self.game, self.data)
        deals, refused = {}, {}
        for players in game.player_counts:
            try:        # (a file can hold too few cards for more players: that count is said to be refused)
                deals[players] = [game.new_game(players, seed) for seed in ASIDE_SEEDS]
            except InvalidPosition as error:
                refused[players] = error
        if not deals or game.inventory(deals[max(deals)][0]) is None:
            return None
        # The whole file: what a deal plays and sets aside (a box the state keeps is in its inventory too).
        largest = deals[max(deals)][0]
        whole = Counter(game.inventory(largest)) | Counter(game.set_aside(largest))
        out = []
        for players in game.player_counts:
            if players in refused:
                out.append(PlayerCount(players, 0, 0, False, {}, refused[players]))
                continue
            dealt = deals[players]
            inventory = Counter(game.inventory(dealt[0]))
            aside = Counter(game.set_aside(dealt[0]))
            random = any(Counter(game.set_aside(deal)) != aside for deal in dealt[1:])
            copies = inventory if random else whole - aside
            out.append(PlayerCount(players, sum(whole.values()) - sum(aside.values()), sum(aside.values()), random,
                                   {card: copies[card] for card in whole}))
        return out

    def explorer_href(self) -> str | None:
        """The explorer dealing a game with the saved file the draft is (None until it is saved, unchanged)."""
        if not self.saved_as:
            return None
        return "/explorer?" + urlencode({"game": self.game, "cards": self.saved_as, "lang": self.lang})

    def tutorial_href(self) -> str | None:
        """The game's tutorial dealt with the saved file the draft is (None until it is saved, unchanged)."""
        if not self.saved_as:
            return None
        return tutorial_href(self.game, self.lang) + "&" + urlencode({"cards": self.saved_as})

    def json_text(self) -> str:
        return dumps(self.data)

    def draft(self) -> Draft:
        """The draft as it is now (see :class:`Draft`)."""
        return Draft(self.game, dumps(self.data), self.source, self.saved_as, self.deck, self.row, self.sub_deck,
                     self.sub_row)

    def take_draft(self, draft: Draft) -> None:
        """Go on with ``draft`` (another page's, :meth:`draft`): the same file, checked again, the same
        tables and cards shown. Its game is this editor's (the page opens on it)."""
        self._resume(draft)
        self.baseline = ""          # (another page's: whether it holds unsaved edits is not known)
        self.refresh()

    def _resume(self, draft: Draft) -> None:
        self.source = draft.source
        self._take(load_json(draft.file, what="card file"))
        self.saved_as = draft.saved_as
        self.deck, self.row, self.sub_deck, self.sub_row = draft.deck, draft.row, draft.sub_deck, draft.sub_row

    # ------------------------------------------------------------------ the view
    def _build(self) -> None:
        t = self.t
        names = {rules.get_game(g).title: g for g in rules.GAMES}
        self.game_select = pn.widgets.Select(label=t("game"), options=names, value=self.game, css_classes=["cards-game"])
        self.game_select.param.watch(lambda e: self._act(self.choose_game, e.new), "value")
        self.standard_button = pn.widgets.Button(label=t("start_standard"), css_classes=["cards-standard"])
        self.standard_button.on_click(lambda e: self._act(self.start_standard))
        self.bring_back_button = pn.widgets.Button(label=t("bring_back"), css_classes=["cards-bring-back"], visible=False)
        self.bring_back_button.on_click(lambda e: self._act(self.bring_back))
        self.upload = JsonFileInput(lang=self.lang, accept=".json", max_bytes=MAX_BYTES, css_classes=["cards-upload"],
                                    description=t("upload"))
        self.upload.param.watch(lambda e: self._act(self.load_upload, e.new), "value", onlychanged=False)
        self.upload.on_too_big = lambda name, size: self._act(
            self._refuse, CardFileError(t("upload_too_big", name=name, size=f"{size:,}", limit=f"{MAX_BYTES:,}")))
        self.saved_select = pn.widgets.Select(label=t("saved_files"), options=[], css_classes=["cards-saved"])
        self.load_button = pn.widgets.Button(label=t("load"), css_classes=["cards-load"])
        self.load_button.on_click(lambda e: self._act(self.load_saved, self.saved_select.value))
        self.delete_button = pn.widgets.Button(label=t("delete"), css_classes=["cards-delete"], color="light")
        self.delete_button.on_click(lambda e: self._act(self.ask_delete, self.saved_select.value))
        self.name_input = pn.widgets.TextInput(label=t("save_name"), placeholder=t("save_placeholder"),
                                               max_length=64, css_classes=["cards-name"])
        self.save_button = pn.widgets.Button(label=t("save"), color="primary", css_classes=["cards-save"])
        self.save_button.on_click(lambda e: self._act(self.save, self.name_input.value))
        self.download = pn.widgets.FileDownload(callback=lambda: io.StringIO(self.json_text()), filename="cards.json",
                                                label=t("download"), css_classes=["cards-download"])
        self.explorer_link = pn.pane.HTML("", css_classes=["cards-explorer-link"])
        for widget in (self.game_select, self.saved_select, self.name_input):
            widget.sizing_mode = "stretch_width"
        # On a narrow screen the controls come after the whole table (the site's layout: content first),
        # so the verdict and any refusal are said again under them, where a file was just uploaded,
        # loaded or saved (on a wide screen it stays hidden: the top of the page says it beside them).
        self.file_echo = pn.pane.HTML("", css_classes=["cards-file-echo"], sizing_mode="stretch_width",
                                      stylesheets=[EDITOR_CSS])
        self.controls = pn.Column(self.game_select, self.standard_button, self.bring_back_button,
                                  pn.pane.HTML(esc(t("upload"))), self.upload,
                                  self.saved_select, pn.Row(self.load_button, self.delete_button),
                                  self.name_input, self.save_button, self.file_echo, self.download, self.explorer_link,
                                  css_classes=["cards-controls"], sizing_mode="stretch_width")

        self.status = pn.pane.HTML("", css_classes=["cards-status"], sizing_mode="stretch_width", stylesheets=[EDITOR_CSS])
        self.notice_pane = pn.pane.HTML("", css_classes=["cards-notice"], sizing_mode="stretch_width", stylesheets=[EDITOR_CSS])
        self.deck_select = pn.widgets.RadioButtonGroup(options={}, css_classes=["cards-decks", FILE_DATA], color="light",
                                                       stylesheets=[BUTTON_ROW_CSS])
        self.deck_select.param.watch(lambda e: self._act(self.show_deck, e.new), "value")
        self.table = self._table("cards-table")
        self.table.on_edit(lambda e: self._act(self.edit, self.deck, e.row, e.column, e.value))
        self.table.param.watch(lambda e: self._act(self.select, e.new[0] if e.new else None), "selection")
        self.deck_problem = pn.pane.HTML("", css_classes=["cards-deck-problem"], stylesheets=[EDITOR_CSS])
        self.row_buttons = self._row_buttons("cards", lambda: self.deck, lambda: self.row)
        self.sub_heading = pn.pane.HTML("", css_classes=["cards-sub-heading"], stylesheets=[EDITOR_CSS])
        self.sub_table = self._table("cards-sub-table")
        self.sub_table.on_edit(lambda e: self._act(self.edit, self.sub_deck, e.row, e.column, e.value))
        self.sub_table.param.watch(lambda e: self._act(self.select_sub, e.new[0] if e.new else None), "selection")
        self.sub_problem = pn.pane.HTML("", css_classes=["cards-sub-problem"], stylesheets=[EDITOR_CSS])
        # (a card's own table, an animal's abilities: its rows are no cards)
        self.sub_buttons = self._row_buttons("cards-sub", lambda: self.sub_deck, lambda: self.sub_row, "add_row")
        self.ability_form = pn.Column(css_classes=["cards-ability"], sizing_mode="stretch_width")
        self.ability_widgets: dict[str, pn.widgets.Widget] = {}      # the ability form's fields, by key
        self.sub_section = pn.Column(self.sub_heading, self.sub_problem, self.sub_table, self.sub_buttons, self.ability_form,
                                     sizing_mode="stretch_width")
        # (its label the page's words, its JSON the file's)
        self.other_label = pn.pane.HTML(f'<label class="cards-other-label">{esc(t("other_fields"))}</label>',
                                        margin=(5, 10, 0, 10))
        self.other_input = pn.widgets.TextAreaInput(height=160, sizing_mode="stretch_width",
                                                    css_classes=["cards-other", FILE_DATA])
        self.other_button = pn.widgets.Button(label=t("apply"), css_classes=["cards-other-apply"])
        self.other_button.on_click(lambda e: self._act(self.apply_other_fields, self.other_input.value))
        self.counts_pane = pn.pane.HTML("", css_classes=["cards-counts"], stylesheets=[EDITOR_CSS])
        self.diff_pane = pn.pane.HTML("", css_classes=["cards-diff"], sizing_mode="stretch_width", stylesheets=[EDITOR_CSS])
        self.main = pn.Column(
            self.status, self.notice_pane, self.deck_select, self.deck_problem, self.table, self.row_buttons,
            self.sub_section, _heading(t("counts")), self.counts_pane,
            _heading(t("diff")), self.diff_pane,
            pn.Column(self.other_label, self.other_input, self.other_button, sizing_mode="stretch_width"),
            sizing_mode="stretch_width", css_classes=["cards-main"])

    def _table(self, css: str) -> pn.widgets.Tabulator:
        return pn.widgets.Tabulator(value=None, show_index=False, selectable="checkbox-single", sortable=False, layout="fit_data_table",
                                    sizing_mode="stretch_width", max_height=420, css_classes=[css, FILE_DATA],
                                    stylesheets=[TABLE_CSS])

    def _row_buttons(self, prefix: str, deck, row, add_label: str = "add") -> pn.Row:
        t = self.t
        add = pn.widgets.Button(label=t(add_label), css_classes=[f"{prefix}-add"])
        duplicate = pn.widgets.Button(label=t("duplicate"), css_classes=[f"{prefix}-duplicate"])
        remove = pn.widgets.Button(label=t("remove"), css_classes=[f"{prefix}-remove"], color="light")
        add.on_click(lambda e: self._act(self.add, deck()))
        duplicate.on_click(lambda e: self._act(self.duplicate, deck(), row()))
        remove.on_click(lambda e: self._act(self.remove, deck(), row()))
        return pn.Row(add, duplicate, remove)

    def _act(self, action, *args) -> None:
        """A widget's action, then the view brought up to date (a refused one leaves its notice). Any
        other action takes back a Delete or a Save that asked first (``asked``)."""
        if getattr(self, "_refreshing", False):
            return
        if action not in (self.ask_delete, self.save):
            self.asked = None
        action(*args)
        self.refresh()

    def refresh(self) -> None:
        self._refreshing = True
        try:
            with pn.io.hold():
                self._refresh()
        finally:
            self._refreshing = False

    def _refresh(self) -> None:
        t = self.t
        self.game_select.value = self.game
        names = self.library.names(self.game)
        self.saved_select.options = names
        if self.saved_select.value not in names:      # (a blank menu read as "no saved files")
            self.saved_select.value = self.saved_as if self.saved_as in names else (names[0] if names else None)
        if self.problem is None:
            self.status.object = f'<div class="cards-ok">{esc(t("accepted"))}</div>'
        else:
            self.status.object = (f'<div class="cards-problem" role="alert">{esc(t("refused_by_game"))} '
                                  f'<b>{esc(self.problem.problem_in(self.lang))}</b></div>')
        self.notice_pane.object = f'<div class="cards-refusal">{esc(self.notice)}</div>' if self.notice else ""
        self.bring_back_button.visible = self.game in self.replaced
        asked = self.asked[0] if self.asked else None
        self.delete_button.param.update(label=t("delete_again") if asked == "delete" else t("delete"),
                                        color="danger" if asked == "delete" else "light")
        self.save_button.param.update(label=t("save_again") if asked == "save" else t("save"),
                                      color="danger" if asked == "save" else "primary")
        self.file_echo.object = self.notice_pane.object + self.status.object.replace(' role="alert"', "")
        self.save_button.disabled = self.problem is not None
        tables = card_edits.tables(self.data, self.standard)
        self.deck_select.options = {(self.key_label(card_edits.deck_name(deck)) if card_edits.deck_name(deck) else t("file_table")):
                                    card_edits.deck_name(deck) for deck in tables}
        self.deck_select.value = card_edits.deck_name(self.deck)
        self._show_table(self.table, self.deck, self.row, self.deck_problem)
        self.row_buttons.visible = not card_edits.is_single(self.data, self.deck)
        subs = card_edits.sub_decks(self.data, self.deck, self.row, self.standard) if self.row is not None else []
        self.sub_section.visible = self.sub_deck is not None and self.sub_deck in subs
        if self.sub_section.visible:
            label = card_edits.card_label(self.data, self.deck, self.row)
            self.sub_heading.object = (f'<h4 class="cards-heading">'
                                       f'{t("sub_deck", deck=_data(self.key_label(str(self.sub_deck[-1]))), card=_data(label), escape=True)}</h4>')
            self._show_table(self.sub_table, self.sub_deck, self.sub_row, self.sub_problem)
        self._show_ability_form()
        self.other_input.value = json.dumps(self.other_fields(), ensure_ascii=False, indent=1)
        self.counts_pane.object = self._counts_html()
        self.diff_pane.object = self._diff_html()
        href = self.explorer_href()
        self.explorer_link.object = (f'<a class="cards-open-explorer" href="{esc(href)}" target="_blank">'
                                     f'{esc(t("open_explorer", name=self.saved_as))}</a>'
                                     f' · <a class="cards-open-tutorial" href="{esc(self.tutorial_href())}" target="_blank">'
                                     f'{esc(text("tutorial.cards.open", self.lang, name=self.saved_as))}</a>' if href else "")

    def _show_table(self, table: pn.widgets.Tabulator, deck: DeckPath, row: int | None, problem_pane) -> None:
        import pandas as pd

        columns = card_edits.columns(self.data, deck, self.vocabulary, self.standard)
        frame = pd.DataFrame(card_edits.rows(self.data, deck, columns), columns=[c.key for c in columns], dtype=object)
        editors = {c.key: ({"type": "list", "values": list(c.choices)} if c.choices else EDITORS[c.kind]) for c in columns}
        formatters = {c.key: "tickCross" for c in columns if c.kind == "bool"}
        location = self.location
        marked = location is not None and location.deck == deck and location.row is not None
        table.selection = []            # (first: Tabulator maps a selection through the old rows)
        frozen = [c.key for c in columns[:1] if len(columns) > 4]        # (its id stays in sight as the table scrolls)
        # (a title is the file's key, shown as text: Tabulator writes titles as HTML)
        titles = {c.key: esc(self.key_label(c.key)) for c in columns}
        table.param.update(value=frame, editors=editors, formatters=formatters, frozen_columns=frozen, titles=titles)
        table.selection = [row] if row is not None else []
        if marked:
            table.style.apply(_mark_cell, axis=None, row=location.row, key=location.key)
            label = card_edits.card_label(self.data, deck, location.row) or self.t("file_table")
            where = label + (f" · {location.key}" if location.key else "")
            problem_pane.object = (f'<div class="cards-field-problem" data-row="{location.row}" '
                                   f'data-key="{esc(location.key or "")}">{esc(where)}: '
                                   f'{esc(_problem_text(self.problem, self.lang))}</div>')
        else:
            table.style.clear()
            problem_pane.object = ""

    def _show_ability_form(self) -> None:
        ability = self.ability()
        self.ability_widgets = {}
        if ability is None:
            self.ability_form.objects = []
            return
        t = self.t
        effect = ability["effect"] if ability["effect"] in self.vocabulary.effects else next(iter(self.vocabulary.effects))
        triggers, kinds = self.vocabulary.effects[effect]
        widgets: dict[str, pn.widgets.Widget] = {
            "name": pn.widgets.TextInput(label="name", value=str(ability.get("name", ""))),
            "name_ja": pn.widgets.TextInput(label="name_ja", value=str(ability.get("name_ja", ""))),
            "effect": pn.widgets.Select(label="effect", options=list(self.vocabulary.effects), value=effect),
            "trigger": pn.widgets.Select(label="trigger", options=list(triggers),
                                         value=ability["trigger"] if ability.get("trigger") in triggers else triggers[0]),
            # (Their box grows with the text, up to 8 lines: at a fixed height its second line was cut in half.)
            "text": pn.widgets.TextAreaInput(label="text", value=str(ability.get("text", "")), rows=3, auto_grow=True,
                                             max_rows=8),
            "text_ja": pn.widgets.TextAreaInput(label="text_ja", value=str(ability.get("text_ja", "")), rows=3,
                                                auto_grow=True, max_rows=8),
        }
        for key, kind in kinds.items():
            widgets[key] = _parameter_widget(key, kind, ability.get(key), self.vocabulary)
        for key, widget in widgets.items():      # (each labelled with its key in the file: the file's words)
            widget.css_classes = [f"ability-{key}", FILE_DATA]
        self.ability_widgets = widgets
        fields: list[Any] = list(widgets.values())
        location = self.location
        if (location is not None and location.deck == self.sub_deck and location.row == self.sub_row
                and location.key in widgets):
            # The field the game's message names, marked where the designer types, its message beside it
            # (the table's row stays marked too).
            marked = widgets[location.key]
            marked.css_classes = [*marked.css_classes, "ability-invalid"]
            marked.stylesheets = [*marked.stylesheets, EDITOR_CSS]
            message = pn.pane.HTML(f'<div class="cards-field-problem ability-problem" data-key="{esc(location.key)}">'
                                   f'{esc(_problem_text(self.problem, self.lang))}</div>',
                                   stylesheets=[EDITOR_CSS], css_classes=["ability-problem-pane"], width=260)
            fields[list(widgets).index(location.key)] = pn.Column(marked, message, margin=0)
        # A new effect takes other parameters: the form is drawn again for it (its values kept where they fit).
        widgets["effect"].param.watch(lambda e: self._act(self.change_effect, _form_values(widgets), e.new), "value")
        apply = pn.widgets.Button(label=t("apply_ability"), color="primary", css_classes=["ability-apply"])
        apply.on_click(lambda e: self._act(self.apply_ability, _form_values(widgets)))
        required = ", ".join(self.vocabulary.required.get(effect, ())) or "–"
        self.ability_form.objects = [
            pn.pane.HTML(f'<h4 class="cards-heading">{t("ability_form", name=_data(ability.get("name", "")), escape=True)}</h4>'
                         f"<p>{t('ability_required', params=_data(required), escape=True)}</p>", stylesheets=[EDITOR_CSS]),
            pn.FlexBox(*fields, sizing_mode="stretch_width"), apply]

    def _counts_html(self) -> str:
        """Per player count: the cards in play and set aside; then, folded, each card's copies per player
        count (the cards whose copies change with the count first, marked)."""
        per_count = self.player_counts()
        if per_count is None:
            return f"<p>{esc(self.t('counts_none'))}</p>"
        t = self.t
        cells = "".join(
            f'<tr class="cards-count-{each.players}"><td>{each.players}</td><td>{each.in_play}</td><td>'
            + esc(t("set_aside_random" if each.random else "set_aside_fixed", count=each.set_aside)) + "</td></tr>"
            if each.refused is None else
            f'<tr class="cards-count-{each.players} cards-count-refused"><td>{each.players}</td><td colspan="2">'
            + esc(t("count_refused", reason=each.refused.problem_in(self.lang))) + "</td></tr>"
            for each in per_count)
        per_count = [each for each in per_count if each.refused is None]     # (the copies: of the counts dealt)
        totals = (f'<table class="cards-counts-table cards-totals"><tr><th>{esc(t("players"))}</th><th>{esc(t("cards_in_game"))}</th>'
                  f'<th>{esc(t("set_aside"))}</th></tr>{cells}</table>')
        names = list(dict.fromkeys(name for each in per_count for name in each.copies))
        varies = {name for name in names if len({each.copies.get(name, 0) for each in per_count}) > 1}
        rows = "".join(
            ('<tr class="cards-count-varies">' if name in varies else "<tr>") + f'<td translate="no">{esc(name)}</td>'
            + "".join(f"<td>{each.copies.get(name, 0)}</td>" for each in per_count) + "</tr>"
            for name in sorted(names, key=lambda name: name not in varies))
        note = t("per_card_random") if any(each.random for each in per_count) else t("per_card_note")
        said = t("per_card", varies=len(varies)) if varies else t("per_card_same")
        per_card = (f'<details class="cards-per-card"><summary>{esc(said)}</summary>'
                    f'<p>{esc(note)}</p><table class="cards-counts-table"><tr><th>{esc(t("card"))}</th>'
                    + "".join(f"<th>{each.players}</th>" for each in per_count) + f"</tr>{rows}</table></details>")
        return totals + per_card

    def _diff_html(self) -> str:
        changes = self.changes()
        if not changes:
            return f'<p class="cards-no-changes">{esc(self.t("no_changes"))}</p>'
        rows = "".join(f'<tr class="diff-{c["change"]}"><td translate="no">{esc(c["path"])}</td>'
                       f'<td>{esc(self.t("change." + c["change"]))}</td>'
                       f'<td translate="no">{esc(_short(c["old"]))}</td><td translate="no">{esc(_short(c["new"]))}</td></tr>'
                       for c in changes[:200])
        more = f"<p>{esc(self.t('more_changes', count=len(changes) - 200))}</p>" if len(changes) > 200 else ""
        return (f'<table class="cards-diff-table"><tr><th>{esc(self.t("field"))}</th><th>{esc(self.t("change"))}</th>'
                f'<th>{esc(self.t("standard"))}</th><th>{esc(self.t("edited"))}</th></tr>{rows}</table>{more}')

    def __panel__(self):
        return self.main


def _data(value: Any) -> str:
    """A value from the file as HTML: escaped, and marked as the file's own words (``FILE_DATA``)."""
    return f'<span class="{FILE_DATA}" translate="no">{esc(str(value))}</span>'


def _heading(words: str) -> pn.pane.HTML:
    return pn.pane.HTML(f'<h4 class="cards-heading">{esc(words)}</h4>', stylesheets=[EDITOR_CSS], margin=(10, 10, 0, 10))


def _largest_deck(data: dict[str, Any]) -> DeckPath:
    """The deck a file opens on: its largest (Biome Blitz's animals, Starligned's cards)."""
    return max(card_edits.decks(data), key=lambda deck: len(card_edits.get(data, deck)))


def _ordered(data: dict[str, Any], fields: dict[str, Any], decks: set[str]) -> dict[str, Any]:
    """The decks of ``data`` and ``fields`` in the file's order (new fields last; fields left out, gone)."""
    out = {key: data[key] if key in decks else fields[key] for key in data if key in decks or key in fields}
    return out | {key: value for key, value in fields.items() if key not in out}


def _short(value: Any) -> str:
    if value is None:
        return ""
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _message(error: Exception, lang: str) -> str:
    if isinstance(error, (InvalidPosition, CardFileError)):
        return error.problem_in(lang)
    return str(error)


def _problem_text(problem: InvalidPosition | None, lang: str) -> str:
    return "" if problem is None else problem.problems.get(lang, problem.problem)


def _mark_cell(frame, row: int, key: str | None):
    import pandas as pd

    styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
    if 0 <= row < len(frame):
        if key in frame.columns:
            styles.loc[frame.index[row], key] = "background-color: #f8d7da; color: #842029; font-weight: 600; outline: 2px solid #b02a37"
        else:
            styles.loc[frame.index[row], :] = "background-color: #fdecee"
    return styles


def _parameter_widget(key: str, kind: Any, value: Any, vocabulary) -> pn.widgets.Widget:
    """A widget of the kind the vocabulary gives the parameter: whole numbers, a symbol, a choice, die results, yes/no, a text."""
    if kind in ("count", "whole", "roll"):
        low, high = {"count": (1, 99), "whole": (0, 99), "roll": (1, 6)}[kind]
        return pn.widgets.IntInput(label=key, value=value if type(value) is int else None, start=low, end=high, width=110)
    if kind == "symbol" or isinstance(kind, tuple):
        options = ["", *(("leaf", "water", "meat") if kind == "symbol" else kind)]
        return pn.widgets.Select(label=key, options=options, value=value if value in options else "", width=140)
    if kind == "rolls":
        return pn.widgets.MultiChoice(label=key, options=[1, 2, 3, 4, 5, 6],
                                      value=[v for v in value if type(v) is int] if isinstance(value, list) else [], width=200)
    if kind == "bool":
        return pn.widgets.Select(label=key, options={"": None, "true": True, "false": False},
                                 value=value if isinstance(value, bool) else None, width=110)
    return pn.widgets.TextInput(label=key, value=value if isinstance(value, str) else "", width=160)


def _form_values(widgets: dict[str, pn.widgets.Widget]) -> dict[str, Any]:
    return {key: widget.value for key, widget in widgets.items()}

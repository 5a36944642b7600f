"""The card editor's model (explorer/core/card_edits.py) and its component (explorer/components/card_editor.py)
without a browser: edits checked by the game with its message at the field, rows added, duplicated and
removed, the difference from the standard file, saving only what the game accepts, and forged widget
messages (any value, row, deck, game or name) refused, changing nothing."""

from __future__ import annotations

import json

import panel as pn
import pytest

from explorer.cardfiles import CardLibrary, standard_file
from explorer.components.card_editor import CardEditor
from explorer.core import card_edits
from explorer.core.card_edits import Column, EditRefused, Location
from rules import GAMES, get_game

ANIMALS = ("animals",)


@pytest.fixture
def library(tmp_path):
    return CardLibrary(tmp_path / "cards")


@pytest.fixture
def editor(library):
    return CardEditor(library=library, lang="en", game="biome_blitz")


def shown(editor: CardEditor) -> CardEditor:
    editor.refresh()
    return editor


# ---------------------------------------------------------------------------- the model
def test_biome_blitz_animals_are_a_table_with_costs_spread_and_ecosystems_from_the_file():
    data = standard_file("biome_blitz")
    vocabulary = card_edits.vocabulary("biome_blitz")
    assert card_edits.decks(data) == [("resources",), ("ecosystems",), ("animals",)]
    columns = {c.key: c for c in card_edits.columns(data, ANIMALS, vocabulary)}
    assert {"stars", "cost.leaf", "cost.water", "cost.meat", "battle_cost.meat", "power", "defence"} <= set(columns)
    assert columns["stars"].kind == "int"
    assert columns["ecosystem"].choices == tuple(e["id"] for e in data["ecosystems"])
    assert "abilities" not in columns       # a deck of its own, per animal
    assert card_edits.sub_decks(data, ANIMALS, 0) == [("animals", 0, "abilities")]
    ability_columns = [c.key for c in card_edits.columns(data, ("animals", 0, "abilities"), vocabulary)]
    assert "trigger" in ability_columns and "count" not in ability_columns     # parameters: the ability's form


@pytest.mark.parametrize("game_id, change, location", [
    ("biome_blitz", lambda d: d["animals"][1]["cost"].__setitem__("meat", 30), Location(ANIMALS, 1, "cost.meat")),
    ("biome_blitz", lambda d: d["animals"][0]["abilities"][0].__setitem__("count", 0),
     Location(("animals", 0, "abilities"), 0, "count")),
    ("subastral", lambda d: d["biomes"][1]["cards"][2].__setitem__("number", 9), Location(("biomes", 1, "cards"), 2, "number")),
    ("subastral", lambda d: d["biomes"][1].__setitem__("dots", "x"), Location(("biomes",), 1, "dots")),
    ("stellar", lambda d: d["types"][1]["cards"][2].__setitem__("stars", -1), Location(("types", 1, "cards"), 2, "stars")),
    ("starligned", lambda d: d["cards"][1]["high"].__setitem__("effect", "zz"), Location(("cards",), 1, "high.effect")),
    ("starligned", lambda d: d["cards"][1].__setitem__("constellation", "zz"), Location(("cards",), 1, "constellation")),
    # A single card's table (its one row), the file's own numbers, an ability's parameter the message quotes.
    ("stellar", lambda d: d["satellites"].__setitem__("number", 9), Location(("satellites",), 0, "number")),
    ("starligned", lambda d: d.__setitem__("moon_cards", -1), Location((), 0, "moon_cards")),
    ("starligned", lambda d: d.__setitem__("direction_cards", 3), Location((), 0, "direction_cards")),
    ("starligned", lambda d: [card.__setitem__("centre_star", "white") for card in d["cards"][:30]], Location(())),
    ("biome_blitz", lambda d: d["animals"][0]["abilities"][0].pop("count"), Location(("animals", 0, "abilities"), 0, "count")),
])
def test_the_games_message_is_placed_at_its_deck_row_and_column(game_id, change, location):
    data = standard_file(game_id)
    change(data)
    with pytest.raises(Exception) as refused:
        get_game(game_id).with_card_file(data)
    error = refused.value
    assert card_edits.locate(data, error.where, error.problem, card_edits.vocabulary(game_id)) == location


def test_set_field_add_duplicate_remove_and_the_difference_from_the_standard_file():
    standard = standard_file("biome_blitz")
    stars = Column("stars", "int")
    data = card_edits.set_field(standard, ANIMALS, 1, stars, 4)
    assert standard == standard_file("biome_blitz")          # never mutated
    data = card_edits.set_field(data, ANIMALS, 1, Column("cost.meat", "int"), None)
    data = card_edits.duplicate_row(data, ANIMALS, 1)
    first, second = standard["animals"][0]["id"], standard["animals"][1]["id"]
    assert data["animals"][2]["id"] == f"{second}_copy"
    data = card_edits.add_row(data, ANIMALS)
    assert data["animals"][-1]["id"] == f"{standard['animals'][-1]['id']}_copy"
    data = card_edits.remove_row(data, ANIMALS, 0)
    changes = {(c["path"], c["change"]) for c in card_edits.diff(standard, data)}
    assert changes == {(f"animals[{second}].stars", "changed"), (f"animals[{second}].cost.meat", "removed"),
                       (f"animals[{second}_copy]", "added"), (f"animals[{standard['animals'][-1]['id']}_copy]", "added"),
                       (f"animals[{first}]", "removed")}
    get_game("biome_blitz").with_card_file(data)             # a file the game accepts


def _decks_with_ids(game_id):
    data = standard_file(game_id)
    return [(game_id, deck) for deck in card_edits.decks(data)
            if not card_edits.is_single(data, deck) and all(isinstance(c.get("id"), str) for c in card_edits.cards(data, deck))]


@pytest.mark.parametrize("game_id, deck", [case for game_id in GAMES for case in _decks_with_ids(game_id)],
                         ids=lambda value: value if isinstance(value, str) else "/".join(map(str, value)))
def test_a_card_added_or_duplicated_has_an_id_its_game_accepts(game_id, deck):
    """A copy's id joins ``_copy`` to the card's: Subastral's biomes, Jump Gate's resource types and
    Stellar's types may not hold ``-`` (a ``-copy`` id was refused the moment it was made)."""
    standard = standard_file(game_id)
    for data in (card_edits.duplicate_row(standard, deck, 0), card_edits.add_row(standard, deck, standard),
                 card_edits.duplicate_row(card_edits.duplicate_row(standard, deck, 0), deck, 1)):
        get_game(game_id).with_card_file(data)
    twice = card_edits.duplicate_row(card_edits.duplicate_row(standard, deck, 0), deck, 1)
    first = card_edits.cards(standard, deck)[0]["id"]
    assert [c["id"] for c in card_edits.cards(twice, deck)[:3]] == [first, f"{first}_copy", f"{first}_copy2"]


@pytest.mark.parametrize("column, value", [(Column("stars", "int"), "<b>"), (Column("stars", "int"), 1.5),
                                           (Column("stars", "int"), True), (Column("stars", "int"), 2 ** 53),
                                           (Column("ecosystem", "text", ("SAV",)), "<script>"),
                                           (Column("name", "text"), 5), (Column("name", "text"), "x" * 5000),
                                           (Column("number", "json"), "{not json")])
def test_values_not_of_their_column_are_refused(column, value):
    with pytest.raises(EditRefused):
        card_edits.set_field(standard_file("biome_blitz"), ANIMALS, 0, column, value)


@pytest.mark.parametrize("row", [-1, 27, "1", None, 1.0])
def test_rows_not_in_the_deck_are_refused(row):
    with pytest.raises(EditRefused):
        card_edits.set_field(standard_file("biome_blitz"), ANIMALS, row, Column("stars", "int"), 3)


# ---------------------------------------------------------------------------- the editor
def test_a_refused_value_is_shown_at_its_field_and_the_file_cannot_be_saved(editor, library):
    assert editor.edit(ANIMALS, 1, "stars", -1)
    shown(editor)
    assert editor.problem is not None and editor.location == Location(ANIMALS, 1, "stars")
    assert 'data-row="1" data-key="stars"' in editor.deck_problem.object
    assert "must be a whole number from 0 to 99, not -1" in editor.deck_problem.object
    assert editor.save_button.disabled
    assert not editor.save("mine") and library.names("biome_blitz") == []
    assert "only a card file the game accepts can be saved" in editor.notice
    assert editor.counts() is None


@pytest.mark.parametrize("stars", [-1, 100, 10 ** 9, 2 ** 53 - 1])
def test_a_number_past_the_games_bound_is_refused_naming_the_games_bound(editor, stars):
    """The editor took whole numbers up to a million only, and named its own bounds for any other ("from
    -1,000,000 to 1,000,000"), not the game's: every number a browser holds is the game's to refuse."""
    assert editor.edit(ANIMALS, 1, "stars", stars)
    shown(editor)
    assert editor.location == Location(ANIMALS, 1, "stars")
    assert f"must be a whole number from 0 to 99, not {stars}" in editor.deck_problem.object


def test_an_accepted_edit_is_saved_loaded_again_and_opens_in_the_explorer(editor, library):
    stars = editor.data["animals"][1]["stars"]
    assert editor.edit(ANIMALS, 1, "stars", stars - 1)
    assert editor.save("cheaper") and library.load("biome_blitz", "cheaper")["animals"][1]["stars"] == stars - 1
    assert editor.explorer_href() == "/explorer?game=biome_blitz&cards=cheaper&lang=en"
    assert shown(editor).saved_select.options == ["cheaper"] and editor.saved_select.value == "cheaper"
    editor.start_standard()
    assert editor.changes() == [] and editor.explorer_href() is None
    assert editor.load_saved("cheaper")
    assert [c["path"] for c in editor.changes()] == [f"animals[{editor.data['animals'][1]['id']}].stars"]
    assert editor.delete_saved("cheaper") and library.names("biome_blitz") == []
    assert shown(editor).saved_select.options == [] and editor.saved_select.value is None


def test_a_new_card_duplicated_and_removed_changes_the_games_counts(editor):
    before = editor.counts()
    assert editor.duplicate(ANIMALS, 0)
    after = editor.counts()
    assert all(after[players] == before[players] + 1 for players in before)
    assert editor.row == 1 and editor.data["animals"][1]["id"].endswith("_copy")
    assert editor.remove(ANIMALS, 1) and editor.counts() == before
    resources = len(editor.data["resources"])
    assert editor.add(("resources",)) and len(editor.data["resources"]) == resources + 1
    assert editor.data["resources"][-1] == editor.data["resources"][-2]
    assert editor.remove(("resources",), resources) and editor.counts() == before


def test_subastral_counts_per_player_count_follow_the_cards_player_markers(library):
    editor = CardEditor(library=library, game="subastral")
    assert editor.sub_deck == ("biomes", 0, "cards")         # the first biome's cards shown with the biomes
    before = editor.counts()
    assert list(before) == [2, 3, 4, 5] and before[2] < before[5]
    deck = ("biomes", 0, "cards")
    row = next(i for i, card in enumerate(editor.data["biomes"][0]["cards"]) if card["min_players"] == 5)
    assert editor.edit(deck, row, "min_players", 2)
    after = editor.counts()
    assert after[2] == before[2] + 1 and after[5] == before[5]


def test_counts_leave_out_what_a_player_count_sets_aside_and_show_each_cards_copies(library):
    # Starligned's smaller tables box the white cards: 40 in play of 60 (the sum of the inventory said 60).
    editor = CardEditor(library=library, game="starligned")
    assert editor.counts() == {2: 40, 3: 40, 4: 60, 5: 60}
    shown = editor._counts_html()
    assert '<tr class="cards-count-2"><td>2</td><td>40</td><td>20</td></tr>' in shown
    assert shown.count('class="cards-count-varies"') == 20          # the boxed cards: 0 at 2-3 players, 1 at 4-5
    assert "Copies of each card per player count (20 change with the count, listed first)" in shown
    # Where no card's copies change with the count, the summary says so (it said "0 change with the count").
    same = CardEditor(library=library, game="stellar")._counts_html()
    assert "Copies of each card per player count (the same at every count)" in same and "0 change" not in same
    # Jump Gate sets unused resources aside at random: said so, and each card's copies are those on the table.
    editor = CardEditor(library=library, game="jump_gate")
    two = editor.player_counts()[0]
    assert (two.players, two.set_aside, two.random, two.in_play) == (2, 18, True, 78)
    assert sum(two.copies.values()) == 96 and "18, chosen at random at each deal" in editor._counts_html()
    # Subastral: a card only bigger tables play has its row too, among those first.
    editor = CardEditor(library=library, game="subastral")
    name = next(name for name, copies in editor.player_counts()[-1].copies.items()
                if copies and not editor.player_counts()[0].copies.get(name))
    assert f'<tr class="cards-count-varies"><td translate="no">{name}</td><td>0</td>' in editor._counts_html()


@pytest.mark.parametrize("lang, said", [("en", "cannot be dealt: cards: components"), ("ja", "配れません")], ids=["en", "ja"])
def test_a_player_count_the_file_cannot_deal_is_said_and_the_others_counted(library, lang, said):
    """A Jump Gate file of 12 NavComp cards deals 2 players only (3 hands of 5 need 15): the counts say so
    for 3 to 5 and count 2 (the page's refresh used to fail on the largest count's deal)."""
    from tests.helpers.endless import endless_jump_gate_cards

    editor = CardEditor(library=library, game="jump_gate", lang=lang)
    assert editor.load_upload(json.dumps({**endless_jump_gate_cards(), "name": "<b>few</b>"}).encode())
    assert editor.problem is None and list(editor.counts()) == [2]
    refused = [each.players for each in editor.player_counts() if each.refused is not None]
    assert refused == [3, 4, 5]
    shown = editor._counts_html()
    assert shown.count('cards-count-refused"') == 3 and said in shown
    assert "&lt;b&gt;few&lt;/b&gt;" in shown and "<b>few" not in shown          # (the file's name, as text)
    assert "<th>2</th>" in shown and "<th>3</th>" not in shown                 # each card's copies: at 2 players


def test_an_animal_left_without_abilities_can_be_given_one_again(editor):
    crocodile = ("animals", 1, "abilities")
    assert editor.select(1) and editor.sub_deck == crocodile
    assert editor.remove(crocodile, 0) and editor.data["animals"][1]["abilities"] == []
    assert editor.problem is None                     # the game takes an animal without abilities
    # Its abilities stay a table (empty) of the crocodile's: before, the table went and Add was refused.
    assert editor.select(1) and editor.sub_deck == crocodile
    assert shown(editor).sub_section.visible
    assert editor.add(crocodile)
    first = next(animal["abilities"][0] for animal in standard_file("biome_blitz")["animals"] if animal["abilities"])
    assert editor.data["animals"][1]["abilities"] == [first] and editor.sub_row == 0
    assert editor.problem is None and editor.ability()["effect"] == first["effect"]
    # An emptied deck at the top stays a deck too, and can be filled again (the game says whether it may be empty).
    resources = len(editor.data["resources"])
    for _ in range(resources):
        assert editor.remove(("resources",), 0)
    assert ("resources",) in card_edits.decks(editor.data, editor.standard) and editor.show_deck("resources")
    assert editor.add(("resources",)) and editor.data["resources"] == standard_file("biome_blitz")["resources"][:1]
    # Without a standard file to start from, an empty deck is refused with the reason, nothing changed.
    with pytest.raises(EditRefused, match="is empty, and the standard file has no card of its kind"):
        card_edits.add_row({"animals": []}, ("animals",))


#: Per game, a value its engine refuses: (deck, row, column, value).
REFUSED = {"biome_blitz": (ANIMALS, 2, "power", -1), "subastral": (("biomes", 0, "cards"), 1, "number", 9),
           "stellar": (("types", 0, "cards"), 1, "stars", -1), "jump_gate": (("planets",), 2, "jump", -1),
           "starligned": (("cards",), 2, "high.value", -1)}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_file_opens_as_tables_and_an_edit_is_checked_at_its_field(library, game_id):
    editor = shown(CardEditor(library=library, game=game_id))
    assert editor.problem is None and editor.table.value is not None and len(editor.table.value) > 0
    deck, row, key, value = REFUSED[game_id]
    assert editor.edit(deck, row, key, value)
    shown(editor)
    assert editor.location == Location(deck, row, key)
    pane = editor.deck_problem if len(deck) == 1 else editor.sub_problem
    assert f'data-row="{row}" data-key="{key}"' in pane.object
    assert editor.sub_section.visible or len(deck) == 1        # a card inside a card: its deck shown


def test_the_ability_form_writes_typed_parameters_from_the_vocabulary(editor):
    assert editor.select(0) and editor.select_sub(0)
    ability = editor.ability()
    assert ability is not None
    values = {"name": "Sprint", "effect": "power", "trigger": "compete", "amount": 2, "on_roll": 6}
    assert editor.apply_ability(values)
    new = editor.data["animals"][0]["abilities"][0]
    assert {k: new[k] for k in values} == values and "count" not in new and editor.problem is None
    assert editor.change_effect({"name": "Sprint", "amount": 2}, "win_on_roll")
    assert editor.data["animals"][0]["abilities"][0]["effect"] == "win_on_roll"
    assert editor.problem is not None and "rolls" in editor.problem.problem        # a required parameter
    assert editor.apply_ability({"name": "Sprint", "effect": "win_on_roll", "trigger": "defend", "rolls": [6, 5]})
    assert editor.data["animals"][0]["abilities"][0]["rolls"] == [5, 6] and editor.problem is None
    shown(editor)
    assert editor.ability_form.objects


@pytest.mark.parametrize("values", [{"effect": "fly"}, {"effect": "power", "amount": "2"},
                                    {"effect": "power", "amount": 2, "wings": 1},
                                    {"effect": "win_on_roll", "rolls": [7]}, {"effect": "steal", "symbol": "gold", "count": 1},
                                    "power", {"effect": {"a": 1}}, {"effect": ["power"]}])
def test_forged_ability_forms_are_refused(editor, values):
    editor.select(0)
    editor.select_sub(0)
    before = json.dumps(editor.data)
    assert not editor.apply_ability(values)
    assert json.dumps(editor.data) == before and editor.notice.startswith("Not done:")


def with_card(card) -> str:
    """The standard Biome Blitz file with ``card`` for its first animal, as uploaded."""
    data = standard_file("biome_blitz")
    data["animals"][0] = card
    return json.dumps(data)


def test_an_upload_with_a_card_that_is_no_object_is_refused_with_the_games_message(editor):
    before = json.dumps(editor.data)
    assert not editor.load_upload(with_card([1, 2]))
    assert json.dumps(editor.data) == before and editor.problem is None
    assert editor.notice.startswith("Not done:") and "animals[0]" in editor.notice, editor.notice
    assert not editor.load_upload(with_card({**standard_file("biome_blitz")["animals"][0], "abilities": [7]}))
    assert "animals[0].abilities[0]" in editor.notice and json.dumps(editor.data) == before, editor.notice


@pytest.mark.parametrize("forged", [
    lambda e: e.edit(ANIMALS, 0, "stars", "<img src=x onerror=alert(1)>"),
    lambda e: e.edit(ANIMALS, 0, "wings", 2),
    lambda e: e.edit(ANIMALS, 99, "stars", 2),
    lambda e: e.edit(("secrets",), 0, "stars", 2),
    lambda e: e.edit(("animals", 0, "abilities", 0, "x"), 0, "name", "x"),
    lambda e: e.edit("animals", 0, "stars", 2),
    lambda e: e.edit(ANIMALS, 0, "ecosystem", "ATLANTIS"),
    lambda e: e.duplicate(ANIMALS, -1),
    lambda e: e.remove(ANIMALS, 10 ** 6),
    lambda e: e.add(("format",)),
    lambda e: e.choose_game("chess"),
    lambda e: e.choose_game(["biome_blitz"]),
    lambda e: e.load_saved("../../etc/passwd"),
    lambda e: e.load_saved("ghost"),
    lambda e: e.save("../escape"),
    lambda e: e.save("<b>bold</b>"),
    lambda e: e.delete_saved("a/b"),
    lambda e: e.load_upload("{not json"),
    lambda e: e.load_upload(json.dumps(standard_file("stellar"))),
    lambda e: e.load_upload("x" * 2_000_000),
    lambda e: e.load_upload(12),
    lambda e: e.apply_other_fields('{"animals": []}'),
    lambda e: e.apply_other_fields("[1, 2]"),
    lambda e: e.change_effect({}, {"a": 1}),
    lambda e: e.change_effect({}, ["gain"]),
    # (Python's json reads these; a file saved with one opens nowhere else: a browser, jq)
    lambda e: e.apply_other_fields('{"format": "biome_blitz-cards/1", "extra": NaN}'),
    lambda e: e.apply_other_fields('{"format": "biome_blitz-cards/1", "extra": [1e400]}'),
    lambda e: e.load_upload(json.dumps({**standard_file("biome_blitz"), "extra": float("inf")})),
    # (an outside tester: a card that is no object crashed the editor's tables, and the page said the
    # game accepted the file; the draft was the broken file)
    *[lambda e, card=card: e.load_upload(with_card(card)) for card in ([1, 2], None, "x", 5)],
    lambda e: e.load_upload(with_card({**standard_file("biome_blitz")["animals"][0], "abilities": [None]})),
])
def test_forged_messages_are_refused_and_change_nothing(editor, library, forged):
    before = (json.dumps(editor.data), editor.game, library.names("biome_blitz"))
    assert not forged(editor)
    assert (json.dumps(editor.data), editor.game, library.names("biome_blitz")) == before
    assert editor.notice.startswith("Not done:")
    shown(editor)
    assert "<img" not in editor.notice_pane.object and "<script" not in editor.notice_pane.object
    assert "<b>bold" not in editor.notice_pane.object


def test_forged_selections_are_ignored(editor):
    for row in (-1, 27, "0", 2.0):
        assert not editor.select(row)
        assert not editor.select_sub(row)
    for deck in (("secrets",), "secrets", ANIMALS, None, "format"):
        assert not editor.show_deck(deck) and editor.deck == ANIMALS
    assert editor.show_deck("ecosystems") and editor.deck == ("ecosystems",)
    assert len(shown(editor).table.value) == len(editor.data["ecosystems"])


def test_texts_from_the_file_are_escaped_where_the_page_writes_them(editor):
    assert editor.edit(ANIMALS, 0, "name", "<img src=x onerror=alert(1)>")
    shown(editor)
    assert "<img" not in editor.diff_pane.object and "&lt;img src=x" in editor.diff_pane.object
    assert editor.problem is None           # a name is any text to the game: the table shows it as text


def test_an_uploaded_file_the_game_refuses_opens_with_its_message_at_the_field(editor):
    data = standard_file("biome_blitz")
    data["animals"][3]["power"] = 200
    assert editor.load_upload(json.dumps(data))
    assert editor.location == Location(ANIMALS, 3, "power") and editor.row == 3


def test_the_other_fields_are_edited_as_json_and_leave_the_tables_to_the_tables(library):
    editor = CardEditor(library=library, game="stellar")
    fields = editor.other_fields()
    assert "satellites" not in fields and "types" not in fields          # both tables now
    fields["notes"] = "<b>fewer satellites</b>"
    assert editor.apply_other_fields(json.dumps(fields))
    assert editor.data["notes"] == "<b>fewer satellites</b>" and editor.problem is None
    assert list(editor.data) == list(standard_file("stellar"))          # the file keeps its order
    fields["format"] = "stellar-cards/9"
    assert editor.apply_other_fields(json.dumps(fields))
    assert editor.problem is not None and editor.location == Location(())      # the file's: the banner says it
    # A table's field sent through the box: refused, nothing changed (its table edits it).
    before = json.dumps(editor.data)
    assert not editor.apply_other_fields(json.dumps(fields | {"satellites": {"number": 9, "copies": 5}}))
    assert json.dumps(editor.data) == before and editor.notice.startswith("Not done:")


# ---------------------------------------------------------------------------- single cards as one-row tables
SATELLITES = ("satellites",)


def test_stellar_satellites_are_a_one_row_table_and_the_games_message_is_at_their_field(library):
    editor = shown(CardEditor(library=library, lang="en", game="stellar"))
    assert card_edits.tables(editor.data) == [("types",), SATELLITES]
    assert "satellites" in editor.deck_select.options
    assert editor.show_deck("satellites") and list(shown(editor).table.value.columns) == ["number", "copies"]
    assert editor.table.value.to_dict("records") == [standard_file("stellar")["satellites"]]
    assert not editor.row_buttons.visible           # the engine reads one satellites entry: no rows come or go
    assert editor.edit(SATELLITES, 0, "copies", 7) and editor.problem is None
    assert editor.data["satellites"] == {"number": 2, "copies": 7}
    assert [c["path"] for c in editor.changes()] == ["satellites.copies"]
    # The game's message ('satellites' must be {number: 1-5, copies: 0-99}) at the row and the field
    # changed, not only in the banner.
    assert editor.edit(SATELLITES, 0, "copies", -1)
    shown(editor)
    assert editor.location == Location(SATELLITES, 0, "copies") and editor.deck == SATELLITES
    assert 'data-row="0" data-key="copies"' in editor.deck_problem.object
    assert "satellites · copies: &#x27;satellites&#x27; must be" in editor.deck_problem.object
    for refused in (lambda: editor.add(SATELLITES), lambda: editor.duplicate(SATELLITES, 0),
                    lambda: editor.remove(SATELLITES, 0), lambda: editor.edit(SATELLITES, 1, "copies", 2),
                    lambda: editor.edit(SATELLITES, 0, "stars", 2), lambda: editor.edit(SATELLITES, 0, "copies", "<b>")):
        before = json.dumps(editor.data)
        assert not refused() and json.dumps(editor.data) == before and editor.notice.startswith("Not done:")
    with pytest.raises(EditRefused, match="single entry of the file"):
        card_edits.add_row(standard_file("stellar"), SATELLITES)


def test_starligned_moon_and_direction_cards_are_edited_in_the_files_own_table(library):
    editor = shown(CardEditor(library=library, lang="en", game="starligned"))
    assert card_edits.tables(editor.data) == [("constellations",), (), ("cards",)]
    assert editor.deck_select.options["file (its numbers)"] == ""
    assert "moon_cards" not in editor.other_fields() and "direction_cards" not in editor.other_fields()
    assert editor.show_deck("") and editor.deck == ()
    assert shown(editor).table.value.to_dict("records") == [{"moon_cards": 12, "direction_cards": 5}]
    assert not editor.row_buttons.visible
    assert editor.edit((), 0, "moon_cards", 10) and editor.problem is None and editor.data["moon_cards"] == 10
    assert [c["path"] for c in editor.changes()] == ["moon_cards"]
    assert editor.save("fewer moons") and library.load("starligned", "fewer moons")["moon_cards"] == 10
    # Fewer direction cards than players: the engine's message at the file's row and the field.
    assert editor.show_deck("cards") and editor.edit((), 0, "direction_cards", 3)
    shown(editor)
    assert editor.location == Location((), 0, "direction_cards") and editor.deck == ()
    assert 'data-row="0" data-key="direction_cards"' in editor.deck_problem.object
    assert "file (its numbers) · direction_cards: each of up to five players" in editor.deck_problem.object
    # Its other keys, rows and rows' changes are not the table's.
    for refused in (lambda: editor.edit((), 0, "format", "x"), lambda: editor.edit((), 0, "cards", "[]"),
                    lambda: editor.edit((), 1, "moon_cards", 2), lambda: editor.edit((), 0, "moon_cards", 1.5),
                    lambda: editor.add(()), lambda: editor.remove((), 0),
                    lambda: editor.apply_other_fields(json.dumps(editor.other_fields() | {"moon_cards": 1}))):
        before = json.dumps(editor.data)
        assert not refused() and json.dumps(editor.data) == before and editor.notice.startswith("Not done:")
    # A file without the number still has its column (the standard file's kind), the engine's message at it.
    data = standard_file("starligned")
    del data["moon_cards"]
    assert editor.load_upload(json.dumps(data))
    assert editor.location == Location((), 0, "moon_cards") and editor.deck == ()
    assert editor.edit((), 0, "moon_cards", "12") and editor.data["moon_cards"] == 12 and editor.problem is None


def test_a_refused_ability_parameter_is_marked_in_the_ability_form_and_its_row(editor):
    assert editor.select(0) and editor.select_sub(0)
    ability = editor.ability()
    assert ability["effect"] == "draw"
    values = {key: ability[key] for key in ("name", "name_ja", "trigger", "effect", "text", "text_ja")}
    assert editor.apply_ability(values | {"count": 0, "on": ability["on"]})
    shown(editor)
    abilities = ("animals", 0, "abilities")
    assert editor.location == Location(abilities, 0, "count")
    assert 'data-row="0" data-key="count"' in editor.sub_problem.object          # the table's row, as before
    assert "ability-invalid" in editor.ability_widgets["count"].css_classes
    assert not any("ability-invalid" in widget.css_classes for key, widget in editor.ability_widgets.items() if key != "count")
    messages = [pane.object for pane in editor.ability_form.select(pn.pane.HTML) if "ability-problem" in pane.object]
    assert messages == ['<div class="cards-field-problem ability-problem" data-key="count">'
                        "must be a whole number from 1 to 99, not 0</div>"]
    # A parameter the effect needs and the ability lacks: the message quotes it, the form marks it.
    assert editor.apply_ability(values | {"on": ability["on"]})
    shown(editor)
    assert editor.location == Location(abilities, 0, "count") and "ability-invalid" in editor.ability_widgets["count"].css_classes
    # Corrected: nothing marked.
    assert editor.apply_ability(values | {"count": 2, "on": ability["on"]})
    shown(editor)
    assert editor.problem is None and not any("ability-invalid" in w.css_classes for w in editor.ability_widgets.values())


def test_a_hostile_value_in_an_ability_stays_text_beside_its_field(editor):
    data = standard_file("biome_blitz")
    data["animals"][0]["abilities"][0]["on"] = "<img src=x onerror=alert(1)>"
    assert editor.load_upload(json.dumps(data))
    shown(editor)
    assert editor.location == Location(("animals", 0, "abilities"), 0, "on") and editor.sub_row == 0
    assert "ability-invalid" in editor.ability_widgets["on"].css_classes
    messages = [pane.object for pane in editor.ability_form.select(pn.pane.HTML) if "ability-problem" in pane.object]
    assert len(messages) == 1 and "<img" not in messages[0] and "&lt;img src=x" in messages[0]


def test_a_japanese_page_names_the_files_keys_in_japanese_with_the_key_beside(library):
    """The tables, their columns and a card's own table were the file's keys alone ("types", "copies",
    "planetのcards") on Japanese pages: now the word, and the key the file and its errors use."""
    editor = CardEditor(library=library, game="stellar", lang="ja")
    assert set(editor.deck_select.options) == {"種類（types）", "サテライト（satellites）"}
    assert editor.deck_select.options["サテライト（satellites）"] == "satellites"
    assert editor.table.titles == {"id": "ID（id）", "name": "英語名（name）", "name_ja": "日本語名（name_ja）"}
    assert editor.key_label("a_key_of_its_own") == "a_key_of_its_own"
    # Resources are 資源 in Jump Gate and リソース in Biome Blitz.
    assert CardEditor(library=library, game="jump_gate", lang="ja").key_label("resources") == "資源（resources）"
    assert CardEditor(library=library, game="biome_blitz", lang="ja").key_label("resources") == "リソース（resources）"
    # An animal's own table of abilities and its columns ("gazelleのabilities", trigger and effect in
    # English); its rows are abilities, so its button adds a row, not "a card".
    animals = CardEditor(library=library, game="biome_blitz", lang="ja")
    assert [animals.key_label(key) for key in ("abilities", "trigger", "effect")] == [
        "能力（abilities）", "発動タイミング（trigger）", "効果（effect）"]
    assert [b.label for b in animals.sub_buttons] == ["行を追加", "複製", "行を削除"]
    assert [b.label for b in animals.row_buttons][0] == "カードを追加"
    # English pages show the keys as the file writes them.
    english = CardEditor(library=library, game="stellar")
    assert set(english.deck_select.options) == {"types", "satellites"}
    assert english.table.titles == {"id": "id", "name": "name", "name_ja": "name_ja"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_saved_files_buttons_share_no_label_with_a_tables_rows(library, lang):
    """On the Japanese page the saved file's Delete and a row's Remove were both 削除, a few centimetres
    apart at 1366 px: which one deletes the file? (an outside tester). (A table's and a card's own table's
    row buttons do the same to their own rows, under each: they may share theirs.)"""
    editor = CardEditor(library=library, game="biome_blitz", lang=lang)
    files = {editor.delete_button.label, editor.load_button.label}
    rows = {button.label for button in (*editor.row_buttons, *editor.sub_buttons)}
    assert len(files) == 2 and not files & rows, (files, rows)


def test_delete_asks_first_naming_the_file_and_anything_else_keeps_it(library):
    """The saved files' menu shows the first name on a page just opened, and one click on Delete deleted
    that file, which the person never chose (an outside tester). A first click asks, naming the file
    (the button then says "Delete it"); a second click deletes it; any other action in between keeps it."""
    library.save("stellar", "alpha", standard_file("stellar"))
    library.save("stellar", "beta", standard_file("stellar"))
    editor = CardEditor(library=library, game="stellar")
    editor.refresh()
    assert editor.saved_select.value == "alpha"
    editor.delete_button.clicks += 1
    assert library.names("stellar") == ["alpha", "beta"]
    assert editor.notice.startswith("Delete “alpha” from the saved files?")
    assert (editor.delete_button.label, editor.delete_button.color) == ("Delete it", "danger")
    editor.load_button.clicks += 1                          # something else: nothing deleted, asked afresh
    assert editor.asked is None and editor.delete_button.label == "Delete"
    editor.delete_button.clicks += 1
    editor.saved_select.value = "beta"                      # another file chosen: that one is asked about
    editor.delete_button.clicks += 1
    assert library.names("stellar") == ["alpha", "beta"] and "“beta”" in editor.notice
    editor.delete_button.clicks += 1
    assert library.names("stellar") == ["alpha"] and editor.notice == "Deleted “beta”."
    assert editor.delete_button.label == "Delete"
    japanese = CardEditor(library=library, game="stellar", lang="ja")
    japanese.refresh()
    japanese.delete_button.clicks += 1
    assert "「alpha」を削除しますか" in japanese.notice and japanese.delete_button.label == "削除する"


def test_saving_over_a_file_saved_elsewhere_since_asks_first(library):
    """Two tabs on one saved file: the later Save replaced the earlier one's edits without a word, both
    saying "Saved" (an outside tester). A save over a file this page did not load or save, or one saved
    from elsewhere since, asks first, naming it; a second click replaces it, and the version it replaced
    is kept. A page saving its own file again does not ask."""
    library.save("biome_blitz", "shared", standard_file("biome_blitz"))
    first, second = (CardEditor(library=library, game="biome_blitz") for _ in range(2))
    for tab in (first, second):
        tab.saved_select.value = "shared"
        tab.load_button.clicks += 1
        assert tab.source == "shared"
    first.edit(ANIMALS, 0, "name", "Edited in the first tab")
    first.name_input.value = "shared"
    first.save_button.clicks += 1                               # its own file, unchanged since: saved at once
    assert first.notice == "Saved as “shared”." and first.asked is None
    second.edit(ANIMALS, 1, "name", "Edited in the second tab")
    second.name_input.value = "shared"
    second.save_button.clicks += 1                              # changed since it loaded it: asked
    assert library.load("biome_blitz", "shared")["animals"][0]["name"] == "Edited in the first tab"
    assert second.notice.startswith("“shared” is already among the saved files")
    assert (second.save_button.label, second.save_button.color) == ("Replace it", "danger")
    second.save_button.clicks += 1                              # asked again: replaced
    saved = library.load("biome_blitz", "shared")
    assert saved["animals"][1]["name"] == "Edited in the second tab" and second.notice == "Saved as “shared”."
    assert second.save_button.label == "Save"
    kept = [json.loads(path.read_text()) for path in library.kept("biome_blitz")]
    assert kept[-1]["animals"][0]["name"] == "Edited in the first tab"          # (nothing lost)
    first.edit(ANIMALS, 2, "name", "Again in the first tab")
    first.save_button.clicks += 1
    assert first.asked == ("save", "shared")
    first.standard_button.clicks += 1                           # anything else: not saved
    assert first.asked is None and library.load("biome_blitz", "shared") == saved
    fresh = CardEditor(library=library, game="biome_blitz")     # a page that never loaded it
    fresh.name_input.value = "shared"
    fresh.save_button.clicks += 1
    assert fresh.asked == ("save", "shared") and library.load("biome_blitz", "shared") == saved


def test_a_games_unsaved_edits_are_back_when_its_game_is_chosen_again(library):
    """Stellar's moon renamed, Subastral chosen, then Stellar again: the edit was gone, with no word and
    no way back (an outside tester). Each game's draft is kept on the page while another is edited."""
    editor = CardEditor(library=library, game="stellar")
    deck = editor.deck
    assert editor.edit(deck, 0, "name", "MyMoon")
    edited, place = editor.data, (editor.deck, editor.row)
    editor.game_select.value = "subastral"
    assert editor.game == "subastral" and editor.data == standard_file("subastral")
    editor.game_select.value = "stellar"
    assert editor.data == edited and (editor.deck, editor.row) == place
    assert editor.notice.startswith("Your edits to the Stellar cards are back as you left them")
    editor.game_select.value = "subastral"                 # (a game left unedited comes back as it was too)
    assert editor.data == standard_file("subastral")

@pytest.mark.parametrize("column, value, said", [
    (Column("stars", "int"), 1e308, "stars is a whole number from -9,007,199,254,740,991 to 9,007,199,254,740,991 (what a browser holds exactly), not '1e+308'"),
    (Column("stars", "int"), 10 ** 308, "stars is a whole number from -9,007,199,254,740,991 to 9,007,199,254,740,991 (what a browser holds exactly), "
     "not '1000000000000000000000000000000000000000…' (309 characters)"),
    (Column("stars", "int"), True, "stars is a whole number, not 'true'"),
    (Column("name", "text"), 12345, "name is a text, not '12345'"),
    (Column("name", "text"), "y" * 3000, "name is a text of at most 2000 characters, not 3,000"),
])
def test_a_refused_value_is_quoted_as_sent(column, value, said):
    """A forged 1e308 was refused as "not '1000000000000000010979063629440455417404'" (the first 40 digits of
    the float made a whole number), true as 'True', a number in a text cell as a text too long (an outside
    tester): the value as JSON writes what was sent, cut saying how long, and the problem it has."""
    with pytest.raises(EditRefused) as refused:
        card_edits.checked_value(column, value)
    assert str(refused.value) == said


def test_a_file_too_big_and_an_empty_library_are_said_as_they_are(library):
    """An upload over the limit was refused without its name or size (the browser sends both), and Load or
    Delete with no saved file said "a card file needs a name" (an outside tester)."""
    editor = CardEditor(library=library, game="stellar")
    editor.refresh()
    editor.upload.on_too_big("huge.json", 50_000_000)
    assert editor.notice == "Not done: huge.json is 50,000,000 bytes: a card file has at most 1,000,000 bytes."
    for button in (editor.load_button, editor.delete_button):
        button.clicks += 1
        assert editor.notice == "Not done: there are no saved Stellar card files yet: save one first."
    japanese = CardEditor(library=library, game="stellar", lang="ja")
    japanese.refresh()
    japanese.load_button.clicks += 1
    assert "Stellarの保存済みカードファイルはまだありません" in japanese.notice


@pytest.mark.parametrize("replace", ["standard", "load", "upload"])
def test_unsaved_edits_a_load_replaces_can_be_brought_back(library, replace):
    """Upload, Load and "Start from the standard cards" replaced a draft's unsaved edits without a word (an
    outside tester). The replaced draft is kept: "Bring back my edits" brings it back, and a second click
    swaps again; a draft with nothing unsaved is replaced as before, with nothing to bring back."""
    library.save("stellar", "other", standard_file("stellar"))
    editor = CardEditor(library=library, game="stellar")
    editor.refresh()
    assert not editor.bring_back_button.visible and not editor.has_unsaved_edits()
    assert editor.edit(editor.deck, 0, "name", "MyMoon")
    edited = editor.data

    def do_replace():
        if replace == "standard":
            editor.standard_button.clicks += 1
        elif replace == "load":
            editor.saved_select.value = "other"
            editor.load_button.clicks += 1
        else:
            editor.upload._handle_msg({"name": "x.json", "text": json.dumps(standard_file("stellar"))})

    do_replace()
    assert editor.data == standard_file("stellar") and editor.bring_back_button.visible
    assert editor.notice == "Your unsaved edits were replaced; “Bring back my edits” brings them back."
    editor.bring_back_button.clicks += 1
    assert editor.data == edited and editor.has_unsaved_edits() and not editor.bring_back_button.visible
    do_replace()                                      # replaced again, then back again
    editor.bring_back_button.clicks += 1
    assert editor.data == edited
    editor.name_input.value = "mine"
    editor.save_button.clicks += 1                    # saved: nothing unsaved to keep when it is replaced
    assert not editor.has_unsaved_edits()
    do_replace()
    assert not editor.bring_back_button.visible and editor.data == standard_file("stellar")
    assert editor.bring_back() is False and "no replaced edits" in editor.notice

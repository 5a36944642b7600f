"""The saved card files (explorer/cardfiles.py): what the engine refuses is never saved, names never
leave their game's folder, and a save replaces the old file whole."""

from __future__ import annotations

import json

import pytest

from explorer.cardfiles import CARDS_ENV, CardFileError, CardLibrary, default_path, standard_file
from rules import GAMES, InvalidPosition, get_game


@pytest.fixture
def library(tmp_path):
    return CardLibrary(tmp_path / "cards")


def edited_biome_blitz() -> dict:
    data = standard_file("biome_blitz")
    data["animals"][0]["stars"] += 1
    return data


def test_round_trip_keeps_the_file_and_lists_it(library):
    data = edited_biome_blitz()
    library.save("biome_blitz", "cheaper lion", data)
    library.save("biome_blitz", "a-first", standard_file("biome_blitz"))
    assert library.names("biome_blitz") == ["a-first", "cheaper lion"]
    assert library.load("biome_blitz", "cheaper lion") == data
    assert library.names("stellar") == []
    assert (library.root / "biome_blitz" / "cheaper lion.json").is_file()
    # The loaded file deals a game with its changes.
    game = get_game("biome_blitz").with_card_file(library.load("biome_blitz", "cheaper lion"))
    assert game.cards.animals[0].stars == data["animals"][0]["stars"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_standard_file_its_engine_accepts(library, game_id):
    data = library.standard(game_id)
    assert get_game(game_id).with_card_file(data).cards.is_standard
    data["name"] = "changed"               # a copy: changing it changes nothing else
    assert library.standard(game_id)["name"] != "changed"
    library.save(game_id, "standard", library.standard(game_id))
    assert library.load(game_id, "standard") == library.standard(game_id)


def test_a_file_the_engine_refuses_is_not_saved_and_the_old_one_stays(library):
    good = edited_biome_blitz()
    library.save("biome_blitz", "mine", good)
    bad = edited_biome_blitz()
    bad["animals"][2]["stars"] = -1
    with pytest.raises(InvalidPosition) as refused:
        library.save("biome_blitz", "mine", bad)
    assert refused.value.where == "cards: animals[2].stars"
    assert library.load("biome_blitz", "mine") == good
    assert [p.name for p in (library.root / "biome_blitz").iterdir()] == ["mine.json"]   # no temporary left
    with pytest.raises(InvalidPosition):
        library.save("biome_blitz", "other", {"format": "nonsense"})
    assert library.names("biome_blitz") == ["mine"]


@pytest.mark.parametrize("name", ["../escape", "a/b", "..", ".hidden", "", "x" * 65, "a\\b", "nul\x00", "<b>x</b>",
                                  "trailing.", "trailing ", "a..b", 7, None])
def test_hostile_names_are_refused(library, name):
    with pytest.raises(CardFileError):
        library.save("biome_blitz", name, standard_file("biome_blitz"))
    with pytest.raises(CardFileError):
        library.load("biome_blitz", name)
    assert not library.root.exists() or not any(library.root.rglob("*"))


@pytest.mark.parametrize("game_id", ["chess", "../biome_blitz", None, ""])
def test_unknown_games_are_refused(library, game_id):
    with pytest.raises(CardFileError, match="unknown game"):
        library.names(game_id)
    with pytest.raises(CardFileError, match="unknown game"):
        library.save(game_id, "x", standard_file("biome_blitz"))


def test_load_and_delete_say_when_there_is_no_such_file(library):
    with pytest.raises(CardFileError, match="no saved biome_blitz card file called 'ghost'"):
        library.load("biome_blitz", "ghost")
    library.save("biome_blitz", "ghost", standard_file("biome_blitz"))
    library.delete("biome_blitz", "ghost")
    assert library.names("biome_blitz") == []
    with pytest.raises(CardFileError):
        library.delete("biome_blitz", "ghost")


def test_a_file_edited_on_disk_into_nonsense_is_refused_on_loading(library):
    library.save("biome_blitz", "mine", standard_file("biome_blitz"))
    path = library.root / "biome_blitz" / "mine.json"
    data = json.loads(path.read_text())
    data["animals"][0]["power"] = "lots"
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidPosition, match=r"animals\[0\]\.power"):
        library.load("biome_blitz", "mine")
    path.write_text("{not json")
    with pytest.raises(CardFileError, match="not JSON"):
        library.load("biome_blitz", "mine")


def test_the_folder_is_beside_the_tables_database_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv(CARDS_ENV, raising=False)
    monkeypatch.setenv("RULES_EXPLORER_TABLES_DB", str(tmp_path / "db" / "tables.sqlite3"))
    assert default_path() == tmp_path / "db" / "cards"
    assert CardLibrary().root == tmp_path / "db" / "cards"
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "elsewhere"))
    assert CardLibrary().root == tmp_path / "elsewhere"

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


def test_a_file_saved_over_or_deleted_is_kept_and_nothing_is_lost(library, monkeypatch):
    """Anyone at a server's library may save over or delete a file (an outside test overwrote another
    designer's file from the console): the old version goes to the game's kept folder, the newest
    MAX_KEPT per game."""
    import explorer.cardfiles as cardfiles

    first, second = standard_file("biome_blitz"), edited_biome_blitz()
    library.save("biome_blitz", "mine.v1", first)
    assert library.kept("biome_blitz") == []
    library.save("biome_blitz", "mine.v1", second)          # saved over: the first is kept
    assert library.load("biome_blitz", "mine.v1") == second
    assert [json.loads(path.read_text()) for path in library.kept("biome_blitz")] == [first]
    library.delete("biome_blitz", "mine.v1")
    assert library.names("biome_blitz") == []
    kept = library.kept("biome_blitz")
    assert [json.loads(path.read_text()) for path in kept] == [first, second]
    assert all(path.name.startswith("mine.v1.") and path.parent.name == cardfiles.KEPT for path in kept)
    monkeypatch.setattr(cardfiles, "MAX_KEPT", 2)
    library.save("biome_blitz", "other", first)
    library.save("biome_blitz", "other", second)            # a third kept version: the oldest goes
    assert [json.loads(path.read_text()) for path in library.kept("biome_blitz")] == [second, first]
    assert library.kept("stellar") == []


def test_saving_what_a_file_holds_keeps_nothing_and_one_file_cannot_push_out_anothers_versions(library, monkeypatch):
    """Save clicked again on an unchanged file kept a copy each time, and 200 saves of one file, the
    game's whole allowance, pushed every other file's old versions out (an outside tester): "nothing is
    lost" held for one more click. A save of what the file holds keeps nothing; each name keeps its
    newest MAX_KEPT_PER_NAME."""
    import explorer.cardfiles as cardfiles

    first, second = standard_file("biome_blitz"), edited_biome_blitz()
    library.save("biome_blitz", "precious", first)
    library.save("biome_blitz", "precious", second)
    library.delete("biome_blitz", "precious")
    precious = [json.loads(path.read_text()) for path in library.kept("biome_blitz")]
    assert precious == [first, second]
    library.save("biome_blitz", "spam", first)
    for _ in range(5):
        library.save("biome_blitz", "spam", first)          # unchanged: nothing written, nothing kept
    assert [path.name.split(".")[0] for path in library.kept("biome_blitz")] == ["precious", "precious"]
    monkeypatch.setattr(cardfiles, "MAX_KEPT_PER_NAME", 3)
    for turn in range(10):                                  # changed each time: a version kept each time
        library.save("biome_blitz", "spam", first if turn % 2 else second)
    names = [path.name.split(".")[0] for path in library.kept("biome_blitz")]
    assert names.count("spam") == 3 and names.count("precious") == 2
    assert [json.loads(path.read_text()) for path in library.kept("biome_blitz") if path.name.startswith("precious.")] \
        == precious


def test_a_game_holds_at_most_max_files_and_a_new_name_beyond_is_refused(library, monkeypatch):
    """One page saved megabyte files a second under new names; a game's folder holds MAX_FILES files,
    and a new name beyond is refused in words, changing nothing (saving over one still works)."""
    import explorer.cardfiles as cardfiles

    monkeypatch.setattr(cardfiles, "MAX_FILES", 3)
    for n in range(3):
        library.save("stellar", f"file {n}", standard_file("stellar"))
    with pytest.raises(CardFileError, match="holds 3 files, the most it keeps") as refused:
        library.save("stellar", "file 3", standard_file("stellar"))
    assert "上限の3ファイル" in refused.value.problem_in("ja")
    assert library.names("stellar") == ["file 0", "file 1", "file 2"]
    library.save("stellar", "file 1", standard_file("stellar"))
    library.save("subastral", "elsewhere", standard_file("subastral"))      # (per game)

"""``rules-explorer compare`` with a card file per setting, ``--out`` a run file and ``--run`` it again."""

import json

from tests.helpers.biome_blitz import EXTRA_ANIMALS, base_card_file
from tests.helpers.cli import cli


def test_compare_two_card_files_writes_a_run_file_that_run_reproduces(tmp_path):
    more = base_card_file()
    more["animals"] = more["animals"] + EXTRA_ANIMALS[:1]
    cards_b = tmp_path / "more.json"
    cards_b.write_text(json.dumps(more))
    run = tmp_path / "run.json"
    out = cli("compare", "biome_blitz", "--players", 2, "--games", 6, "--seed", 3, "--cards-b", cards_b,
              "--workers", 1, "--chunk", 4, "--out", run).stdout
    assert "paired on the same 6 seeds, not the same deals: the card files differ in mole (0 in A, 1 in B)" in out
    assert "bought" in out and f"run file written to {run}" in out
    data = json.loads(run.read_text())
    assert data["b"]["cards"] == more and data["a"]["cards"]["animals"] == more["animals"][:-1]
    again = cli("compare", "--run", run, "--workers", 2, "--chunk", 5, "--out", tmp_path / "again.json").stdout
    assert f"reproduced {run}: the same results" in again
    assert json.loads((tmp_path / "again.json").read_text()) == data

    data["results"]["b"]["game_length"]["mean"] += 1             # forged: the re-run finds it, writes nothing
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    done = cli("compare", "--run", forged, "--workers", 1, "--out", tmp_path / "none.json", check=False)
    assert done.returncode == 2 and "differs from the file at results.b.game_length.mean" in done.stderr
    assert not (tmp_path / "none.json").exists()
    data["a"]["bots"] = ["nobody"]
    forged.write_text(json.dumps(data))
    done = cli("compare", "--run", forged, check=False)
    assert done.returncode == 2 and "run file: a.bots: must list one bot" in done.stderr and "Traceback" not in done.stderr


def test_a_card_file_the_engine_refuses_names_its_option(tmp_path):
    bad = base_card_file()
    bad["animals"][0]["stars"] = "many"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    done = cli("compare", "biome_blitz", "--players", 2, "--games", 2, "--cards-b", path, check=False)
    assert done.returncode == 2 and done.stderr.startswith("rules-explorer compare: --cards-b: ")
    assert "stars" in done.stderr and "Traceback" not in done.stderr


def test_each_settings_cards_are_named_as_they_are(tmp_path):
    more = base_card_file()
    more["animals"] = more["animals"] + EXTRA_ANIMALS[:1]
    mine = tmp_path / "more.json"
    mine.write_text(json.dumps(more))
    # A standard, B its own file.
    out = cli("compare", "biome_blitz", "--players", 2, "--games", 2, "--cards-b", mine, "--workers", 1).stdout
    assert [line for line in out.splitlines() if line.startswith("A: ")][0].endswith("standard cards")
    assert [line for line in out.splitlines() if line.startswith("B: ")][0].endswith("its own card file")
    # --cards for both, the bots differing: A has its own file (it was called the standard cards), B the same as A.
    out = cli("compare", "biome_blitz", "--players", 2, "--games", 2, "--cards", mine, "--bot-b", "greedy",
              "--workers", 1).stdout
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("A: ")][0].endswith("its own card file")
    assert [line for line in lines if line.startswith("B: ")][0].endswith("the same cards as A")


def test_run_refuses_settings_of_its_own_instead_of_dropping_them(tmp_path):
    run = tmp_path / "run.json"
    cli("compare", "subastral", "--players", 2, "--games", 2, "--variant-b", "disturbance", "--workers", 1, "--out", run)
    for extra in (["--players", 3], ["--games", 9], ["--seed", 0], ["--bot-a", "greedy"], ["--bot-b", "random"],
                  ["--until-ci", 1], ["--curves"], ["subastral"]):
        done = cli("compare", "--run", run, *extra, "--out", tmp_path / "none.json", check=False)
        assert done.returncode == 2 and "--run plays the run file's own settings" in done.stderr, extra
        assert (extra[0] if extra[0] != "subastral" else "GAME") in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "none.json").exists()

"""The command line, run as a user runs it (a real subprocess of ``python -m explorer.cli``, the console script)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules import replay as replays
from tests.helpers.cli import ROOT, cli
from tests.helpers.tiers import quick_once


EXAMPLES = ROOT / "examples"


def test_games_lists_subastral_with_its_variant():
    out = cli("games").stdout
    assert "subastral" in out and "players: 2, 3, 4, 5" in out and "--variant disturbance" in out
    data = json.loads(cli("games", "--json").stdout)
    assert data[0]["id"] == "subastral" and data[0]["variants"][0]["name"] == "disturbance"


def test_play_writes_a_replay_that_replays_to_the_same_scores(tmp_path):
    out = tmp_path / "game.json"
    played = json.loads(cli("play", "subastral", "--players", 4, "--seed", 11, "--bots", "greedy,random,random,random",
                            "--out", out, "--json").stdout)
    replayed = json.loads(cli("replay", out, "--json").stdout)
    assert replayed["over"] is True
    assert replayed["scores"] == played["scores"] and replayed["winners"] == played["winners"]
    text = cli("play", "subastral", "--players", 2, "--seed", 11).stdout
    assert "plays" in text and "takes cloud" in text and "Player 1:" in text


def test_example_replay_is_a_whole_4_player_game():
    data = replays.load(EXAMPLES / "subastral-4p-replay.json")
    assert data["players"] == 4
    game, state = replays.final_state(data)
    assert game.is_over(state)
    out = cli("replay", EXAMPLES / "subastral-4p-replay.json").stdout
    assert "replay verified, game finished" in out


def test_score_example_matches_the_rulebook():
    data = json.loads(cli("score", EXAMPLES / "subastral-scoring-example.json", "--json").stdout)
    categories = {c["category"]: c for c in data[0]["categories"]}
    assert categories["mixed set 1"]["points"] == 36
    assert categories["mixed set 2"]["points"] == 10
    assert categories["mixed set 3"]["points"] == 1
    assert (categories["matching set 1"]["points"], categories["matching set 1"]["column"], categories["matching set 1"]["biome"]) == (28, 7, "Taiga")
    assert (categories["matching set 2"]["points"], categories["matching set 2"]["column"], categories["matching set 2"]["biome"]) == (3, 1, "Chaparral")


def test_simulate_json_summarises_every_game():
    data = json.loads(cli("simulate", "subastral", "--players", 3, "--games", 40, "--seed", 5, "--json").stdout)
    assert data["games"] == 40 and len(data["seats"]) == 3
    assert abs(sum(s["win_share"] for s in data["seats"]) - 1) < 1e-3
    again = json.loads(cli("simulate", "subastral", "--players", 3, "--games", 40, "--seed", 5, "--json").stdout)
    assert [s["mean_score"] for s in again["seats"]] == [s["mean_score"] for s in data["seats"]]


def test_greedy_bot_beats_random_bots():
    # 200 games: greedy wins about 76% of them (1,500 games), two standard errors above 70%
    data = json.loads(cli("simulate", "subastral", "--players", 2, "--games", 200, "--seed", 1, "--bot", "greedy,random", "--json").stdout)
    assert data["seats"][0]["win_share"] > 0.7


@pytest.mark.parametrize("args,message", [
    (("replay", "missing.json"), "cannot read"),
    (("play", "subastral", "--players", 7, "--seed", 1), "2, 3, 4, 5 players"),
    (("play", "subastral", "--players", 3, "--seed", 1, "--variant", "nonsense"), "no variant 'nonsense'"),
    (("play", "subastral", "--players", 3, "--seed", 1, "--bots", "genius"), "unknown bot"),
    (("simulate", "subastral", "--players", 3, "--games", 0), "at least 1"),
])
def test_bad_arguments_print_one_clear_line(args, message):
    done = cli(*args, check=False)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_bad_files_print_one_clear_line(tmp_path):
    truncated = tmp_path / "truncated.json"
    truncated.write_text((EXAMPLES / "subastral-4p-replay.json").read_text()[:300])
    done = cli("replay", truncated, check=False)
    assert done.returncode == 2 and "not valid JSON" in done.stderr
    data = json.loads((EXAMPLES / "subastral-4p-replay.json").read_text())
    data["actions"][5]["seat"] = (data["actions"][5]["seat"] + 1) % 4
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    done = cli("replay", forged, check=False)
    assert done.returncode == 2 and "move 6" in done.stderr and "turn" in done.stderr
    position = json.loads((EXAMPLES / "subastral-scoring-example.json").read_text())
    position["state"]["hands"][0].append("unicorn-3")
    bad = tmp_path / "bad-position.json"
    bad.write_text(json.dumps(position))
    done = cli("score", bad, check=False)
    assert done.returncode == 2 and "unknown card 'unicorn-3'" in done.stderr


def test_play_with_another_card_file_writes_it_into_the_replay(tmp_path):
    data = json.loads((ROOT / "rules/subastral/data/cards.json").read_text())
    for biome in data["biomes"]:
        for card in biome["cards"]:
            card["min_players"] = 2  # every card in every game: 103 cards for 2 players
    cards = tmp_path / "all-cards.json"
    cards.write_text(json.dumps(data))
    out = tmp_path / "game.json"
    cli("play", "subastral", "--players", 2, "--seed", 3, "--cards", cards, "--out", out, "--json")
    replay = json.loads(out.read_text())
    assert replay["cards"] == data
    game, states = replays.states(replay)
    assert sum(game.inventory(states[0]).values()) == 103
    assert json.loads(cli("replay", out, "--json").stdout)["over"] is True
    summary = json.loads(cli("simulate", "subastral", "--players", 2, "--games", 5, "--cards", cards, "--json").stdout)
    assert summary["games"] == 5
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "subastral-cards/1", "biomes": []}')
    done = cli("play", "subastral", "--players", 2, "--seed", 3, "--cards", broken, check=False)
    assert done.returncode == 2 and "'biomes' must be a non-empty list" in done.stderr


def test_replay_from_a_what_if_position(tmp_path):
    import rules

    game = rules.get_game("subastral")
    start = game.encode(game.new_game(3, 8))
    # What if the player to move had only one card left? The others go back to the box.
    del start["state"]["hands"][start["state"]["seat"]][1:]
    state = game.decode(start)
    seat = game.to_move(state)[0]
    moves = []
    for _ in range(2):
        action = game.legal_actions(state, seat)[0]
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    data = replays.record(game, 3, 0, {}, moves, start=start)
    path = tmp_path / "what-if.json"
    path.write_text(json.dumps(data))
    _, states = replays.states(replays.load(path))
    assert game.encode(states[-1]) == game.encode(state)
    data["players"] = 4
    path.write_text(json.dumps(data))
    done = cli("replay", path, check=False)
    assert done.returncode == 2 and "start position" in done.stderr


def test_serve_starts_the_explorer_the_analysis_page_and_the_tables(tmp_path):
    import os
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = tmp_path / "tables.sqlite3"
    limits = ["--max-bot-tables", "1", "--max-mcts-seats", "2", "--max-mcts-runs", "3", "--max-analysis-runs", "0",
              "--max-advice-runs", "4", "--max-tables", "5"]
    server = subprocess.Popen([sys.executable, "-m", "explorer.cli", "serve", "--port", str(port), "--db", str(db), *limits],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer", timeout=10).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "rules-explorer serve did not answer"
                time.sleep(0.2)
        assert "Rules Explorer" in page
        environ = dict(line.split("=", 1) for line in open(f"/proc/{server.pid}/environ").read().split("\0") if "=" in line)
        assert {name: environ.get(name) for name in ("RULES_EXPLORER_MAX_BOT_TABLES", "RULES_EXPLORER_MAX_MCTS_SEATS",
                                                     "RULES_EXPLORER_MAX_MCTS_RUNS", "RULES_EXPLORER_MAX_ANALYSIS_RUNS",
                                                     "RULES_EXPLORER_MAX_ADVICE_RUNS", "RULES_EXPLORER_MAX_TABLES")} == {
            "RULES_EXPLORER_MAX_BOT_TABLES": "1", "RULES_EXPLORER_MAX_MCTS_SEATS": "2", "RULES_EXPLORER_MAX_MCTS_RUNS": "3",
            "RULES_EXPLORER_MAX_ANALYSIS_RUNS": "0", "RULES_EXPLORER_MAX_ADVICE_RUNS": "4", "RULES_EXPLORER_MAX_TABLES": "5"}
        home = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read().decode()
        title = re.compile(r"<title>(.*?)</title>", re.S)
        assert title.search(home).group(1) == title.search(page).group(1) == "Rules Explorer"
        # / is the home page (its parts come by websocket; in the HTML, only the template: no sidebar).
        assert 'id="sidebar"' in page and 'id="sidebar"' not in home
        analysis = urllib.request.urlopen(f"http://127.0.0.1:{port}/analysis", timeout=30).read().decode()
        assert "analysis" in analysis
        lobby = urllib.request.urlopen(f"http://127.0.0.1:{port}/tables", timeout=30).read().decode()
        assert "playtest tables" in lobby
        rules_page = urllib.request.urlopen(f"http://127.0.0.1:{port}/rules?game=stellar&lang=ja", timeout=30).read().decode()
        assert "ルール・エクスプローラー" in rules_page
        tutorials = urllib.request.urlopen(f"http://127.0.0.1:{port}/tutorial?lang=en", timeout=30).read().decode()
        assert "Rules Explorer: tutorial" in tutorials
        assert db.exists()                  # restored (here: created) as the server started
        second = subprocess.run([sys.executable, "-m", "explorer.cli", "serve", "--port", str(port + 1), "--db", str(db)],
                                cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and second.stderr.count("\n") == 1
        assert f"another Rules Explorer server is using the tables database {db}" in second.stderr
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)


def test_make_serve_is_rules_explorer_serve_with_the_same_options():
    # Run as its own make, not as a sub-make of `make test` (which would add "make[1]: Leaving directory").
    env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    made = subprocess.run(["make", "--no-print-directory", "-n", "serve", "VENV=.venv-x", "ADDRESS=0.0.0.0", "PORT=8000",
                           "TABLES_DB=/srv/t.db", "GROUP_ORIGIN=play.example.org", "SERVE_ARGS=--use-xheaders"], cwd=ROOT,
                          capture_output=True, text=True, check=True, env=env).stdout
    line = made.replace("\\\n", " ").strip().splitlines()[-1].split()
    assert line[:2] == [".venv-x/bin/rules-explorer", "serve"]
    from explorer.cli import build_parser
    from explorer.pages.serve import serve_command

    args = build_parser().parse_args(line[1:])
    command = serve_command(args)
    assert [Path(part).name for part in command if "/apps/" in part] == ["home", "explorer", "analysis", "tables", "rules",
                                                                         "tutorial", "cards"]
    assert all((Path(part) / "main.py").exists() for part in command if "/apps/" in part)
    assert command[command.index("--index") + 1] == "home"              # / shows the home page
    assert "--allow-websocket-origin=play.example.org" in command and "--use-xheaders" in command
    assert command[-3:] == ["--args", "--db", "/srv/t.db"]


def test_serving_every_network_needs_an_explicit_origin(capsys):
    from explorer.cli import main

    assert main(["serve", "--address", "0.0.0.0", "--port", "8123"]) == 2
    assert "--allow-origin" in capsys.readouterr().err


#: (The quick tier takes Stellar here, Subastral above; every engine's replays and scores are checked for every
#: game by tests/play/test_golden.py and the conformance suite.)
@pytest.mark.parametrize("game_id", quick_once(["stellar", "jump_gate", "starligned", "biome_blitz"], "stellar"))
def test_every_game_plays_replays_and_scores_from_the_command_line(tmp_path, game_id):
    import rules

    players = rules.get_game(game_id).player_counts[0]
    out = tmp_path / "game.json"
    played = json.loads(cli("play", game_id, "--players", players, "--seed", 3, "--bots", "random", "--out", out,
                            "--json").stdout)
    replayed = json.loads(cli("replay", out, "--json").stdout)
    assert replayed["over"] is True
    assert replayed["scores"] == played["scores"] and replayed["winners"] == played["winners"]
    game, state = replays.final_state(replays.load(out))
    position = tmp_path / "position.json"
    position.write_text(json.dumps(game.encode(state)), encoding="utf-8")
    breakdown = json.loads(cli("score", position, "--json").stdout)
    assert [seat["total"] for seat in breakdown] == played["scores"]
    assert cli("games").stdout.count(f"{game_id} ") >= 1


def _stderr_on_a_terminal(*args) -> tuple[str, str]:
    """Run the CLI with stderr on a pseudo-terminal (where the progress bar is drawn): (stdout, stderr)."""
    import os
    import pty
    terminal, stderr = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "explorer.cli", *map(str, args)], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=stderr, text=True)
    os.close(stderr)
    drawn = b""
    out = run.stdout.read()
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:                       # the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    run.wait(timeout=120)
    os.close(terminal)
    assert run.returncode == 0, drawn
    return out, drawn.decode()


@pytest.mark.parametrize("extra", [(), ("--workers", "2", "--chunk", "10")])
def test_simulate_draws_a_progress_bar_on_a_terminal_to_the_last_game(extra):
    out, bar = _stderr_on_a_terminal("simulate", "stellar", "--players", "2", "--games", "30", "--seed", "1", *extra)
    assert "30 games from seed 1" in out
    assert re.search(r"100%\|[^|]*\| 30/30 \[.*games/s\]", bar), bar
    assert bar.rstrip(" ").endswith("\n")     # the bar is closed: the shell's prompt starts on a new line


def test_simulate_json_draws_no_progress_bar_even_on_a_terminal():
    out, bar = _stderr_on_a_terminal("simulate", "stellar", "--players", "2", "--games", "5", "--seed", "1", "--json")
    assert json.loads(out)["games"] == 5 and bar == ""

"""The examples in the docs are real: every JSON and Python example runs as written."""

import json
import re
import subprocess
import sys
from pathlib import Path

import rules
from rules import replay as replays

ROOT = Path(__file__).parent.parent


def blocks(path, language):
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / path).read_text(encoding="utf-8"), re.S)


def test_formats_replay_example_replays():
    data = json.loads(blocks("docs/formats.md", "json")[0])
    game, states = replays.states(data)
    assert len(states) == len(data["actions"]) + 1


def test_formats_position_example_decodes_and_plays():
    game = rules.get_game("subastral")
    state = game.decode(json.loads(blocks("docs/formats.md", "json")[1]))
    assert game.legal_actions(state, 0)
    assert game.scores(state)[0] > 0


def test_protocol_example_runs():
    code = blocks("docs/protocol.md", "python")[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "may: play" in done.stdout and "takes cloud" in done.stdout


def test_protocol_turn_example_runs():
    code = "import rules\ngame = rules.get_game('starligned')\nstate = game.new_game(3, 1)\n" + blocks("docs/protocol.md", "python")[1]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "a new turn: everyone at once" in done.stdout and "a new turn: Player 2" in done.stdout


def test_readme_python_example_runs():
    code = blocks("README.md", "python")[0]
    done = subprocess.run([sys.executable, "-c", code + "\nassert session.cursor == 0 and session.log\n"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


def test_formats_stellar_action_examples_decode():
    game = rules.get_game("stellar")
    for data in json.loads(blocks("docs/formats.md", "json")[2]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_jump_gate_action_examples_decode():
    game = rules.get_game("jump_gate")
    for data in json.loads(blocks("docs/formats.md", "json")[3]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_starligned_action_examples_decode():
    game = rules.get_game("starligned")
    for data in json.loads(blocks("docs/formats.md", "json")[4]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_biome_blitz_examples_decode():
    from rules.biome_blitz.cards import parse_ability

    game = rules.get_game("biome_blitz")
    ability = parse_ability(json.loads(blocks("docs/formats.md", "json")[5]), "docs")
    assert (ability.trigger, ability.effect, ability.get("rolls")) == ("defend", "win_on_roll", (1, 2))
    for data in json.loads(blocks("docs/formats.md", "json")[6]):
        assert game.encode_action(game.decode_action(data)) == data


def test_formats_stellar_phase_names_are_the_engines_and_load():
    # A position written from the docs must load: each phase the Stellar section names, in a real position.
    from rules.stellar.state import PHASES

    section = (ROOT / "docs/formats.md").read_text(encoding="utf-8").split("## Stellar", 1)[1].split("\n## ", 1)[0]
    named = re.search(r"`phase` \(([^)]*)\)", section).group(1)
    phases = re.findall(r"`([a-z_]+)`", named)
    assert phases == list(PHASES)
    game = rules.get_game("stellar")
    data = game.encode(game.new_game(2, 1))
    data["state"]["phase"] = phases[0]  # the docs' first phase: where a new game stands
    assert game.decode(data).phase == "starters"


def test_protocol_all_example_runs():
    code = ("import rules\ngame = rules.get_game('subastral')\nstate = game.new_game(3, 1)\n"
            + blocks("docs/protocol.md", "python")[2]
            + "\nassert everything['deck']['cards'][0] == game.encode(state)['state']['deck'][0]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr

"""Golden playthroughs: every query of a seeded game recorded after every action (OpenSpiel style).

A test replays each recorded game and diffs the text, so any change in rules, events, observations or
files shows up as a readable diff. Regenerate after an intended change with
``python -m play.playthrough --write tests/golden`` (``make golden``) and review the diff.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from rules.protocol import JSON
from rules.registry import GAMES, get_game

#: (game, players, seed, variants) of each golden file.
CONFIGURATIONS: dict[str, list[tuple[int, int, dict[str, Any]]]] = {
    "subastral": [(4, 2026, {}), (3, 7, {"disturbance": True})],
    "stellar": [(2, 2020, {}), (2, 11, {"fifth_starter_to_box": True, "satellite_clear": "after_take"})],
    # Seeds whose random playout is short (a black-hole end), so the files stay readable.
    "jump_gate": [(2, 47, {}), (3, 21, {"scan_without_face_down": True})],
    "starligned": [(3, 2025, {}), (2, 9, {"deal_high_up": True})],
    "biome_blitz": [(2, 101, {}), (4, 111, {})],
}
#: Golden files of games played with an earlier rules version that deals or draws otherwise
#: (``GameSpec.recorded``), by game: (version, players, seed, variants). Each is the file its
#: configuration had under that version: old records must keep playing as they were played.
RECORDED: dict[str, list[tuple[str, int, int, dict[str, Any]]]] = {
    "biome_blitz": [("1.0", 2, 101, {}), ("1.0", 4, 111, {})],     # (1.1 draws dice and reshuffles by BLAKE2b)
}


def file_name(game_id: str, players: int, seed: int, variants: Mapping[str, Any], version: str | None = None) -> str:
    """The golden file's name (``version``: an earlier rules version's, named in it; None: the current)."""
    switched = "".join(f"-{name}" for name, value in sorted(variants.items()) if value)
    played_with = f"-{version}" if version is not None else ""
    return f"{game_id}{played_with}-{players}p-seed{seed}{switched}.txt"


def _line(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def playthrough(game_id: str, players: int, seed: int, variants: Mapping[str, Any], version: str | None = None) -> str:
    """The golden text of one game played by a seeded random player through the protocol (with the
    rules ``version``'s deal and draws: ``GameSpec.recorded``; None: the current version)."""
    game = get_game(game_id)
    if version is not None:
        game = game.recorded(version)
    rng = random.Random(seed)
    state = game.new_game(players, seed, variants)
    lines = [f"game: {game_id} {game.version_of(state)}", f"players: {players}", f"seed: {seed}", f"variants: {_line(variants)}", ""]
    step = 0
    while True:
        lines.append(f"## after action {step}")
        for event in game.events(state):
            lines.append(f"event: {event.text}")
        lines.append(f"position: {_line(game.encode(state)['state'])}")
        lines.append(f"scores: {_line(list(game.scores(state)))}")
        to_move = game.to_move(state)
        for seat in to_move[:1] or (None,):
            # Events and legal actions are recorded on their own lines already, the score breakdown
            # (public, in every observation) on the last.
            view = {k: v for k, v in game.observe(state, seat).items() if k not in ("events", "legal_actions", "score_breakdown")}
            lines.append(f"observe {seat if seat is not None else 'spectator'}: {_line(view)}")
        lines.append(f"to_move: {_line(list(to_move))}")
        if not to_move:
            lines.append(f"winners: {_line(list(game.winners(state)))}")
            lines.append(f"breakdown: {_line(game.score_breakdown(state))}")
            break
        seat = to_move[0]
        actions = game.legal_actions(state, seat)
        lines.append(f"legal {seat}: {' | '.join(str(a) for a in actions)}")
        action = rng.choice(actions)
        lines.append(f"action {seat}: {_line(game.encode_action(action))}")
        lines.append("")
        state = game.apply(state, seat, action)
        step += 1
    return "\n".join(lines) + "\n"


def goldens() -> Iterator[tuple[str, str, int, int, dict[str, Any], str | None]]:
    """Every golden file: (file name, game id, players, seed, variants, rules version or None: the current)."""
    for game_id in GAMES:
        for players, seed, variants in CONFIGURATIONS.get(game_id, []):
            yield file_name(game_id, players, seed, variants), game_id, players, seed, variants, None
        for version, players, seed, variants in RECORDED.get(game_id, []):
            yield file_name(game_id, players, seed, variants, version), game_id, players, seed, variants, version


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="FOLDER", required=True, help="write the golden files here")
    args = parser.parse_args(argv)
    folder = Path(args.write)
    folder.mkdir(parents=True, exist_ok=True)
    for name, game_id, players, seed, variants, version in goldens():
        (folder / name).write_text(playthrough(game_id, players, seed, variants, version), encoding="utf-8")
        print(f"wrote {folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A game that never ends: a Jump Gate card file the file check accepts, with 12 NavComp cards (one of
each of the first 12 kinds). With so few, nobody can claim a planet: random games dealt from seeds 0
and 2 go on past 100,000 moves (seed 1's ends at move 234)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import rules

STANDARD = Path(rules.__file__).resolve().parent / "jump_gate" / "data" / "components.json"
ENDLESS_SEEDS = (0, 2)


def endless_jump_gate_cards() -> dict:
    data = copy.deepcopy(json.loads(STANDARD.read_text()))
    data["name"] = "Jump Gate with 12 NavComp cards"
    data["navcomp"] = [{**card, "copies": 1} for card in data["navcomp"][:12]]
    return data


def endless_jump_gate():
    """The Jump Gate game (GameSpec) with that card file."""
    return rules.get_game("jump_gate").with_card_file(endless_jump_gate_cards())

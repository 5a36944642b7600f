"""Jump Gate positions and finished games built by hand, for the tests of tests/rules/jump_gate/."""

from __future__ import annotations

import copy

import rules


# -- writing positions ---------------------------------------------------------------------------
def down(card: str) -> dict:
    """A face-down resource slot."""
    return {"card": card, "face_up": False, "marker": None}


def up(card: str, marker: int | None = None) -> dict:
    """A face-up resource slot, with ``marker``'s marker on it."""
    return {"card": card, "face_up": True, "marker": marker}


def planet(planet_id: str, *slots, claimed_by: int | None = None) -> dict:
    """A ring planet; a slot is ``down(...)``, ``up(...)``, a card name (face up, unmarked) or None (taken)."""
    assert len(slots) == 4
    return {"planet": planet_id, "claimed_by": claimed_by,
            "resources": [up(s) if isinstance(s, str) else s for s in slots]}


def fresh(planet_id: str, *cards: str) -> dict:
    """A planet as setup leaves it: three face-down resources and the fourth face up."""
    return planet(planet_id, *map(down, cards[:3]), up(cards[3]))


RING = {
    "PA": fresh("PA", "sand", "water", "energel_dark", "gem_red"),
    "PB": fresh("PB", "sand", "water", "energel_light", "gem_blue"),
    "PC": fresh("PC", "sand", "water", "energel_dark", "gem_white"),
    "PD": fresh("PD", "sand", "water", "energel_light", "sand"),
    "PE": fresh("PE", "sand", "energel_dark", "energel_light", "water"),
    "PF": fresh("PF", "sand", "sand", "gem_red", "water"),
    "PG": fresh("PG", "sand-bh", "gem_white-bh", "gem_blue-bh", "fame"),
}
RING_IDS = {2: "PA PB PC PD PE PF".split(), 3: "PA PB PC PD PE PF PG".split()}
HANDS = (["J1-S3", "J2-S4", "S6-L5", "S1-L6", "J~-S2"], ["J3-S5", "J4-S6", "S2-L1", "S3-L2", "J5-S1"],
         ["J1-S3", "J2-S4", "S6-L5", "S1-L6", "J4-S6"])
HIDDEN = {2: (["gem_red", "gem_blue", "gem_white"], ["energel_dark", "energel_light", "gem_blue"]),
          3: (["gem_red", "gem_blue"], ["gem_white", "energel_dark"], ["energel_light", "gem_white"])}
DECK = ("J6-S3", "J1-S4", "J2-S5", "J6-S2", "S4-L3", "S5-L4", "J4-L2")


def position(*, players=2, planets=(), ships=None, hands=None, deck=DECK, discard=(), hidden=None, gained=None,
             black_hole=None, unused=(), phase="action", seat=0, start_player=0, round=0, actions_left=2, focus=None,
             waiting=(), seed=1, shuffles=0, variants=None) -> dict:
    """A position: the default ring with ``planets`` replacing the planets of the same id.

    ``black_hole`` defaults to what the gained resources imply (one marker per ``-bh`` card)."""
    replaced = {p["planet"]: p for p in planets}
    gained = [list(g) for g in (gained or [()] * players)]
    return copy.deepcopy({
        "game": "jump_gate", "version": "1.0", "variants": dict(variants or {}),
        "state": {
            "players": players, "seed": seed, "shuffles": shuffles, "start_player": start_player, "seat": seat,
            "round": round, "actions_left": actions_left, "phase": phase,
            "ring": [replaced.get(p, RING[p]) for p in RING_IDS[players]],
            "ships": list(ships or ["gate"] * players), "deck": list(deck), "discard": list(discard),
            "hands": [list(h) for h in (hands or HANDS[:players])],
            "hidden": [list(h) for h in (hidden or HIDDEN[players])], "gained": gained,
            "black_hole": list(black_hole or [sum(card.endswith("-bh") for card in g) for g in gained]),
            "unused": list(unused), "focus": focus, "waiting": list(waiting),
        },
    })


CLAIM_HANDS = (HANDS[0], ["S5-L5", "J1-L5", "J3-S5", "J4-S6"], HANDS[2])


GAME = rules.get_game("jump_gate")


SIX_PLANETS = ["PA", "PB", "PC", "PD", "PE", "PF"]


def finished(gained=((), ()), hidden=(("water",) * 3, ("sand",) * 3), claimed=(0, 0, 0, 1, 1, 1)) -> object:
    """A finished 2-player game: planets claimed as given (and emptied), these gained and hidden resources.

    The game is over because every planet is claimed, or (planets left unclaimed) because the gained
    resources put seven markers on the black hole."""
    gained = [list(g) for g in gained]
    return GAME.decode({
        "game": "jump_gate", "version": "1.0", "variants": {},
        "state": {
            "players": 2, "seed": 0, "shuffles": 0, "start_player": 0, "seat": 0, "round": 9, "actions_left": 0,
            "phase": "over",
            "ring": [{"planet": p, "claimed_by": c, "resources": [None] * 4} for p, c in zip(SIX_PLANETS, claimed)],
            "ships": ["PA", "PB"], "deck": [], "discard": [], "hands": [[], []],
            "hidden": [list(h) for h in hidden], "gained": gained,
            "black_hole": [sum(card.endswith("-bh") for card in g) for g in gained],
            "unused": [], "focus": None, "waiting": [],
        },
    })

"""Biome Blitz positions built by hand, for the tests of tests/rules/biome_blitz/."""

from __future__ import annotations

import copy
import functools
import random

import pytest

import rules
from rules.biome_blitz import Compete, Forage, ForagePick
from rules.biome_blitz.cards import standard_cards


GAME = rules.get_game("biome_blitz")
SYMBOLS = ("leaf", "water", "meat", "wild")
# -- writing positions ---------------------------------------------------------------------------
#: Animals for the default animal market and deck, in this order, leaving out those in a team.
ANIMAL_POOL = ("beaver", "koala", "heron", "owl", "camel", "honey_bee", "dung_beetle", "orangutan")
RESOURCE_DECK = ("meat", "leaf", "water", "leaf", "meat", "water", "leaf", "water", "meat", "leaf")
HANDS = (["leaf", "leaf", "water", "meat"], ["water", "water", "meat", "meat"], ["leaf", "water", "meat", "meat"])


def position(*, players=2, seat=0, phase="action", pending=None, hands=None, teams=None, ecosystems=None, points=None,
             resource_deck=RESOURCE_DECK, resource_market=("leaf", "water", "meat"), resource_discard=(),
             animal_deck=None, animal_market=None, animal_discard=(),
             ecosystem_deck=("DES", "OCE"), ecosystem_market=("SAV", "RAI", "FOR"), ecosystem_discard=(),
             seed=1, rolls=0, shuffles=0, turn=3, trades=0, winner=None, last_compete=None, cards=None) -> dict:
    """A position file: two players' ordinary turn unless told otherwise."""
    teams = [list(t) for t in (teams or [()] * players)]
    placed = {a for zone in teams + [animal_deck or (), animal_market or (), animal_discard] for a in zone}
    pool = [a for a in ANIMAL_POOL if a not in placed]
    data = {
        "game": "biome_blitz", "version": "1.0", "variants": {},
        "state": {
            "players": players, "seed": seed, "rolls": rolls, "shuffles": shuffles, "seat": seat, "turn": turn,
            "phase": phase,
            "decks": {
                "resource": {"deck": list(resource_deck), "discard": list(resource_discard), "market": list(resource_market)},
                "animal": {"deck": list(pool[3:6] if animal_deck is None else animal_deck), "discard": list(animal_discard),
                           "market": list(pool[:3] if animal_market is None else animal_market)},
                "ecosystem": {"deck": list(ecosystem_deck), "discard": list(ecosystem_discard),
                              "market": list(ecosystem_market)},
            },
            "hands": [list(h) for h in (hands or HANDS[:players])],
            "teams": teams, "ecosystems": [list(e) for e in (ecosystems or [()] * players)],
            "points": list(points or [0] * players), "pending": pending, "trades": trades,
            "last_compete": last_compete, "winner": winner,
        },
    }
    if cards is not None:
        data["cards"] = cards
    return copy.deepcopy(data)


def state_of(game=GAME, **kwargs):
    return game.decode(position(**kwargs))


def die(seed: int, rolls: int) -> int:
    """The die a state with ``seed`` rolls after ``rolls`` dice (``_Table.roll``)."""
    return random.Random(f"biome_blitz:{seed}:die:{rolls}").randint(1, 6)


@functools.cache
def seed_for_dice(*faces: int, rolls: int = 0) -> int:
    """The smallest seed whose dice, from the ``rolls``-th on, show ``faces``."""
    return next(seed for seed in range(200000) if all(die(seed, rolls + i) == f for i, f in enumerate(faces)))


def play(state, *actions, game=GAME):
    """Apply ``actions``, each by the seat the state names to move."""
    for action in actions:
        state = game.apply(state, game.to_move(state)[0], action)
    return state


def hand(state, seat: int) -> list[str]:
    return [SYMBOLS[s] for s in state.hands[seat]]


def names(state, seat: int) -> list[str]:
    return [state.cards.animal_ids[a] for a in state.teams[seat]]


def kinds(state) -> list[str]:
    return [record[0] for record in state.log]


def refused(state, seat, action, *, rule: str, says: str = "", game=GAME) -> rules.IllegalAction:
    """The action raises IllegalAction naming ``rule`` and leaves the state as it was."""
    before, snapshot = game.encode(state), state._replace()
    with pytest.raises(rules.IllegalAction) as caught:
        game.apply(state, seat, action)
    error = caught.value
    assert rule in error.rule and says in error.reason, str(error)
    assert game.encode(state) == before and state == snapshot
    return error


def base_card_file() -> dict:
    return copy.deepcopy(dict(standard_cards().raw))


def ability(name: str, trigger: str, effect: str, **params) -> dict:
    return {"name": name, "trigger": trigger, "effect": effect, "text": f"{name}.", **params}


def animal(animal_id: str, *abilities: dict, stars=2, cost=None, battle_cost=None, power=1, defence=1,
           family="Testidae", ecosystem="FOR") -> dict:
    return {"id": animal_id, "name": animal_id.capitalize(), "family": family, "stars": stars,
            "cost": cost or {"leaf": 1}, "battle_cost": battle_cost or {"leaf": 1}, "power": power,
            "defence": defence, "ecosystem": ecosystem, "abilities": list(abilities)}


#: Animals for the vocabulary entries the standard roster does not use.
EXTRA_ANIMALS = [
    animal("mole", ability("Burrow Stash", "defeated", "draw", count=2)),
    animal("squirrel", ability("Cache", "start_of_turn", "draw", count=1)),
    animal("raccoon", ability("Rummage", "discover", "draw", count=2)),
    animal("mongoose", ability("Feint", "dice", "reroll", side="attack")),
]


def extended_game():
    data = base_card_file()
    data["animals"] = data["animals"] + EXTRA_ANIMALS
    return GAME.with_card_file(data)


EXTENDED = extended_game()


def decoded(game=GAME, *, faces=None, **kwargs):
    if faces is not None:
        kwargs["seed"] = seed_for_dice(*faces)
    return game.decode(position(**kwargs))


def after_opponents_turn(game=GAME, **kwargs):
    """Player 2 forages from the deck, so Player 1's turn starts with its start-of-turn abilities."""
    state = decoded(game, seat=1, **kwargs)
    return play(state, Forage(slot=0), ForagePick(slot=0), game=game)


def compete(attacker, defender, pay=("meat",)):
    return Compete(attacker=attacker, defender=defender, pay=pay)


#: Every Biome Blitz reading switch flipped (tests/rules/biome_blitz: the caches and the fast-path switch).
SWITCHED = {"ecosystem_bonus": "per_ecosystem", "immune_power": "effective", "extra_compete": "once",
            "all_different_wild": "not_a_type"}


def competing_line(game, players: int, seed: int, rng_seed: int, *, competes: int = 3, longest: int = 300):
    """Random moves from the deal of ``seed`` (picks from ``Random(rng_seed)``) that compete whenever a
    compete is legal, until ``competes`` competes rolled dice, the game ends or ``longest`` moves:
    (the moves as (seat, action), the last state, the competes that rolled dice)."""
    rng, state, moves, rolled = random.Random(rng_seed), game.new_game(players, seed), [], 0
    while len(moves) < longest and rolled < competes and not game.is_over(state):
        seat = game.to_move(state)[0]
        actions = game.legal_actions(state, seat)
        action = rng.choice([a for a in actions if isinstance(a, Compete)] or actions)
        moves.append((seat, action))
        state = game.apply(state, seat, action)
        rolled += sum(1 for entry in state.log if entry[0] == "dice")
    return moves, state, rolled

"""Biome Blitz sessions that put every part of the board on screen, for the board tests."""

from __future__ import annotations

import copy

from explorer.core.session import GameSession


SEED = 5


def what_if(session: GameSession, teams: dict[int, list[str]] | None = None, hands: dict[int, list[str]] | None = None,
            ecosystems: dict[int, list[str]] | None = None, defeated: list[str] = (), **state) -> dict:
    """The session's position with ``teams`` and ``ecosystems`` (cards taken from their deck, else from
    the market, whose slot is refilled from the deck), ``hands`` (cards swapped with the resource
    deck), ``defeated`` animals in the animal discards and other ``state`` fields replaced."""
    data = copy.deepcopy(session.position())
    raw = data["state"]

    def take(pile: dict, card: str) -> None:
        if card in pile["deck"]:
            pile["deck"].remove(card)
        elif card in pile["market"]:
            pile["market"][pile["market"].index(card)] = pile["deck"].pop(0)
        else:
            pile["discard"].remove(card)

    for seat, team in (teams or {}).items():
        for animal in team:
            take(raw["decks"]["animal"], animal)
        raw["teams"][seat] = list(team)
    for animal in defeated:
        take(raw["decks"]["animal"], animal)
        raw["decks"]["animal"]["discard"].append(animal)
    for seat, held in (ecosystems or {}).items():
        for eco in held:
            take(raw["decks"]["ecosystem"], eco)
        raw["ecosystems"][seat] = list(held)
    resources = raw["decks"]["resource"]
    for seat, hand in (hands or {}).items():
        resources["deck"].extend(raw["hands"][seat])
        for card in hand:
            resources["deck"].remove(card)
        raw["hands"][seat] = list(hand)
    raw.update(state)
    return data


def rich_table() -> GameSession:
    """Three players some turns in: teams, ecosystems (one gives Player 1's savanna animals a bonus),
    discards on every pile and the dice of a compete Player 1's lion has just won."""
    session = GameSession(game="biome_blitz", players=3, seed=SEED)
    data = what_if(session, teams={0: ["gazelle", "lion"], 1: ["crocodile"], 2: ["koala"]},
                   ecosystems={0: ["SAV"], 2: ["RAI"]}, defeated=["komodo"], points=[22, 10, 5], turn=9,
                   last_compete={"attacker_seat": 0, "attacker": "lion", "attack_roll": 4, "attack_total": 10,
                                 "defender_seat": 2, "defender": "komodo", "defence_roll": 3, "defence_total": 6,
                                 "winner": 0})
    decks = data["state"]["decks"]
    decks["resource"]["discard"] = [decks["resource"]["deck"].pop() for _ in range(3)]
    decks["ecosystem"]["discard"] = [decks["ecosystem"]["deck"].pop()]
    session.load_position(data)
    return session


def cancel_decision() -> GameSession:
    """Two teams (lion against octopus), the lion's compete played: the octopus's owner may cancel it."""
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    seat = session.state.seat
    other = 1 - seat
    session.load_position(what_if(session, {seat: ["lion"], other: ["octopus"]},
                                  hands={seat: ["meat", "leaf"], other: ["water", "leaf"]}))
    compete = next(a for a in session.spec.legal_actions(session.state, seat) if type(a).__name__ == "Compete")
    session.play(seat, compete)
    return session

"""The one place where games are registered (docs/protocol.md)."""

from __future__ import annotations

from typing import TypeVar

from rules.biome_blitz import BiomeBlitz
from rules.eventtexts import joined, say_shared
from rules.jump_gate import JumpGate
from rules.protocol import AnyGame, InvalidPosition
from rules.starligned import Starligned
from rules.stellar import Stellar
from rules.subastral import Subastral

#: A game's own class (``register`` gives back what it is given).
Game = TypeVar("Game", bound=AnyGame)

_GAMES: dict[str, AnyGame] = {}


def register(spec: Game) -> Game:
    if spec.id in _GAMES:
        raise ValueError(f"game {spec.id!r} is registered twice")
    _GAMES[spec.id] = spec
    return spec


register(Subastral())
register(Stellar())
register(JumpGate())
register(Starligned())
register(BiomeBlitz())

#: Ids of every registered game, in registration order.
GAMES: tuple[str, ...] = tuple(_GAMES)


def get_game(name: str) -> AnyGame:
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        problems = say_shared("file.unknown_game", name=repr(name), games=joined(GAMES))
        raise InvalidPosition(problems["en"], where="game", problems=problems) from None

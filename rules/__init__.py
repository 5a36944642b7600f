"""Rules engines for five card games behind one protocol (docs/protocol.md). Standard library only."""

from rules.protocol import Event, GameSpec, IllegalAction, InvalidPosition, InvalidReplay, Turn, Variant
from rules.registry import GAMES, get_game

__all__ = ["GAMES", "get_game", "GameSpec", "IllegalAction", "InvalidPosition", "InvalidReplay", "Event", "Turn", "Variant"]

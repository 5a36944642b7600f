"""Rules engines for five card games behind one protocol (docs/protocol.md). Standard library only."""

# First: which build of the rules this process runs, compiled or pure Python (rules/build.py).
from rules.build import Build, choose

BUILD: Build = choose()

from rules.protocol import Event, GameSpec, IllegalAction, InvalidPosition, InvalidReplay, Turn, Variant  # noqa: E402
from rules.registry import GAMES, get_game  # noqa: E402

__all__ = ["BUILD", "GAMES", "get_game", "GameSpec", "IllegalAction", "InvalidPosition", "InvalidReplay", "Event", "Turn",
           "Variant"]

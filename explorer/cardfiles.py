"""Saved card files: a designer's edited decks, kept as JSON files under one folder.

A :class:`CardLibrary` is a folder (default: ``cards/`` beside the playtest tables' database, see
:func:`default_path`; ``$RULES_EXPLORER_CARDS_DIR`` or the constructor's argument point elsewhere)
holding ``<game id>/<name>.json``. Every file it writes or reads passes the game's own check
(``get_game(game_id).with_card_file(data)``): a file the engine refuses is never saved, and a file
changed on disk by hand since is refused on loading with the engine's message (an
:class:`~rules.protocol.InvalidPosition` whose ``where`` is the field path, ``cards: animals[3].stars``).

Names are simple names (:data:`NAME_PATTERN`: letters, digits, ``-``, ``_``, ``.`` and spaces, not
starting with a dot, at most :data:`MAX_NAME` characters): never a path, so a name from a web page
can only ever name a file inside its game's folder. Writes are atomic: the JSON goes to a temporary
file in the same folder, is flushed and ``fsync``-ed, then ``os.replace``-d over the old file (and the
folder is synced), so a crash at any moment leaves either the old file or the new one, whole.

Only the standard library and ``rules`` are used (no UI): the Analysis page, the card editor and the
command line share it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

from explorer.core.i18n import text
from explorer.tables.store import default_path as tables_default_path
from rules import GAMES, InvalidPosition, get_game
from rules.protocol import AnyGame, dumps
from rules.rulebook import LANGUAGES

#: The variable that names the library's folder (else :func:`default_path`).
CARDS_ENV = "RULES_EXPLORER_CARDS_DIR"
#: The longest name a saved file may have (characters, without ``.json``).
MAX_NAME = 64
#: A saved file's name: a letter or digit first, then letters, digits, ``-``, ``_``, ``.`` or spaces.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]*")
#: The largest card file the library keeps (bytes of its JSON): far above any game's standard file.
MAX_BYTES = 1_000_000
#: The most saved files a game's folder holds: a new name beyond is refused (one page saved files of
#: a megabyte each, a save a second, and the lobby's card menu lists every name).
MAX_FILES = 100
#: A file saved over or deleted is kept in the game's :data:`KEPT` folder (``<name>.<UTC time>.json``):
#: anyone at the library may save over or delete a file, and nothing is lost. The newest
#: ``MAX_KEPT_PER_NAME`` of each name are kept, and the newest ``MAX_KEPT`` of the game; the oldest
#: beyond are removed. (Per name too: 200 saves of one file pushed every other file's old versions out.)
#: A save of what the file already holds changes nothing and keeps nothing.
KEPT = ".kept"
MAX_KEPT = 200
MAX_KEPT_PER_NAME = 20


class CardFileError(ValueError):
    """A name, game or file the library refuses; the message says which and why, in every language
    (``problems``; the texts ``workshop.error.<key>`` of ``explorer/locales/<lang>/workshop.json``)."""

    def __init__(self, problem: str, problems: Mapping[str, str] | None = None):
        super().__init__(problem)
        self.problems = dict(problems) if problems else {"en": problem}

    @classmethod
    def say(cls, key: str, **values: Any) -> CardFileError:
        problems = {lang: text(f"workshop.error.{key}", lang, **values) for lang in LANGUAGES}
        return cls(problems["en"], problems)

    def problem_in(self, lang: str) -> str:
        return self.problems.get(lang, str(self))


def default_path() -> Path:
    """``$RULES_EXPLORER_CARDS_DIR``, else ``cards/`` beside the tables' database
    (``~/.local/share/rules-explorer/cards``)."""
    if os.environ.get(CARDS_ENV):
        return Path(os.environ[CARDS_ENV]).expanduser()
    return tables_default_path().parent / "cards"


def served_library() -> CardLibrary:
    """The library of a served page: ``$RULES_EXPLORER_CARDS_DIR``, else ``cards/`` beside the database
    the server was given (``rules-explorer serve --db FILE``), else :func:`default_path`."""
    from explorer.tables.hub import db_path_from_args

    database = db_path_from_args()
    if os.environ.get(CARDS_ENV) or database is None:
        return CardLibrary()
    return CardLibrary(Path(database).expanduser().parent / "cards")


def check_game(game_id: Any) -> AnyGame:
    """The game ``game_id`` names, when it is one of :data:`rules.GAMES`; else :class:`CardFileError`."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise CardFileError.say("unknown_game", game=repr(str(game_id)[:40]), games=", ".join(GAMES))
    return get_game(game_id)


def check_name(name: Any) -> str:
    """``name`` when it is a safe simple name (:data:`NAME_PATTERN`, at most :data:`MAX_NAME` characters,
    no trailing space or dot); else :class:`CardFileError` saying what is wrong."""
    if not isinstance(name, str) or not name:
        raise CardFileError.say("no_name")
    if len(name) > MAX_NAME:
        raise CardFileError.say("long_name", limit=MAX_NAME, length=len(name))
    if not NAME_PATTERN.fullmatch(name) or name.endswith((" ", ".")) or ".." in name:
        raise CardFileError.say("not_simple", name=repr(name[:MAX_NAME]))
    return name


def standard_file(game_id: str) -> dict[str, Any]:
    """The game's standard card file (a fresh copy of its JSON data: changing it changes nothing else)."""
    game = check_game(game_id)
    state = game.new_game(min(game.player_counts), 0)
    cards = game.card_set(state)  # type: ignore[attr-defined]  # every game here is a ModuleGame
    return json.loads(json.dumps(cards.raw))


def check_file(game_id: str, data: Any) -> AnyGame:
    """The game played with the card file ``data`` (parsed JSON), checked by the game's own reader;
    :class:`~rules.protocol.InvalidPosition` with the engine's message (and ``where``) when it refuses it."""
    return check_game(game_id).with_card_file(data)


class CardLibrary:
    """The saved card files under ``root`` (default :func:`default_path`), one folder per game."""

    def __init__(self, root: str | os.PathLike[str] | None = None):
        self.root = Path(root).expanduser() if root is not None else default_path()

    def _path(self, game_id: str, name: str) -> Path:
        check_game(game_id)
        return self.root / game_id / f"{check_name(name)}.json"

    def version(self, game_id: str, name: str) -> str | None:
        """Which version of the saved file ``name`` the library holds now (the SHA-256 of its bytes), or
        None when there is none: a page compares it with the one it loaded or saved before saving over it."""
        try:
            return hashlib.sha256(self._path(game_id, name).read_bytes()).hexdigest()
        except FileNotFoundError:
            return None

    def names(self, game_id: str) -> list[str]:
        """The names of the game's saved files, sorted (an empty list before the first save)."""
        check_game(game_id)
        folder = self.root / game_id
        if not folder.is_dir():
            return []
        names = (path.name[:-len(".json")] for path in folder.iterdir() if path.name.endswith(".json") and path.is_file())
        return sorted(name for name in names if _is_simple(name))

    def exists(self, game_id: str, name: str) -> bool:
        return self._path(game_id, name).is_file()

    def load(self, game_id: str, name: str) -> dict[str, Any]:
        """The saved file's JSON data, checked by the game; :class:`CardFileError` when there is no such
        file, :class:`~rules.protocol.InvalidPosition` when the game refuses what is in it."""
        path = self._path(game_id, name)
        try:
            text = path.read_bytes()
        except FileNotFoundError:
            raise CardFileError.say("no_file", game=game_id, name=repr(name)) from None
        if len(text) > MAX_BYTES:
            raise CardFileError.say("too_big", limit=MAX_BYTES)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise CardFileError.say("not_json", name=repr(name), error=str(error)) from None
        check_file(game_id, data)
        return data  # type: ignore[no-any-return]

    def save(self, game_id: str, name: str, data: Mapping[str, Any]) -> None:
        """Save ``data`` as ``name`` (replacing a file of that name, whose old version is kept: see
        :data:`KEPT`), once the game accepts it; a refused file (the engine's
        :class:`~rules.protocol.InvalidPosition`) or name, or a new name when the game has
        :data:`MAX_FILES` files already (:class:`CardFileError`), changes nothing on disk."""
        path = self._path(game_id, name)
        check_file(game_id, data)
        text = dumps(data)  # type: ignore[arg-type]
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise CardFileError.say("too_big", limit=MAX_BYTES)
        if not path.is_file() and len(self.names(game_id)) >= MAX_FILES:
            raise CardFileError.say("full", game=game_id, limit=MAX_FILES)
        if path.is_file() and path.read_bytes() == text.encode("utf-8"):
            return          # (the file holds this already: nothing to write, no old version to keep)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".saving-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            if path.is_file():
                self._keep(path, move=False)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _sync_folder(path.parent)

    def delete(self, game_id: str, name: str) -> None:
        """Remove the saved file ``name`` from the library (it is kept: :data:`KEPT`);
        :class:`CardFileError` when there is none."""
        path = self._path(game_id, name)
        if not path.is_file():
            raise CardFileError.say("no_file", game=game_id, name=repr(name))
        self._keep(path, move=True)
        _sync_folder(path.parent)

    def kept(self, game_id: str) -> list[Path]:
        """The game's kept versions (files saved over or deleted), oldest first."""
        folder = self.root / check_game(game_id).id / KEPT
        return sorted(folder.glob("*.json"), key=lambda path: path.name.rsplit(".", 2)[-2]) if folder.is_dir() else []

    def _keep(self, path: Path, *, move: bool) -> None:
        """Put the file at ``path`` in its game's kept folder, named by the time (moved, or linked: the
        library's file stays where it is until the new one replaces it), and drop the oldest
        beyond :data:`MAX_KEPT_PER_NAME` of its name and :data:`MAX_KEPT` of the game."""
        folder = path.parent / KEPT
        folder.mkdir(exist_ok=True)
        now = time.time_ns()
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now // 1_000_000_000)) + f"{now % 1_000_000_000:09d}"
        kept = folder / f"{path.stem}.{stamp}.json"
        if move:
            os.replace(path, kept)
        else:
            try:
                os.link(path, kept)
            except OSError:         # (a file system without hard links)
                shutil.copy2(path, kept)
        _sync_folder(folder)
        every = self.kept(path.parent.name)
        own = [version for version in every if version.name.rsplit(".", 2)[0] == path.stem]
        for old in own[:-MAX_KEPT_PER_NAME] + every[:-MAX_KEPT]:
            old.unlink(missing_ok=True)

    def standard(self, game_id: str) -> dict[str, Any]:
        """The game's standard card file (:func:`standard_file`)."""
        return standard_file(game_id)


def _is_simple(name: str) -> bool:
    try:
        check_name(name)
    except CardFileError:
        return False
    return True


def _sync_folder(folder: Path) -> None:
    """Make a rename or removal in ``folder`` itself durable (its entry, not only the file's bytes)."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


__all__ = ["CARDS_ENV", "CardFileError", "CardLibrary", "InvalidPosition", "KEPT", "MAX_FILES", "MAX_NAME", "check_file", "check_game",
           "check_name", "default_path", "served_library", "standard_file"]

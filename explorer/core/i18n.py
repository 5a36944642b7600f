"""Interface texts in English and Japanese, from resource files (``explorer/locales/<lang>.json``).

``text(key, lang, **values)`` gives a text with its ``{placeholders}`` filled; a key missing from
one language is a bug (a test checks both files hold the same keys with the same placeholders), so
it raises rather than showing a blank. :func:`choose` picks a page's language: ``?lang=`` in its
address first, then the browser's ``Accept-Language``, then English (``explorer.web.request.page_language``
asks it for the page being served).
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError, negotiate_locale

from rules.rulebook import LANGUAGES

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DEFAULT = LANGUAGES[0]
#: Each language's name in itself (the language switch shows these).
NATIVE_NAMES = {"en": "English", "ja": "日本語"}


@lru_cache(maxsize=None)
def texts(lang: str) -> dict[str, str]:
    """Every interface text of ``lang`` (key -> text): ``locales/<lang>.json`` and the files of
    ``locales/<lang>/`` (one per part of the interface, e.g. a game's board), no key in two files."""
    if lang not in LANGUAGES:
        raise KeyError(f"no interface texts in {lang!r}; languages: {', '.join(LANGUAGES)}")
    found = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for path in sorted((LOCALES / lang).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        twice = set(part) & set(found)
        if twice:
            raise ValueError(f"{path.name}: keys already defined elsewhere: {sorted(twice)}")
        found.update(part)
    return found


def text(key: str, lang: str = DEFAULT, **values) -> str:
    found = texts(lang if lang in LANGUAGES else DEFAULT)[key]
    return found.format(**values) if values else found


def counted_text(key: str, lang: str, number: int, /, **values) -> str:
    """``text(key, ...)`` for ``number`` things: ``key + "_one"`` when ``number`` is 1 ("1 card", not
    "1 cards"). Both languages hold both keys (Japanese says them alike)."""
    return text(f"{key}_one" if number == 1 else key, lang, **values)


def bot_name(name: str, lang: str = DEFAULT) -> str:
    """A bot as the page names it (``greedy`` -> "greedy", "貪欲"; ``mcts`` -> "MCTS"); a bot the
    locale files do not name yet, by its name."""
    try:
        return text(f"bot.{name}", lang)
    except KeyError:
        return name


def event_text(event: dict, lang: str = DEFAULT) -> str:
    """An observation's event (``Event.seen_by``) in ``lang`` where the game writes it, else its
    English ``text`` (empty for an event with nothing to say): every view's one reading of events."""
    return (event.get("texts") or {}).get(lang, event.get("text") or "")


#: What Markdown (with math) reads as markup within a line: emphasis, code, links and images, tables,
#: strike-through, math, headings. (On one line, after the page's own words, nothing else can start
#: a block; HTML is escaped apart.)
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]!~|$#])")
#: What makes a link of plain text: the panes' Markdown turns "http://e.vil/", "www.example.com" and
#: "a@b.com" into links by themselves (linkify). Backslashed, the ``:`` of ``://``, a ``.`` between a
#: word and a letter (a domain's, not a sentence's end or a number's) and ``@`` show as they are.
_LINK_MAKERS = re.compile(r"(:(?=//)|(?<=\w)\.(?=[^\W\d_])|@)")


def literal(message: str) -> str:
    """``message`` as a Markdown pane shows it, character for character: no HTML (``&``, ``<`` and
    ``>`` escaped), no Markdown (its specials backslashed), on one line. For every text that holds a
    value from the address or a form (``?game=<img ...>`` must show as those characters, never as
    an element); a text without such characters is left as it is."""
    one_line = " ".join(str(message).splitlines())
    return html.escape(_LINK_MAKERS.sub(r"\\\1", _MARKDOWN_SPECIALS.sub(r"\\\1", one_line)), quote=False)


@lru_cache(maxsize=256)
def language_of(tag: str) -> str | None:
    """The language of a locale tag as Babel reads it (``ja-JP``, ``ja_JP``, ``JA`` -> ``ja``); None for a
    tag that names no known locale (``jam`` is Jamaican Creole, not Japanese)."""
    try:
        return Locale.parse(tag.strip().replace("-", "_")).language
    except (ValueError, TypeError, UnknownLocaleError):
        return None


def choose(requested: str | None, accept_language: str | None = None) -> str:
    """The language for ``?lang=requested`` (if known), else the browser's first known one (by its
    Accept-Language weights, Babel matching each tag to our languages), else English."""
    if requested and language_of(requested) in LANGUAGES:
        return language_of(requested)
    ranked = []
    for n, part in enumerate((accept_language or "").split(",")):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            q = 0.0
        ranked.append((-q, n, tag))
    preferred = [language for _, _, tag in sorted(ranked) if (language := language_of(tag))]
    return negotiate_locale(preferred, LANGUAGES) or DEFAULT



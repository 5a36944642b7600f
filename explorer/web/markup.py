"""Board markup through Jinja2 templates with autoescape: every value a template shows is escaped
unless the template says otherwise, so a card file's or a player's text can never become markup.

Templates are package data, ``explorer/web/templates/<name>`` (read with ``importlib.resources``, so they
travel with an installed package); :func:`render` fills one with plain values (strings, numbers,
lists and dicts the board builds from an observation), never with a state.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import jinja2


def _template_source(name: str):
    source = resources.files("explorer.web").joinpath("templates", name).read_text(encoding="utf-8")
    return source, None, lambda: True       # package data does not change under a running server


class BoardEnvironment(jinja2.Environment):
    """Templates read ``seat.name`` of the plain dicts the boards fill them with as the item ``"name"``
    first. (Jinja tries the attribute first, and a dict has none by that name: the exception it raises
    and catches for each of a board's few hundred look-ups was a tenth of a render.) A key named like a
    dict method (``items``) is therefore its value, never the method; any other object is looked up as
    Jinja does."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """One environment: autoescape on for every template, undefined names an error (a typo in a
    template fails its tests instead of drawing nothing), blocks trimmed so the markup stays compact."""
    return BoardEnvironment(loader=jinja2.FunctionLoader(_template_source), autoescape=True,
                            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render(name: str, **context) -> str:
    """The template ``explorer/web/templates/<name>`` filled with ``context``."""
    return environment().get_template(name).render(**context)


def macro(name: str, macro_name: str):
    """The macro ``macro_name`` of the template ``explorer/web/templates/<name>``, callable from Python:
    it returns Markup (autoescaped like any template). Boards draw their pieces (cards, markers) with
    such macros once per way a piece is drawn and cache the Markup, instead of calling a Jinja macro
    per piece per move (the macro calls were most of a board's time)."""
    return getattr(environment().get_template(name).module, macro_name)

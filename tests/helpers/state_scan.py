"""Finds where a view's source touches a game state (the plots and boards draw from what the page's
session answers through its viewpoint, never from a state: docs/architecture.md, "One viewpoint per page")."""

from __future__ import annotations

import ast
import inspect

from rules.protocol import GameSpec

#: The protocol's questions about a state (``spec.card_info(state, card)``, ``deck_knowledge``, ``observe``...).
STATE_QUESTIONS = {name for name, member in inspect.getmembers(GameSpec, inspect.isfunction)
                   if list(inspect.signature(member).parameters)[1:2] == ["state"]}
#: What hands a view a state: the session's derived state, its states along the line.
STATE_ATTRIBUTES = {"state", "state_at", "_states"}


def state_uses(source: str) -> list[str]:
    """Where ``source`` touches a state: reads one from a session (``.state``, ``state_at``; Panel's
    own ``pn.state`` is no game state), asks the spec a question about one, or takes one as a parameter."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in STATE_ATTRIBUTES \
                and not (isinstance(node.value, ast.Name) and node.value.id == "pn"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STATE_QUESTIONS:
            receiver = node.func.value
            if (isinstance(receiver, ast.Name) and receiver.id == "spec") or \
                    (isinstance(receiver, ast.Attribute) and receiver.attr == "spec"):
                found.append(f"line {node.lineno}: spec.{node.func.attr}(...)")
        elif isinstance(node, ast.arg) and node.arg in ("state", "states"):
            found.append(f"line {node.lineno}: parameter {node.arg}")
    return found

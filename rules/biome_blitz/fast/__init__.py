"""Biome Blitz's speed code, apart from the rules, behind one switch: ``MEMO.enabled``.

Random playouts call the engine most, so it keeps three kinds of shortcuts that change no result:
- ``direct.py`` and ``quick.py``: the usual case of the frequent applies (forage picks, Explore,
  Discover, Compete, the turn's end and start-of-turn abilities) built as one new state, instead of
  on ``table._Table``;
- ``caches.py``: the parts of the action phase's list remembered by what they depend on;
- ``entries.py``: the most frequent log entries, made once.

With ``MEMO.enabled`` true (the default) ``rules.apply`` takes the direct paths and trusts an action object
``legal_actions`` has just handed out for the very same state, and ``legal_actions`` puts lists
together from remembered parts. With it false, ``legal_actions`` is ``choices.plain_legal_actions``
(worked out from the rules alone) and every apply checks its action and goes through the handlers'
general path on a ``_Table``: the plain rules, the reference.
They earn their place in both builds (issue #23 asked whether compiling the rules made them
unneeded). Under callgrind, 20 seeded 4-player random playouts (9,173 decisions), machine instructions
a decision with and without them: compiled, 42,728 against 80,666 (1.89x); pure Python, 58,882
against 155,193 (2.64x). ``make bench`` measures decisions/s both ways for every player count
("Biome Blitz's speed code").
Tests flip it (``fast.MEMO.enabled = False``); the environment variable ``RULES_EXPLORER_PLAIN=1`` starts a
process with it off (``memo.py``: the switch and what the speed code remembers between calls). ``tests/rules/biome_blitz/test_biome_blitz_fast_switch.py`` plays seeded games both ways and
compares every state, legal action list and event.
"""

from __future__ import annotations

from rules.biome_blitz.fast.memo import MEMO as MEMO

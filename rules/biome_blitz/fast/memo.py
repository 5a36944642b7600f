"""What the speed code keeps between calls, on one object compiled code reads directly (``MEMO``).

- ``enabled``: the switch (see ``rules.biome_blitz.fast``): true, the direct paths; false, the plain
  rules only. Tests flip it (``fast.MEMO.enabled = False``); ``RULES_EXPLORER_PLAIN=1`` starts a
  process with it off.
- ``listed``: (state, seat, actions) of the last ``legal_actions`` call: ``rules.apply`` takes one of
  these very objects for that very state without checking it again (a playout applies what it was
  just offered). A tuple, so a caller changing the list it got cannot smuggle an action in.
- ``last_action_phase``: (state, its action list) of the last action phase listed.
- ``last_caches``: (card set, its ``Caches``) of the last listing: playouts use one card set.

(These were module-level names, ``fast.ENABLED`` and ``listing._listed``...: compiled code reads a
module's name through its dictionary at every use, and the attribute of a compiled object directly.
Three or four such reads a decision were about 3% of a compiled random playout, issue #23.)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

from rules.protocol import Seat

if TYPE_CHECKING:
    from rules.biome_blitz.cards import CardSet
    from rules.biome_blitz.fast.caches import Caches
    from rules.biome_blitz.state import Action, State


class Memo:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.listed: tuple[State | None, Seat | None, tuple[Action, ...]] = (None, None, ())
        self.last_action_phase: tuple[State | None, tuple[Action, ...]] = (None, ())
        self.last_caches: tuple[CardSet, Caches] | None = None


MEMO: Final = Memo(os.environ.get("RULES_EXPLORER_PLAIN", "") in ("", "0"))

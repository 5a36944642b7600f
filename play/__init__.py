"""Playing games without a screen: bots, simulations and paired comparisons, sweep executors, the move
advisor's rollouts, golden playthroughs, the one seed rule and the ``rules-explorer`` simulation commands.

``play`` imports only ``rules`` and the standard library (Dask only inside the Dask executor,
``play/sweep.py``); the explorer builds on it (docs/architecture.md, "Layers").
"""

import rules as _rules  # noqa: F401  (first: it chooses the build, compiled or pure, that play's compiled modules follow)

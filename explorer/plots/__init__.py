"""Plots: data from a session or a sweep to plain Bokeh figures patched in place (game.py, analysis.py) and the live part (live.py)."""

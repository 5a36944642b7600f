"""Plots: data from a session or a sweep to HoloViews elements (game.py, analysis.py) and the live part (live.py)."""

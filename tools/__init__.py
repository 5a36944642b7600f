"""Tools for developers: ``tools/tour.py`` (``make tour``) and the page checks it shares with the browser tests."""

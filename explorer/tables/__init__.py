"""Playtest tables without Panel: the SQLite store (store.py) and the live tables of one server (hub.py)."""

"""Tests of rules/ that hold for every game: the protocol, conformance, chance, replays, rulebooks, texts, JSON limits."""

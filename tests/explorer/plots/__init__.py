"""Tests of explorer/plots/ (no browser)."""

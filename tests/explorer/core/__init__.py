"""Tests of explorer/core/ (no browser)."""

"""Tests of explorer/pages/ (no browser)."""

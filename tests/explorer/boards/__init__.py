"""Tests of explorer/boards/ (no browser)."""

"""Tests of explorer/tables/ (no browser)."""

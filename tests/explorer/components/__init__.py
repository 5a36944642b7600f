"""Tests of explorer/components/ (no browser)."""

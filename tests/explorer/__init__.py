"""Tests of explorer/ without a browser, one folder per layer."""

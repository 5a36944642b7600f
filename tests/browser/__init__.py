"""Tests that drive the pages in a real (headless) Chromium: every test here is marked browser."""

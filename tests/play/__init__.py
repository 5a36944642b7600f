"""Tests of play/: bots, seeds, simulation, sweeps, the command line and the golden playthroughs (tests/golden)."""

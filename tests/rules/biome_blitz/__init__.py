"""Rule-clause, scoring, bad-input and text tests of rules/biome_blitz/."""

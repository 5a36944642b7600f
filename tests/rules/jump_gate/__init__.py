"""Rule-clause, scoring, bad-input and text tests of rules/jump_gate/."""

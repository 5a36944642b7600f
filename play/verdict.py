"""A paired comparison's answer in one sentence, built from its figures (``play.sweep.compare``).

:func:`verdict` picks the differences B - A whose 95% interval excludes 0: per seat the win rate (in
percentage points) and the score, and the first player's win rate (whichever seat the deal made it),
paired on the same deals; and the game length and score spread,
from the two settings' own intervals (a difference of independent means: its standard error is the
root of the sum of the squared standard errors, which is wider than a paired one would be). The
most telling one (the largest ratio of difference to standard error; a win rate first, as it is the
question a designer asks) leads the sentence; the others are named after it.

:func:`sentence` words it in English (the command line); the Analysis page words the same record in
its own languages (``explorer/locales/*/analysis.json``, ``analysis.verdict.*``).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from play.stats import Z95
from rules.protocol import JSONObject

#: The kinds of difference measured game by game on the same deal (the others from each setting's own figures).
PAIRED = ("win_rate", "score", "first_player")
#: The kinds of difference, in the order they are worded.
KINDS = ("win_rate", "score", "first_player", "game_length", "score_spread")


def _finding(kind: str, seat: int | None, mean: float, low: float, high: float) -> JSONObject:
    half = (high - low) / 2
    # (no spread: the same difference in every game; none at all when it is 0)
    strength = abs(mean) / (half / Z95) if half > 0 else (math.inf if mean else 0.0)
    return {"kind": kind, "seat": seat, "mean": round(mean, 4), "low": round(low, 4), "high": round(high, 4),
            "significant": low > 0 or high < 0, "strength": strength}


def findings(stats: Mapping[str, Any]) -> list[JSONObject]:
    """Every difference B - A with its 95% interval (win rates in percentage points), most telling first."""
    found = []
    for seat in stats["difference_b_minus_a"]:
        for kind, key, scale in (("win_rate", "win_rate_difference", 100), ("score", "score_difference", 1)):
            ci = seat[key]
            if ci["low"] is not None:
                found.append(_finding(kind, seat["seat"], ci["mean"] * scale, ci["low"] * scale, ci["high"] * scale))
    first = stats.get("first_player_difference")        # (the first player's win rate, paired too)
    if first is not None and first["low"] is not None:
        found.append(_finding("first_player", None, first["mean"] * 100, first["low"] * 100, first["high"] * 100))
    for kind in ("game_length", "score_spread"):
        a, b = stats["a"][kind], stats["b"][kind]
        if a["low"] is None or b["low"] is None:
            continue
        se = math.hypot((a["high"] - a["low"]) / 2 / Z95, (b["high"] - b["low"]) / 2 / Z95)
        mean = b["mean"] - a["mean"]
        found.append(_finding(kind, None, mean, mean - Z95 * se, mean + Z95 * se))
    # (a significant win rate leads; among the rest, the largest difference for its noise)
    return sorted(found, key=lambda f: (not f["significant"], f["significant"] and f["kind"] != "win_rate",
                                        -f["strength"]))


def verdict(stats: Mapping[str, Any], pairing: Mapping[str, Any]) -> JSONObject:
    """``{"games", "basis": "deals" | "seeds", "headline", "others", "same"}``: the leading difference
    (the most telling, as :func:`findings` orders them, significant or not; None before two games), the
    other significant ones, clearest first (by strength alone), and whether
    A and B came out the same in every game (every difference 0, game by game)."""
    found = findings(stats)
    significant = [f for f in found if f["significant"]]
    # (the paired differences 0 in every game, and the same sums of every figure: the same games)
    tallies = stats.get("tallies") or {}
    same = (bool(found) and tallies.get("a") is not None and tallies.get("a") == tallies.get("b")
            and all(f["low"] == f["high"] == f["mean"] == 0 for f in found if f["kind"] in PAIRED))
    return {"games": stats["games"], "basis": "deals" if pairing.get("same_deals") else "seeds",
            "headline": found[0] if found else None, "same": same,
            # (the rest by strength alone: a win rate leads the sentence, not the list after it)
            "others": sorted(significant[1:], key=lambda f: -f["strength"])}


def _what(finding: Mapping[str, Any]) -> str:
    seat = finding["seat"]
    return {"win_rate": f"Player {seat + 1 if seat is not None else 0}'s win rate",
            "score": f"Player {seat + 1 if seat is not None else 0}'s score",
            "first_player": "the first player's win rate",
            "game_length": "the game length", "score_spread": "the score spread"}[finding["kind"]]


def _unit(finding: Mapping[str, Any]) -> str:
    return {"win_rate": "points", "score": "points", "first_player": "points", "game_length": "decisions",
            "score_spread": "points"}[finding["kind"]]


def sentence(record: Mapping[str, Any]) -> str:
    """The verdict in one English sentence: "With B, Player 1's win rate is 4.1 points higher (95% CI
    1.2 to 7.0) on the same 500 deals; no other difference is significant."."""
    head, games, basis = record["headline"], record["games"], record["basis"]
    if head is None:
        return f"Too few games to compare ({games})."
    if record.get("same"):
        return f"On the same {games} {basis}, A and B came out the same in every game: the change made no difference here."
    higher = head["mean"] > 0
    low, high = (head["low"], head["high"]) if higher else (-head["high"], -head["low"])
    size = f"{abs(head['mean']):.1f} {_unit(head)} {'higher' if higher else 'lower'} (95% CI {low:.1f} to {high:.1f})"
    if not head["significant"]:
        return (f"On the same {games} {basis}, no difference between A and B is significant; the clearest (the "
                f"largest for its noise): with B, {_what(head)} is {size}.")
    others = record["others"]
    rest = ("no other difference is significant" if not others
            else "also significant, clearest first (the largest for its noise): " + ", ".join(_what(f) for f in others))
    return f"With B, {_what(head)} is {size} on the same {games} {basis}; {rest}."

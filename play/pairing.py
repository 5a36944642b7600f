"""What "the same deal" means when settings A and B play with different card files.

A paired comparison deals game ``i`` of both settings from the same seed. With the same cards (the same
names, as many copies, in the same order) a seed shuffles them alike, so A and B are dealt the very
same cards: a change of a card's *fields* (a cost, a number) keeps the deals. When the files differ in
which cards there are, or how many of each, the same seed deals different cards: the comparison is
then paired on the same seeds only, which removes less of the deals' noise (the intervals say how much
is left). :func:`pairing` tells the two apart by dealing the first games under both settings and
comparing the positions (``encode``'s ``state``: cards by name, deck order included), and names
the difference from the cards on the table (``inventory``).
"""

from __future__ import annotations

from typing import Any, Mapping

from rules.protocol import AnyGame, JSONObject

#: Deals compared (from the run's first seed on): one would do for files alike; more guard a variant
#: that changes only some deals.
DEALS_CHECKED = 3


def pairing(game_a: AnyGame, game_b: AnyGame, players: int, seed: int, variants_a: Mapping[str, Any],
            variants_b: Mapping[str, Any]) -> JSONObject:
    """``{"same_deals", "card_counts": [{"card", "a", "b"}...], "same_cards"}``: whether A and B are dealt
    alike from the same seeds and, per card whose number of copies differs, the copies in A and in B
    (``same_cards``: the same cards, in the same numbers: a different deal then comes of their order
    in the files, or of a variant)."""
    states_a = [game_a.new_game(players, seed + i, dict(variants_a)) for i in range(DEALS_CHECKED)]
    states_b = [game_b.new_game(players, seed + i, dict(variants_b)) for i in range(DEALS_CHECKED)]
    same = all(game_a.encode(a)["state"] == game_b.encode(b)["state"] for a, b in zip(states_a, states_b))
    counts_a = game_a.inventory(states_a[0]) or {}
    counts_b = game_b.inventory(states_b[0]) or {}
    differ = [{"card": card, "a": counts_a.get(card, 0), "b": counts_b.get(card, 0)}
              for card in sorted(set(counts_a) | set(counts_b)) if counts_a.get(card, 0) != counts_b.get(card, 0)]
    return {"same_deals": same, "same_cards": not differ, "card_counts": differ}


def pairing_words(pair: Mapping[str, Any], games: int, shown: int = 4) -> str:
    """The pairing in English: "paired on the same 500 deals" or "paired on the same 500 seeds, not the
    same deals: the card files differ in koala (1 in A, 2 in B) and 3 other cards"."""
    if pair["same_deals"]:
        return f"paired on the same {games} deals"
    counts = pair["card_counts"]
    if not counts:
        why = "the deals differ (the cards' order in the files, or a variant, changes them)"
    else:
        named = [f"{c['card']} ({c['a']} in A, {c['b']} in B)" for c in counts[:shown]]
        more = len(counts) - shown
        why = "the card files differ in " + ", ".join(named) + (f" and {more} other cards" if more > 0 else "")
    return f"paired on the same {games} seeds, not the same deals: {why}"

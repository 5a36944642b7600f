"""Regenerate the example files: ``python examples/build.py`` (from the repository root).

- ``subastral-4p-replay.json``: a whole 4-player game between greedy bots (seed 2021).
- ``subastral-scoring-example.json``: the journal of the rulebook's scoring examples (Player 1),
  at the end of a 4-player game: 8 columns, so the first mixed set scores 36, the second 10
  (4 columns before the gap), the third 1; taiga, 4 cards in column 7, is the largest matching set
  (28) and chaparral, 3 cards in column 1, wins the tie with forest (column 4) and savanna
  (column 6) for second place (3).
"""

from pathlib import Path

import rules
from rules import replay as replays
from rules.protocol import dumps
from play.simulate import play_game

HERE = Path(__file__).parent


def replay_example():
    game = rules.get_game("subastral")
    state, _, actions = play_game(game, 4, 2021, ["greedy"], keep_actions=True)
    data = replays.record(game, 4, 2021, {}, actions, state=state)
    data = {"comment": "A whole 4-player game between greedy bots: rules-explorer replay examples/subastral-4p-replay.json", **data}
    (HERE / "subastral-4p-replay.json").write_text(dumps(data), encoding="utf-8")


# Column biomes and heights of the rulebook's example journal (Stefan's).
EXAMPLE_JOURNAL = [
    ("chaparral", 3), ("arctic_tundra", 2), ("temperate_grassland", 2), ("temperate_forest", 3),
    ("subtropical_desert", 1), ("savanna", 3), ("taiga", 4), ("tropical_rainforest", 1),
]


def scoring_example():
    game = rules.get_game("subastral")
    cards = game.cards
    pool = list(cards.deck(4))
    journal = []
    for biome, height in EXAMPLE_JOURNAL:
        column = [k for k in pool if cards.kind_names[k].startswith(biome + "-")][:height]
        for k in column:
            pool.remove(k)
        journal.append([cards.kind_names[k] for k in column])
    names = [cards.kind_names[k] for k in pool]
    # The other zones: what is left, dealt out plausibly for the end of a game.
    clouds = {str(n): [names.pop()] for n in range(1, 7)}
    hands = [[names.pop() for _ in range(2)] for _ in range(4)]
    journals = [journal] + [[] for _ in range(3)]
    data = {
        "comment": "The rulebook's scoring examples, Player 1's journal: rules-explorer score examples/subastral-scoring-example.json",
        "game": "subastral", "version": game.version, "variants": {"disturbance": False},
        "state": {
            "players": 4, "start_player": 0, "seat": 0, "round": 9, "phase": "over", "played_cloud": None,
            "end_triggered": True, "last_round": 9, "deck": names, "clouds": clouds, "hands": hands,
            "journals": journals, "pending": [], "passes": [None] * 4,
        },
    }
    (HERE / "subastral-scoring-example.json").write_text(dumps(data), encoding="utf-8")


if __name__ == "__main__":
    replay_example()
    scoring_example()

"""The colours every view shares: one per seat (plots, boards, scores) and one per card group (a
Subastral biome, a Jump Gate resource...; boards and plots), so a player or a biome looks the same everywhere."""

from __future__ import annotations

import zlib


#: One colour per seat (0-based), the same in every plot.
PLAYER_COLOURS = ("#2f6fdb", "#d1495b", "#2a9d5c", "#8e5bb5", "#e08a1e", "#4d5b6b")


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


#: Biome colours (background, text), chosen to be told apart at a glance and to echo the biome.
BIOME_COLOURS = {
    "subtropical_desert": ("#f2c14e", "#3d2a00"),
    "savanna": ("#e07a2f", "#ffffff"),
    "taiga": ("#2f5d50", "#ffffff"),
    "arctic_tundra": ("#cfe8f3", "#173a4d"),
    "temperate_grassland": ("#a7c957", "#1f3300"),
    "tropical_rainforest": ("#0f7b3c", "#ffffff"),
    "temperate_forest": ("#7b5e3b", "#ffffff"),
    "chaparral": ("#b5446e", "#ffffff"),
    # Stellar's card types (the same table colours every game's groups, in boards and plots).
    "planet": ("#3a86ff", "#ffffff"),
    "moon": ("#dfe3e8", "#243140"),
    "asteroid": ("#8d6e63", "#ffffff"),
    "interstellar_cloud": ("#9d4edd", "#ffffff"),
    "black_hole": ("#1f2430", "#f1f3f6"),
    "satellite": ("#ff9f1c", "#2b1a00"),
    # Jump Gate's resource types and its NavComp cards (``card_info`` groups).
    "fame": ("#7b2cbf", "#ffffff"),
    "sand": ("#e9c46a", "#3d2a00"),
    "water": ("#1f8fb8", "#ffffff"),
    "energel_dark": ("#1b5e3b", "#ffffff"),
    "energel_light": ("#9be3b8", "#123d24"),
    "gem_red": ("#d62828", "#ffffff"),
    "gem_blue": ("#3f37c9", "#ffffff"),
    "gem_white": ("#f4f6f8", "#2a3542"),
    "navcomp": ("#5c6b7a", "#ffffff"),
    # Starligned's five constellations (``card_info`` groups C1..C5).
    "C1": ("#c0392b", "#ffffff"),
    "C2": ("#2874a6", "#ffffff"),
    "C3": ("#229954", "#ffffff"),
    "C4": ("#7d3c98", "#ffffff"),
    "C5": ("#d68910", "#2b1a00"),
    # Biome Blitz's resources (its "water" is Jump Gate's water above), its animals by ecosystem
    # symbol and its ecosystem cards (``card_info`` groups).
    "leaf": ("#4caf50", "#ffffff"),
    "meat": ("#b5483a", "#ffffff"),
    "wild": ("#b9a9d6", "#2a1d44"),
    "animal_SAV": ("#d9a441", "#2b1a00"),
    "animal_RAI": ("#1e7a46", "#ffffff"),
    "animal_WET": ("#4f8f8b", "#ffffff"),
    "animal_DES": ("#e3c58a", "#3d2a00"),
    "animal_OCE": ("#1d4e89", "#ffffff"),
    "animal_FOR": ("#5b3f2a", "#ffffff"),
    "ecosystem": ("#6d597a", "#ffffff"),
}


def biome_colours(biome: str) -> tuple[str, str]:
    if biome in BIOME_COLOURS:
        return BIOME_COLOURS[biome]
    hue = zlib.crc32(biome.encode()) % 360     # a stable colour for a biome from another card file
    return f"hsl({hue}, 55%, 45%)", "#ffffff"

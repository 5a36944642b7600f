"""Jump Gate names planets and resources as the component file prints them: events, action names and
refusals say "Aurel" / "オーレル" and "Gem (white) with the black hole icon" / "ジェム（白）（ブラックホール
付き）", never the ids ``PA`` and ``gem_white-bh`` that files, actions (``str(action)``) and observations
keep. The names come from the file (``name``/``name_ja`` of a planet and of a resource type); a file
without ``name_ja`` shows the English on Japanese pages, and one whose ``name_ja`` is not a text is
refused saying where.
"""

from __future__ import annotations

import copy
import re

import pytest

import rules
from rules.jump_gate import Fly, Jump, Scan
from rules.jump_gate.cards import parse_components, standard_components
from tests.helpers.jump_gate import GAME, down, planet, position, up

KATAKANA = re.compile(r"^[\u30a0-\u30ff]+$")
ID = re.compile(r"\bP[A-L]\b|[a-z]+_[a-z]+|-bh\b")


def load(**kwargs):
    return GAME.decode(position(**kwargs))


def texts(state, lang: str = "en") -> list[str]:
    return [event.texts[lang] for event in GAME.events(state)]


def test_every_planet_has_a_katakana_name_and_every_resource_type_a_japanese_one():
    comps = standard_components()
    assert all(KATAKANA.match(p.name_ja) for p in comps.planets), [p.name_ja for p in comps.planets]
    assert len({p.name_ja for p in comps.planets}) == len(comps.planets)
    assert all(t.name_ja for t in comps.types)
    assert "invention" in comps.source          # the planets are our model, not the game's
    assert comps.planet_label(0) == {"en": "Aurel", "ja": "オーレル"}


def test_a_resource_is_named_by_its_type_and_its_black_hole_icon():
    comps = standard_components()
    assert comps.resource_label(comps.resource_by_name["gem_white-bh"]) == {
        "en": "Gem (white) with the black hole icon", "ja": "ジェム（白）（ブラックホール付き）"}
    assert comps.resource_label(comps.resource_by_name["energel_light"]) == {"en": "EnerGel (light)", "ja": "エナージェル（ライト）"}


def test_events_name_planets_and_resources_as_printed():
    state = GAME.new_game(2, 47)
    assert "Fenwick: the face-up resource (slot 4) is Gem (white) with the black hole icon." in texts(state)
    assert "フェンウィックの4枚目の資源カードは表向きで、ジェム（白）（ブラックホール付き）です。" in texts(state, "ja")
    # The deal's face-up resources link to the rule for setting up, not to "Scan a planet" (their
    # kind was a scan's, "reveal").
    from rules.rulebook import rulebook
    assert {event.kind for event in GAME.events(state)} >= {"setup", "setup_reveal"}
    assert rulebook("jump_gate").for_event("setup_reveal").id == "setup"
    state = GAME.apply(load(ships=["PA", "gate"]), 0, Scan(card="J1-S3"))
    assert texts(state) == ["Player 1 scans Aurel with J1-S3.", "Player 1 scans Aurel: resource 1 is Sand."]
    assert texts(state, "ja")[0] == "プレイヤー1がJ1-S3を使ってオーレルをスキャンしました。"
    for lang in ("en", "ja"):
        assert not any(ID.search(text) for text in texts(state, lang))


def test_actions_name_their_planet_as_printed_in_both_languages():
    assert GAME.action_label(Fly(planet="PB")) == "fly to Brisa"
    assert GAME.action_label(Fly(planet="PB"), "ja") == "ブリーザへ移動"
    assert GAME.action_label(Jump(card="J~-S2", planet="PL")) == "jump to Lumen with J~-S2"
    assert GAME.action_label(Jump(card="J~-S2", planet="PL"), "ja") == "J~-S2を使ってルーメンへジャンプ"
    # files and str(action) keep the ids
    assert str(Fly(planet="PB")) == "fly to PB" and GAME.encode_action(Fly(planet="PB")) == {"type": "fly", "planet": "PB"}


def test_a_refusal_names_the_planets_as_printed():
    state = load(ships=["PC", "gate"])
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, 0, Fly(planet="PE"))
    assert caught.value.reasons["en"] == "Elara is not next to Caldera in the ring"
    assert caught.value.reasons["ja"] == "エラーラは輪の上でカルデラの隣ではありません"
    pa = planet("PA", down("sand"), down("water"), down("energel_dark"), up("gem_red", marker=1))
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(GAME.apply(load(planets=[pa], ships=["PA", "PA"]), 0, Scan(card="J1-S3")), 0,
                   GAME.decode_action({"type": "mark", "slot": 4}))
    assert "オーレル" in caught.value.reasons["ja"]


def test_a_component_file_without_japanese_names_loads_and_shows_the_english_ones():
    data = copy.deepcopy(dict(standard_components().raw))
    for entry in data["planets"] + data["resource_types"]:
        entry.pop("name_ja")
    comps = parse_components(data)
    assert comps.planet_label(0) == {"en": "Aurel", "ja": "Aurel"}
    assert comps.resource_label(comps.resource_by_name["sand-bh"]) == {
        "en": "Sand with the black hole icon", "ja": "Sand（ブラックホール付き）"}
    assert GAME.with_card_file(data).action_label(Fly(planet="PA"), "ja") == "Aurelへ移動"


@pytest.mark.parametrize("where, value", [("planets[0]", ""), ("planets[3]", 7), ("resource_types[1]", None)])
def test_a_japanese_name_that_is_not_a_text_is_refused_saying_where(where, value):
    data = copy.deepcopy(dict(standard_components().raw))
    key, index = re.fullmatch(r"(\w+)\[(\d+)\]", where).groups()
    data[key][int(index)]["name_ja"] = value
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_components(data, where="test.json")
    assert caught.value.where == f"test.json: {where}.name_ja" and "must be a text" in caught.value.problem

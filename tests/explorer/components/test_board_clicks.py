"""Play by clicking the table (explorer.components.board_clicks): a click on the board chooses one of
the picker's offered moves, never another; a forged click message chooses nothing."""

from __future__ import annotations

import pytest

from explorer.components.board_clicks import BoardClicks, clicked_values
from explorer.components.picker import ActionPicker
from explorer.core.session import GameSession


def person_to_move(game: str, seed: int = 3) -> tuple[GameSession, ActionPicker]:
    session = GameSession(game=game, players=2, seed=seed)
    session.seat_players = {0: "human", 1: "greedy"}
    session.advance_bots()
    session.viewing_seat = 0
    picker = ActionPicker(session=session)
    assert picker.mode == "choose"
    return session, picker


def encoded(session: GameSession, picker: ActionPicker) -> dict:
    return session.spec.encode_action(picker.selected[1])


def test_subastral_a_hand_card_plays_it_and_a_cloud_is_taken_to_the_hand_then_the_journal():
    session, picker = person_to_move("subastral")
    card = next(session.spec.encode_action(a)["card"] for _, a in picker.offers())
    assert picker.choose_on_board({"card": card})
    assert encoded(session, picker) == {"type": "play", "card": card}
    assert session.selected_action == {"type": "play", "card": card}          # the board previews it
    assert picker.confirm()

    def two_ways(cloud):
        return len([a for _, a in picker.offers() if session.spec.encode_action(a).get("cloud") == cloud]) > 1

    for _ in range(40):                 # play on (first offer) until a cloud may go to the hand or the journal
        clouds = {session.spec.encode_action(a).get("cloud") for _, a in picker.offers()}
        cloud = next((c for c in clouds if c is not None and two_ways(c)), None)
        if cloud is not None:
            break
        assert picker.select(*picker.offers()[0]) and picker.confirm()
    else:
        pytest.fail("no cloud could go two ways")
    cloud = str(cloud)
    assert picker.choose_on_board({"cloud": cloud})
    first = encoded(session, picker)
    assert picker.choose_on_board({"cloud": cloud})                            # the same cloud again: the next move
    second = encoded(session, picker)
    assert {first["to"], second["to"]} == {"hand", "journal"} and first["cloud"] == second["cloud"] == int(cloud)


def test_a_click_on_nothing_offered_chooses_nothing():
    session, picker = person_to_move("subastral")
    assert not picker.choose_on_board({"card": "no-such-card"})
    assert not picker.choose_on_board({"cloud": "99"})
    assert picker.selected is None and session.selected_action is None


def test_stellar_a_hand_card_then_a_telescope_slot_choose_the_move_with_both():
    session, picker = person_to_move("stellar")
    spec = session.spec
    for _ in range(12):                 # play on (first offer) until a telescope move with several slots
        moves = [spec.encode_action(a) for _, a in picker.offers()]
        telescope = [m for m in moves if m["type"] == "telescope"]
        cards = {m["card"] for m in telescope}
        card = next((c for c in cards if len([m for m in telescope if m["card"] == c]) > 1), None)
        if card:
            break
        assert picker.choose_on_board({"card": moves[0].get("card") or moves[0].get("telescope")}) or \
            picker.select(*picker.offers()[0])
        assert picker.confirm()
    else:
        pytest.fail("no telescope choice came up")
    slots = [m["slot"] for m in telescope if m["card"] == card]
    assert picker.choose_on_board({"card": card})
    assert picker.choose_on_board({"slot": slots[-1]})
    assert encoded(session, picker)["card"] == card and encoded(session, picker)["slot"] == slots[-1]


def test_a_forged_click_message_is_ignored():
    received = []
    clicks = BoardClicks(on_click=received.append)
    for data in (None, "card", {"attrs": "x"}, {"attrs": {"card": 3}}, {"attrs": {"onclick": "alert(1)"}},
                 {"attrs": {"card": "x" * 500}}, {"attrs": {"card": ""}}):
        clicks._handle_msg(data)
    assert received == []
    clicks._handle_msg({"attrs": {"card": "savanna-3", "style": "x"}})
    assert received == [{"card": "savanna-3"}]
    assert clicked_values({"attrs": {"cloud": "4", "slot": "top-2"}}) == {"cloud": "4", "slot": "top-2"}

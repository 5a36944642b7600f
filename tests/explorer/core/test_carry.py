"""A page's game carried to its page in another language (``explorer.core.carry``): the key store,
and a game's copy. The page's side (the language switch's link, the page it opens) is in
``tests/explorer/pages/test_explorer_app.py``."""

from __future__ import annotations

import pytest

from explorer.core.carry import TOKEN, Carried, CarryStore, restored, snapshot
from explorer.core.session import GameSession
from tests.helpers.carried import hand_played, line


@pytest.mark.parametrize("game", ["biome_blitz", "subastral", "stellar"])
def test_a_copy_holds_the_same_game_and_goes_its_own_way(game):
    session = hand_played(game, players=2)
    session.goto(3)
    session.add_note(3, "why not the other cloud?", author=0)
    copy = restored(snapshot(session))
    assert copy is not session and line(copy) == line(session)
    assert copy.state == session.state and copy.branches            # the cursor's state, the line kept aside
    copy.goto(len(copy.log))
    assert session.cursor == 3                                       # each its own from then on


def test_a_what_if_line_is_carried_from_its_position():
    session = GameSession(game="subastral", players=3, seed=4)
    position = session.position()
    position["state"]["clouds"]["3"] = position["state"]["clouds"]["3"][:1]     # a card less: no deal makes it
    session.load_position(position)
    seat = session.spec.to_move(session.state)[0]
    session.play(seat, session.spec.legal_actions(session.state, seat)[0])
    copy = restored(snapshot(session))
    assert copy.start == session.start and copy.state == session.state and line(copy) == line(session)


def test_a_key_leads_to_its_open_page_as_it_is_then_to_its_game_as_the_page_left_it():
    now = [0.0]
    store = CarryStore(keep_seconds=60, keep_closed=2, clock=lambda: now[0])
    session = hand_played()
    token = store.open(lambda: snapshot(session))
    assert TOKEN.fullmatch(token) and store.open(lambda: snapshot(session)) != token
    session.goto(2)
    assert store.find(token, Carried).cursor == 2                 # the page as it is now
    store.close(token)
    session.goto(5)
    assert store.find(token, Carried).cursor == 2                 # as it was when it closed
    now[0] = 59
    assert store.find(token, Carried) is not None
    now[0] = 61
    assert store.find(token, Carried) is None                     # let go an hour (here: 60 s) after


def test_only_the_newest_closed_pages_are_kept():
    store = CarryStore(keep_closed=2)
    session = hand_played(moves=4)
    tokens = [store.open(lambda: snapshot(session)) for _ in range(3)]
    for token in tokens:
        store.close(token)
    assert [store.find(token, Carried) is not None for token in tokens] == [False, True, True]
    assert len(store) == 2 and store.find(tokens[2], dict) is None     # (another kind of page's key)
    store.close(tokens[0])                               # (closed twice, or never opened: nothing)
    assert len(store) == 2


@pytest.mark.parametrize("sent", ["", "A" * 22, "<img src=x onerror=alert(1)>", "A" * 10_000, None, 22, ["A" * 22]])
def test_a_key_no_page_was_given_leads_nowhere(sent):
    store = CarryStore()
    store.open(lambda: pytest.fail("another page's game was read"))
    assert store.find(sent, Carried) is None


def test_a_line_with_a_card_file_of_its_own_is_carried_with_it():
    """A line dealt with an edited card file, then a what-if position of it: the copy plays the same
    cards (compared as files: card sets parsed twice are not equal objects)."""
    import rules
    from explorer.cardfiles import standard_file
    from rules.replay import record

    data = standard_file("biome_blitz")
    data["animals"][0]["stars"] = 1
    game = rules.get_game("biome_blitz").with_card_file(data)
    session = GameSession(game="biome_blitz")
    session.load(record(game, 3, 5, None, [], state=game.new_game(3, 5)))
    seat = session.spec.to_move(session.state)[0]
    session.play(seat, session.spec.legal_actions(session.state, seat)[0])
    session.load_position(session.position())
    seat = session.spec.to_move(session.state)[0]
    session.play(seat, session.spec.legal_actions(session.state, seat)[-1])
    copy = restored(snapshot(session))
    assert copy.replay() == session.replay() and copy.replay()["cards"]["animals"][0]["stars"] == 1
    assert copy.spec.encode(copy.state) == session.spec.encode(session.state) and copy.branches == session.branches

"""Comparing two decks (issue 24, item 2): per-setting card files, per-card figures, the pairing, the
verdict and the run file; in this process, few games."""

import copy
import json

import pytest

from play.card_stats import READERS, card_uses
from play.pairing import pairing, pairing_words
from play.run_file import card_data, check_run, first_difference, rerun, run_record
from play.simulate import play_game
from play.sweep import Job, compare, run_chunk
from play.verdict import sentence, verdict
from rules.protocol import RulesError
from rules.registry import GAMES, get_game
from tests.helpers.analysis import win_rate_verdict_stats
from tests.helpers.biome_blitz import EXTRA_ANIMALS, base_card_file

#: Per game, the event kinds whose ``cards`` a reader counts, and as what (the games' own words for it).
WORDED = {"subastral": {"play": "played", "take": "taken"},
          "stellar": {"take": "taken", "second": "taken", "telescope": "played", "notebook": "played",
                      "final_choice": "played"},
          "starligned": {"reveal": "played"}, "jump_gate": {"gain": "taken"}, "biome_blitz": {"take": "taken"}}


@pytest.mark.parametrize("game_id", GAMES)
def test_each_games_reader_names_the_cards_its_events_name(game_id):
    """A seeded game, read both ways: the reader's uses are the events' seats and cards (Starligned's
    by card, either side up); the uses no event names by card (Biome Blitz's purchases, Jump Gate's
    NavComp cards) are the ones its event texts name."""
    game = get_game(game_id)
    seen = {"read": 0, "worded": 0}

    def check(state):
        read = card_uses(game_id, state)
        events = game.events(state)
        expected = [(e.seat, WORDED[game_id][e.kind], card.rstrip("r") if game_id == "starligned" else card)
                    for e in events if e.kind in WORDED[game_id] and e.cards
                    for card in e.cards]
        counted = [use for use in read if use[1] in set(WORDED[game_id].values())
                   and not (game_id == "jump_gate" and use[1] == "played")]
        assert counted == expected, (events, read)
        for seat, use, card in read:
            if (game_id, use) in (("biome_blitz", "bought"), ("jump_gate", "played")):
                texts = " ".join(e.text for e in events if e.seat == seat)
                label = game.card_label(card)
                words = label["en"] if isinstance(label, dict) else label
                assert card in texts or words in texts, (card, texts)
                seen["worded"] += 1
        seen["read"] += len(read)

    play_game(game, game.player_counts[0], 3, ["random"], on_step=check)
    assert seen["read"] > 10
    if game_id in ("biome_blitz", "jump_gate"):
        assert seen["worded"] > 2


def test_subastrals_first_decision_is_the_card_it_plays():
    game = get_game("subastral")
    state = game.new_game(2, 7)
    seat = game.to_move(state)[0]
    action = game.legal_actions(state, seat)[0]
    played = game.apply(state, seat, action)
    assert card_uses("subastral", played) == [(seat, "played", game.encode_action(action)["card"])]


def test_card_figures_count_uses_per_game_and_the_scores_of_the_seats_that_used_them():
    game = get_game("subastral")
    per_card, scores = {}, []
    for seed in (5, 6, 7):
        uses = []
        _, result, _ = play_game(game, 2, seed, ["random"], on_step=lambda s: uses.extend(card_uses("subastral", s)))
        scores.append(result.scores)
        for seat, use, card in uses:
            per_card.setdefault((use, card), []).append((seed, seat))
    stats = compare("subastral", 2, 3, 5, variants_b={"disturbance": True}, executor="inprocess")["results"]
    rows = {(r["use"], r["card"]): r for r in stats["a"]["cards"]}
    assert set(rows) == set(per_card)
    for key, used in per_card.items():
        assert rows[key]["per_game"]["mean"] == round(len(used) / 3, 4)
        users = sorted(set(used))
        assert rows[key]["seats"] == len(users)
        assert rows[key]["score_of_users"]["mean"] == round(sum(scores[s - 5][seat] for s, seat in users) / len(users), 4)


def biome_files():
    cheaper = base_card_file()
    cheaper["animals"][0]["stars"] = cheaper["animals"][0]["stars"] + 2      # (a field: the same deals)
    more = base_card_file()
    more["animals"] = more["animals"] + EXTRA_ANIMALS[:1]                     # (another card: other deals)
    return cheaper, more


def test_a_changed_field_keeps_the_deals_and_another_card_keeps_only_the_seeds():
    game = get_game("biome_blitz")
    cheaper, more = biome_files()
    same = pairing(game, game.with_card_file(cheaper), 2, 1, {}, {})
    assert same == {"same_deals": True, "same_cards": True, "card_counts": []}
    other = pairing(game, game.with_card_file(more), 2, 1, {}, {})
    assert other["same_deals"] is False and other["card_counts"] == [{"card": "mole", "a": 0, "b": 1}]
    assert pairing_words(other, 40) == ("paired on the same 40 seeds, not the same deals: the card files differ in "
                                        "mole (0 in A, 1 in B)")
    result = compare("biome_blitz", 2, 4, 1, cards_b=more, executor="inprocess", chunk=2)
    assert result["pairing"] == other and result["b"]["cards"] == "own" and result["a"]["cards"] == "standard"


def test_each_settings_card_file_reaches_the_worker():
    """The job carries each setting's card file: B's chunk plays B's cards (the tally differs from A's)."""
    game = get_game("biome_blitz")
    _, more = biome_files()
    cards_b = game.with_card_file(more).card_file(game.with_card_file(more).new_game(2, 1))
    settings = ((("random",), ()), (("random",), ()))
    both = run_chunk(Job("biome_blitz", 2, 1, settings, (None, cards_b), cards=True), 0, 3)
    alike = run_chunk(Job("biome_blitz", 2, 1, settings, (None, None), cards=True), 0, 3)
    assert alike.tallies[0].to_json() == alike.tallies[1].to_json()
    assert both.tallies[0].to_json() == alike.tallies[0].to_json()
    assert both.tallies[1].to_json() != both.tallies[0].to_json()
    # The same job played in a process pool gives the same numbers (the card file travels in the job).
    from distributed import LocalCluster

    pooled = compare("biome_blitz", 2, 4, 1, cards_b=more, executor="processes", workers=2, chunk=2)
    here = compare("biome_blitz", 2, 4, 1, cards_b=more, executor="inprocess", chunk=3)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = compare("biome_blitz", 2, 4, 1, cards_b=more, executor="dask", scheduler=cluster.scheduler_address,
                       chunk=1)
    assert pooled["results"] == here["results"] == dask["results"]
    assert "mole" not in str(here["results"]["a"])                 # (A never deals B's extra animal)


def test_the_verdict_names_the_largest_difference_in_one_sentence():
    result = compare("subastral", 2, 30, 1, variants_b={"disturbance": True}, executor="inprocess")
    stats = result["results"]
    record = verdict(stats, result["pairing"])
    head = record["headline"]
    seat = next(d for d in stats["difference_b_minus_a"] if d["seat"] == head["seat"])
    assert head["kind"] in ("win_rate", "score")
    assert sentence(record).startswith("With B, " if head["significant"] else "On the same 30 deals, no difference")
    assert "on the same 30 deals" in sentence(record) or "On the same 30 deals" in sentence(record)
    if head["kind"] == "score":
        assert head["mean"] == seat["score_difference"]["mean"]
    win = [d for d in stats["difference_b_minus_a"] if d["win_rate_difference"]["low"] > 0
           or d["win_rate_difference"]["high"] < 0]
    assert (head["kind"] == "win_rate") == bool(win)


def test_a_verdict_with_a_win_rate_reads_as_points_higher():
    stats = win_rate_verdict_stats()
    assert sentence(verdict(stats, {"same_deals": True})) == (
        "With B, Player 1's win rate is 4.1 points higher (95% CI 1.2 to 7.0) on the same 500 deals; "
        "no other difference is significant.")
    assert "same 500 seeds" in sentence(verdict(stats, {"same_deals": False}))


def run_file():
    cheaper, _ = biome_files()
    game = get_game("biome_blitz")
    result = compare("biome_blitz", 2, 6, 4, cards_b=cheaper, executor="inprocess", chunk=4)
    return json.loads(json.dumps(run_record(result, card_data(game, 2, 4, {}), cheaper)))


def test_a_run_file_re_runs_to_the_same_results_anywhere():
    data = run_file()
    assert data["b"]["cards"]["animals"][0]["stars"] == data["a"]["cards"]["animals"][0]["stars"] + 2
    _, record, differ = rerun(data, executor="inprocess", chunk=5)
    assert differ is None and record == data


def test_a_run_stopped_early_records_the_games_it_played():
    result = compare("subastral", 2, 40, 1, variants_b={"disturbance": True}, executor="inprocess", chunk=10,
                     until_ci=100.0)
    game = get_game("subastral")
    data = run_record(result, card_data(game, 2, 1, {}), card_data(game, 2, 1, {}))
    assert data["games"] == result["results"]["games"] == 10
    assert rerun(data, executor="inprocess")[2] is None


@pytest.mark.parametrize("change, says", [
    (lambda d: d.pop("seed"), "run file: seed: missing"),
    (lambda d: d.update(extra=1), "run file: extra: not a run file key"),
    (lambda d: d.update(game="chess"), "run file: game: unknown game 'chess'"),
    (lambda d: d.update(players=9), "run file: players: Biome Blitz is for 2, 3, 4, 5, 6 players"),
    (lambda d: d.update(games=0), "run file: games: must be a whole number of at least 1"),
    (lambda d: d.update(seed="1"), "run file: seed: must be a whole number"),
    (lambda d: d["a"].update(bots=["cheater"]), "run file: a.bots: must list one bot"),
    (lambda d: d["b"].update(variants={"nonsense": True}), "run file: b.variants:"),
    (lambda d: d["b"]["cards"]["animals"][0].update(stars="many"), "run file: b.cards:"),
    (lambda d: d["b"].pop("cards"), "run file: b: must be an object with exactly variants, bots, cards"),
    (lambda d: d.update(format_version=1), "run file: format_version: 1: its first-player figures counted Player 1's"),
    (lambda d: d.update(format_version=7), "run file: format: not a run file of this version"),
])
def test_a_malformed_run_file_names_its_field(change, says):
    data = run_file()
    change(data)
    with pytest.raises(RulesError) as caught:
        check_run(data)
    assert str(caught.value).startswith(says), str(caught.value)


def test_a_forged_result_is_found_at_its_key():
    data = run_file()
    forged = copy.deepcopy(data)
    forged["results"]["a"]["seats"][1]["score"]["mean"] += 1
    assert rerun(forged, executor="inprocess")[2] == "results.a.seats[1].score.mean"
    assert first_difference({"x": [1, 2]}, {"x": [1, 2.0]}, "r") == "r.x[1]"


def test_settings_that_play_every_game_alike_are_said_to_be_the_same():
    # Frenzy once a turn changes nothing when no two random bots' competes ever chain on these deals: every
    # paired difference is 0 in every game. The sentence said "0.0 points lower (95% CI -0.0 to -0.0)".
    from explorer.pages.analysis_decks import verdict_text

    result = compare("biome_blitz", 2, 12, 0, variants_b={"extra_compete": "once"}, executor="inprocess", chunk=6)
    stats, pairing = result["results"], result["pairing"]
    assert stats["tallies"]["a"] == stats["tallies"]["b"]           # (the case: the same games)
    record = verdict(stats, pairing)
    assert record["same"] and sentence(record) == (
        "On the same 12 deals, A and B came out the same in every game: the change made no difference here.")
    assert verdict_text(stats, pairing, "ja") == "同じ12回の配りで、AとBはすべてのゲームで同じ結果になりました。この変更はここでは何も変えません。"
    # One game that differs: a difference again, not "the same".
    stats = win_rate_verdict_stats()
    assert not verdict(stats, {"same_deals": True})["same"]


def test_the_verdict_says_its_differences_are_ordered_by_how_clear_they_are():
    """An outside review: the headline named one seat while another's difference, below it, was larger,
    and "the largest" was said of the clearest (the largest for its noise). The sentence now says which."""
    from tests.helpers.analysis import win_rate_verdict_stats

    stats = win_rate_verdict_stats()
    stats["difference_b_minus_a"] = [        # Player 1: small and sure; Player 2: larger and unsure
        {"seat": 0, "win_rate_difference": {"mean": 0.0, "low": -0.01, "high": 0.01},
         "score_difference": {"mean": 0.8, "low": -0.1, "high": 1.7}},
        {"seat": 1, "win_rate_difference": {"mean": 0.0, "low": -0.01, "high": 0.01},
         "score_difference": {"mean": 2.5, "low": -4.0, "high": 9.0}}]
    said = sentence(verdict(stats, {"same_deals": True}))
    assert said.endswith("the clearest (the largest for its noise): with B, Player 1's score is 0.8 points higher "
                         "(95% CI -0.1 to 1.7).") and "the largest:" not in said
    stats["difference_b_minus_a"][1]["score_difference"] = {"mean": 9.0, "low": 1.0, "high": 17.0}
    stats["difference_b_minus_a"][0]["score_difference"] = {"mean": 2.0, "low": 1.5, "high": 2.5}
    said = sentence(verdict(stats, {"same_deals": True}))
    assert said.startswith("With B, Player 1's score is 2.0 points higher") and said.endswith(
        "; also significant, clearest first (the largest for its noise): Player 2's score.")

    # A win rate leads the sentence; the rest are named clearest first, a win rate among them too.
    stats["difference_b_minus_a"][1]["win_rate_difference"] = {"mean": 0.05, "low": 0.005, "high": 0.095}
    stats["difference_b_minus_a"][0]["win_rate_difference"] = {"mean": 0.08, "low": 0.06, "high": 0.10}
    said = sentence(verdict(stats, {"same_deals": True}))
    assert said.startswith("With B, Player 1's win rate is 8.0 points higher") and said.endswith(
        "clearest first (the largest for its noise): Player 1's score, Player 2's score, Player 2's win rate.")


def test_a_run_file_made_with_biome_blitz_1_0_re_runs_with_its_own_dice():
    # Biome Blitz 1.1 draws dice otherwise than 1.0: a run file made with 1.0 re-runs as 1.0 played,
    # and says so; read as 1.1 its results come out otherwise; another major version, a later minor one
    # and a version that is not one are refused.
    result = compare("biome_blitz", 2, 8, 4, executor="inprocess", chunk=4, version="1.0")
    game = get_game("biome_blitz")
    data = json.loads(json.dumps(run_record(result, card_data(game, 2, 4, {}), card_data(game, 2, 4, {}))))
    assert result["version"] == data["game_version"] == "1.0"
    _, record, differ = rerun(data, executor="inprocess", chunk=3)
    assert differ is None and record == data
    assert rerun({**data, "game_version": "1.1"}, executor="inprocess")[2] is not None
    assert compare("biome_blitz", 2, 2, 4, executor="inprocess")["version"] == game.version == "1.1"
    with pytest.raises(RulesError, match="run file: game_version: written for rules version '2.0'; this engine reads 1.1"):
        check_run({**data, "game_version": "2.0"})
    # A later minor version may deal otherwise: refused, not re-run as 1.1 (it was, and "1.0<b>" as 1.0).
    with pytest.raises(RulesError, match="run file: game_version: written for rules version '1.7', later than this engine's 1.1"):
        check_run({**data, "game_version": "1.7"})
    with pytest.raises(RulesError, match="two whole numbers with a dot between, such as '1.1', not '1.0<b>'"):
        check_run({**data, "game_version": "1.0<b>"})

"""The Analysis page's setting B card file (issue 24, item 2): chosen from the standard file, the card
library or an upload; refused input changes nothing; the verdict, pairing, per-card table and run file."""

import json

from explorer.cardfiles import CardLibrary
from explorer.pages.analysis import AnalysisPage, progress_line
from explorer.pages.analysis_decks import card_names, card_table_html, pairing_text, verdict_text
from play.run_file import rerun
from tests.helpers.analysis import win_rate_verdict_stats
from tests.helpers.biome_blitz import EXTRA_ANIMALS, base_card_file


def more_animals(name="mole"):
    data = base_card_file()
    extra = dict(EXTRA_ANIMALS[0], id=name, name=name)
    data["animals"] = data["animals"] + [extra]
    return data


def page(tmp_path, **kw):
    return AnalysisPage(lang=kw.pop("lang", "en"), executor="inprocess", game="biome_blitz", players=2, games=4,
                        chunk=2, **kw)


def test_an_upload_the_engine_refuses_shows_its_message_and_changes_nothing(tmp_path):
    shown = page(tmp_path)
    bad = base_card_file()
    bad["animals"][0]["stars"] = "many"
    for content in (b"{not json", json.dumps(bad).encode(), b"[1, 2]", "text, not JSON", ["{}"], None):
        shown.deck_b.accept_upload(content)
        assert shown.deck_b.data is None and shown.deck_b.label == "standard" and shown.settings().cards_b is None
        assert shown.deck_b.error.startswith("This card file cannot be used"), (content, shown.deck_b.error)
    shown.deck_b.accept_upload(json.dumps(bad).encode())
    assert "stars" in shown.deck_b.error
    # Over the limit (only a forged message: the browser reports such a file unread), counted in UTF-8 bytes.
    shown.deck_b.accept_upload('"' + "é" * 500_000 + '"', "forged.json")
    assert shown.deck_b.error == ("forged.json is 1,000,002 bytes: a card file here has at most 1,000,000 bytes. "
                                  "Nothing changed.")
    assert shown.deck_b.data is None and shown.deck_b.label == "standard"


def test_the_upload_is_read_in_the_browser_only_under_the_limit_and_the_server_checks_every_message(tmp_path):
    """The analysis page's file control is the editors' (``JsonFileInput``): a file over the limit is reported
    unread by name and size (read whole, a file past the websocket's message limit closed the page's
    connection); what arrives is checked again; what a file holds is never sent back to the browser."""
    from explorer.cardfiles import MAX_BYTES
    from explorer.components.file_input import JsonFileInput

    shown = page(tmp_path)
    upload = shown.deck_b.upload
    assert isinstance(upload, JsonFileInput) and upload.max_bytes == MAX_BYTES
    upload._handle_msg({"too_big": "huge.json", "size": 50_000_000})
    assert shown.deck_b.error == ("huge.json is 50,000,000 bytes: a card file here has at most 1,000,000 bytes. "
                                  "Nothing changed.")
    assert shown.deck_b.data is None and "huge.json" in shown.deck_b.message.object
    upload._handle_msg({"too_big": "<img src=x onerror=alert(1)>.json", "size": 2_000_000})     # a file's name is text
    assert "&lt;img src=x onerror=alert(1)&gt;.json is 2,000,000 bytes" in shown.deck_b.message.object
    assert "<img" not in shown.deck_b.message.object
    before = (shown.deck_b.data, shown.deck_b.label, shown.deck_b.error, shown.deck_b.message.object, upload.filename)
    for forged in ({"name": "x.json", "text": b"{}"}, {"name": 1, "text": "{}"}, {"too_big": "x.json", "size": "big"},
                   {"too_big": "x.json", "size": -1}, {"name": "x.json"}, ["x"], None,
                   {"name": "x.json", "base64": "not base64!"}, {"name": "x.json", "base64": 12},
                   {"name": "x.json", "base64": "QUFB" * (MAX_BYTES // 3 + 2)}):
        upload._handle_msg(forged)          # (neither a file's text nor a size: ignored, not even refused)
        after = (shown.deck_b.data, shown.deck_b.label, shown.deck_b.error, shown.deck_b.message.object, upload.filename)
        assert after == before, forged
    # A file that is not text (not UTF-8) comes as its bytes, and is refused naming the byte.
    import base64
    upload._handle_msg({"name": "latin1.json", "base64": base64.b64encode('{"name": "Thömson"}'.encode("latin-1")).decode()})
    assert "not UTF-8 text: byte 13 of the file (0xF6)" in shown.deck_b.error and shown.deck_b.data is None
    upload._handle_msg({"name": "<i>more</i>.json", "text": json.dumps(more_animals())})
    assert shown.deck_b.label == "uploaded" and shown.deck_b.data == more_animals() and shown.deck_b.error == ""
    # The line under the menu names the file the setting plays with (as text: a file's name is anyone's).
    assert shown.deck_b.shown.object == "B plays with: Uploaded file (&lt;i&gt;more&lt;/i&gt;.json)"
    shown.deck_b.source.value = "standard"
    assert shown.deck_b.data is None
    upload._handle_msg({"name": "<i>more</i>.json", "text": json.dumps(more_animals())})     # the same file again: taken again
    assert shown.deck_b.label == "uploaded" and shown.deck_b.data == more_animals()
    # The file's text and name stay on the server: not in what the browser holds of the control, nor in
    # what the server sends it when they change.
    assert {"value", "filename"}.isdisjoint(JsonFileInput._data_model.properties())
    assert upload._process_param_change({"value": "{}", "filename": "x.json", "choose_text": "Open"}) == {
        "choose_text": "Open"}
    assert page(tmp_path, lang="ja").deck_a.upload.choose_text == "ファイルを選ぶ…"
    assert upload.choose_text == "Choose a file…"


def test_a_forged_choice_is_refused(tmp_path):
    shown = page(tmp_path)
    shown.deck_b.accept_upload(json.dumps(more_animals()).encode())
    assert shown.deck_b.label == "uploaded"
    shown.deck_b._on_source(type("Event", (), {"new": "saved:../../etc/passwd"})())
    assert shown.deck_b.label == "uploaded" and "not on the menu" in shown.deck_b.error
    shown.deck_b.source.value = "saved:../../etc/passwd"        # (as the widget would, if it let it through)
    assert shown.deck_b.label == "uploaded" and shown.deck_b.source.value == "uploaded"
    assert "not on the menu" in shown.deck_b.message.object
    assert shown.settings().cards_b == more_animals()


def choose_saved(deck, library, name="Bigger deck"):
    """``deck`` (a page's A or B chooser) on the file saved as ``name`` in ``library``, from its menu."""
    deck.library = library
    deck.set_game("biome_blitz")
    assert f"saved:{name}" in deck.source.options.values()
    deck.source.value = f"saved:{name}"


def test_a_saved_card_file_can_be_setting_b(tmp_path):
    library = CardLibrary(tmp_path)
    library.save("biome_blitz", "Bigger deck", more_animals())
    shown = page(tmp_path)
    choose_saved(shown.deck_b, library)
    assert shown.deck_b.data == more_animals() and shown.settings().cards_b_name == "saved:Bigger deck"


def test_a_run_with_bs_card_file_says_its_verdict_and_downloads_a_run_file_that_reproduces(tmp_path):
    shown = page(tmp_path)
    shown.deck_b.accept_upload(json.dumps(more_animals("<b>mole</b>")).encode())
    shown.start().join()
    shown.refresh()
    assert shown.run.status == "done"
    assert shown.verdict.object.startswith(("With B, ", "On the same 4 seeds")) and "4 seeds" in shown.verdict.object
    assert "the card files differ in &lt;b&gt;mole&lt;/b&gt; (0 in A, 1 in B)" in shown.pairing.object
    assert "<b>mole</b>" not in shown.card_table.object and "bought" in shown.card_table.object
    data = json.loads(shown._run_file().getvalue())
    assert data["b"]["cards"]["animals"][-1]["id"] == "<b>mole</b>"
    assert rerun(data, executor="inprocess")[2] is None


def test_the_verdict_and_pairing_in_japanese():
    stats = win_rate_verdict_stats()
    pair = {"same_deals": True, "card_counts": []}
    assert verdict_text(stats, pair, "en") == ("With B, Player 1's win rate is 4.1 points higher (95% CI 1.2 to 7.0) "
                                               "on the same 500 deals; no other difference is significant.")
    assert verdict_text(stats, pair, "ja") == ("Bでは、同じ500回の配りでプレイヤー1の勝率が4.1ポイント高い"
                                               "（95%信頼区間 1.2〜7.0）。ほかに有意な差はありません。")
    # A score's difference is in 点, as the lines below the verdict say it (the headline said ポイント).
    scores = win_rate_verdict_stats()
    scores["difference_b_minus_a"][0].update(win_rate_difference={"mean": 0.0, "low": -0.01, "high": 0.01},
                                             score_difference={"mean": 3.9, "low": 1.5, "high": 6.3})
    assert verdict_text(scores, pair, "ja").startswith("Bでは、同じ500回の配りでプレイヤー1の得点が3.9点高い")
    assert "3.9 points higher" in verdict_text(scores, pair, "en")
    seeds = {"same_deals": False, "card_counts": [{"card": "mole", "a": 0, "b": 1}]}
    assert pairing_text(seeds, 500, "ja") == ("同じ500個のシードで対にしていますが、配りは同じではありません。"
                                              "カードファイルの違い：mole（Aに0枚、Bに1枚）。")
    assert card_table_html(None) == ""


def test_the_card_table_names_cards_as_their_files_print_them_in_the_pages_language():
    import rules
    from play.sweep import compare

    game = rules.get_game("biome_blitz")
    added = more_animals("<b>mole</b>")
    stats = compare("biome_blitz", 2, 3, 1, cards_b=added, executor="inprocess")["results"]
    names = card_names([game, game.with_card_file(added)], ["lion", "<b>mole</b>", "leaf", "nothing"], "ja")
    assert names == {"lion": "アフリカライオン", "<b>mole</b>": "<b>mole</b>", "leaf": game.card_label("leaf")["ja"],
                     "nothing": "nothing"}
    everyone = card_names([game], [row["card"] for row in stats["a"]["cards"]], "ja")
    table = card_table_html(stats, "ja", everyone)
    bought = next(row["card"] for row in stats["a"]["cards"] if row["use"] == "bought")
    assert everyone[bought] != bought and f"{everyone[bought]} <span style='color:#666'>({bought})</span>" in table
    assert "購入" in table
    assert "[-" not in table.split("購入")[0]          # (uses per game: never below 0)


def test_a_saved_file_changed_on_disk_is_refused_with_the_games_message(tmp_path):
    library = CardLibrary(tmp_path)
    library.save("biome_blitz", "edited", more_animals())
    path = next(tmp_path.rglob("edited.json"))
    broken = more_animals()
    broken["animals"][0]["stars"] = -1
    path.write_text(json.dumps(broken))
    shown = page(tmp_path)
    shown.deck_b.library = library
    shown.deck_b.set_game("biome_blitz")
    shown.deck_b.source.value = "saved:edited"
    assert shown.deck_b.label == "standard" and shown.deck_b.data is None and shown.deck_b.source.value == "standard"
    assert "stars" in shown.deck_b.error and "stars" in shown.deck_b.message.object


def test_a_can_have_its_own_card_file_too_and_b_then_plays_the_standard_one(tmp_path):
    from explorer.cardfiles import standard_file

    library = CardLibrary(tmp_path)
    library.save("biome_blitz", "Bigger deck", more_animals())
    shown = page(tmp_path)
    choose_saved(shown.deck_a, library)
    settings = shown.settings()
    assert settings.cards_a == more_animals() and settings.cards_a_name == "saved:Bigger deck" and settings.cards_b is None
    assert "A plays with: Bigger deck" in shown.deck_a.shown.object and "B plays with: Standard card file" in shown.deck_b.shown.object
    # B says "standard": the standard file, not A's (compare plays B with A's file when given none)
    assert settings.compare_arguments()["cards_b"] == standard_file("biome_blitz")
    assert "playing B with other cards than A" in shown.question.object
    shown.start().join()
    shown.refresh()
    assert shown.run.status == "done"
    assert "the card files differ in mole (1 in A, 0 in B)" in shown.pairing.object
    data = json.loads(shown._run_file().getvalue())
    assert data["a"]["cards"]["animals"][-1]["id"] == "mole" and "mole" not in json.dumps(data["b"]["cards"])
    assert rerun(data, executor="inprocess")[2] is None
    # The same file on both sides is no change of cards; nor is a copy of the standard file on one side.
    choose_saved(shown.deck_b, library)
    assert "other cards" not in shown.question.object and shown.settings().cards_b == more_animals()
    library.save("biome_blitz", "Copy", standard_file("biome_blitz"))
    choose_saved(shown.deck_a, library, "Copy")
    shown.deck_b.source.value = "standard"
    assert "cards" not in shown.question.object.lower()


def test_a_card_file_that_gives_an_endless_game_fails_the_run_with_the_reason_in_the_pages_language():
    """A Jump Gate file of 12 NavComp cards (tests/helpers/endless.py): the run stops at the bots' move
    limit instead of running for ever, and the page says why, in English and in Japanese."""
    from play.bots import MOVE_LIMIT
    from tests.helpers.endless import ENDLESS_SEEDS, endless_jump_gate_cards

    shown = AnalysisPage(lang="en", executor="inprocess", game="jump_gate", players=2, games=1, chunk=1,
                         seed=ENDLESS_SEEDS[0])
    shown.deck_a.accept_upload(json.dumps(endless_jump_gate_cards()).encode())
    shown.start().join()
    shown.refresh()
    assert shown.run.status == "failed" and shown.run.result is None
    said = f"the game dealt from seed {ENDLESS_SEEDS[0]} has not ended after {MOVE_LIMIT:,} moves"
    assert said in shown.progress.object, shown.progress.object
    assert f"シード{ENDLESS_SEEDS[0]}で配ったゲームが{MOVE_LIMIT:,}手を過ぎても終わらない" in progress_line(shown.run, "ja")


def test_a_served_page_offers_the_files_saved_beside_the_servers_database(tmp_path, monkeypatch):
    """``rules-explorer serve --db FILE`` keeps the card editor's files beside FILE (``served_library``);
    the explorer and the tutorials found them there, the Analysis page's menus looked elsewhere and
    offered only the standard cards (an outside tester)."""
    import sys

    from explorer.cardfiles import CARDS_ENV, served_library

    monkeypatch.delenv(CARDS_ENV, raising=False)
    monkeypatch.setattr(sys, "argv", [*sys.argv, "--db", str(tmp_path / "tables.db")])
    served_library().save("biome_blitz", "Bigger deck", more_animals())
    assert (tmp_path / "cards").is_dir()
    shown = page(tmp_path)
    for deck in (shown.deck_a, shown.deck_b):
        assert "saved:Bigger deck" in deck.source.options.values()

"""The Biome Blitz table: three decks with their markets, the dice of the last compete, each team.

Follows the rules text (コンポーネント, セットアップ, カードの構造, メインアクション) as read by
docs/readings.md, "Biome Blitz": the resource, animal and ecosystem decks lie in the middle, each with its
three face-up cards (the market); every player has a team of animals (an animal card shows its
stars, discover cost, name and family, abilities, ecosystem symbol, battle cost and power/defence)
and at most three ecosystems, a hand of resources, and points towards 30 (or five animals) to win.

Drawn from ``observe()`` only, like the other boards: a seat's view holds that seat's hand and, of
the others, only how many cards they hold; what a peek ability showed is in the peeking seat's
events only. The teacher's view is ``observe(state, ALL)`` (``session.view()``): every hand and
every event in full. Animal names (a defeated animal has left the table) and the names and bonuses
of the ecosystems a team holds come from the card file (``state.cards``: what is printed on the
cards, never where they are), and so does every card's print in Japanese (``name_ja``, an ability's
``name_ja`` and ``text_ja``: :func:`printed_animals`). Who decides a pending
choice is read from ``to_move`` and ``pending``, never decided here.

A selected, unconfirmed action (``session.selected_action``) is previewed from its own fields only:
the market slot or deck it takes from, the animals it names, the hand cards it pays.

Every text the board writes comes from ``explorer/locales/<lang>/biome_blitz_board.json`` in the
board's ``lang`` (English by default); cards are named as the card file prints them in ``lang`` (its
``*_ja`` fields, else the English; families stay in Latin, the ids stay in the markup's classes and
``data-card``), the selected action's label is the game's in ``lang``, and an event shows its text in
``lang`` where the game wrote one.

CSS classes the tests rely on (seats 0-based; the page says "Player 1" for seat 0): ``bb-board``,
``bb-status`` (``step-counter``, ``bb-turn``, ``bb-phase phase-<phase>``, ``viewer``, ``problem``,
``preview-line``), ``bb-own-hand`` (the viewing seat's hand again, ``data-seat``), ``bb-pending pending-<phase> pending-seat-<s>`` (``decider``), ``bb-table``,
``bb-decks``, ``bb-deck deck-<resource|animal|ecosystem>`` with ``bb-pile`` (``data-deck`` the deck,
``data-count`` its cards, ``data-discard`` count, ``bb-discard-top``; ``target``), ``bb-market market-<deck>`` and its
``bb-slot slot-<n>`` (n = 1..3; ``empty``; ``target``), ``bb-resource res-<symbol>`` (``data-card``;
``selected``), ``bb-animal eco-<ECO>`` (``data-card`` the animal id; ``bb-stars``, ``bb-cost``,
``bb-battle-cost``, ``bb-power`` / ``bb-defence`` with ``data-power`` / ``data-defence`` the values
with the ecosystem bonus, ``bb-bonus``, ``bb-eco-symbol``, ``bb-abilities`` with ``bb-ability
trigger-<trigger>``; ``selected``), ``bb-ecosystem eco-<ECO>`` (``data-card`` the ecosystem id;
``selected``), ``bb-compete`` (``data-winner``; ``bb-die attack|defence``, ``bb-total attack-total|
defence-total``, ``bb-winner``), ``bb-seat seat-<s>`` (``to-move``, ``turn``, ``winner``;
``bb-badge``), ``bb-points`` (``data-points``), ``bb-animal-count`` (``data-animals``), ``bb-team
team-seat-<s>``, ``bb-ecos ecos-seat-<s>``, ``bb-hand hand-seat-<s>`` (``bb-back`` for a card the
viewer cannot see, ``count``), ``bb-events`` (``bb-event kind-<kind>``), ``legend``, ``provenance``.

The markup is ``explorer/web/templates/biome_blitz_board.html`` (Jinja2 with autoescape, ``explorer/web/markup.py``),
filled by :func:`biome_blitz_context` with plain values from the observation; its cards are the macros of
``biome_blitz_pieces.html``, each drawn once per way it is drawn (``*_markup``, cached: a board draws
dozens of cards per move, mostly as it drew them the move before).
"""

from __future__ import annotations

import json
from functools import lru_cache

from markupsafe import Markup

from explorer.boards.base import HtmlBoard, card_set_words, ended_early_line, step_counter, own_seat
from explorer.components.timeline import live_replay_problem, replay_problem_text
from explorer.core.palette import biome_colours, player_colour
from explorer.core.i18n import event_text, text
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.core.viewpoint import role_of
from explorer.web.markup import macro, render


WIN_POINTS, WIN_ANIMALS, MAX_ECOSYSTEMS = 30, 5, 3
DECKS = ("resource", "animal", "ecosystem")
SYMBOL_MARK = {"leaf": "❦", "water": "≈", "meat": "◆", "wild": "✱"}
#: The rules text's ability icons (カードの構造, アビリティアイコン); their words are the board's texts
#: ``biome_blitz_board.trigger.<trigger>`` (``explorer/locales/<lang>/biome_blitz_board.json``).
TRIGGERS = ("forage", "discover", "compete", "defend", "explore", "dice", "peek", "prevent", "defeated", "start_of_turn")


# ---------------------------------------------------------------------------- pieces (plain values for the template)
def say(key: str, lang: str = "en", **values) -> str:
    """The board's text ``key`` in ``lang`` (``locales/<lang>/biome_blitz_board.json``), filled in."""
    return text(f"biome_blitz_board.{key}", lang, **values)


def say_with(key: str, lang: str = "en", pieces: dict | None = None, **values) -> list:
    """As :func:`say`, as a list for the template's ``line()``: the text in strings, and each of
    ``pieces`` (a piece of markup the template draws: ``{"tag", "cls", "title", "text"}`` or
    ``{"chips"}``, or a list of strings and pieces) where the text names it."""
    pieces = pieces or {}
    said = say(key, lang, **values, **{name: f"\0{name}\0" for name in pieces})
    out: list = []
    for index, part in enumerate(said.split("\0")):
        if index % 2 == 0:
            out.append(part)
        else:
            piece = pieces[part]
            out.extend(piece if isinstance(piece, list) else [piece])
    return out


def element(tag: str, words, cls: str | None = None, title: str | None = None) -> dict:
    """A piece of markup for :func:`say_with`: ``<tag class title>words</tag>``."""
    return {"tag": tag, "cls": cls, "title": title, "text": str(words)}


def counted(key: str, count: int, lang: str = "en", **values) -> str:
    """``key.one`` or ``key.other``, with ``{count}`` filled in."""
    return say(f"{key}.{'one' if count == 1 else 'other'}", lang, count=count, **values)


def seat_name(seat: int, lang: str = "en") -> str:
    """``Player 1`` / ``プレイヤー1`` for seat 0 (as ``player_label``)."""
    return say("player", lang, number=seat + 1)


def symbol_name(symbol: str, lang: str = "en") -> str:
    """A resource symbol (leaf, water, meat, wild) in ``lang``; anything else as it is."""
    return say(f"symbol.{symbol}", lang) if symbol in SYMBOL_MARK else symbol


def chips(cost: dict, lang: str = "en") -> dict:
    """``{"leaf": 2, "meat": 1}`` as coloured chips (``free`` when empty), a piece for :func:`say_with`."""
    if not cost:
        return {"chips": [{"free": True, "text": say("chip.free", lang)}]}
    found = []
    for symbol, count in cost.items():
        background, ink = biome_colours(symbol)
        word = symbol_name(symbol, lang)
        found.append({"free": False, "background": background, "ink": ink, "title": say("chip.title", lang, count=count, symbol=word),
                      "text": f"{count}{SYMBOL_MARK.get(symbol, '')} {word}"})
    return {"chips": found}


def piece(name: str, face: dict) -> Markup:
    """The macro ``name`` of ``templates/biome_blitz_pieces.html`` filled with ``face``."""
    return macro("biome_blitz_pieces.html", name)(face)


@lru_cache(maxsize=1024)
def resource_markup(symbol: str, selected: bool = False, lang: str = "en") -> Markup:
    return piece("resource", resource_face(symbol, selected, lang))


def animal_markup(animal: dict, selected: bool = False, lang: str = "en") -> Markup:
    """An animal card's markup, cached by everything the observation says of it (its JSON: the card
    file's print and the team's bonus), which is all the markup is made of."""
    return _card_markup("animal", json.dumps(animal), selected, lang)


def ecosystem_markup(eco: dict, selected: bool = False, lang: str = "en") -> Markup:
    """An ecosystem card's markup, cached like :func:`animal_markup`."""
    return _card_markup("ecosystem", json.dumps(eco), selected, lang)


@lru_cache(maxsize=4096)
def _card_markup(kind: str, card_json: str, selected: bool, lang: str) -> Markup:
    face = {"animal": animal_face, "ecosystem": ecosystem_face}[kind]
    return piece(kind, face(json.loads(card_json), selected, lang))


def resource_face(symbol: str, selected: bool = False, lang: str = "en") -> dict:
    background, ink = biome_colours(symbol)
    word = symbol_name(symbol, lang)
    return {"symbol": symbol, "selected": selected, "background": background, "ink": ink, "word": word,
            "mark": SYMBOL_MARK.get(symbol, ""),
            "title": say("resource.wild_title", lang, symbol=word) if symbol == "wild" else word}


def animal_face(animal: dict, selected: bool = False, lang: str = "en") -> dict:
    """An animal card as printed (カードの構造): stars, cost, name and family, abilities, ecosystem symbol,
    battle cost, power/defence; in a team, the ecosystem bonus next to power and defence."""
    background, ink = biome_colours(f"animal_{animal['ecosystem']}")
    bonus = animal.get("bonus") or {}
    provenance = text("cards.provenance.assumed", lang) if animal["provenance"] == "assumed" else animal["provenance"]

    def plus(stat: str) -> list:
        return [" ", element("span", f"+{bonus[stat]}", "bb-bonus", say("card.ecosystem_bonus", lang))] if bonus.get(stat) else []

    return {"id": animal["id"], "ecosystem": animal["ecosystem"], "symbol": animal.get("symbol", animal["ecosystem"]),
            "selected": selected, "background": background, "ink": ink,
            "title": say("animal.title", lang, name=animal["name"], family=animal["family"], stars=animal["stars"],
                         provenance=provenance),
            "stars": animal["stars"], "name": animal["name"], "family": animal["family"],
            "symbol_title": say("animal.ecosystem_symbol", lang),
            "cost": say_with("card.cost", lang, {"chips": chips(animal["cost"], lang)}),
            "battle_cost": say_with("card.battle_cost", lang, {"chips": chips(animal["battle_cost"], lang)}),
            "power": animal["power"] + bonus.get("power", 0), "defence": animal["defence"] + bonus.get("defence", 0),
            "power_line": say_with("card.power", lang, {"bonus": plus("power")}, power=animal["power"]),
            "defence_line": say_with("card.defence", lang, {"bonus": plus("defence")}, defence=animal["defence"]),
            "abilities": [{"trigger": a["trigger"], "effect": a["effect"], "name": a["name"], "text": a["text"],
                           "trigger_name": say("trigger." + a["trigger"], lang) if a["trigger"] in TRIGGERS else a["trigger"]}
                          for a in animal["abilities"]]}


def ecosystem_face(eco: dict, selected: bool = False, lang: str = "en") -> dict:
    """An ecosystem card: its symbol, stars, cost and the bonus it gives matching animals."""
    background, ink = biome_colours(f"animal_{eco['id']}")
    symbol = eco.get("symbol", eco["id"])
    return {"id": eco["id"], "symbol": symbol, "selected": selected, "background": background, "ink": ink,
            "title": say("ecosystem.title", lang, name=eco["name"]), "stars": eco["stars"], "name": eco["name"],
            "cost": say_with("card.cost", lang, {"chips": chips(eco["cost"], lang)}) if "cost" in eco else None,
            "bonus": say("ecosystem.bonus", lang, ecosystem=symbol, power=eco["power"], defence=eco["defence"])}


# ---------------------------------------------------------------------------- the view
def animal_names(session: GameSession, lang: str = "en") -> dict[str, str]:
    """Animal card id -> its printed name in ``lang``, from the card file (a defeated animal has left the table)."""
    cards = session.card_set()
    return {card_id: cards.card_label(1, index)[lang] for card_id, index in cards.animal_by_id.items()}


def ecosystem_cards(session: GameSession, lang: str = "en") -> dict[str, dict]:
    """Ecosystem id -> its printed card (name, stars, bonus) in ``lang``, from the card file; its
    ``symbol``, what an ecosystem symbol says in ``lang``, is the id (``SAV``) in English and the name
    in another language."""
    return {e.id: {"id": e.id, "name": e.label[lang], "symbol": e.id if lang == "en" else e.label[lang], "stars": e.stars,
                   "power": e.power, "defence": e.defence}
            for e in session.card_set().ecosystems}


def printed_animals(session: GameSession, lang: str) -> dict[str, dict]:
    """Animal card id -> what its card prints in ``lang``, from the card file: the name, each ability's
    name and text. Nothing in English: the observation's cards say it already."""
    if lang == "en":
        return {}
    cards = session.card_set()
    return {card_id: {"name": cards.card_label(1, index)[lang],
                      "abilities": [(a.label[lang], a.texts[lang]) for a in cards.animals[index].abilities]}
            for card_id, index in cards.animal_by_id.items()}


def in_language(card: dict, animals: dict[str, dict], ecosystems: dict[str, dict]) -> dict:
    """An observation's animal or ecosystem card with the card file's words in the board's language
    (``animals`` from :func:`printed_animals`, ``ecosystems`` from :func:`ecosystem_cards`); a card
    the file does not know, as it is."""
    if "abilities" in card:
        printed = animals.get(card["id"])
        eco = ecosystems.get(card["ecosystem"])
        card = dict(card, symbol=eco["symbol"]) if eco else card
        if not printed:
            return card
        return dict(card, name=printed["name"], abilities=[dict(ability, name=name, text=text) for ability, (name, text)
                                                            in zip(card["abilities"], printed["abilities"])])
    eco = ecosystems.get(card["id"])
    return dict(card, name=eco["name"], symbol=eco["symbol"]) if eco else card


def selection_preview(session: GameSession, view: dict, lang: str = "en") -> dict:
    """What the selected action touches, from its own fields; nothing for another seat's selection."""
    data = session.selected_action
    if not data or len(view["to_move"]) != 1:
        return {}
    if session.viewing_seat is not None and data not in view["legal_actions"]:
        return {}
    try:
        label = session.spec.action_label(session.spec.decode_action(data), lang)
    except Exception:          # a stale or foreign selection draws nothing, and never breaks the board
        return {}
    kind = data.get("type")
    # A forage (or its second pick) takes from the resource market (slot 1-3) or the deck (slot 0).
    deck = "resource" if kind in ("forage", "forage_pick") else data.get("deck")
    slot = data.get("slot") if kind in ("forage", "forage_pick", "discover") else None
    animals = {data[f] for f in ("attacker", "defender", "animal") if isinstance(data.get(f), str)}
    return {"label": label, "seat": view["to_move"][0], "kind": kind, "deck": deck, "slot": slot, "animals": animals,
            "pay": list(data.get("pay") or ()), "ecosystem": data.get("ecosystem")}

def phase_line(view: dict, names: dict[str, str], lang: str = "en", ecosystems: dict[str, dict] | None = None) -> str:
    """Who decides what, in the rules text's words (animals by ``names``, ecosystems by ``ecosystems``' names)."""
    phase, movers = view["phase"], view["to_move"]
    who = seat_name(movers[0] if movers else view["seat"], lang)
    pending = view.get("pending") or {}
    animal = lambda key: names.get(pending.get(key), pending.get(key))  # noqa: E731
    if phase == "over":
        winners = say("list_separator", lang).join(seat_name(s, lang) for s in view["winners"])
        return say("phase.over", lang, winners=winners or say("phase.nobody", lang))
    ended = ended_early_line(view, lang)
    if ended:
        return ended
    if phase == "peek":
        return say("phase.peek", lang, who=who)
    if phase == "action":
        return say("phase.action", lang, who=who)
    if phase == "trade":
        return say("phase.trade", lang, who=who, partner=seat_name(pending["partner"], lang))
    if phase == "trade_reply":
        return say("phase.trade_reply", lang, who=who, asker=seat_name(pending["asker"], lang))
    if phase == "forage":
        return say("phase.forage", lang, who=who, took=symbol_name(pending["took"], lang))
    if phase == "replace":
        return say("phase.replace", lang, who=who, new=ecosystem_name(pending["new"], ecosystems))
    if phase == "cancel":
        return say("phase.cancel", lang, who=who, count=pending["count"], symbol=symbol_name(pending["symbol"], lang),
                   attacker=animal("attacker"), defender=animal("defender"))
    if phase == "reroll":
        return say("phase.reroll", lang, who=who, die=die_name(pending["die"], lang))
    if phase == "frenzy":
        return say("phase.frenzy", lang, who=who, attacker=animal("attacker"))
    return say("phase.other", lang, who=who, phase=phase)


def ecosystem_name(ecosystem_id: str, ecosystems: dict[str, dict] | None) -> str:
    """An ecosystem's printed name (``ecosystems`` from :func:`ecosystem_cards`), else its id."""
    return (ecosystems or {}).get(ecosystem_id, {}).get("name", ecosystem_id)


def die_name(die: str, lang: str = "en") -> str:
    """``attack`` / ``defence`` (which die) in ``lang``."""
    return say(f"die.{die}", lang) if die in ("attack", "defence") else str(die)


def pending_context(view: dict, names: dict[str, str], lang: str = "en",
                    ecosystems: dict[str, dict] | None = None) -> dict | None:
    """The decision in progress and who decides it."""
    pending, phase = view.get("pending"), view["phase"]
    if not pending or not view["to_move"]:
        return None
    decider = view["to_move"][0]
    animal = lambda key: names.get(pending.get(key), pending.get(key))  # noqa: E731
    cards = lambda symbols: (say("list_separator", lang).join(symbol_name(s, lang) for s in symbols)  # noqa: E731
                             or say("pending.nothing", lang))
    if phase in ("trade", "trade_reply"):
        asker = pending.get("asker", view["seat"])
        line = say_with(f"pending.{phase}", lang, {
            "asker": element("b", seat_name(asker, lang)), "partner": element("b", seat_name(pending["partner"], lang)),
            "give": element("span", cards(pending["give"]), "give"), "ask": element("span", cards(pending["ask"]), "ask")})
    elif phase == "forage":
        line = say_with("pending.forage", lang, {"took": element("b", symbol_name(pending["took"], lang))})
    elif phase == "replace":
        line = say_with("pending.replace", lang, {"new": element("b", ecosystem_name(pending["new"], ecosystems))})
    elif phase == "cancel":
        line = [say("pending.cancel", lang, attacker=animal("attacker"), owner=seat_name(pending["owner"], lang),
                    defender=animal("defender"), count=pending["count"], symbol=symbol_name(pending["symbol"], lang))]
    elif phase == "reroll":
        line = say_with("pending.reroll", lang, {"attack_die": element("span", pending["attack_roll"], "bb-die attack"),
                                                  "defence_die": element("span", pending["defence_roll"], "bb-die defence")},
                        attacker=animal("attacker"), defender=animal("defender"), die=die_name(pending["die"], lang))
    elif phase == "frenzy":
        line = [say("pending.frenzy", lang, attacker=animal("attacker"))]
    else:
        line = [str(pending)]
    if decider == view["viewer"]:       # (the seat's own page: the seat itself decides, not "Player 1" waited for)
        return {"phase": phase, "decider": decider, "line": say_with("pending.yours", lang, {"text": line})}
    return {"phase": phase, "decider": decider,
            "line": say_with("pending.waiting", lang, {"decider": element("b", seat_name(decider, lang), "decider"),
                                                        "text": line})}


def status_context(view: dict, *, step: int, moves: int, problem: str | None, preview: dict, names: dict[str, str],
                   lang: str, ecosystems: dict[str, dict] | None = None) -> dict:
    seer = (say("status.teacher", lang) if role_of(view) == "teacher"
            else say("status.spectator", lang) if view["viewer"] is None
            else say("status.seen_by", lang, player=seat_name(view["viewer"], lang)))
    return {"step_counter": step_counter(step, moves, lang),
            # (after the end nobody has a turn: "Turn 40 · Player 1's turn" was shown)
            "turn": say("status.over", lang, turns=view["turn"] + 1) if view["phase"] == "over"
            else say("status.ended", lang, turn=view["turn"] + 1) if view.get("ended_early")
            else say("status.turn", lang, turn=view["turn"] + 1, player=seat_name(view["seat"], lang)),
            "seen_as": seer, "phase": view["phase"], "phase_line": phase_line(view, names, lang, ecosystems),
            "problem": problem,
            "preview": say_with("status.preview", lang, {"label": element("b", preview["label"])}) if preview else None}


def deck_context(view: dict, deck: str, preview: dict, lang: str = "en", names: dict[str, str] | None = None,
                 ecosystems: dict[str, dict] | None = None, animals: dict[str, dict] | None = None) -> dict:
    """A deck, its discards and its three face-up cards, named as the card file prints them in ``lang``
    (``names``, ``ecosystems``, ``animals``: :func:`animal_names`, :func:`ecosystem_cards`, :func:`printed_animals`)."""
    data = view["decks"][deck]
    targeted = preview.get("deck") == deck
    top = data["discard_top"]
    face = {"resource": resource_markup, "animal": animal_markup, "ecosystem": ecosystem_markup}[deck]
    slots = []
    for number, card in enumerate(data["market"], start=1):
        slot = {"number": number, "target": targeted and preview.get("slot") == number}
        if card is None:
            slot["empty"] = say("deck.empty_slot", lang)
        elif deck == "resource":
            slot.update(empty=None, card=face(card, lang=lang))
        else:
            slot.update(empty=None, card=face(in_language(card, animals or {}, ecosystems or {}), lang=lang))
        slots.append(slot)
    if top and deck == "resource":
        top = symbol_name(top, lang)
    elif top:
        top = (names or {}).get(top, top) if deck == "animal" else ecosystem_name(top, ecosystems)
    return {"deck": deck, "target": targeted and preview.get("slot") in (0, None), "count": data["deck"],
            "discard": data["discard"], "title": say("deck." + deck, lang),
            "back_title": counted("deck.face_down", data["deck"], lang),
            "count_line": say("deck.count", lang, count=data["deck"]),
            # (no "discards: 0" above "no discards")
            "discard_line": say("deck.discards", lang, count=data["discard"]) if data["discard"] else "",
            "top_line": say("deck.top", lang, card=top) if top else say("deck.no_discards", lang),
            "slots": slots}


def compete_context(view: dict, names: dict[str, str], lang: str = "en") -> dict:
    """The dice of the last compete: both rolls, both totals (roll + power or defence and bonuses), the winner."""
    last = view.get("last_compete")
    if not last:
        return {"last": None, "title": say("compete.title", lang), "none": say("compete.none", lang)}
    on_table = {a["id"] for team in view["teams"] for a in team}

    def name(key: str) -> str:
        animal = names.get(last[key], last[key])
        # defeated, or taken down by a defeated animal
        return animal if last[key] in on_table else say("compete.discarded", lang, animal=animal)

    won = "attacker" if last["winner"] == last["attacker_seat"] else "defender"
    return {"last": True, "title": say("compete.title", lang), "winner": last["winner"],
            "attack_die": say("compete.attack_die", lang), "attack_roll": last["attack_roll"],
            "defence_die": say("compete.defence_die", lang), "defence_roll": last["defence_roll"],
            "attack": say_with("compete.attack", lang, {"total": element("span", last["attack_total"], "bb-total attack-total")},
                               player=seat_name(last["attacker_seat"], lang), animal=name("attacker")),
            "defence": say_with("compete.defence", lang,
                                {"total": element("span", last["defence_total"], "bb-total defence-total")},
                                player=seat_name(last["defender_seat"], lang), animal=name("defender")),
            "winner_line": say("compete.winner", lang, player=seat_name(last["winner"], lang), side=say(f"side.{won}", lang))}


def seat_context(view: dict, seat: int, preview: dict, ecosystems: dict[str, dict], lang: str = "en",
                 animals: dict[str, dict] | None = None) -> dict:
    classes = ["bb-seat", f"seat-{seat}"]
    badges = []
    if seat == view["seat"] and view["phase"] != "over" and not view.get("ended_early"):
        classes.append("turn")
        # (the viewing seat's own: "your turn", not "their turn" beside "you")
        badges.append({"kind": "", "text": say("seat.your_turn" if seat == view["viewer"] else "seat.their_turn", lang)})
    if seat in view["to_move"]:
        classes.append("to-move")
        badges.append({"kind": "deciding", "text": say("seat.to_decide", lang)})
    if seat in view["winners"]:
        classes.append("winner")
        badges.append({"kind": "winner", "text": say("seat.winner", lang)})
    if seat == view["viewer"]:
        badges.append({"kind": "", "text": say("seat.you", lang)})
    mine = seat == preview.get("seat")
    team = view["teams"][seat]
    points = view["points"][seat]
    held = view["ecosystems"][seat]
    hand = view["hands"][seat]
    if "cards" in hand:
        paying = list(preview.get("pay", ())) if mine else []
        cards = []
        for symbol in hand["cards"]:
            picked = symbol in paying
            if picked:
                paying.remove(symbol)
            cards.append(resource_markup(symbol, picked, lang))
        backs, hand_count = 0, None
    else:
        cards, backs, hand_count = [], hand["count"], counted("seat.face_down", hand["count"], lang)
    return {"seat": seat, "classes": " ".join(classes), "colour": player_colour(seat), "name": seat_name(seat, lang),
            "badges": badges, "points": points, "points_line": say("seat.points", lang, points=points, goal=WIN_POINTS),
            "points_width": min(100, 100 * points // WIN_POINTS), "animals": len(team),
            "animals_line": say("seat.animals", lang, animals=len(team), goal=WIN_ANIMALS),
            "animals_width": min(100, 100 * len(team) // WIN_ANIMALS),
            "team_label": say("seat.team", lang), "no_animals": say("seat.no_animals", lang),
            "team": [animal_markup(in_language(a, animals or {}, ecosystems), a["id"] in preview.get("animals", ()), lang)
                     for a in team],
            "ecos_label": say("seat.ecosystems", lang, held=len(held), most=MAX_ECOSYSTEMS),
            "no_ecosystems": say("seat.no_ecosystems", lang),
            "ecos": [ecosystem_markup(ecosystems.get(e, {"id": e, "name": e, "stars": 0, "power": 0, "defence": 0}),
                                      mine and preview.get("ecosystem") == e, lang) for e in held],
            "hand_label": counted("seat.hand", hand["count"], lang), "hand": cards, "backs": backs,
            "back_title": say("seat.card_back", lang, player=seat_name(seat, lang)), "hand_count": hand_count,
            "no_cards": say("seat.no_cards", lang)}


def own_hand_context(view: dict, seats: list[dict], lang: str = "en") -> dict | None:
    """The viewing seat's own hand, drawn again at the top of the table (``bb-own-hand``): the seat's
    panel is below the markets, out of sight on a laptop's screen while its player chooses how to pay.
    None for the teacher and spectators (:func:`own_seat`)."""
    viewer = own_seat(view)
    if viewer is None:
        return None
    seat = seats[viewer]
    return {"seat": viewer, "label": counted("own.hand", view["hands"][viewer]["count"], lang), "hand": seat["hand"],
            "no_cards": seat["no_cards"]}


def biome_blitz_context(view: dict, *, step: int, moves: int, names: dict[str, str], ecosystems: dict[str, dict],
                        problem: str | None = None, preview: dict | None = None, lang: str = "en",
                        animals: dict[str, dict] | None = None, standard: bool = True) -> dict:
    """Everything ``templates/biome_blitz_board.html`` shows, from one observation (``view``): plain
    values only. ``names`` (animal id -> name), ``ecosystems`` (id -> printed card) and ``animals`` (id ->
    printed words, :func:`printed_animals`) come from the card file in ``lang``, ``preview`` from
    :func:`selection_preview`; ``problem`` is shown as given."""
    preview = preview or {}
    card_set = {"name": "?", "provenance": "?", **(view.get("card_set") or {})}
    source = str(card_set["provenance"])
    set_name, provenance = card_set_words("biome_blitz", card_set, lang, standard)
    swatches = [{"colour": biome_colours(s)[0], "name": symbol_name(s, lang)} for s in ("leaf", "water", "meat", "wild")]
    swatches += [{"colour": biome_colours("animal_" + e)[0],
                  "name": card["name"] if card.get("symbol", e) == card["name"] else f"{card.get('symbol', e)} {card['name']}"}
                 for e, card in ecosystems.items()]
    seats = [seat_context(view, seat, preview, ecosystems, lang, animals) for seat in range(view["players"])]
    return {
        "status": status_context(view, step=step, moves=moves, problem=problem, preview=preview, names=names, lang=lang,
                                 ecosystems=ecosystems),
        "pending": pending_context(view, names, lang, ecosystems),
        "decks": [deck_context(view, deck, preview, lang, names, ecosystems, animals) for deck in DECKS],
        "compete": compete_context(view, names, lang),
        "columns": 3 if view["players"] % 2 else 2,
        "seats": seats,
        "own": own_hand_context(view, seats, lang),
        "events_title": say("events.this_step" if step else "events.deal", lang),
        "events": [{"kind": e.get("kind", ""), "text": event_text(e, lang)} for e in view["events"] if e.get("text")],
        "legend": {"swatches": swatches, "key": say_with("legend.key", lang, {"bonus": element("span", "+n", "bb-bonus")})},
        "provenance": say("provenance.line", lang, name=set_name, source=provenance,
                          caveat=say("provenance.caveat", lang) if source == "assumed" else ""),
    }


def biome_blitz_html(session: GameSession, lang: str = "en") -> str:
    """The Biome Blitz table for the session's viewpoint, from its observation only, its texts in ``lang``."""
    view = session.view()
    problem = live_replay_problem(session)
    return render("biome_blitz_board.html", **biome_blitz_context(
        view, step=session.cursor, moves=len(session.log), names=animal_names(session, lang),
        ecosystems=ecosystem_cards(session, lang), animals=printed_animals(session, lang),
        problem=replay_problem_text(session, problem, lang) if problem else None,
        preview=selection_preview(session, view, lang), lang=lang, standard=session.card_set().is_standard))


class BiomeBlitzBoard(HtmlBoard):
    """The Biome Blitz table of a session, redrawn whenever the viewed state, seat or selection changes."""

    GAME, CSS = "biome_blitz", stylesheet("boards/biome_blitz")

    def draw(self, session: GameSession, lang: str) -> str:
        return biome_blitz_html(session, lang)

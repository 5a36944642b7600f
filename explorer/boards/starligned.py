"""The Starligned table: each row of star cards left to right, the moon cards, the hands, the round.

Follows the rules text (ラウンドのプレイ) as read by docs/readings.md, "Starligned": every player builds a
row of star cards; a card's upper half is active (value and effect), the other half is drawn small
and upside down; its half-moon sits on the edge the observation reports, so two neighbouring cards
meeting in a full moon can be seen; a moon card lies over the blocked pair it covers.

Drawn from ``observe()`` only, like the other boards: a seat's view holds that seat's hand (with each
card's orientation) and its face-down phase-1 choice, and of the others only how many cards they
hold and whether they have chosen. The teacher's view is ``observe(state, ALL)``
(``session.view()``): every hand and choice. Whose decision is pending is read from ``to_move``, ``resolver`` and
``pending`` (a repeated effect's owner, an exchanged card's owner), never decided here.

A selected, unconfirmed action (``session.selected_action``) is previewed from its own fields: the
cards it names light up. A seat's view previews only an action among its own legal actions.

CSS classes the tests rely on (seats 0-based; the page says "Player 1" for seat 0): ``sl-board``,
``sl-status`` (``step-counter``, ``sl-stage``, ``sl-phase phase-<phase>``, ``viewer``, ``problem``,
``preview-line``), ``sl-pending pending-seat-<s>``, ``sl-table`` (``moon-supply``, ``sl-direction``,
``sl-order``), ``sl-seat seat-<s>`` (``to-move``, ``start``, ``winner``, ``resolving``),
``sl-row row-seat-<s>``, ``sl-pair`` (``data-pair``) with its ``sl-moon-card``, ``sl-card``
(``data-card`` the card as moves name it, ``S103``; ``data-face`` as it lies, ``S103r`` turned; ``rotated``, ``blocked``, ``moon-left`` / ``moon-right``,
``last``, ``effect-now``, ``selected``), ``sl-hand hand-seat-<s>``, ``sl-back`` (a card the viewer
cannot see), ``sl-chosen chosen-seat-<s>`` (the phase-1 face-down card or phase-4 rotation),
``sl-events``, ``provenance``.

Every text the board shows is read in the board's language (``lang``: ``text()`` of
``explorer/locales/<lang>/starligned_board.json``, in the rulebook's words); card ids, constellations
and the card list's name come from the card data and stay as they are; an event is shown in the
board's language where the game writes it (else in English); the engine's own words (a previewed
action's label, the reason a replayed move became illegal) stay as the engine gives them.

The markup is ``explorer/web/templates/starligned_board.html`` (Jinja2 with autoescape, ``explorer/web/markup.py``),
filled by :func:`starligned_context` with plain values from the observation; a star card is the macro
of ``starligned_pieces.html``, drawn once per way it is drawn (:func:`card_markup`, cached: a board
draws dozens of cards per move, mostly as it drew them the move before).
"""

from __future__ import annotations

import json
from functools import lru_cache

from markupsafe import Markup

from explorer.boards.base import HtmlBoard, card_set_words, ended_early_line, step_counter
from explorer.components.timeline import live_replay_problem, replay_problem_text
from explorer.core.palette import biome_colours, player_colour
from explorer.core.i18n import event_text, text
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.core.viewpoint import role_of
from explorer.web.markup import macro, render


STAGES, ROUNDS = 2, 5
#: The effects with a name in the board's texts (``starligned_board.effect.<effect>``).
EFFECTS = ("stop", "swap", "move", "rotate_card", "rotate_telescope", "repeat", "exchange", "x2", "x0")
#: What an action's fields name: these card ids light up in a preview.
CARD_FIELDS = ("card", "first", "second", "pair")


def t(key: str, lang: str = "en", **values) -> str:
    """One of the board's interface texts (``explorer/locales/<lang>/starligned_board.json``)."""
    return text(f"starligned_board.{key}", lang, **values)


def player_name(seat: int | None, lang: str = "en") -> str:
    """"Player 1" / "プレイヤー1" for seat 0 (seats are 0-based in the rules, players 1-based on screen)."""
    return t("teacher", lang) if seat is None else t("player", lang, number=seat + 1)


def names_text(seats, lang: str = "en") -> str:
    return t("list_separator", lang).join(player_name(s, lang) for s in seats)


#: English names of the effects (kept for older callers; the board reads its texts in its language).
EFFECT_LABEL = {effect: t(f"effect.{effect}") for effect in EFFECTS}


# ---------------------------------------------------------------------------- pieces (plain values for the template)
def marked(key: str, lang: str = "en", **values) -> Markup:
    """A board text that may hold markup of its own (``<b>{count}</b>``), its values escaped."""
    return Markup(text(f"starligned_board.{key}", lang)).format(**values)


def effect_text(effect: str, lang: str = "en") -> str:
    return t(f"effect.{effect}", lang) if effect in EFFECTS else effect.replace("_", " ")


def card_face(card: dict, position: int | None = None, extra: tuple[str, ...] = (), lang: str = "en") -> dict:
    """One star card from its observation: active half large, the other small and upside down."""
    background, ink = biome_colours(card["constellation"])
    classes = ["sl-card", f"moon-{card['half_moon']}", *extra]
    if card["rotated"]:
        classes.append("rotated")
    if card.get("blocked"):
        classes.append("blocked")
    other = card["other_half"]
    edge = card["half_moon"]
    title = t("card.title_blocked" if card.get("blocked") else "card.title", lang, card=card["card"],
              value=card["value"], effect=effect_text(card["effect"], lang), other_value=other["value"],
              other_effect=effect_text(other["effect"], lang), constellation=card["constellation"],
              edge=t(f"edge.{edge}", lang) if edge in ("left", "right") else edge)
    return {"classes": " ".join(c for c in classes if c), "card": card["card"], "title": title, "id": card["id"],
            "background": background, "ink": ink, "position": position, "value": card["value"],
            "effect": effect_text(card["effect"], lang), "other_value": other["value"],
            "other_effect": effect_text(other["effect"], lang)}


def card_markup(card: dict, position: int | None = None, extra: tuple[str, ...] = (), lang: str = "en") -> Markup:
    """A star card's markup (the ``card`` macro of ``templates/starligned_pieces.html``), made once for each
    way it is drawn: cached by everything the observation says of the card (its JSON), its place and marks."""
    return _card_markup(json.dumps(card), position, extra, lang)


@lru_cache(maxsize=8192)
def _card_markup(card_json: str, position: int | None, extra: tuple[str, ...], lang: str) -> Markup:
    return macro("starligned_pieces.html", "card")(card_face(json.loads(card_json), position, extra, lang))


# ---------------------------------------------------------------------------- the view
def selection_preview(session: GameSession, view: dict, lang: str = "en") -> dict:
    """The selected action's label in ``lang`` (as the picker names it) and the card ids it names
    (and the row it names, if any)."""
    data = session.selected_action
    if not data or not view["to_move"]:
        return {}
    if session.viewing_seat is not None and data not in view["legal_actions"]:
        return {}             # another seat's selection is never previewed in this seat's view
    try:
        # (named as the picker names the seat's moves: each card with the half it shows, read from the view)
        piles = [hand.get("cards") or () for hand in view["hands"]] + list(view["rows"])
        halves = {card["id"]: (card["card"], card["value"], card["effect"]) for pile in piles for card in pile}
        label = session.spec.named_action(session.spec.decode_action(data), lang, halves)
    except Exception:         # a stale or foreign selection draws nothing, and never breaks the board
        return {}
    cards = {data[field] for field in CARD_FIELDS if isinstance(data.get(field), str)}
    return {"label": label, "type": data.get("type"), "cards": cards, "row": data.get("row")}


def resolving_card(view: dict) -> tuple[int, str] | None:
    """(row owner, card id) of the effect being resolved: a pending card, else the resolver's rightmost card."""
    if view.get("pending"):
        return view["pending"]["seat"], view["pending"]["card"]
    resolver = view.get("resolver")
    if view["phase"] == "effect" and resolver is not None and view["rows"][resolver]:
        return resolver, view["rows"][resolver][-1]["id"]
    return None


def phase_line(view: dict, lang: str = "en") -> str:
    """Who decides what, in the rulebook's words."""
    phase, movers = view["phase"], view["to_move"]
    names = names_text(movers, lang)
    resolver = view.get("resolver")
    ended = ended_early_line(view, lang)
    if ended:
        return ended
    if phase == "play":
        return t("phase.play", lang, names=names)
    if phase == "rotate":
        return t("phase.rotate", lang, names=names)
    if phase == "moon":
        return t("phase.moon", lang, player=player_name(resolver, lang))
    if phase == "effect":
        last = view["rows"][resolver][-1] if view["rows"][resolver] else None
        if last is None:
            return t("phase.effect_unknown", lang, player=player_name(resolver, lang))
        return t("phase.effect", lang, player=player_name(resolver, lang), effect=effect_text(last["effect"], lang),
                 card=last["id"])
    if phase in ("repeat", "exchange"):
        pending = view["pending"]
        return t(f"phase.{phase}", lang, owner=player_name(pending["seat"], lang), card=pending["card"],
                 player=player_name(resolver, lang))
    if phase == "over":
        winners = view.get("winners") or []
        return t("phase.over_winner" if len(winners) == 1 else "phase.over_shared", lang,
                 names=names_text(winners, lang) or t("phase.nobody", lang))
    return t("phase.other", lang, phase=phase, names=names)


def status_context(view: dict, *, step: int, moves: int, problem: str | None, preview: dict, lang: str) -> dict:
    seer = (t("view.teacher", lang) if role_of(view) == "teacher"
            else t("view.spectator", lang) if view["viewer"] is None
            else t("view.seat", lang, player=player_name(view["viewer"], lang)))
    stage = (t("stage", lang, stage=min(view["stage"], STAGES - 1) + 1, stages=STAGES,
               round=min(view["round"], ROUNDS - 1) + 1, rounds=ROUNDS)
             if view["phase"] != "over" else t("stage.over", lang, stages=STAGES))
    return {"step_counter": step_counter(step, moves, lang), "stage": stage, "seen_as": seer,
            "phase": view["phase"], "phase_line": phase_line(view, lang), "problem": problem,
            "preview": marked("preview", lang, action=preview["label"]) if preview else None}


def pending_context(view: dict, lang: str) -> dict | None:
    """A decision that belongs to another player than the one resolving phase 3."""
    pending = view.get("pending")
    if not pending:
        return None
    key = view["phase"] if view["phase"] in ("repeat", "exchange") else "other"
    if pending["seat"] == view["viewer"]:       # (its own page: not "Waiting for Player 2" said to Player 2)
        key = f"yours_{key}"
    return {"seat": pending["seat"], "line": marked(f"pending.{key}", lang, player=player_name(pending["seat"], lang),
                                                    card=pending["card"], resolver=player_name(view["resolver"], lang))}


def table_context(view: dict, lang: str) -> dict:
    players, start = view["players"], view["start_player"]
    order = [(start + i) % players for i in range(players)]
    resolver = view.get("resolver")

    def short(s: int) -> str:
        return t("player_short", lang, number=s + 1)

    order_text = Markup(" → ").join(Markup('<span class="now">{}</span>').format(short(s)) if s == resolver else short(s)
                                    for s in order)
    more = [marked("table.discard", lang, count=view["discard"]["count"])]
    if view["box"]:
        more.append(marked("table.box", lang, count=len(view["box"])))
    if view["stopped"]:
        more.append(marked("table.stopped", lang))
    if view.get("ignored"):
        more.append(marked("table.ignored", lang, cards=t("list_separator", lang).join(view["ignored"])))
    return {"direction_title": t("table.direction_title", lang),
            "start_player": marked("table.start_player", lang, player=player_name(start, lang)),
            "order": marked("table.order", lang, order=order_text),
            "passing": marked("table.pass", lang, order=" → ".join(short(s) for s in [*range(players), 0])),
            "deck": marked("table.deck", lang, count=view["deck"]["count"]),
            "moon_supply": marked("table.moon_supply", lang, count=view["moon_supply"]), "more": more}


def row_context(view: dict, seat: int, preview: dict, now: tuple[int, str] | None, lang: str) -> list[dict]:
    """The row left to right; a moon card over each pair it covers."""
    row = view["rows"][seat]
    pairs = {tuple(pair) for pair in view["moons"][seat]}
    lit = preview.get("cards", set()) if preview.get("row") in (None, seat) and preview.get("type") != "play" else set()

    def one(i: int) -> dict:
        card = row[i]
        extra = []
        if i == len(row) - 1:
            extra.append("last")
        if now == (seat, card["id"]):
            extra.append("effect-now")
        if card["id"] in lit:
            extra.append("selected")
        return card_markup(card, i + 1, tuple(extra), lang)

    items, i = [], 0
    while i < len(row):
        if i + 1 < len(row) and (row[i]["id"], row[i + 1]["id"]) in pairs:
            pair = f"{row[i]['id']} {row[i + 1]['id']}"
            items.append({"pair": pair, "title": t("row.moon_card_title", lang, pair=pair),
                          "label": marked("row.moon_card", lang), "cards": [one(i), one(i + 1)]})
            i += 2
        else:
            items.append({"pair": None, "card": one(i)})
            i += 1
    return items


def chosen_context(view: dict, seat: int, lang: str) -> dict | None:
    """Phase 1: the face-down card (its face for its owner only); phase 4: whether the seat has rotated."""
    chosen = view["chosen"][seat]
    phase = view["phase"]
    if phase not in ("play", "rotate"):
        return None
    found = {"label": marked("zone.phase1" if phase == "play" else "zone.phase4", lang), "waiting": False,
             "card": None, "back": None, "after": ""}
    if phase == "play" and "card" in chosen:
        whose = t("chosen.only_you" if view["viewer"] == seat else "chosen.teacher", lang)
        found["before"], _, found["after"] = marked("chosen.face_down", lang, whose=whose, card="\0").partition("\0")
        found["card"] = card_markup(chosen["card"], lang=lang)
    elif phase == "play" and chosen.get("chosen"):
        found["before"], _, found["after"] = marked("chosen.chosen", lang, back="\0").partition("\0")
        found["back"] = t("back.chosen", lang)
    elif phase == "play":
        found.update(before=marked("chosen.choosing", lang), waiting=True)
    else:
        rotated = bool(chosen.get("rotated"))
        found.update(before=marked("chosen.rotated" if rotated else "chosen.rotating", lang), waiting=not rotated)
    return found


def seat_context(view: dict, seat: int, preview: dict, now: tuple[int, str] | None, lang: str) -> dict:
    classes = ["sl-seat", f"seat-{seat}"]
    badges = []
    if seat == view["start_player"]:
        classes.append("start")
        badges.append({"kind": "start-card", "text": marked("badge.start", lang)})
    if seat == view.get("resolver") and not view.get("ended_early"):
        classes.append("resolving")
        badges.append({"kind": "", "text": marked("badge.resolving", lang)})
    if seat in view["to_move"]:
        classes.append("to-move")
        badges.append({"kind": "deciding", "text": marked("badge.deciding", lang)})
    if seat in (view.get("winners") or []):
        classes.append("winner")
        badges.append({"kind": "winner", "text": marked("badge.winner", lang)})
    if seat == view["viewer"]:
        badges.append({"kind": "", "text": marked("badge.you", lang)})
    moons = len(view["moons"][seat])
    hand = view["hands"][seat]
    if "cards" in hand:
        lit = preview.get("cards", set()) if preview.get("type") in ("play", "exchange_with", "rotate_hand") else set()
        held = [card_markup(card, extra=("selected",) if card["id"] in lit else (), lang=lang) for card in hand["cards"]]
        backs = 0
    else:
        held, backs = [], hand["count"]
    return {"seat": seat, "classes": " ".join(classes), "colour": player_colour(seat), "name": player_name(seat, lang),
            "badges": badges, "moons": marked("moons.one" if moons == 1 else "moons.many", lang, count=moons),
            "score": marked("score", lang, score=view["scores"][seat]),
            "row_label": marked("zone.row", lang, count=len(view["rows"][seat]), total=STAGES * ROUNDS),
            "row": row_context(view, seat, preview, now, lang),
            "hand_label": marked("zone.hand", lang, count=hand["count"]), "hand": held, "backs": backs,
            "back_title": t("back.hand", lang, player=player_name(seat, lang)),
            "chosen": chosen_context(view, seat, lang)}


def starligned_context(view: dict, *, step: int, moves: int, problem: str | None = None, preview: dict | None = None,
                       lang: str = "en", standard: bool = True) -> dict:
    """Everything ``templates/starligned_board.html`` shows, from one observation (``view``): plain
    values only; ``preview`` from :func:`selection_preview`, ``problem`` shown as given."""
    preview = preview or {}
    now = resolving_card(view)
    groups = sorted({card["constellation"] for row in view["rows"] for card in row}
                    | {card["constellation"] for hand in view["hands"] for card in hand.get("cards", ())})
    card_set = view.get("card_set", {})
    return {"t": lambda key: marked(key, lang),
            "status": status_context(view, step=step, moves=moves, problem=problem, preview=preview, lang=lang),
            "pending": pending_context(view, lang), "table": table_context(view, lang),
            "seats": [seat_context(view, seat, preview, now, lang) for seat in range(view["players"])],
            "events": [event_text(e, lang) for e in view["events"] if e.get("text")],
            "events_title": marked("events" if step else "events_deal", lang),
            "legend": [{"colour": biome_colours(g)[0], "name": g} for g in groups],
            "provenance": marked("provenance", lang, **dict(zip(("name", "provenance"),
                                                               card_set_words("starligned", card_set, lang, standard))))}


def starligned_html(session: GameSession, lang: str = "en") -> str:
    """The Starligned table for the session's viewpoint, from its observation only, in ``lang``."""
    view = session.view()
    problem = live_replay_problem(session)
    return render("starligned_board.html", **starligned_context(
        view, step=session.cursor, moves=len(session.log),
        problem=replay_problem_text(session, problem, lang) if problem else None,
        preview=selection_preview(session, view, lang), lang=lang, standard=session.card_set().is_standard))


class StarlignedBoard(HtmlBoard):
    """The Starligned table of a session, redrawn whenever the viewed state, seat or selection changes."""

    GAME, CSS = "starligned", stylesheet("boards/starligned")

    def draw(self, session: GameSession, lang: str) -> str:
        return starligned_html(session, lang)

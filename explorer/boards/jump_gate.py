"""The Jump Gate table: the ring of planets, the Jump Gate, the black hole, each player's supply.

Drawn from ``observe()`` only, like the other boards: a seat's view holds that seat's NavComp hand
and hidden resources and only the counts of everyone else's; face-down resources are card backs for
every viewer, the teacher included (nobody at the table can see them). The teacher's view is
``observe(state, ALL)`` (``session.view()``): every hand and hidden resource.

The table follows the rules text: the planets lie in a circle (docs/readings.md, "Jump Gate 1": the
first and the last are neighbours; BGA shows a row), each with its three codes (blue square Jump,
green circle Scan, yellow triangle Land & Claim) and four resource slots; the ships start at the
Jump Gate, drawn in the middle of the ring with the black-hole zone (seven markers end the game).
On a narrow screen the ring becomes a row, with a note that it wraps round.

A selected, unconfirmed action (``session.selected_action``) is previewed from its own fields only:
the planet it flies, jumps or acts at, the resource slot it takes or marks, and the hand cards it
discards. Which actions are legal is never decided here.

Every text the board shows is in the board's language (``lang``: English or Japanese), from
``explorer/locales/<lang>/jump_gate_board.json`` (the Japanese follows the rulebook's terms); planets
and resource types are named as the component file prints them in that language (``name_ja``, else
the English: :func:`planet_names`, :func:`resource_info`), the standard component set by
``card_set_words``, NavComp cards by their codes, and events show the game's text in that language
where the engine writes one.

CSS classes the tests and screenshots rely on (seats 0-based; the page says "Player 1" for seat 0):
``jg-board``, ``jg-status`` (``step-counter``, ``jg-phase``, ``viewer``, ``problem``, ``preview-line``),
``jg-own-hand`` (the viewing seat's NavComp hand again, above the ring; ``data-seat``),
``jg-ring``, ``jg-planet planet-<id>`` (``data-planet``, also ``claimed claimed-by-<s>``, ``focus``,
``target``), ``jg-code jg-code-jump|scan|land``, ``jg-resource`` (``slot-<n>``, ``res-<type>`` with
``data-card`` when face up; on the planet in focus ``data-face`` instead, with ``data-whole``,
``data-slot`` and ``data-kind``: a place to mark or harvest; ``face-down``, ``empty``, ``target``), ``jg-bh-icon``, ``jg-marker
marker-seat-<s>``, ``jg-ship ship-seat-<s>``, ``jg-gate``, ``jg-black-hole`` (``bh-marker``),
``seat seat-<s>``, ``jg-hand hand-seat-<s>``, ``jg-navcomp`` (``data-card``; ``back`` when face
down; ``selected`` in a preview), ``jg-hidden hidden-seat-<s>``, ``jg-gained gained-seat-<s>``,
``markers-left``, ``jg-events``, ``provenance``.

The markup is ``explorer/web/templates/jump_gate_board.html`` (Jinja2 with autoescape, ``explorer/web/markup.py``),
filled by :func:`jump_gate_context` with plain values from the observation; its pieces (codes, markers,
ships, NavComps, resources) are the macros of ``jump_gate_pieces.html``, each drawn once per way it is
drawn (``*_markup``, cached: a board draws dozens of them per move, mostly as it drew them the move before).
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

from markupsafe import Markup, escape

from explorer.boards.base import HtmlBoard, card_set_words, ended_early_line, step_counter, own_seat
from explorer.components.timeline import live_replay_problem, replay_problem_text
from explorer.core.palette import biome_colours, player_colour
from explorer.core.i18n import event_text, text
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.core.viewpoint import role_of
from explorer.web.markup import macro, render
from rules.jump_gate.cards import SHAPE_LETTER


SHAPE_OF_LETTER = {letter: shape for shape, letter in SHAPE_LETTER.items()}
#: The ring as an ellipse in percent of the ring box (the planets' centres lie on it), and the box's
#: width / height by the number of planets: flatter for few planets, rounder for many, so that
#: neighbouring planet cards never overlap at the ring's smallest width (700px).
RING_RADIUS_X, RING_RADIUS_Y = 37.5, 39.0
RING_ASPECT = {6: 1.6, 7: 1.5, 8: 1.4, 9: 1.25}


# ---------------------------------------------------------------------------- texts
def say(key: str, lang: str = "en", **values) -> str:
    """The board's interface text ``key`` (``locales/<lang>/jump_gate_board.json``), filled in."""
    return text(f"jump_gate_board.{key}", lang, **values)


def player_name(seat: int, lang: str = "en") -> str:
    """"Player 1" / "プレイヤー1" (seats are 0-based, players 1-based on screen)."""
    return say("player", lang, n=seat + 1)


def short_name(seat: int, lang: str = "en") -> str:
    """"P1": a seat on a ship or a small badge."""
    return say("short", lang, n=seat + 1)


def listed(items, lang: str = "en") -> str:
    return say("list_separator", lang).join(items)


def counted(key: str, n: int, lang: str = "en") -> str:
    """``key_one`` for one, ``key_many`` otherwise, with ``{n}`` filled."""
    return say(f"{key}_{'one' if n == 1 else 'many'}", lang, n=n)


def actions_left_text(view: dict, lang: str = "en") -> str:
    """How many actions the turn has left. An action is counted once it has ended: while a Scan waits
    for its marker (or a Research, a claim's takes), the one under way is said to be so, not left over
    ("2 actions left" stood beside a tutorial step saying one was left)."""
    left = view["actions_left"]
    if view["phase"] in ACTION_UNDER_WAY and left >= 1:
        return say("action_under_way_last", lang) if left == 1 else say("action_under_way", lang, n=left - 1)
    return counted("actions_left", left, lang)


#: The phases in which the turn's current action is under way (rules/jump_gate/state.py).
ACTION_UNDER_WAY = ("mark", "research", "claim_take", "claim_pick")

#: English texts, for code that read these tables before the board spoke two languages.
SHAPE_TITLES = {shape: say(f"shape.{shape}") for shape in ("jump", "scan", "land")}
PHASE_LINES = {phase: say(f"phase.{phase}") for phase in ("action", "mark", "research", "claim_take", "claim_pick")}


# ---------------------------------------------------------------------------- pieces (plain values for the template)
def piece(name: str, face: dict) -> Markup:
    """The macro ``name`` of ``templates/jump_gate_pieces.html`` filled with ``face``."""
    return macro("jump_gate_pieces.html", name)(face)


def code_face(shape: str, code: str, lang: str = "en") -> dict:
    """A code in its shape: blue square (jump), green circle (scan), yellow triangle (land)."""
    title = say("code_title_wild" if code == "~" else "code_title", lang, shape=say(f"shape.{shape}", lang), code=code)
    return {"shape": shape, "code": code, "title": title}


def navcomp_codes(card: str) -> list[tuple[str, str]]:
    """``[("jump", "1"), ("scan", "~")]`` from a NavComp name like ``J1-S~`` (cards.py names them so)."""
    return [(SHAPE_OF_LETTER[part[0]], part[1:]) for part in card.split("-") if part and part[0] in SHAPE_OF_LETTER]


def navcomp_face(card: str | None, selected: bool = False, lang: str = "en") -> dict:
    """A NavComp card with its codes in their shapes, or a card back (``None``)."""
    if card is None:
        return {"back": True, "title": say("navcomp_back", lang)}
    return {"back": False, "card": card, "selected": selected, "title": say("navcomp_title", lang, card=card),
            "codes": [code_face(shape, code, lang) for shape, code in navcomp_codes(card)]}


@lru_cache(maxsize=1024)
def code_markup(shape: str, code: str, lang: str = "en") -> Markup:
    return piece("code", code_face(shape, code, lang))


@lru_cache(maxsize=4096)
def navcomp_markup(card: str | None, selected: bool = False, lang: str = "en") -> Markup:
    """A NavComp card's markup (its codes read from its name), or a card back (``None``)."""
    return piece("navcomp", navcomp_face(card, selected, lang))


def marker_face(seat: int, lang: str = "en") -> dict:
    return {"seat": seat, "colour": player_colour(seat), "title": say("marker_title", lang, who=player_name(seat, lang))}


def ship_face(seat: int, lang: str = "en") -> dict:
    return {"seat": seat, "colour": player_colour(seat), "short": short_name(seat, lang),
            "title": say("ship_title", lang, who=player_name(seat, lang))}


@lru_cache(maxsize=256)
def marker_markup(seat: int, lang: str = "en") -> Markup:
    return piece("marker", marker_face(seat, lang))


@lru_cache(maxsize=256)
def ship_markup(seat: int, lang: str = "en") -> Markup:
    return piece("ship", ship_face(seat, lang))


@lru_cache(maxsize=16)
def hidden_back_markup(lang: str = "en") -> Markup:
    """A hidden resource the viewer may not see (another seat's supply)."""
    return piece("resource", {"kind": "face_down", "classes": "jg-resource", "marker": None, "place": None,
                              "title": say("hidden_resource", lang)})


def resource_face(card: str, info: dict) -> tuple[str, str]:
    """The two lines printed on a resource: ``("Gem", "red")`` from the group name "Gem (red)",
    ``("ジェム", "白")`` from "ジェム（白）"."""
    name = info.get("group_name") or card
    main, _, sub = name.replace("（", " (").partition(" (")
    return main, sub.rstrip(")）")


def resource_slot(slot: dict | str | None, card_info, number: int | None = None, target: bool = False,
                  lang: str = "en", place: bool = False) -> Markup:
    """A resource slot of a planet (``number`` 1-4) or a resource in a supply (``number`` None).

    ``slot`` is the observation's ``{card?, face_up, marker}`` (no ``card`` when face down), a bare
    card name (a resource in a supply), or None (taken). ``card_info(card)`` reads the component
    file only (a card's type and icon), never the position: its facts are passed on to
    :func:`resource_markup` (so a card of another component file is drawn from its own file).
    """
    if slot is None:
        return resource_markup("empty", number, target, lang=lang, place=place)
    if isinstance(slot, str):
        slot = {"card": slot, "face_up": True, "marker": None}
    owner_seat = slot.get("marker")
    # A face-down resource is a back for every viewer: nobody at the table sees it (the teacher's
    # all-seeing observation names it, but the board draws the table as the players have it).
    card = slot.get("card") if slot.get("face_up", True) else None
    if card is None:
        return resource_markup("face_down", number, target, owner_seat, lang=lang, place=place)
    info = card_info(card) or {}
    main, sub = resource_face(card, info)
    return resource_markup("face_up", number, target, owner_seat, card=card, group=info.get("group", card),
                           name=info.get("group_name", card), main=main, sub=sub,
                           black_hole=info.get("number") == 1, lang=lang, place=place)


def halves(name: str) -> tuple[str, str] | None:
    """A long name of full-width letters cut in two halves, for a tile too narrow to hold it on one
    line (``エナー`` / ``ジェル``: left to the browser, Japanese breaks between any two letters,
    ``エナージェ`` / ``ル``); None for a name that fits or has spaces to break at."""
    if " " in name or sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in name) <= 10:
        return None
    cut = (len(name) + 1) // 2
    return name[:cut], name[cut:]


@lru_cache(maxsize=4096)
def resource_markup(kind: str, number: int | None, target: bool, owner_seat: int | None = None, *,
                    card: str | None = None, group: str | None = None, name: str | None = None,
                    main: str = "", sub: str = "", black_hole: bool = False, lang: str = "en",
                    place: bool = False) -> Markup:
    """A resource's markup (the ``resource`` macro of ``templates/jump_gate_pieces.html``), made once for
    each way it is drawn: ``kind`` "empty", "face_down" or "face_up", the card's facts from its
    component file (``group``, ``name``, the printed ``main``/``sub`` lines, the ``black_hole`` icon).
    ``place``: a slot of the planet in focus, clicked as a whole to mark or harvest it (board clicks)."""
    where = say("resource_where", lang, number=number) if number else ""
    classes = " ".join(["jg-resource"] + ([f"slot-{number}"] if number else []) + (["target"] if target else []))
    if kind == "empty":
        return piece("resource", {"kind": "empty", "classes": classes, "place": number if place else None,
                                  "title": say("resource_taken", lang, where=where)})
    marker = marker_face(owner_seat, lang) if owner_seat is not None else None
    owner = say("resource_owner", lang, who=player_name(owner_seat, lang)) if owner_seat is not None else ""
    if kind == "face_down":
        return piece("resource", {"kind": "face_down", "classes": classes, "marker": marker, "place": number if place else None,
                                  "title": say("resource_face_down", lang, where=where, owner=owner)})
    background, ink = biome_colours(group)
    return piece("resource", {
        "kind": "face_up", "classes": classes, "group": group, "card": card, "background": background, "ink": ink,
        "main": main, "long": len(main) > 5, "halves": halves(main), "sub": sub, "marker": marker, "place": number if place else None,
        "icon": say("black_hole_icon", lang) if black_hole else None,
        "title": say("resource_title", lang, where=where, name=name, owner=owner,
                     icon=say("resource_icon_suffix", lang) if black_hole else "")})


# ---------------------------------------------------------------------------- the view
def selection_preview(session: GameSession, view: dict, lang: str = "en") -> dict:
    """What the selected action touches, from its own fields: a planet, a slot there, hand cards."""
    data = session.selected_action
    if not data or len(view["to_move"]) != 1:
        return {}
    try:
        action = session.spec.decode_action(data)
        label = session.spec.action_label(action, lang)
    except Exception:          # a stale or foreign selection draws nothing, and never breaks the board
        return {}
    seat = view["to_move"][0]
    ship = view["ships"][seat]
    # Fly and Jump name their planet; a scan, claim or harvest acts where the ship is; the decisions
    # after a scan or claim are about the planet in focus.
    planet = {"fly": data.get("planet"), "jump": data.get("planet"), "scan": ship, "land_claim": ship, "harvest": ship,
              "mark": view["focus"], "take_marked": view["focus"], "claim_pick": view["focus"]}.get(data.get("type"))
    cards = list(data.get("cards") or ()) + ([data["card"]] if data.get("card") else [])
    return {"label": label, "seat": seat, "planet": planet, "slot": data.get("slot"), "cards": cards}


def planet_names(session: GameSession, lang: str = "en") -> dict[str, str]:
    """Planet id -> its name in ``lang``, as the component file prints it."""
    return {planet.id: planet.label[lang] for planet in session.card_set().planets}


def type_names(session: GameSession, lang: str = "en") -> dict[str, str]:
    """Resource type id -> its name in ``lang``, as the component file prints it."""
    return {kind.id: kind.label[lang] for kind in session.card_set().types}


def resource_info(session: GameSession, lang: str = "en"):
    """``session.card_info`` (a card's facts from the component file) with a resource type's name
    (``group_name``) in ``lang``."""
    names = type_names(session, lang)

    def info(card: str) -> dict | None:
        found = session.card_info(card)
        return dict(found, group_name=names[found["group"]]) if found and found.get("group") in names else found
    return info


def status_context(view: dict, *, step: int, moves: int, problem: str | None, preview: dict, lang: str,
                   planets: dict[str, str] | None = None) -> dict:
    if view["phase"] == "over":
        names = listed((player_name(s, lang) for s in view["winners"]), lang) or say("nobody", lang)
        line = say("over_winner" if len(view["winners"]) == 1 else "over_shared", lang, names=names)
    elif view.get("ended_early"):
        line = ended_early_line(view, lang)
    else:
        acting = view["to_move"][0] if view["to_move"] else view["seat"]
        planet = next((p for p in view["ring"] if p["planet"] == view["focus"]), None)
        key = f"phase.{view['phase']}" if view["phase"] in PHASE_LINES else "phase.other"
        line = say(key, lang, who=player_name(acting, lang), phase=view["phase"],
                   planet=say("planet_label", lang, name=(planets or {}).get(planet["planet"], planet["name"]),
                              planet=planet["planet"]) if planet else say("the_planet", lang))
    seer = (say("teacher_view", lang) if role_of(view) == "teacher"
            else say("spectator_view", lang) if view["viewer"] is None
            else say("seen_by", lang, who=player_name(view["viewer"], lang)))
    over = view["phase"] == "over" or bool(view.get("ended_early"))     # (no turn either way)
    return {"step_counter": step_counter(step, moves, lang), "round": say("round", lang, round=view["round"] + 1),
            "turn": None if over else say("turn", lang, who=player_name(view["seat"], lang)),
            "actions_left": None if over else actions_left_text(view, lang),
            "phase": view["phase"], "phase_line": line, "seen_as": seer, "problem": problem,
            "preview": (escape(say("preview", lang)).format(action=Markup("<b>{}</b>").format(preview["label"]))
                        if preview else None)}


def planet_context(view: dict, index: int, preview: dict, card_info, lang: str,
                   planets: dict[str, str] | None = None) -> dict:
    planet = view["ring"][index]
    # Clockwise from the top; the orbit drawn behind joins the last planet to the first.
    angle = -math.pi / 2 + 2 * math.pi * index / len(view["ring"])
    style = f"left:{50 + RING_RADIUS_X * math.cos(angle):.2f}%;top:{50 + RING_RADIUS_Y * math.sin(angle):.2f}%"
    classes, claim = [], None
    claimer = planet["claimed_by"]
    if claimer is not None:
        classes += ["claimed", f"claimed-by-{claimer}"]
        style += f";--claimer:{player_colour(claimer)}"
        claim = {"title": say("claimed_by", lang, who=player_name(claimer, lang)),
                 "badge": say("claim_badge", lang, short=short_name(claimer, lang))}
    if planet["planet"] == view["focus"]:
        classes.append("focus")
    targeted = preview.get("planet") == planet["planet"]
    if targeted:
        classes.append("target")
    name = (planets or {}).get(planet["planet"], planet["name"])
    # (a name wider than six full-width letters, フェンウィック, set tighter: at full size it pushed the
    # planet's codes onto a line of their own; a Latin letter is half as wide)
    wide = sum(2 if unicodedata.east_asian_width(letter) in "WF" else 1 for letter in name)
    return {"planet": planet["planet"], "name": name, "long_name": wide > 12, "classes": classes,
            "style": style, "claim": claim,
            "codes": [code_markup(shape, str(planet[shape]), lang) for shape in ("jump", "scan", "land")],
            "slots": [resource_slot(slot, card_info, number, target=targeted and preview.get("slot") == number, lang=lang,
                                    place=planet["planet"] == view["focus"])
                      for number, slot in enumerate(planet["resources"], start=1)],
            "ships": [ship_markup(seat, lang) for seat in planet["ships"]]}


def centre_context(view: dict, lang: str) -> dict:
    """The Jump Gate (ships not yet jumped) and the black-hole zone."""
    waiting = [seat for seat, where in enumerate(view["ships"]) if where == "gate"]
    hole = view["black_hole"]
    filled = [seat for seat, count in enumerate(hole["markers"]) for _ in range(count)][:hole["limit"]]
    lost = None
    if hole["lost_hidden"]:
        losers = hole["lost_hidden"]
        lost = say("black_hole_lost.one" if len(losers) == 1 else "black_hole_lost.many", lang,
                   names=listed((player_name(s, lang) for s in losers), lang))
    return {"gate_title": say("jump_gate", lang), "gate_ships": [ship_markup(seat, lang) for seat in waiting],
            "gate_note": say("gate_waiting" if waiting else "gate_empty", lang),
            "hole": {"total": hole["total"], "title": say("black_hole", lang, total=hole["total"], limit=hole["limit"]),
                     "filled": [marker_face(seat, lang) for seat in filled], "open": hole["limit"] - len(filled),
                     "per_seat": listed((say("black_hole_seat", lang, short=short_name(seat, lang), count=count)
                                         for seat, count in enumerate(hole["markers"])), lang),
                     "rule": say("black_hole_rule", lang, limit=hole["limit"]), "lost": lost}}


def seat_context(view: dict, seat: int, preview: dict, card_info, lang: str,
                 planets: dict[str, str] | None = None) -> dict:
    named = lambda planet: (planets or {}).get(planet, planet)  # noqa: E731
    notes = []
    if seat in view["to_move"]:
        notes.append(say("note.to_move", lang))
    if seat in view["winners"]:
        notes.append(say("note.winner", lang))
    if seat == view["start_player"]:
        notes.append(say("note.start_player", lang))
    if seat == view["viewer"]:
        notes.append(say("note.you", lang))
    hand = view["hands"][seat]
    if "cards" in hand:
        chosen = list(preview.get("cards", ())) if seat == preview.get("seat") else []
        cards = []
        for card in hand["cards"]:
            picked = card in chosen
            if picked:
                chosen.remove(card)
            cards.append(navcomp_markup(card, picked, lang))
        hand_count = None
    else:
        cards = [navcomp_markup(None, lang=lang)] * hand["count"]
        hand_count = counted("cards_face_down", hand["count"], lang)
    hidden = view["hidden"][seat]
    if "cards" in hidden:
        hidden_faces, hidden_count = [resource_slot(card, card_info, lang=lang) for card in hidden["cards"]], None
    else:
        hidden_faces, hidden_count = [hidden_back_markup(lang)] * hidden["count"], say("hidden_count", lang, n=hidden["count"])
    claimed = [named(p["planet"]) for p in view["ring"] if p["claimed_by"] == seat]
    markers = view["markers_left"][seat]
    where = view["ships"][seat]
    return {"seat": seat, "to_move": seat in view["to_move"], "winner": seat in view["winners"],
            "colour": player_colour(seat), "name": player_name(seat, lang), "note": " · ".join(notes),
            "score_title": say("score_title", lang), "score": say("points", lang, n=view["scores"][seat]),
            "ship": say("ship", lang, where=say("at_the_gate", lang) if where == "gate" else named(where)),
            "markers_title": say("markers_title", lang), "markers_left": counted("markers_left", markers, lang),
            "markers": [marker_markup(seat, lang)] * markers,
            "claimed": say("claimed", lang, planets=listed(claimed, lang) or say("none", lang)),
            "hand": cards, "hand_count": hand_count,
            "gained": [resource_slot(card, card_info, lang=lang) for card in view["gained"][seat]],
            "hidden": hidden_faces, "hidden_count": hidden_count,
            "lost": say("lost_to_black_hole", lang) if seat in view["black_hole"]["lost_hidden"] else None}


def own_hand_context(view: dict, seats: list[dict], lang: str = "en") -> dict | None:
    """The viewing seat's own NavComp hand, drawn again above the ring (``jg-own-hand``): the moves name
    its cards by their codes ("jump to Kestrel with J5-S1"), and the seat's panel is below the ring, out
    of sight on a laptop's screen. None for the teacher and spectators (:func:`own_seat`)."""
    viewer = own_seat(view)
    if viewer is None:
        return None
    return {"seat": viewer, "label": counted("own_hand", view["hands"][viewer]["count"], lang),
            "hand": seats[viewer]["hand"]}


def jump_gate_context(view: dict, *, step: int, moves: int, card_info, resource_types, problem: str | None = None,
                      preview: dict | None = None, lang: str = "en", planets: dict[str, str] | None = None,
                      standard: bool = True) -> dict:
    """Everything ``templates/jump_gate_board.html`` shows, from one observation (``view``): plain
    values only. ``card_info(card)``, ``resource_types`` (``[(id, name)]``) and ``planets`` (id -> name)
    come from the component file in ``lang``, ``preview`` from :func:`selection_preview`; ``problem``
    is shown as given."""
    preview = preview or {}
    card_set = {"name": "?", "provenance": "?", **(view.get("card_set") or {})}
    source = str(card_set["provenance"])
    named = lambda planet: (planets or {}).get(planet["planet"], planet["name"])  # noqa: E731
    first, last = named(view["ring"][0]), named(view["ring"][-1])
    seats = [seat_context(view, seat, preview, card_info, lang, planets) for seat in range(view["players"])]
    return {
        "status": status_context(view, step=step, moves=moves, problem=problem, preview=preview, lang=lang,
                                 planets=planets),
        "ring": {"planets": [planet_context(view, index, preview, card_info, lang, planets)
                             for index in range(len(view["ring"]))],
                 "aspect": RING_ASPECT.get(len(view["ring"]), 1.2), "rx": RING_RADIUS_X, "ry": RING_RADIUS_Y,
                 "note": say("ring_note", lang, first=first, last=last)},
        "centre": centre_context(view, lang),
        "columns": 3 if view["players"] % 2 else 2,
        "seats": seats,
        "own": own_hand_context(view, seats, lang),
        "labels": {key: say(name, lang) for key, name in (("hand", "zone.hand"), ("gained", "zone.gained"),
                                                          ("hidden", "zone.hidden"), ("no_cards", "no_cards"),
                                                          ("none_yet", "none_yet"), ("none", "none"))},
        "events_title": say("events_step" if step else "events_deal", lang),
        "events": [said for said in (event_text(e, lang) for e in view["events"]) if said],
        "legend": {"codes": [{"code": code_markup(shape, "#", lang), "name": say(f"shape_name.{shape}", lang)}
                             for shape in ("jump", "scan", "land")],
                   "icon": say("black_hole_icon", lang), "card_codes": say("legend_card_codes", lang),
                   "swatches": [{"colour": biome_colours(kind)[0], "name": name} for kind, name in resource_types]},
        "provenance": say("provenance", lang, name=card_set_words("jump_gate", card_set, lang, standard)[0],
                          source=say("provenance.assumed", lang) if source == "assumed" else source,
                          caveat=say("provenance_caveat", lang) if source == "assumed" else ""),
    }


def jump_gate_html(session: GameSession, lang: str = "en") -> str:
    """The Jump Gate table for the session's viewpoint, from its observation only, in ``lang``."""
    view = session.view()
    problem = live_replay_problem(session)
    return render("jump_gate_board.html", **jump_gate_context(
        view, step=session.cursor, moves=len(session.log),
        card_info=resource_info(session, lang),        # the component file's facts about a card
        resource_types=list(type_names(session, lang).items()),
        problem=replay_problem_text(session, problem, lang) if problem else None,
        preview=selection_preview(session, view, lang), lang=lang, planets=planet_names(session, lang),
        standard=session.card_set().is_standard))


class JumpGateBoard(HtmlBoard):
    """The Jump Gate table of a session, redrawn whenever the viewed state, seat or selection changes."""

    GAME, CSS = "jump_gate", stylesheet("boards/jump_gate")

    def draw(self, session: GameSession, lang: str) -> str:
        return jump_gate_html(session, lang)

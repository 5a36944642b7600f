"""The Stellar table: the numbered row, each player's telescope and notebook, the hands.

Drawn from the page's observation only (``session.view()``), like the Subastral board: a seat's
view holds that seat's hand and nothing of the other's; the teacher's is ``observe(state, ALL)``.
The markup is ``templates/stellar_board.html`` (Jinja2, autoescaped), filled by
:func:`stellar_context` with plain values (a card is the macro of ``stellar_pieces.html``, drawn once
per way it is drawn: :func:`card_markup`); a card's type, printed number and stars come from the
card file (``card_info``), a stack's satellite from the rules' scoring, never from parsing names.
How the table *looks* is this module's business; which slots are legal always comes from the rules
(``legal_actions``), so the slots lit up for a chosen card are exactly the ones the rules allow.
The telescope is drawn with the assumed geometry of docs/readings.md, "Stellar 2" (rows of 1, 2, 2 in the top
section, 3 in the middle, 4 at the bottom), reading the slot names the engine reports.

Every text of the board comes from ``explorer/locales/<lang>/stellar_board.json`` (``lang``: the
board's language), the telescope's empty slots by their place ("Top 2", "上部 2"; the id ``top-2``
that moves use stays in the slot's class and ``data-slot``); the card names and the card list's name
are shown as the engine gives them, and the events in the board's language where the game writes them
in it.
"""

from __future__ import annotations

import json
from functools import lru_cache

from markupsafe import Markup

from explorer.boards.base import HtmlBoard, card_set_words, step_counter
from explorer.components.timeline import live_replay_problem, replay_problem_text
from explorer.core.palette import biome_colours
from explorer.core.i18n import DEFAULT, counted_text, event_text, text, texts
from explorer.web.markup import macro, render
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.core.viewpoint import role_of
from rules.rulebook import LANGUAGES

#: Telescope rows, top to bottom, by the slot names of the engine's observation.
TELESCOPE_ROWS = (("top", (1,)), ("top", (2, 3)), ("top", (4, 5)), ("middle", (1, 2, 3)), ("bottom", (1, 2, 3, 4)))
#: The title of each telescope section: the text ``stellar_board.section.<section>``.
SECTION_TITLES = {"top": "top (5)", "middle": "middle (3)", "bottom": "bottom (4)"}


def optional_text(key: str, lang: str, fallback: str) -> str:
    """The text ``key`` in ``lang`` if the locale files have it, else ``fallback`` (e.g. a card file's own word)."""
    found = texts(lang if lang in LANGUAGES else DEFAULT).get(key)
    return found if found is not None else fallback


def seat_label(seat: int, lang: str = "en") -> str:
    """A seat as the board names it: ``Player 1`` (seats are 0-based in the rules)."""
    return text("stellar_board.player", lang, number=seat + 1)


def kind_label(kind: str, lang: str = "en") -> str:
    """A card type as the board shows it (the rulebook's word), a type from another card file by its id."""
    return optional_text(f"stellar_board.kind.{kind}", lang, kind.replace("_", " "))


def card_face(session: GameSession, card, lang: str = "en") -> dict:
    """What a card shows, from the observation's value and the card file (``card_info``): a name
    (face up), ``{"face_down": name}`` (worth 3, no type; the name is None where the viewer does not
    know the card) or None (a card back)."""
    return printed_face(card, printed(session, card), lang)


def printed(session: GameSession, card) -> tuple | None:
    """What the card file prints on a face-up card (its type, number and stars); None for any other."""
    if not isinstance(card, str):
        return None
    # card_info reads the card file only (a card's type, printed number and stars), never the position.
    info = session.card_info(card)
    return info["group"], info["label"], info["stars"]


def card_markup(session: GameSession, card, lang: str = "en", extra: str = "") -> Markup:
    """A card's markup (the ``card`` macro of ``templates/stellar_pieces.html``, ``extra`` its added class),
    made once for each way it is drawn: cached by the observation's value and what the card file prints."""
    return _card_markup(json.dumps(card), printed(session, card), extra, lang)


@lru_cache(maxsize=4096)
def _card_markup(card_json: str, printed_as: tuple | None, extra: str, lang: str) -> Markup:
    return macro("stellar_pieces.html", "card")(printed_face(json.loads(card_json), printed_as, lang), extra)


def printed_face(card, printed_as: tuple | None, lang: str = "en") -> dict:
    """:func:`card_face` of a card the card file prints as ``printed_as`` (:func:`printed`)."""
    if card is None:
        return {"shown": "back"}
    if isinstance(card, dict):
        known = card.get("face_down")
        return {"shown": "face_down", "label": text("stellar_board.face_down", lang),
                "title": text("stellar_board.face_down_title", lang, card=known) if known is not None
                else text("stellar_board.face_down", lang)}
    kind, number, stars = printed_as
    background, ink = biome_colours(kind)
    return {"shown": "up", "name": card, "kind": kind, "number": number, "stars": "★" * stars,
            "kind_label": kind_label(kind, lang), "background": background, "ink": ink}


def legal_slots(session: GameSession, view: dict, seat: int | None) -> set[str]:
    """Telescope slots the rules allow for the selected card: from the legal actions in ``seat``'s
    observation (the viewer's own, or on the teacher's page the seat's), never guessed."""
    chosen = session.selected_action
    if not chosen or seat is None or "card" not in chosen:
        return set()
    if view["viewer"] == seat:
        actions = view["legal_actions"]
    elif session.sees_all:
        actions = session.observation(seat)["legal_actions"]
    else:
        return set()
    return {data["slot"] for data in actions
            if data.get("card") == chosen["card"] and isinstance(data.get("slot"), str)}


def run_detail(category: dict, lang: str = "en") -> str:
    """The tooltip of a stack's run: the stars in the telescope times the notebook's run (and whether
    the rules' scoring gave the stack a satellite: ``category["satellite"]``)."""
    key = "stellar_board.run_detail_one_star" if category["stars"] == 1 else "stellar_board.run_detail"
    detail = text(key, lang, stars=category["stars"], run=category["run"])
    if category.get("satellite"):
        detail = text("stellar_board.run_detail_satellite", lang, detail=detail)
    return detail


def hand_markup(session: GameSession, hand: dict, lang: str) -> list:
    """A hand as the viewpoint sees it: every card where it may see them (its own, the teacher's);
    else the cards every seat saw it take from the row face up (``known``), then the rest face down."""
    if "cards" in hand:
        return [card_markup(session, card, lang) for card in hand["cards"]]
    known = hand.get("known", [])
    return [card_markup(session, card, lang) for card in known] + \
        [card_markup(session, None, lang)] * (hand["count"] - len(known))


def hand_note(hand: dict, lang: str) -> str | None:
    """"2 face down · 1 seen taken from the row" under a hand the viewpoint may not see (None under one it sees)."""
    if "cards" in hand:
        return None
    known = len(hand.get("known", []))
    notes = [text("stellar_board.hand_face_down", lang, count=hand["count"] - known)] if hand["count"] > known else []
    if known:
        notes.append(text("stellar_board.hand_known", lang, count=known))
    return " · ".join(notes)


def stellar_context(session: GameSession, lang: str = "en") -> dict:
    """Everything ``templates/stellar_board.html`` shows, from the page's observation (``session.view()``),
    its texts in ``lang``."""
    view = session.view()
    acting = view["to_move"][0] if view["to_move"] else None
    lit = legal_slots(session, view, acting)
    problem = live_replay_problem(session)
    role = role_of(view)
    seer = (text("stellar_board.teacher_view", lang) if role == "teacher"
            else text("stellar_board.spectator_view", lang) if role == "spectator"
            else text("stellar_board.seen_by", lang, player=seat_label(view["viewer"], lang)))
    who = (text("stellar_board.list_separator", lang).join(seat_label(s, lang) for s in view["to_move"])
           or text("stellar_board.nobody", lang))
    phase = optional_text(f"stellar_board.phase.{view['phase']}", lang, str(view["phase"]))
    deck_before, _, deck_after = counted_text("stellar_board.deck_cards", lang, view["deck"]["count"], count="\0").partition("\0")
    # The runs and stars per type are the rules' own scoring (score_breakdown), shown under each stack.
    breakdown = view["score_breakdown"]["en"]       # (English: its category names key the runs below)
    seats = []
    for seat in range(view["players"]):
        scored = {c["category"].lower().replace(" ", "_"): c for c in breakdown[seat]["categories"] if "run" in c}
        hand = view["hands"][seat]
        starters, chosen = view["starters"][seat], view["chosen"][seat]
        telescope = view["telescopes"][seat]
        sections = []
        for section, numbers in TELESCOPE_ROWS:
            if not sections or sections[-1]["section"] != section:
                title = optional_text(f"stellar_board.section.{section}", lang, SECTION_TITLES.get(section, section))
                sections.append({"section": section, "title": title, "rows": []})
            sections[-1]["rows"].append([
                {"slot": f"{section}-{n}", "label": text(f"stellar_board.slot.{section}", lang, n=n),
                 "legal": seat == acting and f"{section}-{n}" in lit,
                 "card": card_markup(session, telescope[f"{section}-{n}"], lang, f"slot-{section}-{n}")
                 if telescope.get(f"{section}-{n}") else None}
                for n in numbers])
        stacks = []
        for kind, stack in view["notebooks"][seat].items():
            category = scored.get(kind)
            stacks.append({"kind": kind, "name": kind_label(kind, lang),
                           "cards": [card_markup(session, card, lang) for card in stack],
                           "run": text("stellar_board.run", lang, run=category["run"], stars=category["stars"],
                                       points=category["points"]) if category else None,
                           "run_detail": run_detail(category, lang) if category else None})
        seats.append({
            "seat": seat, "name": seat_label(seat, lang), "to_move": seat in view["to_move"],
            "winner": seat in view.get("winners", []),
            "points": text("stellar_board.points", lang, points=view["scores"][seat]),
            "hand": hand_markup(session, hand, lang),
            "hand_note": hand_note(hand, lang),
            # The two starter cards being placed (setup): what the choice is about, face down to the others.
            "starters": [card_markup(session, card, lang) for card in starters["cards"]] if "cards" in starters
            else [card_markup(session, None, lang)] * starters["count"],
            "starters_note": " · ".join(note for note in (
                None if "cards" in starters else text("stellar_board.hand_face_down", lang, count=starters["count"]),
                text("stellar_board.starters_chosen", lang) if chosen["done"] else None) if note),
            "sections": sections, "stacks": stacks})
    card_set = view.get("card_set", {})
    source = str(card_set.get("provenance", ""))
    return {
        "t": lambda key, **values: text(f"stellar_board.{key}", lang, **values),
        "step": step_counter(session.cursor, len(session.log), lang),
        "round_status": round_status(view, phase, who, lang),
        "seer": seer, "role": role,
        "problem": replay_problem_text(session, problem, lang) if problem else None,
        "deck": {"before": deck_before, "count": view["deck"]["count"], "after": deck_after},
        "row": [{"slot": slot, "card": card_markup(session, view["row"][slot], lang) if view["row"][slot] else None}
                for slot in sorted(view["row"], key=int)],
        "seats": seats,
        "events": [said for said in (event_text(event, lang) for event in view["events"]) if said],
        "events_title": text("stellar_board.this_step" if session.cursor else "stellar_board.the_deal", lang),
        "card_list": text("stellar_board.card_list", lang, name=card_set_words("stellar", card_set, lang, session.card_set().is_standard)[0],
                          provenance=optional_text(f"stellar_board.provenance.{source}", lang, source)),
    }


def round_status(view: dict, phase: str, who: str, lang: str) -> str:
    """"Round 3 of 11 · play · to move: Player 1"; after the eleventh round the final notebook cards
    ("After round 11"), then "Game over" (the rounds are counted from 1 and never past 11)."""
    if view["phase"] == "over":
        return text("stellar_board.round_status.over", lang)
    if view.get("ended_early"):
        return text("stellar_board.round_status.ended", lang, round=min(view["round"] + 1, 11))
    key = "stellar_board.round_status.final" if view["phase"] == "final" else "stellar_board.round_status"
    return text(key, lang, round=view["round"] + 1, phase=phase, who=who)


def stellar_html(session: GameSession, lang: str = "en") -> str:
    """The Stellar table as the page's viewpoint sees it, its texts in ``lang``."""
    return render("stellar_board.html", **stellar_context(session, lang))


class StellarBoard(HtmlBoard):
    """The Stellar table of a session, redrawn whenever the viewed state, seat or selection changes."""

    GAME, CSS = "stellar", stylesheet("boards/stellar")

    def draw(self, session: GameSession, lang: str) -> str:
        return stellar_html(session, lang)

"""Board views: a game's table drawn as HTML from observations only (docs/architecture.md, "Explorer").

Each board is a ``pn.viewable.Viewer`` that watches a :class:`~explorer.core.session.GameSession` and
draws ``session.view()`` — ``spec.observe(state, observer)`` from the page's one
:class:`~explorer.core.viewpoint.Viewpoint`, nothing else about the state — so a seat's view can never
show what that seat may not see. The teacher's view is ``observe(state, ALL)`` (``rules.protocol``),
which only the explorer's page may ask for.

The Subastral board follows the table of the rules text: the deck, clouds 1-6 in a row
between the deck and the sun, and per player a hand and a journal of biome columns. It is how the
game looks, not how it plays: every number shown comes from the observation.

A person's chosen but unconfirmed action (``session.selected_action``, set by the action picker)
is previewed: a card to play lights up its card in the hand and the cloud of its number (from
``spec.card_info(state, card)["number"]``, with a ghost of the card where it will land); a cloud to
take lights up that cloud and the hand or journal it goes to. Nothing is decided here: the
preview only draws the action's own fields.

CSS classes the tests and the browser rely on (seats are 0-based, as in the rules; the text on
screen says "Player 1" for seat 0): ``step-counter``, ``deck``, ``cloud cloud-<n>`` (n = 1..6),
``hand hand-seat-<s>``, ``journal journal-seat-<s>``, ``journal-column``, ``card biome-<id>``
(``data-card`` holds the card name), ``card back`` (a face-down card), ``last-events``,
``provenance``; previews: ``preview-line`` (status), ``target`` (the cloud an action touches),
``card selected`` (the hand card to play), ``card ghost`` (``data-preview-card``, never
``data-card``), ``destination`` (the hand or journal a taken cloud goes to).

The Subastral board's markup is ``templates/subastral_board.html`` (Jinja2 with autoescape,
``explorer/web/markup.py``), filled by :func:`subastral_context` with plain values from the observation.

The Subastral board's texts are in the board's language (``lang``, English or Japanese), from
``explorer/locales/<lang>/subastral_board.json``; the game's events and action names are shown in
that language where the engine writes them in it (English otherwise), and card names as the card
data writes them.

The clickable event log lives in :mod:`explorer.components.timeline`.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from explorer.core.i18n import counted_text, event_text, text
from explorer.core.palette import BIOME_COLOURS, biome_colours  # noqa: F401  (the boards' colours)
from explorer.web.markup import macro, render
from explorer.core.session import GameSession, player_label
from explorer.core.stylesheets import stylesheet
from explorer.boards.base import HtmlBoard, card_set_words, ended_early_line, step_counter
from explorer.components.timeline import live_replay_problem, replay_problem_text
from explorer.core.viewpoint import role_of
from rules.subastral.cards import standard_cards

esc = html.escape


#: What the seats to move do in each phase (English; every language: ``subastral_board.phase.<phase>``
#: in ``locales/<lang>/subastral_board.json``).
PHASES = {phase: text(f"subastral_board.phase.{phase}", "en") for phase in ("play", "take", "order", "disturbance", "over")}


def _t(key: str, lang: str, **values) -> str:
    """The board's interface text ``subastral_board.<key>`` in ``lang``."""
    return text(f"subastral_board.{key}", lang, **values)


def _player(seat: int, lang: str = "en") -> str:
    """``"Player 1"`` for seat 0 (as :func:`explorer.core.session.player_label`), in ``lang``."""
    return _t("player", lang, number=seat + 1)


def _phase(phase: str, lang: str = "en") -> str:
    return _t(f"phase.{phase}", lang) if phase in PHASES else phase


@lru_cache(maxsize=None)
def _biome_names(lang: str) -> dict[str, str]:
    """Biome id -> its name in ``lang`` from the standard card data (Japanese names: ``name_ja``)."""
    if lang == "ja":
        return {biome.id: biome.name_ja for biome in standard_cards().biomes if getattr(biome, "name_ja", None)}
    return {}


def biome_of(card: str) -> str:
    """``"taiga-4"`` -> ``"taiga"`` (card names are ``<biome>-<number>``)."""
    return card.rsplit("-", 1)[0]


def number_of(card: str) -> str:
    return card.rsplit("-", 1)[-1]


def biome_title(biome: str, lang: str = "en") -> str:
    """``"arctic_tundra"`` -> ``"Arctic tundra"``; in Japanese the card data's name (``"極地ツンドラ"``)."""
    return _biome_names(lang).get(biome) or biome.replace("_", " ").capitalize()


def biome_short(biome: str, lang: str = "en") -> str:
    """The word on a card's chip: ``"arctic_tundra"`` -> "tundra" ("ツンドラ"); a biome the locale
    files do not know (a card file's own), the last word of its id."""
    try:
        return _t(f"short.{biome}", lang)
    except KeyError:
        return biome.rsplit("_", 1)[-1]


def card_face(card: str, selected: bool = False, *, ghost: bool = False, lang: str = "en") -> dict:
    """What ``templates/subastral_board.html`` draws for a face-up card; a ghost (a preview of where a
    card will go) carries no ``data-card``."""
    biome = biome_of(card)
    background, ink = biome_colours(biome)
    return {"name": card, "biome": biome, "number": number_of(card), "short": biome_short(biome, lang),
            "title": _t("card_title", lang, biome=biome_title(biome, lang), number=number_of(card)),
            "background": background, "ink": ink, "ghost": ghost, "selected": selected}


@lru_cache(maxsize=8192)
def card_markup(card: str, selected: bool = False, ghost: bool = False, lang: str = "en") -> Markup:
    """A card's markup (the ``card`` macro of ``templates/subastral_pieces.html``, from :func:`card_face`),
    made once for each way it is drawn: a board draws dozens of cards per move, mostly as it drew them
    the move before (a Jinja macro call per card was most of a board's time)."""
    return macro("subastral_pieces.html", "card")(card_face(card, selected, ghost=ghost, lang=lang))


def action_label(spec, action, lang: str = "en") -> str:
    """An action's name in ``lang`` (the engine's ``action_label``)."""
    return spec.action_label(action, lang)


def action_preview(session: GameSession, lang: str = "en") -> dict | None:
    """What the selected, unconfirmed action would touch, read from its own JSON fields.

    ``{"label", "kind", "card", "cloud", "to", "biome", "seat"}`` (missing fields are None; the label
    in ``lang`` where the engine names its actions in it); the
    cloud of a card to play comes from ``spec.card_info``. None when nothing is selected or the
    selection cannot be read.
    """
    data = session.selected_action
    if not data:
        return None
    spec = session.spec
    try:
        label = action_label(spec, spec.decode_action(data), lang)
    except Exception:          # a stale or foreign selection draws nothing, and never breaks the board
        return None
    movers = session.view()["to_move"]
    preview: dict[str, Any] = {"label": label, "kind": data.get("type"), "card": data.get("card"),
                               "cloud": data.get("cloud"), "to": data.get("to"), "biome": data.get("biome"),
                               "seat": movers[0] if len(movers) == 1 else None}
    if preview["kind"] == "play" and preview["card"]:
        info = session.card_info(preview["card"]) or {}
        preview["cloud"] = info.get("number")
    return preview


def subastral_html(view: dict, *, step: int, moves: int, last_move: str | None = None,
                   problem: str | None = None, preview: dict | None = None, lang: str = "en", standard: bool = True) -> str:
    """The Subastral table for one observation (``view``) as HTML, with ``preview`` (see action_preview)
    drawn, its texts in ``lang`` (``locales/<lang>/subastral_board.json``; events in ``lang`` where
    the game writes them; ``last_move`` and ``problem`` are shown as given)."""
    return render("subastral_board.html", **subastral_context(view, step=step, moves=moves, last_move=last_move,
                                                             problem=problem, preview=preview, lang=lang,
                                                             standard=standard))


def subastral_context(view: dict, *, step: int, moves: int, last_move: str | None = None,
                      problem: str | None = None, preview: dict | None = None, lang: str = "en", standard: bool = True) -> dict:
    """Everything ``templates/subastral_board.html`` shows, from one observation (see subastral_html)."""
    def t(key: str, **values) -> str:
        return _t(key, lang, **values)

    def marked(key: str, **values) -> Markup:
        """A board text that holds markup of its own (``<b>{count}</b>``), its values escaped."""
        return Markup(_t(key, lang)).format(**values)

    def player(seat: int) -> str:
        return _player(seat, lang)

    def card(name: str, selected: bool = False, ghost: bool = False) -> Markup:
        return card_markup(name, selected, ghost, lang)

    players = view["players"]
    preview = preview or {}
    kind = preview.get("kind")
    target_cloud = preview.get("cloud")
    preview_card = preview.get("card") if kind in ("play", "pass") else None
    preview_seat = preview.get("seat")
    if preview_card is not None and preview_seat is None:
        # several seats decide at once: the card is marked in the first deciding hand holding it
        preview_seat = next((s for s in view["to_move"] if preview_card in view["hands"][s].get("cards", ())), None)
    viewer = view["viewer"]
    touched = {event.get("cloud") for event in view["events"]}
    winners = set(view["winners"])

    if view["phase"] == "over":
        names = t("list_separator").join(player(s) for s in view["winners"]) or t("nobody")
        to_move = t("game_over_winner" if len(winners) == 1 else "game_over_shared", names=names)
    elif view.get("ended_early"):
        to_move = ended_early_line(view, lang)
    else:
        movers = t("and").join(player(s) for s in view["to_move"])
        to_move = t("to_move", movers=movers, phase=_phase(view["phase"], lang))
    role = role_of(view)
    seen_as = (t("teacher_view") if role == "teacher" else t("spectator_view") if role == "spectator"
               else t("seen_by", player=player(viewer)))

    deck = view["deck"]
    revealed = Markup('<span class="end-card">{}</span>').format(t("end_card_revealed"))
    if deck["end_card_in_deck"]:
        end_line = marked("end_card_in_deck", count=deck["cards_above_end_card"])
    elif view.get("end_triggered"):
        end_line = marked("end_triggered", revealed=revealed, round=view["last_round"] + 1)
    else:
        end_line = revealed

    clouds = []
    for number, pile in enumerate(view["clouds"], start=1):
        cards = [card(name) for name in pile]
        note = None
        if number == target_cloud:
            if kind == "play":
                cards.append(card(preview["card"], ghost=True))
                card_name = preview["card"]
                note = t("goes_here", card=t("card_title", biome=biome_title(biome_of(card_name), lang),
                                             number=number_of(card_name)))
            elif kind == "take":
                whose = t("player_possessive", player=player(preview_seat)) if preview_seat is not None else ""
                to = preview.get("to") or ""
                note = t("taken_to", whose=whose, to=t(f"to.{to}") if to in ("hand", "journal") else to)
        clouds.append({"number": number, "touched": number in touched, "target": number == target_cloud,
                       "label": t("cloud", number=number), "cards": cards, "note": note,
                       "played": t("played_this_turn") if number == view.get("played_cloud") else None})

    seats = []
    for seat in range(players):
        hand = view["hands"][seat]
        if "cards" in hand:
            marked_at = hand["cards"].index(preview_card) if seat == preview_seat and preview_card in hand["cards"] else None
            hand_cards = [card(name, i == marked_at) for i, name in enumerate(hand["cards"])]
            face_down, hand_note = 0, None
        else:
            hand_cards, face_down = [], hand["count"]
            hand_note = t("face_down", count=hand["count"]) if hand["count"] else None
        columns = [{"index": index, "title": biome_title(biome_of(column[0]) if column else "", lang),
                    "head": t("column_head", index=index, size=len(column)), "cards": [card(name) for name in column]}
                   for index, column in enumerate(view["journals"][seat], start=1)]
        notes = []
        if seat in view["to_move"]:
            notes.append(t("note.to_move"))
        if seat == view.get("start_player"):
            notes.append(t("note.start_player"))
        if seat == viewer:
            notes.append(t("note.you"))
        waiting = None
        if view.get("pending") and seat == view.get("seat") and view["phase"] == "order":
            opening = preview.get("biome") if kind == "open_column" else None
            waiting = [card(name, bool(opening and biome_of(name) == opening)) for name in view["pending"]]
        destination = None
        if seat == preview_seat:
            destination = {"take": preview.get("to"), "open_column": "journal"}.get(kind)
        passes = view.get("passes")
        chosen = passes[seat] if passes is not None else {}
        passing = None
        if "card" in chosen:
            before, _, after = t("passes_left", card="\0").partition("\0")
            passing = {"before": before, "card": card(chosen["card"]), "after": after}
        seats.append({
            "seat": seat, "to_move": seat in view["to_move"], "winner": seat in winners, "name": player(seat),
            "note": t("note_separator").join(notes), "score": t("score", score=view["scores"][seat]),
            "destination": destination,
            "hand_label": t("hand_destination" if destination == "hand" else "hand"),
            "journal_label": t("journal_destination" if destination == "journal" else "journal"),
            "hand": hand_cards, "face_down": face_down, "hand_note": hand_note, "columns": columns,
            "waiting": waiting, "passing": passing, "has_chosen": not passing and bool(chosen.get("chosen"))})

    biomes = sorted({biome_of(name) for pile in view["clouds"] for name in pile}
                    | {biome_of(name) for journal in view["journals"] for column in journal for name in column}
                    | {biome.id for biome in standard_cards().biomes})
    card_set = view.get("card_set") or {}
    return {
        "t": t, "step_counter": step_counter(step, moves, lang), "round": t("round", round=view["round"] + 1),
        "to_move": to_move, "last_move": t("last_move", move=last_move) if last_move else None, "seen_as": seen_as, "role": role, "problem": problem,
        "preview": marked("preview", action=preview["label"]) if preview else None,
        "deck": {"count": deck["count"], "label": counted_text("subastral_board.deck", lang, deck["count"], count=deck["count"]), "end_line": end_line},
        "clouds": clouds, "seats": seats, "columns": 3 if players % 2 else 2,
        "events_title": t("this_step" if step else "the_deal"),
        "events": [event_text(event, lang) for event in view["events"] if event.get("text")],
        "legend": [{"colour": biome_colours(b)[0], "name": biome_title(b, lang)} for b in biomes],
        # (the caveat for a card list we assumed only: "assumed, an assumed card list" said it twice, and a
        # card file of one's own with another provenance was called assumed too)
        "provenance": t("provenance", caveat=t("provenance.caveat") if card_set.get("provenance") == "assumed" else "",
                        **dict(zip(("name", "provenance"), card_set_words(
                            "subastral", {"name": t("unknown"), "provenance": t("unknown"), **card_set}, lang, standard)))),
    }


class SubastralBoard(HtmlBoard):
    """The Subastral table of a session, redrawn whenever the viewed state or the viewing seat changes."""

    GAME, CSS = "subastral", stylesheet("boards/subastral")

    def draw(self, session: GameSession, lang: str) -> str:
        last_move = None
        if session.cursor and session.sees_all:
            seat, action = session.log[session.cursor - 1]      # as session.describe_move, in the board's language
            last_move = _t("move", lang, player=_player(seat, lang), action=action_label(session.spec, action, lang))
        problem = live_replay_problem(session)
        problem = replay_problem_text(session, problem, lang) if problem else None
        return subastral_html(session.view(), step=session.cursor, moves=len(session.log),
                              last_move=last_move, problem=problem, preview=action_preview(session, lang), lang=lang,
                              standard=session.card_set().is_standard)

"""Board views: a game's table drawn as HTML from observations only (DESIGN.md, "Explorer").

Each board is a ``pn.viewable.Viewer`` that watches a :class:`~explorer.session.GameSession` and
draws ``spec.observe(state, seat)`` — nothing else about the state — so a seat's view can never
show what that seat may not see. The teacher's view (``viewing_seat=None``) is the spectator's
observation plus every seat's own hand, each taken from that seat's observation.

The Subastral board follows the table of ``subastral.ja.txt``: the deck, clouds 1-6 in a row
between the deck and the sun, and per player a hand and a journal of biome columns. It is how the
game looks, not how it plays: every number shown comes from the observation.

CSS classes the tests and the browser rely on (seats are 0-based, as in the rules; the text on
screen says "Player 1" for seat 0): ``step-counter``, ``deck``, ``cloud cloud-<n>`` (n = 1..6),
``hand hand-seat-<s>``, ``journal journal-seat-<s>``, ``journal-column``, ``card biome-<id>``
(``data-card`` holds the card name), ``card back`` (a face-down card), ``last-events``,
``provenance``.
"""

from __future__ import annotations

import html
import zlib
from typing import Callable

import panel as pn
import param

from explorer.session import GameSession, player_label

esc = html.escape

#: Biome colours (background, text), chosen to be told apart at a glance and to echo the biome.
BIOME_COLOURS = {
    "subtropical_desert": ("#f2c14e", "#3d2a00"),
    "savanna": ("#e07a2f", "#ffffff"),
    "taiga": ("#2f5d50", "#ffffff"),
    "arctic_tundra": ("#cfe8f3", "#173a4d"),
    "temperate_grassland": ("#a7c957", "#1f3300"),
    "tropical_rainforest": ("#0f7b3c", "#ffffff"),
    "temperate_forest": ("#7b5e3b", "#ffffff"),
    "chaparral": ("#b5446e", "#ffffff"),
}

PHASES = {
    "play": "play a card onto the cloud of its number (turn step 1)",
    "take": "take every card from another cloud (turn step 2)",
    "order": "choose the order of the new journal columns",
    "disturbance": "choose a hand card to pass left (disturbance)",
    "over": "the game is over",
}

BOARD_CSS = """
:host { display: block; }
.sb-board { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2733; }
.sb-status { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: baseline; margin: 0 0 8px 0; }
.step-counter { font-weight: 700; font-size: 1.15em; }
.to-move-line { font-size: 1.05em; }
.sb-status .viewer { margin-left: auto; padding: 1px 8px; border-radius: 10px; background: #e7ecf3; font-size: .9em; }
.sb-status .problem { flex-basis: 100%; color: #8a1c1c; background: #fde8e8; padding: 4px 8px; border-radius: 6px; }
.sb-table { display: flex; align-items: stretch; gap: 8px; padding: 10px; border-radius: 12px; overflow-x: auto;
            background: linear-gradient(160deg, #0d1b33, #24406b); color: #eef3fb; }
.deck { width: 88px; flex: none; display: flex; flex-direction: column; align-items: center; gap: 4px; font-size: .85em; text-align: center; }
.deck .pile { width: 56px; height: 78px; border-radius: 7px; border: 2px solid #d9e2f1;
              background: repeating-linear-gradient(45deg, #3b5b8c, #3b5b8c 6px, #2c4770 6px, #2c4770 12px);
              display: flex; align-items: center; justify-content: center; font-weight: 700; font-size: 1.3em;
              box-shadow: 3px 3px 0 #1a2c4a, 5px 5px 0 #132238; }
.deck .end-card { color: #ffd166; }
.clouds { flex: 1; display: grid; grid-template-columns: repeat(6, minmax(56px, 1fr)); gap: 6px; }
.cloud { background: rgba(255,255,255,.10); border: 1px solid rgba(255,255,255,.18); border-radius: 14px;
         padding: 6px 5px; display: flex; flex-direction: column; align-items: center; gap: 3px; min-height: 120px; }
.cloud.touched { border: 2px solid #ffd166; background: rgba(255,209,102,.16); }
.cloud .played-mark { font-size: .68em; color: #ffd166; }
.cloud .cloud-label { font-weight: 700; font-size: .9em; opacity: .9; }
.cloud .empty { opacity: .5; font-size: .8em; margin-top: 8px; }
.sun { width: 60px; flex: none; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 4px; font-size: .8em; }
.sun .disc { width: 48px; height: 48px; border-radius: 50%; background: radial-gradient(circle, #fff3b0 0%, #ffd166 45%, #f4a236 100%);
             box-shadow: 0 0 18px 6px rgba(255,209,102,.55); }
.card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
        width: 52px; height: 40px; border-radius: 6px; border: 1px solid rgba(0,0,0,.35); line-height: 1.05;
        box-shadow: 0 1px 2px rgba(0,0,0,.35); flex: none; }
.card b { font-size: 1.15em; }
.card small { font-size: .62em; letter-spacing: .01em; }
.card.back { background: repeating-linear-gradient(45deg, #3b5b8c, #3b5b8c 5px, #2c4770 5px, #2c4770 10px); border-color: #d9e2f1; }
.sb-board { container-type: inline-size; }
.seats { display: grid; gap: 10px; margin-top: 10px; grid-template-columns: repeat(2, minmax(0, 1fr)); }
.seats.columns-3 { grid-template-columns: repeat(3, minmax(0, 1fr)); }
@container (max-width: 820px) { .seats.columns-3 { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
@container (max-width: 560px) { .seats, .seats.columns-3 { grid-template-columns: minmax(0, 1fr); } }
.seat { border: 1px solid #d3dbe6; border-radius: 10px; padding: 8px 10px; background: #fbfcfe; }
.seat.to-move { border: 2px solid #2f6fdb; box-shadow: 0 0 0 3px rgba(47,111,219,.15); }
.seat.winner { border: 2px solid #1c9c5c; background: #f1fbf5; }
.seat-head { display: flex; gap: .6em; align-items: baseline; margin-bottom: 4px; }
.seat-name { font-weight: 700; }
.seat-score { margin-left: auto; font-weight: 700; font-size: 1.1em; }
.seat-note { font-size: .82em; color: #2f6fdb; }
.zone-label { font-size: .75em; text-transform: uppercase; letter-spacing: .05em; color: #66768a; margin: 4px 0 2px; }
.hand { display: flex; flex-wrap: wrap; gap: 4px; min-height: 42px; align-items: center; }
.hand .count { font-size: .85em; color: #66768a; margin-left: 4px; }
.journal { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-start; min-height: 30px; }
.journal-column { display: flex; flex-direction: column; align-items: center; gap: 2px; }
.journal-column .card { height: 20px; flex-direction: row; gap: 3px; }
.journal-column .card b { font-size: .95em; }
.journal-column .col-head { font-size: .66em; color: #66768a; }
.journal .empty, .hand .empty { font-size: .82em; color: #98a4b3; }
.pending { margin-top: 4px; display: flex; gap: 4px; align-items: center; font-size: .82em; }
.last-events { margin-top: 10px; padding: 6px 10px; border-left: 4px solid #ffd166; background: #fffaf0; border-radius: 4px; }
.last-events ul { margin: 2px 0; padding-left: 1.2em; }
.provenance { margin-top: 6px; font-size: .72em; color: #8a97a8; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 10px; margin-top: 6px; font-size: .72em; color: #4a5768; }
.legend .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 3px; vertical-align: -1px; }
"""


def biome_of(card: str) -> str:
    """``"taiga-4"`` -> ``"taiga"`` (card names are ``<biome>-<number>``)."""
    return card.rsplit("-", 1)[0]


def number_of(card: str) -> str:
    return card.rsplit("-", 1)[-1]


def biome_title(biome: str) -> str:
    return biome.replace("_", " ").capitalize()


def biome_colours(biome: str) -> tuple[str, str]:
    if biome in BIOME_COLOURS:
        return BIOME_COLOURS[biome]
    hue = zlib.crc32(biome.encode()) % 360     # a stable colour for a biome from another card file
    return f"hsl({hue}, 55%, 45%)", "#ffffff"


def card_html(card: str) -> str:
    biome = biome_of(card)
    background, text = biome_colours(biome)
    short = biome.rsplit("_", 1)[-1]
    return (f'<span class="card biome-{esc(biome)}" data-card="{esc(card)}" title="{esc(biome_title(biome))} {esc(number_of(card))}" '
            f'style="background:{background};color:{text}"><b>{esc(number_of(card))}</b><small>{esc(short)}</small></span>')


def card_back_html() -> str:
    return '<span class="card back" title="a face-down card"></span>'


def teacher_view(session: GameSession) -> dict:
    """The spectator's observation with every seat's own hand (and pass) filled in from that seat's."""
    view = dict(session.observation(None))
    own = [session.observation(seat) for seat in range(view["players"])]
    view["hands"] = [own[seat]["hands"][seat] for seat in range(view["players"])]
    if view.get("passes") is not None:
        view["passes"] = [own[seat]["passes"][seat] for seat in range(view["players"])]
    view["events"] = [{"text": event.text, "cloud": event.cloud} for event in session.spec.events(session.state)]
    return view


def table_view(session: GameSession) -> dict:
    """What the board may draw: the viewing seat's observation, or the teacher's view."""
    if session.viewing_seat is None:
        return teacher_view(session)
    return session.observation(session.viewing_seat)


def subastral_html(view: dict, *, step: int, moves: int, last_move: str | None = None,
                   problem: str | None = None) -> str:
    """The Subastral table for one observation (``view``) as HTML."""
    players = view["players"]
    viewer = view["viewer"]
    touched = {event.get("cloud") for event in view["events"]}
    winners = set(view["winners"])

    if view["phase"] == "over":
        names = ", ".join(player_label(s) for s in view["winners"]) or "nobody"
        to_move = f"Game over: {'winner' if len(winners) == 1 else 'shared win'}: {names}"
    else:
        movers = " and ".join(player_label(s) for s in view["to_move"])
        to_move = f"{movers} to {PHASES.get(view['phase'], view['phase'])}"
    seen_as = "Teacher view: every hand shown" if viewer is None else f"Seen by {player_label(viewer)}: other hands face down"
    status = [
        f'<span class="step-counter">Step {step} / {moves}</span>',
        f'<span class="round">Round {view["round"] + 1}</span>',
        f'<span class="to-move-line">{esc(to_move)}</span>',
    ]
    if last_move:
        status.append(f'<span class="last-move">Last move: {esc(last_move)}</span>')
    status.append(f'<span class="viewer">{esc(seen_as)}</span>')
    if problem:
        status.append(f'<span class="problem">{esc(problem)}</span>')

    deck = view["deck"]
    if deck["end_card_in_deck"]:
        end_line = f'End card still in the deck: <b>{deck["cards_above_end_card"]}</b> cards above it'
    elif view.get("end_triggered"):
        end_line = (f'<span class="end-card">End card revealed</span>: the game ends after round '
                    f'{view["last_round"] + 1}, then everyone takes one more turn')
    else:
        end_line = '<span class="end-card">End card revealed</span>'
    deck_html = (f'<div class="deck" data-count="{deck["count"]}"><div class="pile">{deck["count"]}</div>'
                 f'<div>Deck: {deck["count"]} cards</div><div>{end_line}</div></div>')

    clouds = []
    for number, pile in enumerate(view["clouds"], start=1):
        classes = f"cloud cloud-{number}" + (" touched" if number in touched else "")
        cards = "".join(card_html(card) for card in pile) or '<span class="empty">empty</span>'
        played = '<span class="played-mark">played this turn</span>' if number == view.get("played_cloud") else ""
        clouds.append(f'<div class="{classes}" data-cloud="{number}"><span class="cloud-label">☁ {number}</span>'
                      f'{cards}{played}</div>')
    sun = '<div class="sun"><div class="disc"></div><div>Sun</div></div>'
    table = f'<div class="sb-table">{deck_html}<div class="clouds">{"".join(clouds)}</div>{sun}</div>'

    seats = []
    for seat in range(players):
        hand = view["hands"][seat]
        if "cards" in hand:
            hand_cards = "".join(card_html(card) for card in hand["cards"]) or '<span class="empty">no cards</span>'
            hand_note = ""
        else:
            hand_cards = "".join(card_back_html() for _ in range(hand["count"])) or '<span class="empty">no cards</span>'
            hand_note = f'<span class="count">{hand["count"]} face down</span>'
        columns = []
        for index, column in enumerate(view["journals"][seat], start=1):
            biome = biome_of(column[0]) if column else ""
            columns.append(f'<div class="journal-column" data-column="{index}" title="{esc(biome_title(biome))}">'
                           f'<span class="col-head">{index} · {len(column)}</span>'
                           f'{"".join(card_html(card) for card in column)}</div>')
        journal = "".join(columns) or '<span class="empty">no columns yet</span>'
        classes = ["seat", f"seat-{seat}"]
        if seat in view["to_move"]:
            classes.append("to-move")
        if seat in winners:
            classes.append("winner")
        notes = []
        if seat in view["to_move"]:
            notes.append("to move")
        if seat == view.get("start_player"):
            notes.append("start player")
        if seat == viewer:
            notes.append("you")
        extra = ""
        if view.get("pending") and seat == view.get("seat") and view["phase"] == "order":
            extra = ('<div class="pending">Waiting for a journal column: '
                     + "".join(card_html(card) for card in view["pending"]) + "</div>")
        passes = view.get("passes")
        if passes is not None:
            chosen = passes[seat]
            if "card" in chosen:
                extra += f'<div class="pending">Passes left: {card_html(chosen["card"])}</div>'
            elif chosen["chosen"]:
                extra += '<div class="pending">Has chosen a card to pass.</div>'
        seats.append(
            f'<div class="{" ".join(classes)}" data-seat="{seat}">'
            f'<div class="seat-head"><span class="seat-name">{esc(player_label(seat))}</span>'
            f'<span class="seat-note">{esc(" · ".join(notes))}</span>'
            f'<span class="seat-score" title="provisional score">{view["scores"][seat]} pts</span></div>'
            f'<div class="zone-label">Hand</div><div class="hand hand-seat-{seat}" data-seat="{seat}">{hand_cards}{hand_note}</div>'
            f'<div class="zone-label">Journal</div><div class="journal journal-seat-{seat}" data-seat="{seat}">{journal}</div>'
            f'{extra}</div>')

    events = "".join(f"<li>{esc(event['text'])}</li>" for event in view["events"] if event.get("text"))
    last = f'<div class="last-events"><b>{"This step" if step else "The deal"}:</b><ul>{events}</ul></div>'
    biomes = sorted({biome_of(card) for pile in view["clouds"] for card in pile}
                    | {biome_of(card) for journal in view["journals"] for column in journal for card in column}
                    | set(BIOME_COLOURS))
    legend = "".join(f'<span><span class="swatch" style="background:{biome_colours(b)[0]}"></span>{esc(biome_title(b))}</span>'
                     for b in biomes)
    card_set = view.get("card_set") or {}
    provenance = (f'<div class="provenance">Card list: {esc(card_set.get("name", "?"))} '
                  f'(provenance: {esc(card_set.get("provenance", "?"))}, an assumed card list until the real one is known)</div>')
    return (f'<div class="sb-board"><div class="sb-status">{"".join(status)}</div>{table}'
            f'<div class="seats columns-{3 if players % 2 else 2}">{"".join(seats)}</div>{last}<div class="legend">{legend}</div>{provenance}</div>')


class SubastralBoard(pn.viewable.Viewer):
    """The Subastral table of a session, redrawn whenever the viewed state or the viewing seat changes."""

    session = param.ClassSelector(class_=GameSession, constant=True)

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(self.html, stylesheets=[BOARD_CSS], sizing_mode="stretch_width",
                                  css_classes=["board"], margin=(0, 5))

    @param.depends("session.state", "session.log", "session.viewing_seat", "session.replay_problem")
    def html(self) -> str:
        session = self.session
        last_move = None
        if session.cursor and session.viewing_seat is None:
            last_move = session.describe_move(session.cursor)
        problem = session.replay_problem["text"] if session.replay_problem else None
        return subastral_html(table_view(session), step=session.cursor, moves=len(session.log),
                              last_move=last_move, problem=problem)

    def __panel__(self):
        return self._pane


class EventLog(pn.viewable.Viewer):
    """Every step's plain-language events from the deal up to the cursor, newest first."""

    session = param.ClassSelector(class_=GameSession, constant=True)

    CSS = """
    .event-log { font-family: system-ui, sans-serif; font-size: .86em; }
    .event-log .step { padding: 4px 6px; border-bottom: 1px solid #e6ebf2; }
    .event-log .step.current { background: #fff6dd; border-left: 3px solid #ffb703; }
    .event-log .step-no { font-weight: 700; color: #2f6fdb; margin-right: .4em; }
    .event-log ul { margin: 1px 0; padding-left: 1.1em; }
    """

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(self.html, stylesheets=[self.CSS], sizing_mode="stretch_width",
                                  css_classes=["event-log-pane"])

    @param.depends("session.state", "session.log", "session.viewing_seat")
    def html(self) -> str:
        entries = []
        for entry in reversed(self.session.event_log()):
            who = f" · {player_label(entry['seat'])}" if entry["seat"] is not None else " · deal"
            items = "".join(f"<li>{esc(text)}</li>" for text in entry["events"])
            current = " current" if entry["step"] == self.session.cursor else ""
            entries.append(f'<div class="step{current}" data-step="{entry["step"]}"><span class="step-no">'
                           f'Step {entry["step"]}</span>{esc(who)}<ul>{items}</ul></div>')
        return f'<div class="event-log">{"".join(entries)}</div>'

    def __panel__(self):
        return self._pane


class ObservationBoard(pn.viewable.Viewer):
    """Fallback for a game without its own board: the observation as readable JSON."""

    session = param.ClassSelector(class_=GameSession, constant=True)

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.JSON(self.view, depth=3, sizing_mode="stretch_width")

    @param.depends("session.state", "session.viewing_seat")
    def view(self) -> dict:
        return self.session.observation(self.session.viewing_seat)

    def __panel__(self):
        return self._pane


#: Board view per game id; games without one get :class:`ObservationBoard`.
BOARDS: dict[str, Callable[..., pn.viewable.Viewer]] = {"subastral": SubastralBoard}


def board_for(session: GameSession) -> pn.viewable.Viewer:
    return BOARDS.get(session.game, ObservationBoard)(session=session)

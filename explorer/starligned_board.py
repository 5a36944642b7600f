"""The Starligned table: each row of star cards left to right, the moon cards, the hands, the round.

Follows ``starligned.ja.txt`` (ラウンドのプレイ) as read by RULINGS.md Starligned: every player builds a
row of star cards; a card's upper half is active (value and effect), the other half is drawn small
and upside down; its half-moon sits on the edge the observation reports, so two neighbouring cards
meeting in a full moon can be seen; a moon card lies over the blocked pair it covers.

Drawn from ``observe()`` only, like the other boards: a seat's view holds that seat's hand (with each
card's orientation) and its face-down phase-1 choice, and of the others only how many cards they
hold and whether they have chosen. The teacher's view adds each seat's own hand and choice, each from
that seat's observation. Whose decision is pending is read from ``to_move``, ``resolver`` and
``pending`` (a repeated effect's owner, an exchanged card's owner), never decided here.

A selected, unconfirmed action (``session.selected_action``) is previewed from its own fields: the
cards it names light up. A seat's view previews only an action among its own legal actions.

CSS classes the tests rely on (seats 0-based; the page says "Player 1" for seat 0): ``sl-board``,
``sl-status`` (``step-counter``, ``sl-stage``, ``sl-phase phase-<phase>``, ``viewer``, ``problem``,
``preview-line``), ``sl-pending pending-seat-<s>``, ``sl-table`` (``moon-supply``, ``sl-direction``,
``sl-order``), ``sl-seat seat-<s>`` (``to-move``, ``start``, ``winner``, ``resolving``),
``sl-row row-seat-<s>``, ``sl-pair`` (``data-pair``) with its ``sl-moon-card``, ``sl-card``
(``data-card`` holds the engine name, ``rotated``, ``blocked``, ``moon-left`` / ``moon-right``,
``last``, ``effect-now``, ``selected``), ``sl-hand hand-seat-<s>``, ``sl-back`` (a card the viewer
cannot see), ``sl-chosen chosen-seat-<s>`` (the phase-1 face-down card or phase-4 rotation),
``sl-events``, ``provenance``.
"""

from __future__ import annotations

import html

import panel as pn
import param

from explorer.board import BOARDS, biome_colours, live_replay_problem
from explorer.plots import player_colour
from explorer.session import SPECTATOR_VIEW, GameSession, player_label

esc = html.escape

STAGES, ROUNDS = 2, 5
EFFECT_LABEL = {"stop": "Stop", "swap": "Swap", "move": "Move", "rotate_card": "Rotate card",
                "rotate_telescope": "Rotate telescope", "repeat": "Repeat", "exchange": "Exchange", "x2": "×2", "x0": "×0"}
#: What an action's fields name: these card ids light up in a preview.
CARD_FIELDS = ("card", "first", "second", "pair")
EMPTY_HAND = '<span class="empty">no cards</span>'

STARLIGNED_CSS = """
:host { display: block; }
.sl-board { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2733; }
.sl-status { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: baseline; margin-bottom: 6px; }
.step-counter { font-weight: 700; font-size: 1.15em; }
.sl-stage { font-weight: 600; }
.sl-phase { flex-basis: 100%; font-size: 1.02em; }
.sl-status .viewer { margin-left: auto; padding: 1px 8px; border-radius: 10px; background: #e7ecf3; font-size: .9em; }
.sl-status .problem { flex-basis: 100%; color: #8a1c1c; background: #fde8e8; padding: 4px 8px; border-radius: 6px; }
.sl-status .preview-line { flex-basis: 100%; padding: 3px 8px; border-radius: 6px; background: #fff3cd; color: #5c4400;
                           border: 1px dashed #e0a800; }
.sl-pending { margin: 0 0 6px; padding: 4px 10px; border-radius: 6px; background: #e8f0fe; border-left: 4px solid #2f6fdb;
              font-size: .95em; }
.sl-table { display: flex; flex-wrap: wrap; gap: .3em 1.2em; font-size: .85em; color: #4a5a6d; margin-bottom: 6px; align-items: center; }
.sl-direction { padding: 1px 8px; border-radius: 9px; background: #ffd166; color: #3d2a00; }
.sl-order .now { font-weight: 700; color: #2f6fdb; }
.sl-seat { border: 1px solid #d3dbe6; border-left: 6px solid var(--seat-colour); border-radius: 10px; padding: 6px 10px;
           margin-bottom: 8px; background: #fbfcfe; }
.sl-seat.to-move { border-top: 2px solid #2f6fdb; border-right: 2px solid #2f6fdb; border-bottom: 2px solid #2f6fdb;
                   box-shadow: 0 0 0 3px rgba(47,111,219,.15); }
.sl-seat.winner { background: #f1fbf5; }
.sl-head { display: flex; flex-wrap: wrap; gap: .3em .7em; align-items: baseline; }
.sl-head .name { font-weight: 700; }
.sl-head .sl-badge { padding: 0 7px; border-radius: 9px; font-size: .8em; background: #e7ecf3; }
.sl-head .sl-badge.start-card { background: #ffd166; color: #3d2a00; }
.sl-head .sl-badge.deciding { background: #2f6fdb; color: #fff; }
.sl-head .sl-badge.winner { background: #1c9c5c; color: #fff; }
.sl-head .score { margin-left: auto; font-weight: 700; font-size: 1.1em; }
.zone-label { font-size: .72em; text-transform: uppercase; letter-spacing: .05em; color: #66768a; margin: 5px 0 2px; }
.sl-row { display: flex; gap: 4px; padding: 8px 10px; border-radius: 10px; background: linear-gradient(160deg, #0d1b33, #24406b);
          min-height: 84px; align-items: flex-end; flex-wrap: wrap; }
.sl-row .empty, .sl-hand .empty { color: #98a4b3; font-size: .85em; align-self: center; }
.sl-lower { display: flex; flex-wrap: wrap; gap: 4px 18px; align-items: flex-start; }
.sl-hand { display: flex; gap: 4px; flex-wrap: wrap; min-height: 80px; align-items: center; }
.sl-pair { position: relative; display: flex; gap: 4px; padding: 16px 3px 3px; border-radius: 9px;
           background: rgba(255,246,194,.22); border: 2px solid #fff6c2; }
.sl-moon-card { position: absolute; top: -2px; left: 50%; transform: translateX(-50%); padding: 0 8px; border-radius: 8px;
                background: #fff6c2; color: #5c4a00; font-size: .7em; font-weight: 700; white-space: nowrap; }
.sl-card { position: relative; width: 62px; height: 84px; border-radius: 7px; border: 1px solid rgba(0,0,0,.4);
           display: flex; flex-direction: column; align-items: center; justify-content: space-between; padding: 11px 0 3px;
           font-size: .68em; line-height: 1.05; box-sizing: border-box; flex: none; }
.sl-card .up { text-align: center; } .sl-card .up b { font-size: 1.9em; display: block; }
.sl-card .down { transform: rotate(180deg); opacity: .7; text-align: center; font-size: .9em; }
.sl-card .pos { position: absolute; top: 1px; left: 3px; font-size: .85em; opacity: .75; }
.sl-card .cid { position: absolute; top: 1px; right: 3px; font-size: .78em; opacity: .8; letter-spacing: -.02em; }
.sl-card .moon { position: absolute; top: 35px; width: 14px; height: 14px; border-radius: 50%; background: #fff6c2;
                 border: 1px solid #c9a800; }
.sl-card.moon-left .moon { left: -8px; clip-path: inset(0 0 0 50%); } .sl-card.moon-right .moon { right: -8px; clip-path: inset(0 50% 0 0); }
.sl-card.blocked { outline: 2px solid #fff6c2; outline-offset: -3px; }
.sl-card.last { box-shadow: 0 0 0 2px #8ecae6; }
.sl-card.effect-now { box-shadow: 0 0 0 3px #ffd166, 0 0 10px 3px rgba(255,209,102,.7); }
.sl-card.selected { outline: 3px solid #e0a800; outline-offset: 1px; transform: translateY(-4px); }
.sl-back { display: inline-block; width: 62px; height: 84px; border-radius: 7px; flex: none; box-sizing: border-box; border: 1px solid #d9e2f1;
           background: repeating-linear-gradient(45deg, #3b5b8c, #3b5b8c 5px, #2c4770 5px, #2c4770 10px); }
.sl-chosen { display: inline-flex; align-items: center; gap: 6px; font-size: .85em; color: #4a5a6d; min-height: 80px; }
.sl-chosen.waiting { color: #2f6fdb; font-weight: 600; }
.sl-events { margin-top: 8px; padding: 6px 10px; border-left: 4px solid #ffd166; background: #fffaf0; font-size: .9em; border-radius: 4px; }
.sl-events ul { margin: 2px 0 0 1.1em; padding: 0; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 10px; margin-top: 6px; font-size: .72em; color: #4a5768; align-items: center; }
.legend .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 3px; vertical-align: -1px; }
.provenance { margin-top: 6px; font-size: .72em; color: #8a97a8; }
"""


# ---------------------------------------------------------------------------- pieces
def effect_text(effect: str) -> str:
    return EFFECT_LABEL.get(effect, effect.replace("_", " "))


def card_html(card: dict, position: int | None = None, extra: tuple[str, ...] = ()) -> str:
    """One star card from its observation: active half large, the other small and upside down."""
    background, ink = biome_colours(card["constellation"])
    classes = ["sl-card", f"moon-{card['half_moon']}", *extra]
    if card["rotated"]:
        classes.append("rotated")
    if card.get("blocked"):
        classes.append("blocked")
    other = card["other_half"]
    title = (f"{card['card']}: {card['value']} {effect_text(card['effect'])} (up) / {other['value']} "
             f"{effect_text(other['effect'])} (down), {card['constellation']}, half-moon on the {card['half_moon']} edge"
             + (", under a moon card" if card.get("blocked") else ""))
    pos = f'<span class="pos">{position}</span>' if position is not None else ""
    pos += f'<span class="cid">{esc(card["id"])}</span>'
    return (f'<div class="{" ".join(c for c in classes if c)}" data-card="{esc(card["card"])}" title="{esc(title)}" '
            f'style="background:{background};color:{ink}">{pos}<span class="moon"></span>'
            f'<span class="up"><b>{card["value"]}</b>{esc(effect_text(card["effect"]))}</span>'
            f'<span class="down">{other["value"]} {esc(effect_text(other["effect"]))}</span></div>')


def back_html(what: str = "a star card, face down") -> str:
    return f'<span class="sl-back" title="{esc(what)}"></span>'


# ---------------------------------------------------------------------------- the view
def starligned_view(session: GameSession) -> dict:
    """The viewing seat's observation, or the teacher's: the spectator's plus each seat's own hand and choice."""
    if not session.sees_all:
        return session.observation(session.viewing_seat)
    view = dict(session.observation(None))
    own = [session.observation(seat) for seat in range(view["players"])]
    view["hands"] = [own[seat]["hands"][seat] for seat in range(view["players"])]
    view["chosen"] = [own[seat]["chosen"][seat] for seat in range(view["players"])]
    view["events"] = [{"text": event.text} for event in session.spec.events(session.state)]
    return view


def selection_preview(session: GameSession, view: dict) -> dict:
    """The selected action's label and the card ids it names (and the row it names, if any)."""
    data = session.selected_action
    if not data or not view["to_move"]:
        return {}
    if session.viewing_seat is not None and data not in view["legal_actions"]:
        return {}             # another seat's selection is never previewed in this seat's view
    try:
        label = str(session.spec.decode_action(data))
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


def phase_line(view: dict) -> str:
    """Who decides what, in the rulebook's words."""
    phase, movers = view["phase"], view["to_move"]
    names = ", ".join(player_label(s) for s in movers)
    resolver = view.get("resolver")
    if phase == "play":
        return f"Phase 1: everyone puts one hand card face down at the right of their row. Still choosing: {names}."
    if phase == "rotate":
        return f"Phase 4: everyone rotates one hand card, then the hands pass left. Still to rotate: {names}."
    if phase == "moon":
        return (f"Phase 3, moon bonus: {player_label(resolver)}'s last two cards meet in a full moon: cover them "
                f"with a moon card, remove a moon card from an opponent's row, or take no bonus.")
    if phase == "effect":
        last = view["rows"][resolver][-1] if view["rows"][resolver] else None
        what = f"{effect_text(last['effect'])} of {last['id']}" if last else "the effect"
        return f"Phase 3: {player_label(resolver)} resolves the {what}, the rightmost card of their row."
    if phase == "repeat":
        pending = view["pending"]
        return (f"Phase 3, Repeat: {player_label(pending['seat'])}, the owner of {pending['card']}, resolves its effect "
                f"again for {player_label(resolver)}'s Repeat.")
    if phase == "exchange":
        pending = view["pending"]
        return (f"Phase 3, Exchange: {player_label(pending['seat'])} picks the hand card that takes {pending['card']}'s "
                f"place in their row ({player_label(resolver)}'s Exchange).")
    if phase == "over":
        winners = view.get("winners") or []
        return (f"Game over: {'winner' if len(winners) == 1 else 'shared win'}: "
                f"{', '.join(player_label(s) for s in winners) or 'nobody'}.")
    return f"{phase}: {names} to move"


def status_html(session: GameSession, view: dict, preview: dict) -> str:
    problem = live_replay_problem(session)
    seer = ("Teacher view: every hand and face-down card shown" if session.sees_all
            else SPECTATOR_VIEW if session.viewing_seat is None
            else f"Seen by {player_label(session.viewing_seat)}: other hands and face-down cards hidden")
    stage = (f"Stage {min(view['stage'], STAGES - 1) + 1} of {STAGES} · round {min(view['round'], ROUNDS - 1) + 1} of {ROUNDS}"
             if view["phase"] != "over" else f"Stage {STAGES} of {STAGES} · every row is complete")
    parts = [f'<span class="step-counter">Step {session.cursor} / {len(session.log)}</span>',
             f'<span class="sl-stage">{esc(stage)}</span>',
             f'<span class="viewer">{esc(seer)}</span>',
             f'<span class="sl-phase phase-{esc(view["phase"])}">{esc(phase_line(view))}</span>']
    if problem:
        parts.append(f'<span class="problem">{esc(problem["text"])}</span>')
    if preview:
        parts.append(f'<span class="preview-line">Selected, not yet played: <b>{esc(preview["label"])}</b>. '
                     f'Confirm or Cancel it in the action panel.</span>')
    return f'<div class="sl-status">{"".join(parts)}</div>'


def pending_html(view: dict) -> str:
    """A decision that belongs to another player than the one resolving phase 3."""
    pending = view.get("pending")
    if not pending:
        return ""
    what = {"repeat": "resolves the repeated effect of", "exchange": "picks a hand card to replace"}.get(view["phase"], "decides about")
    return (f'<div class="sl-pending pending-seat-{pending["seat"]}">Waiting for <b>{esc(player_label(pending["seat"]))}</b>, '
            f'who {what} <b>{esc(pending["card"])}</b>; then {esc(player_label(view["resolver"]))}\'s phase-3 turn '
            f'goes on.</div>')


def table_html(view: dict) -> str:
    players, start = view["players"], view["start_player"]
    order = [(start + i) % players for i in range(players)]
    resolver = view.get("resolver")
    order_text = " → ".join(f'<span class="now">P{s + 1}</span>' if s == resolver else f"P{s + 1}" for s in order)
    parts = [f'<span class="sl-direction" title="the start-player direction card; it passes left with the hands">'
             f'Start player: <b>{esc(player_label(start))}</b></span>',
             f'<span class="sl-order">Phase 3 order: {order_text}</span>',
             f'<span>Hands pass left: {" → ".join(f"P{s + 1}" for s in range(players))} → P1</span>',
             f'<span class="sl-deck">Deck: <b>{view["deck"]["count"]}</b></span>',
             f'<span class="moon-supply">Moon cards in the supply: <b>{view["moon_supply"]}</b></span>',
             f'<span>Discarded: {view["discard"]["count"]}</span>']
    if view["box"]:
        parts.append(f'<span>Box: {len(view["box"])} white-star cards (out of this game)</span>')
    if view["stopped"]:
        parts.append("<span><b>Stop</b> was revealed: no phase 3 this round</span>")
    if view.get("ignored"):
        parts.append(f'<span>Came in by Exchange, effect ignored this round: {esc(", ".join(view["ignored"]))}</span>')
    return f'<div class="sl-table">{"".join(parts)}</div>'


def row_html(view: dict, seat: int, preview: dict, now: tuple[int, str] | None) -> str:
    """The row left to right; a moon card over each pair it covers."""
    row = view["rows"][seat]
    if not row:
        return f'<div class="sl-row row-seat-{seat}"><span class="empty">no cards yet</span></div>'
    pairs = {tuple(pair) for pair in view["moons"][seat]}
    lit = preview.get("cards", set()) if preview.get("row") in (None, seat) and preview.get("type") != "play" else set()

    def one(i: int) -> str:
        card = row[i]
        extra = []
        if i == len(row) - 1:
            extra.append("last")
        if now == (seat, card["id"]):
            extra.append("effect-now")
        if card["id"] in lit:
            extra.append("selected")
        return card_html(card, i + 1, tuple(extra))

    parts, i = [], 0
    while i < len(row):
        if i + 1 < len(row) and (row[i]["id"], row[i + 1]["id"]) in pairs:
            pair = f"{row[i]['id']} {row[i + 1]['id']}"
            parts.append(f'<div class="sl-pair" data-pair="{esc(pair)}"><span class="sl-moon-card" '
                         f'title="a moon card covers {esc(pair)}: both are blocked">☾ moon card</span>{one(i)}{one(i + 1)}</div>')
            i += 2
        else:
            parts.append(one(i))
            i += 1
    return f'<div class="sl-row row-seat-{seat}">{"".join(parts)}</div>'


def hand_html(view: dict, seat: int, preview: dict) -> str:
    hand = view["hands"][seat]
    if "cards" in hand:
        lit = preview.get("cards", set()) if preview.get("type") in ("play", "exchange_with", "rotate_hand") else set()
        held = "".join(card_html(card, extra=("selected",) if card["id"] in lit else ()) for card in hand["cards"])
    else:
        held = "".join(back_html(f"one of {player_label(seat)}'s hand cards") for _ in range(hand["count"]))
    return f'<div class="sl-hand hand-seat-{seat}">{held or EMPTY_HAND}</div>'


def chosen_html(view: dict, seat: int) -> str:
    """Phase 1: the face-down card (its face for its owner only); phase 4: whether the seat has rotated."""
    chosen = view["chosen"][seat]
    phase = view["phase"]
    if phase == "play":
        if "card" in chosen:
            whose = "only you see it" if view["viewer"] == seat else "the teacher's view"
            inner = f"Face down ({whose}): {card_html(chosen['card'])}"
        elif chosen.get("chosen"):
            inner = f'{back_html("a card chosen face down")} chosen, face down'
        else:
            return f'<span class="sl-chosen chosen-seat-{seat} waiting">still choosing…</span>'
        return f'<span class="sl-chosen chosen-seat-{seat}">{inner}</span>'
    if phase == "rotate":
        if chosen.get("rotated"):
            return f'<span class="sl-chosen chosen-seat-{seat}">has rotated a hand card</span>'
        return f'<span class="sl-chosen chosen-seat-{seat} waiting">still to rotate a hand card…</span>'
    return ""


def seat_html(view: dict, seat: int, preview: dict, now: tuple[int, str] | None) -> str:
    classes = ["sl-seat", f"seat-{seat}"]
    badges = []
    if seat == view["start_player"]:
        classes.append("start")
        badges.append('<span class="sl-badge start-card">★ start player (direction card)</span>')
    if seat == view.get("resolver"):
        classes.append("resolving")
        badges.append('<span class="sl-badge">resolving phase 3</span>')
    if seat in view["to_move"]:
        classes.append("to-move")
        badges.append('<span class="sl-badge deciding">to decide</span>')
    if seat in (view.get("winners") or []):
        classes.append("winner")
        badges.append('<span class="sl-badge winner">winner</span>')
    if seat == view["viewer"]:
        badges.append('<span class="sl-badge">you</span>')
    moons = len(view["moons"][seat])
    hand = view["hands"][seat]
    lower = (f'<div><div class="zone-label">Hand ({hand["count"]}), as held</div>{hand_html(view, seat, preview)}</div>')
    choice = chosen_html(view, seat)
    if choice:
        label = "Phase 1 choice" if view["phase"] == "play" else "Phase 4"
        lower += f'<div><div class="zone-label">{label}</div>{choice}</div>'
    return (f'<div class="{" ".join(classes)}" style="--seat-colour:{player_colour(seat)}">'
            f'<div class="sl-head"><span class="name">{esc(player_label(seat))}</span>{"".join(badges)}'
            f'<span class="moons">{moons} moon card{"" if moons == 1 else "s"} on the row</span>'
            f'<span class="score">{view["scores"][seat]} pts</span></div>'
            f'<div class="zone-label">Row, left to right ({len(view["rows"][seat])} of {STAGES * ROUNDS})</div>'
            f'{row_html(view, seat, preview, now)}<div class="sl-lower">{lower}</div></div>')


def legend_html(view: dict) -> str:
    groups = sorted({card["constellation"] for row in view["rows"] for card in row}
                    | {card["constellation"] for hand in view["hands"] for card in hand.get("cards", ())})
    swatches = "".join(f'<span><span class="swatch" style="background:{biome_colours(g)[0]}"></span>{esc(g)}</span>'
                       for g in groups)
    return (f'<div class="legend">{swatches}<span>Large: the active (upper) half · small, upside down: the other half · '
            f'½ moon on the card edge; two halves meeting make a full moon</span></div>')


def starligned_html(session: GameSession) -> str:
    view = starligned_view(session)
    preview = selection_preview(session, view)
    now = resolving_card(view)
    seats = "".join(seat_html(view, seat, preview, now) for seat in range(view["players"]))
    events = "".join(f"<li>{esc(e['text'])}</li>" for e in view["events"] if e.get("text"))
    provenance = view.get("card_set", {})
    foot = (f'<div class="provenance">Card list: {esc(str(provenance.get("name", "")))} '
            f'(provenance: {esc(str(provenance.get("provenance", "")))})</div>')
    return (f'<div class="sl-board">{status_html(session, view, preview)}{pending_html(view)}{table_html(view)}{seats}'
            + (f'<div class="sl-events"><b>This step:</b><ul>{events}</ul></div>' if events else "")
            + legend_html(view) + foot + "</div>")


class StarlignedBoard(pn.viewable.Viewer):
    """The Starligned table of a session, redrawn whenever the viewed state, seat or selection changes."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default="en", objects=["en", "ja"], doc="The language of the board's texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(self.html, stylesheets=[STARLIGNED_CSS], sizing_mode="stretch_width",
                                  css_classes=["board"], margin=(0, 5))

    @param.depends("session.state", "session.log", "session.viewing_seat", "session.replay_problem",
                   "session.selected_action")
    def html(self) -> str:
        if self.session.game != "starligned":
            return ""              # the app has swapped in another game's board; this one is retired
        return starligned_html(self.session)

    def __panel__(self):
        return self._pane


BOARDS["starligned"] = StarlignedBoard

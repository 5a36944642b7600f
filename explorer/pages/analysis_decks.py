"""The Analysis page's decks: each setting's card file, the per-card table and the verdict.

:class:`DeckChooser` picks a setting's card file (A's or B's): the game's standard file, one saved in the card library
(``explorer/cardfiles.py``), or a file uploaded from the browser, checked by the game's own reader
(its message is shown, escaped, and the choice stays as it was). Every value a browser can send is
checked here on the server: a choice that is not on the menu, or a file the engine refuses, changes
nothing. The pure functions word a result: the pairing (same deals or same seeds only), the one-sentence
verdict (``play/verdict.py``'s record, in the page's language) and the per-card table, every card's
name escaped (a card file is user input).
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Mapping, Sequence

import panel as pn
import param

import rules
from explorer.cardfiles import MAX_BYTES, CardFileError, CardLibrary, served_library
from explorer.components.file_input import JsonFileInput
from explorer.core.i18n import text
from play.card_stats import USES
from play.verdict import verdict
from rules.protocol import AnyGame, RulesError, load_json

#: A table cell's style: a figure on one line (a narrow screen scrolls the table sideways).
CELL = " style='white-space:nowrap;padding:2px 10px 2px 0;text-align:left'"
STANDARD = "standard"
UPLOADED = "uploaded"
SAVED = "saved:"


class DeckChooser(pn.viewable.Viewer):
    """A setting's card file (``setting``: "A" or "B"): ``data`` (None: the standard file) and ``label``
    (how the page names it)."""

    data = param.Dict(default=None, allow_None=True, doc="The card file (parsed JSON); None: the standard file.")
    label = param.String(default=STANDARD)
    error = param.String(default="", doc="Why the last choice was refused (the engine's words).")

    def __init__(self, game: str, lang: str = "en", library: CardLibrary | None = None, setting: str = "B",
                 **params: Any):
        super().__init__(**params)
        self.game, self.lang, self.setting = game, lang, setting
        self.library = library or served_library()     # (the editor's and the explorer's: beside the server's --db)
        self._uploaded: dict | None = None
        self._uploaded_name = ""            # (the uploaded file's name, as the browser gave it)
        side = setting.lower()          # (each part's class names its setting: analysis-cards-error-b)
        self.source = pn.widgets.Select(label=text("analysis.cards.label", lang, setting=setting),
                                        css_classes=[f"analysis-cards-{side}"])
        # The size is checked in the browser before the file is read: one past the websocket's message limit
        # would close the page's connection, the run and its settings with it.
        self.upload = JsonFileInput(lang=lang, accept=".json", max_bytes=MAX_BYTES, sizing_mode="stretch_width",
                                    description=text("analysis.cards.upload_tip", lang),
                                    css_classes=[f"analysis-cards-upload-{side}"])
        self.upload.on_too_big = self.too_big
        self.message = pn.pane.HTML("", css_classes=[f"analysis-cards-error-{side}"], styles={"color": "#b00020"},
                                    sizing_mode="stretch_width")
        self.shown = pn.pane.HTML("", css_classes=[f"analysis-cards-shown-{side}"], sizing_mode="stretch_width")
        self.source.param.watch(self._on_source, "value")
        # onlychanged=False: the same file chosen again (after another choice on the menu) is taken again.
        self.upload.param.watch(self._on_upload, "value", onlychanged=False)
        self.set_game(game)

    def options(self) -> dict[str, str]:
        """The menu: the standard file, each saved file of the game, and the upload once one is accepted."""
        lang = self.lang
        options = {text("analysis.cards.standard", lang): STANDARD}
        try:
            names = self.library.names(self.game)
        except (CardFileError, OSError):
            names = []
        options.update({text("analysis.cards.saved", lang, name=name): SAVED + name for name in names})
        if self._uploaded is not None:
            options[text("analysis.cards.uploaded", lang)] = UPLOADED
        return options

    def set_game(self, game: str) -> None:
        """Another game: back to its standard file."""
        self.game, self._uploaded, self._uploaded_name = game, None, ""
        self.source.options = self.options()
        self.source.value = STANDARD
        self._choose(None, STANDARD, "")

    def _choose(self, data: dict | None, label: str, error: str) -> None:
        self.param.update(data=data, label=label, error=error)
        self.message.object = html.escape(error)
        self.shown.object = html.escape(text("analysis.cards.using", self.lang, setting=self.setting, name=self.name_of(label)))

    def name_of(self, label: str) -> str:
        if label == STANDARD:
            return text("analysis.cards.standard", self.lang)
        if label == UPLOADED:
            if self._uploaded_name:
                return text("analysis.cards.uploaded_named", self.lang, name=self._uploaded_name)
            return text("analysis.cards.uploaded", self.lang)
        return label.removeprefix(SAVED)

    def refuse(self, error: str) -> None:
        """Say why, and leave the choice as it was (the menu back on it)."""
        self.error = error
        self.message.object = html.escape(error)
        if self.source.value != self.label and self.label in self.source.options.values():
            self.source.value = self.label

    def _on_source(self, event: Any) -> None:
        value = event.new
        if value == self.label:         # (the menu put back on the choice a refusal kept: its message stays)
            return
        if not isinstance(value, str) or value not in self.options().values():
            self.refuse(text("analysis.cards.not_offered", self.lang))
            return
        if value == STANDARD:
            self._choose(None, STANDARD, "")
        elif value == UPLOADED:
            self._choose(self._uploaded, UPLOADED, "")
        else:
            try:
                data = self.library.load(self.game, value.removeprefix(SAVED))
            except (CardFileError, RulesError, OSError) as error:
                self.refuse(str(error))
                return
            self._choose(data, value, "")

    def too_big(self, name: str, size: int) -> None:
        """Refuse a file over ``MAX_BYTES`` (the browser reports it unread, by name and size)."""
        self.refuse(text("analysis.cards.too_big", self.lang, name=name or text("analysis.cards.uploaded", self.lang),
                         size=f"{size:,}", limit=f"{MAX_BYTES:,}"))

    def accept_upload(self, content: Any, name: str = "") -> None:
        """An uploaded file's text (the browser's message; bytes too, from a notebook or a test): the
        setting's card file if the game reads it, else its error and no change."""
        if not isinstance(content, (str, bytes, bytearray)):
            self.refuse(text("analysis.cards.refused", self.lang, error=text("analysis.cards.not_object", self.lang)))
            return
        size = len(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
        # (The browser reports a larger file unread: larger text is a forged message, or a file that is not
        # UTF-8 text, each byte the browser could not read counted as the three of the mark it put there.)
        if size > MAX_BYTES:
            self.too_big(name, size)
            return
        try:
            data = load_json(content if isinstance(content, str) else bytes(content), what="cards")
            if not isinstance(data, dict):
                raise CardFileError(text("analysis.cards.not_object", self.lang))
            rules.get_game(self.game).with_card_file(data)
        except (RulesError, CardFileError) as error:
            problem = error.problem_in(self.lang) if hasattr(error, "problem_in") else str(error)
            self.refuse(text("analysis.cards.refused", self.lang, error=problem))
            return
        self._uploaded, self._uploaded_name = data, name
        self.source.options = self.options()
        self._choose(data, UPLOADED, "")
        self.source.value = UPLOADED

    def _on_upload(self, event: Any) -> None:
        if event.new is not None:
            self.accept_upload(event.new, self.upload.filename)

    def __panel__(self) -> pn.Column:
        return pn.Column(self.source, self.upload, self.shown, self.message, margin=0)


# ---------------------------------------------------------------------------- words (pure)
def pairing_text(pairing: Mapping[str, Any] | None, games: int, lang: str = "en") -> str:
    """"Paired on the same 500 deals." or "Paired on the same 500 seeds, not the same deals: the card
    files differ in mole (0 in A, 1 in B)." in ``lang`` (plain text: escape it to show it)."""
    if not pairing:
        return ""
    if pairing["same_deals"]:
        return text("analysis.pairing.deals", lang, games=games)
    counts = pairing["card_counts"]
    if not counts:
        return text("analysis.pairing.seeds_order", lang, games=games)
    named = text("analysis.question.separator", lang).join(
        text("analysis.pairing.count", lang, card=c["card"], a=c["a"], b=c["b"]) for c in counts[:4])
    more = text("analysis.pairing.more", lang, more=len(counts) - 4) if len(counts) > 4 else ""
    return text("analysis.pairing.seeds", lang, games=games, cards=named + more)


def _what(finding: Mapping[str, Any], lang: str) -> str:
    seat = finding["seat"]
    return text(f"analysis.verdict.{finding['kind']}", lang, n=(seat or 0) + 1)


def verdict_text(stats: Mapping[str, Any] | None, pairing: Mapping[str, Any] | None, lang: str = "en") -> str:
    """The answer in one sentence in ``lang``, from ``play.verdict.verdict`` (empty before any game)."""
    if not stats or not pairing:
        return ""
    record = verdict(stats, pairing)
    head = record["headline"]
    basis = text(f"analysis.verdict.basis.{record['basis']}", lang, games=record["games"])
    if head is None:
        return text("analysis.verdict.too_few", lang, games=record["games"])
    if record["same"]:
        return text("analysis.verdict.same", lang, basis=basis)
    higher = head["mean"] > 0
    low, high = (head["low"], head["high"]) if higher else (-head["high"], -head["low"])
    # (a win rate's difference is in percentage points, a score's in points of the game: ポイント and 点 in
    # Japanese, where the headline said ポイント of a score that the lines below said in 点)
    unit = text("analysis.verdict.unit." + {"game_length": "decisions", "score": "score_points",
                                            "score_spread": "score_points"}.get(head["kind"], "points"), lang)
    size = text("analysis.verdict.higher" if higher else "analysis.verdict.lower", lang, size=f"{abs(head['mean']):.1f}",
                unit=unit, low=f"{low:.1f}", high=f"{high:.1f}")
    if not head["significant"]:
        return text("analysis.verdict.none", lang, basis=basis, what=_what(head, lang), size=size)
    others = record["others"]
    rest = (text("analysis.verdict.no_other", lang) if not others else
            text("analysis.verdict.also", lang,
                 what=text("analysis.question.separator", lang).join(_what(f, lang) for f in others)))
    return text("analysis.verdict.one", lang, what=_what(head, lang), size=size, basis=basis, rest=rest)


def _interval(ci: Mapping[str, Any], floor: float | None = None) -> str:
    """``1.53 [1.40, 1.66]``; ``floor``: the least value there can be (uses per game: 0), where the
    normal interval's low end would fall below it."""
    if ci["mean"] is None:
        return "–"
    if ci["low"] is None:
        return f"{ci['mean']:.2f}"
    low = ci["low"] if floor is None else max(floor, ci["low"])
    return f"{ci['mean']:.2f} [{low:.2f}, {ci['high']:.2f}]"


def card_names(games: Sequence[AnyGame], cards: Iterable[str], lang: str = "en") -> dict[str, str]:
    """Each card's printed name in ``lang``, from the first of ``games`` (A's, then B's card set)
    that knows it; a card none knows by its id."""
    names = {}
    for card in cards:
        names[card] = card
        for game in games:
            label = game.card_label(card)
            if label != card:
                names[card] = label.get(lang, label.get("en", card)) if isinstance(label, Mapping) else str(label)
                break
    return names


def card_table_html(stats: Mapping[str, Any] | None, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """Per card and use: uses per game and the final score of the seats that did, in A and in B (95%
    intervals); ``names``: a card's printed name by its id (shown beside it). Every name is escaped."""
    if not stats:
        return ""
    names = names or {}
    rows: dict[tuple[str, str], dict[str, Mapping[str, Any]]] = {}
    for name in ("a", "b"):
        for row in stats[name].get("cards", []):
            rows.setdefault((row["use"], row["card"]), {})[name] = row
    head = "".join(f"<th{CELL}>{html.escape(text(f'analysis.cards.column.{c}', lang))}</th>"
                   for c in ("card", "use", "per_game_a", "per_game_b", "score_a", "score_b"))
    body = []
    for (use, card), sides in sorted(rows.items(), key=lambda item: (USES.index(item[0][0]), item[0][1])):
        name = names.get(card, card)
        shown = html.escape(name) + ("" if name == card else f" <span style='color:#666'>({html.escape(card)})</span>")
        cells = [shown, html.escape(text(f"analysis.cards.use.{use}", lang))]
        for key, floor in (("per_game", 0.0), ("score_of_users", None)):
            for side_name in ("a", "b"):
                side = sides.get(side_name)
                cells.append(_interval(side[key], floor) if side else "–")
        body.append("<tr>" + "".join(f"<td{CELL}>{cell}</td>" for cell in cells) + "</tr>")
    return (f"<details class='analysis-card-figures'><summary>{html.escape(text('analysis.cards.table', lang))}"
            f"</summary><div style='max-height:420px;overflow:auto'><table class='analysis-card-table'>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div></details>")

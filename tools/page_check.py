"""What a reader of a page's screenshot checks, done by the browser: the page is no wider than the
screen, no two texts or controls cover each other, none is cut at the screen's edge, no text runs past
the box it is drawn in (a card, a slot, a zone: the nearest element with a border or a background), no id shows where
a name should, no Japanese line begins with ー, a small kana or a closing mark, and a Japanese
page shows no English words. The words a page shows as a file wrote
them (the card editor's keys, ids and names, marked ``translate="no"`` or, on a widget, with the class
``file-data``) are the file's, not the page's: they count for the layout, not for the words. Used by
``make tour`` (``tools/tour.py``) and the browser tests (``tests/browser/test_browser_shell.py``)."""

from __future__ import annotations

import re

#: What a finding is about: the page's layout (``linebreak``: a Japanese line that begins with ー, a
#: small kana or a closing mark, as "プレイヤ" / "ー3"; ``spill``: a text past the edge of its card, slot
#: or zone, as "1 interstellar cloud ★★★" past a 64-pixel card), or its words.
LAYOUT = ("overflow", "overlap", "cut", "linebreak", "spill")
WORDS = ("id", "english")

#: Words a Japanese page may show in Latin letters: names (of the games, this tool, Panel's parts the
#: user never reads), units and formats.
LATIN_ALLOWED = {
    "rules", "explorer", "subastral", "starligned", "biome", "blitz", "jump", "gate", "stellar", "json", "csv",
    "svg", "png", "html", "url", "ai", "mcts", "greedy", "random", "id", "ok", "vs", "ci", "bokeh", "panel",
    "holoviews", "sqlite", "a", "b", "english",
    # key caps as a Japanese keyboard prints them ("Home / End" in the key hint); Board Game Arena's
    # acronym and the rules texts' translator, both named in sources; the publisher's line (WPT)
    "home", "end", "bga", "jurong", "wpt",
}

#: What is no prose, in either language, and is left out before the words are checked: a file path or
#: web address cited as a source (docs/readings.md, meeplephd.com), a table's hexadecimal id, a
#: zoological family's Latin name (Felidae), which Biome Blitz's cards print as they are, and a
#: command-line option as it is typed (the rules page's "コマンドラインの --variant"): only a lower-case
#: word right after two hyphens that start a word, so the same word without them ("variant") is
#: still English on a Japanese page.
NOT_PROSE = re.compile(r"(?:https?://)?(?:[\w.-]+/)+[\w.-]+|\b[\w-]+\.(?:md|json|py|com|org|net|io)\b"
                       r"|\b[0-9a-f]{8}\b|\b[A-Z][a-z]+idae\b|(?<![\w-])--[a-z]+(?:-[a-z]+)*(?![\w-])")

#: The JavaScript that reads a drawn page: every visible text and control (through Bokeh's shadow
#: roots), as boxes, and the page's width.
READ_PAGE = r"""
(screen) => {
  const out = {width: document.documentElement.scrollWidth, inner: window.innerWidth, boxes: [], texts: [], lineStarts: [], spills: []};
  const NO_LINE_START = 'ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ。、，．）」』】〕〉》！？：；・';
  const seen = new Set();
  const up = (el) => el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentElement;
  function visible(el) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
    for (let p = el; p; p = p.parentNode instanceof ShadowRoot ? p.parentNode.host : p.parentElement) {
      const s = getComputedStyle(p);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
      // a closed <details> draws its summary only (Chromium still gives the rest boxes, where nothing shows)
      const parent = p.parentElement;
      if (parent && parent.tagName === 'DETAILS' && !parent.open && p.tagName !== 'SUMMARY') return false;
    }
    return true;
  }
  function path(el) {
    const parts = [];
    for (let p = el; p && parts.length < 4; p = p.parentNode instanceof ShadowRoot ? p.parentNode.host : p.parentElement) {
      const cls = (typeof p.className === 'string' && p.className) ? '.' + p.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
      parts.unshift(p.tagName.toLowerCase() + cls);
    }
    return parts.join(' > ');
  }
  function clipped(el, r) {
    // the part of r inside every scrolling or clipping ancestor (a scrolled-away text is not drawn)
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let p = el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentElement; p;
         p = p.parentNode instanceof ShadowRoot ? p.parentNode.host : p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const q = p.getBoundingClientRect();
        l = Math.max(l, q.left); t = Math.max(t, q.top); rt = Math.min(rt, q.right); b = Math.min(b, q.bottom);
      }
    }
    return [l, t, rt, b];
  }
  function fileData(el) {
    // a page's own copy of a file's words (a card file's keys and ids in the card editor): marked
    // translate="no" (or, on a widget, the class file-data); shown as written in every language
    for (let p = el; p; p = p.parentNode instanceof ShadowRoot ? p.parentNode.host : p.parentElement) {
      if (p.getAttribute && p.getAttribute('translate') === 'no') return true;
      if (p.classList && p.classList.contains('file-data')) return true;
    }
    return false;
  }
  let id = 0;
  function walk(root) {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const tag = el.tagName.toLowerCase();
      if (['script', 'style', 'link', 'meta', 'title', 'head', 'template', 'noscript'].includes(tag)) continue;
      const control = ['button', 'input', 'select', 'textarea'].includes(tag) || el.getAttribute('role') === 'button';
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
      own = own.replace(/\s+/g, ' ').trim();
      if (!control && !own) continue;
      if (!visible(el)) continue;
      // the boxes of the element's own text, one per line (not its children's), or the control's box
      let rects;
      if (!control) {
        const range = document.createRange();
        let first = null, last = null;
        for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) { first = first || n; last = n; }
        range.setStartBefore(first); range.setEndAfter(last);
        rects = [...range.getClientRects()];
      } else {
        rects = [el.getBoundingClientRect()];
      }
      rects = rects.filter((r) => r.width >= 1 && r.height >= 1);
      if (!rects.length) continue;
      const shown = rects.map((r) => clipped(el, r)).filter(([l, t, rt, b]) => rt - l >= 1 && b - t >= 1);
      if (!shown.length) continue;
      el.__tourId = ++id;
      const full = [Math.min(...rects.map((r) => r.left)), Math.min(...rects.map((r) => r.top)),
                    Math.max(...rects.map((r) => r.right)), Math.max(...rects.map((r) => r.bottom))];
      out.boxes.push({id, rects: shown, full, text: (own || el.value || el.getAttribute('aria-label') || tag).slice(0, 60),
                      control, tag, where: path(el)});
      if (own && !fileData(el)) out.texts.push(own);
      // a text that runs past the box it is drawn in: the nearest element (itself or above) with a
      // border or a background, a card, a slot, a zone. Past a scrolling box's right or bottom edge it
      // is scrolled to, not spilt; past its start (left or top, with the box scrolled back), it can
      // never be seen. A clipping box (overflow hidden) is left alone: its text may end in "…".
      if (!control) {
        let box = el, scrolls = false;
        for (; box && box !== document.body; box = up(box)) {
          const s = getComputedStyle(box);
          if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
            scrolls = [s.overflowX, s.overflowY].some((o) => o === 'auto' || o === 'scroll');
            if (!scrolls) box = null;
            break;
          }
          if (parseFloat(s.borderLeftWidth) || parseFloat(s.borderRightWidth) || s.backgroundImage !== 'none'
              || !['rgba(0, 0, 0, 0)', 'transparent'].includes(s.backgroundColor)) break;
        }
        if (box && box !== document.body) {
          const b = box.getBoundingClientRect();
          const e = scrolls ? {left: b.left - box.scrollLeft, top: b.top - box.scrollTop, right: Infinity, bottom: Infinity} : b;
          const past = rects.find((r) => r.left < e.left - 0.5 || r.right > e.right + 0.5 || r.top < e.top - 1 || r.bottom > e.bottom + 1);
          if (past) out.spills.push({text: own.slice(0, 60), where: path(box),
                                     by: [e.left - past.left, past.right - e.right, e.top - past.top, past.bottom - e.bottom].map((px) => Number.isFinite(px) ? Math.round(px) : 0)});
        }
      }
      // a line that begins with a character Japanese never begins a line with (ー, a small kana, a
      // closing mark): the character drawn on a lower line than the one before it in the same text
      if (!control) for (const n of el.childNodes) {
        if (n.nodeType !== 3) continue;
        const said = n.textContent;
        for (let i = 1; i < said.length; i++) {
          if (!NO_LINE_START.includes(said[i]) || /\s/.test(said[i - 1])) continue;
          const here = document.createRange(), before = document.createRange();
          here.setStart(n, i); here.setEnd(n, i + 1); before.setStart(n, i - 1); before.setEnd(n, i);
          const a = here.getClientRects()[0], b = before.getClientRects()[0];
          if (a && b && a.top >= b.bottom - 1)
            out.lineStarts.push(said.slice(Math.max(0, i - 12), i) + '|' + said.slice(i, i + 8));
        }
      }
    }
  }
  walk(document);
  // what sticks out past the window's right edge: the outermost such elements (their path)
  out.wide = [];
  (function wide(root) {
    for (const el of root.children) {
      const r = el.getBoundingClientRect();
      if (r.right > screen + 1 && r.width > 0 && getComputedStyle(el).position !== 'fixed') {
        const inner = [...el.children].some((c) => c.getBoundingClientRect().right > screen + 1);
        if (!inner && !el.shadowRoot) { out.wide.push(path(el) + ' (' + Math.round(r.left) + '-' + Math.round(r.right) + ' px)'); continue; }
      }
      if (el.shadowRoot) wide(el.shadowRoot);
      wide(el);
    }
  })(document);
  // ancestry, for "neither inside the other"
  const boxes = out.boxes;
  const byId = new Map();
  (function index(root) {
    for (const el of root.querySelectorAll('*')) { if (el.__tourId) byId.set(el.__tourId, el); if (el.shadowRoot) index(el.shadowRoot); }
  })(document);
  for (const box of boxes) {
    const chain = [];
    for (let p = up(byId.get(box.id)); p; p = up(p)) if (p.__tourId) chain.push(p.__tourId);
    box.ancestors = chain;
  }
  return out;
}
"""


#: An id in the text: a card's (savanna-3, moon-1-3stars, gem_white-bh: a black hole's "-bh") or a
#: snake_case name (before_refill); not a hyphenated English word (face-up).
ID = re.compile(r"\b[a-z]+(?:_[a-z]+)*-(?:[0-9]+|bh)\b|\b[a-z]+_[a-z]+(?:_[a-z]+)*\b")
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")


def overlap(p: list, q: list) -> tuple[float, float]:
    """The width and height two boxes ([left, top, right, bottom]) share."""
    return min(p[2], q[2]) - max(p[0], q[0]), min(p[3], q[3]) - max(p[1], q[1])


def spin_parts(a: dict, b: dict) -> bool:
    """A number field and its own up/down buttons, or a checkbox and its label: one control, drawn so."""
    return any(kind in a["where"] and kind in b["where"] for kind in ("bk-spin-wrapper", "bk-Checkbox")) and \
        "input" in (a["tag"], b["tag"])


def findings(data: dict, lang: str, size: tuple[int, int]) -> list[str]:
    found = []
    width, height = size
    if data["width"] > data["inner"] + 1 or data["inner"] != width:
        found.append(f"overflow: laid out {data['width']} px wide in a {data['inner']} px window ({width} px screen); "
                     f"past the edge: {'; '.join(list(dict.fromkeys(data['wide']))[:4])}")
    boxes = data["boxes"]
    for box in boxes:
        l, _, r, _ = box["full"]
        # (cut by the screen: its drawn part reaches the edge; one a scrolling table clips inside the
        # screen, its next column, is reached by scrolling that table)
        drawn_l, drawn_r = min(rect[0] for rect in box["rects"]), max(rect[2] for rect in box["rects"])
        if (r > data["inner"] + 1 and drawn_r >= data["inner"] - 1) or (l < -1 and drawn_l <= 1):
            found.append(f"cut: {box['text']!r} spans {l:.0f}-{r:.0f} px ({box['where']})")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a["id"] in b["ancestors"] or b["id"] in a["ancestors"] or spin_parts(a, b):
                continue
            area = max((overlap(p, q) for p in a["rects"] for q in b["rects"]), default=(0, 0))
            if area[0] > 3 and area[1] > 3:
                found.append(f"overlap: {a['text']!r} and {b['text']!r} ({area[0]:.0f}x{area[1]:.0f} px; "
                             f"{a['where']} | {b['where']})")
    for spill in data.get("spills", []):
        left, right, top, bottom = spill["by"]
        past = ", ".join(f"{side} {px} px" for side, px in (("left", left), ("right", right), ("top", top),
                                                             ("bottom", bottom)) if px > 0)
        found.append(f"spill: {spill['text']!r} runs past its box ({past}; {spill['where']})")
    for said in dict.fromkeys(data.get("lineStarts", [])):
        found.append(f"linebreak: a line begins with {said.split('|')[1][0]!r} in {said!r}")
    text = NOT_PROSE.sub(" ", "\n".join(data["texts"]))
    for word in sorted(set(ID.findall(text))):
        found.append(f"id: {word!r}")
    if lang == "ja":
        words = sorted({w for w in LATIN.findall(text) if w.lower() not in LATIN_ALLOWED})
        if words:
            found.append(f"english: {', '.join(words[:25])}{' …' if len(words) > 25 else ''}")
    return found




#: Has every stylesheet the page links loaded, in the document and in every shadow root? (Panel's panes
#: link theirs inside their shadow roots: until they load, text has the browser's own sizes, and a
#: layout read then can hold still for frames on end.)
STYLESHEETS_LOADED = """() => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++) for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  return roots.every((root) => Array.from(root.querySelectorAll('link[rel=stylesheet]')).every((link) => link.sheet));
}"""


def wait_for_stylesheets(page, deadline: float) -> bool:
    """Wait until STYLESHEETS_LOADED holds (checked every 50 ms), at most until ``deadline``
    (``time.monotonic``); whether it holds."""
    import time

    while not page.evaluate(STYLESHEETS_LOADED):
        if time.monotonic() > deadline:
            return False
        page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
    return True


def read_stable(page, width: int, timeout: float = 30.0) -> dict:
    """READ_PAGE once the page's stylesheets have loaded (STYLESHEETS_LOADED) and its layout holds
    still: two reads in a row give the same boxes (a state, not a time: a page still laying out, or
    restyling its parts, gives different ones)."""
    import time

    deadline = time.monotonic() + timeout
    wait_for_stylesheets(page, deadline)
    last = page.evaluate(READ_PAGE, width)
    while True:
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        now = page.evaluate(READ_PAGE, width)
        if now == last or time.monotonic() > deadline:
            return now
        last = now

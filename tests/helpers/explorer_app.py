"""A board's HTML read back zone by zone (the cards and the text inside each CSS class)."""

from __future__ import annotations

from html.parser import HTMLParser


class Zones(HTMLParser):
    """Card names (``data-card``) found inside each CSS class, and each class's text."""

    def __init__(self, html: str):
        super().__init__()
        self.stack: list[tuple[str, list[str]]] = []
        self.cards: dict[str, list[str]] = {}
        self.text: dict[str, str] = {}
        self.backs: dict[str, int] = {}
        self.feed(html)
        assert not self.stack, f"unclosed tags: {self.stack}"

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        self.stack.append((tag, classes))
        for cls in classes:
            self.cards.setdefault(cls, [])
            self.text.setdefault(cls, "")
            self.backs.setdefault(cls, 0)
        enclosing = {cls for _, cs in self.stack for cls in cs}
        if "data-card" in attrs:
            for cls in enclosing:
                self.cards[cls].append(attrs["data-card"])
        if "back" in classes:
            for cls in enclosing - {"card", "back"}:
                self.backs[cls] += 1

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1][0] == tag, f"</{tag}> closes {self.stack[-1] if self.stack else None}"
        self.stack.pop()

    def handle_data(self, data):
        for _, classes in self.stack:
            for cls in classes:
                self.text[cls] += data

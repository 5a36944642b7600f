"""Read a board's HTML back element by element, for tests that check what each element says (its
text, its classes, its attributes) rather than the literal markup."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"br", "img", "input", "hr", "meta", "link"}


class Node:
    def __init__(self, tag: str, attrs: dict):
        self.tag, self.attrs, self.parts = tag, attrs, []     # parts: text and child nodes, in order

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        """Every text inside, in order, with runs of white space as one space."""
        said = (part if isinstance(part, str) else " " if part.tag == "br" else part.text for part in self.parts)
        return " ".join("".join(said).split())

    def all(self, *classes: str) -> list["Node"]:
        """Descendants carrying every class in ``classes``, in document order."""
        found = []
        for part in self.parts:
            if isinstance(part, Node):
                if all(c in part.classes for c in classes):
                    found.append(part)
                found.extend(part.all(*classes))
        return found

    def one(self, *classes: str) -> "Node":
        found = self.all(*classes)
        assert len(found) == 1, (classes, len(found))
        return found[0]

    def all_tags(self, tag: str) -> list["Node"]:
        """Descendants that are ``tag`` elements, in document order."""
        return [node for node in self.all() if node.tag == tag]

    def one_tag(self, tag: str) -> "Node":
        found = self.all_tags(tag)
        assert found, tag
        return found[0]

    def texts(self, *classes: str) -> list[str]:
        return [node.text for node in self.all(*classes)]

    @property
    def children(self) -> list["Node"]:
        """The child elements (no text)."""
        return [part for part in self.parts if isinstance(part, Node)]

    def all_text(self) -> str:
        """Every text inside, in order, exactly as written (``text`` folds white space)."""
        return "".join(part if isinstance(part, str) else part.all_text() for part in self.parts)

    def cards(self, *classes: str) -> list[str]:
        """The cards the descendants with ``classes`` show, as they lie: ``data-face`` where a board marks
        it (Starligned's ``S103r``, a card turned), else ``data-card`` (the card as moves name it)."""
        return [node.attrs["data-face"] if "data-face" in node.attrs else node.attrs["data-card"]
                for node in self.all(*classes) if "data-card" in node.attrs or "data-face" in node.attrs]

    find_all = all      # the names the Jump Gate, Starligned and Biome Blitz board tests use
    find = one


class _Parser(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].parts.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(html: str) -> Node:
    """The root of ``html``'s element tree."""
    return _Parser(html).root


#: Text that would be markup if a board did not escape it: escaping tests put it where a board shows
#: text from outside (a card file, an event, a replay's notice).
HOSTILE = '<script>alert("x")</script><b>&'


def parse_escaped(html: str) -> Node:
    """``html`` read back, after checking that no :data:`HOSTILE` text in it became markup."""
    assert "<script" not in html and "<b>&" not in html
    return parse(html)


def all_data_cards(root: Node) -> list[str]:
    """``data-card`` of ``root`` and every element inside it, in document order."""
    return [node.attrs["data-card"] for node in [root, *root.all()] if "data-card" in node.attrs]

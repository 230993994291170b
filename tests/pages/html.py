"""Reading rendered pages in tests: the text of an element, the rows of a table, the links.

What it does: parses HTML with the standard library's ``html.parser`` (no extra dependency) into
a small tree, so tests can assert exact text: ``text_of(html, "stake")`` is the whitespace-
normalised text of the element with that id; ``table_rows(html, "hands-table")`` is each body row
of that table as a list of cell texts; ``items(html, "transfers")`` the texts of the ``li``
elements inside an element; ``links(html)`` every ``href``.

What it does not do: validate the HTML (browsers are lenient, and so is this).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements a browser shows on a line or in a cell of their own: their text is kept apart from
# their neighbours' ("25" and "Bill" in two list items read "25 Bill", not "25Bill").
SEPARATED_ELEMENTS = frozenset(
    {
        "li",
        "td",
        "th",
        "tr",
        "p",
        "div",
        "section",
        "h1",
        "h2",
        "h3",
        "dt",
        "dd",
        "ol",
        "ul",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "nav",
    }
)
VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)


@dataclass
class Element:
    tag: str
    attributes: dict[str, str]
    children: list = field(default_factory=list)  # Elements and text strings

    def text(self) -> str:
        parts: list[str] = []
        for child in self.children:
            if not isinstance(child, Element):
                parts.append(child)
            elif child.tag in SEPARATED_ELEMENTS:
                parts.append(f" {child.text()} ")
            else:
                parts.append(child.text())
        return " ".join("".join(parts).split())

    def find_all(self, predicate) -> list[Element]:
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if predicate(child):
                    found.append(child)
                found.extend(child.find_all(predicate))
        return found

    def by_id(self, element_id: str) -> Element:
        found = self.find_all(lambda element: element.attributes.get("id") == element_id)
        if len(found) != 1:
            raise AssertionError(f"{len(found)} elements with id {element_id!r}")
        return found[0]

    @property
    def classes(self) -> set[str]:
        return set((self.attributes.get("class") or "").split())


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID_ELEMENTS:
            self.stack.append(element)

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str | bytes) -> Element:
    builder = _TreeBuilder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def text_of(html, element_id: str) -> str:
    return parse(html).by_id(element_id).text()


def table_rows(html, table_id: str, *, section: str = "tbody") -> list[list[str]]:
    table = parse(html).by_id(table_id)
    (body,) = table.find_all(lambda element: element.tag == section)
    return [
        [cell.text() for cell in row.children if isinstance(cell, Element)]
        for row in body.find_all(lambda element: element.tag == "tr")
    ]


def items(html, element_id: str) -> list[str]:
    container = parse(html).by_id(element_id)
    return [item.text() for item in container.find_all(lambda element: element.tag == "li")]


def elements(html, element_id: str, tag: str) -> list[Element]:
    return parse(html).by_id(element_id).find_all(lambda element: element.tag == tag)


def links(html) -> list[str]:
    return [
        element.attributes["href"]
        for element in parse(html).find_all(lambda element: "href" in element.attributes)
    ]

"""A document's structure: Markdown read by markdown-it-py into plain text plus where its headings,
bold terms and code are.

The text a Markdown document becomes has no Markdown syntax left (no #, **, [](), table pipes or
HTML tags): each heading, paragraph, list item and table row is a block of its own, separated
from the next by a blank line, so the sentence splitter ends a sentence at each; a table row
reads "Header: cell; Header: cell". Structure records spans of that text:
- headings: [start, end, level]; they title what follows (a text unit's heading path) and are
  never entities or quoted evidence;
- strong: [start, end] of bold terms, which a corpus uses for what it defines (italics are
  more often emphasis);
- items: [start, end] of list items and table rows, whose first words are often the names a
  page lists ("ChromaDB, for vector lookups");
- skip: [start, end] of code blocks, which hold no prose;
- links: [start, end] of link texts, which name what they point to more often than not;
- code: [start, end] of inline code (`settings.yaml`, `name`), identifiers and values rather
  than words of a sentence.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from core.ingest.loaders import html_to_text

_ICON = re.compile(r":[a-z0-9]+(?:[-_][a-z0-9]+)+:")  # mkdocs/GitHub icon shortcodes


@dataclass
class Structure:
    headings: list[list[int]] = field(default_factory=list)  # [start, end, level]
    strong: list[list[int]] = field(default_factory=list)    # [start, end]
    skip: list[list[int]] = field(default_factory=list)      # [start, end]
    items: list[list[int]] = field(default_factory=list)     # [start, end]
    links: list[list[int]] = field(default_factory=list)     # [start, end]
    code: list[list[int]] = field(default_factory=list)      # [start, end] of inline code

    def to_dict(self) -> dict:
        return {"headings": self.headings, "strong": self.strong, "skip": self.skip, "items": self.items,
                "links": self.links, "code": self.code}

    def within(self, start: int, end: int) -> dict:
        """The spans inside [start, end) of the document, relative to start (a text unit's)."""
        def cut(spans: list[list[int]]) -> list[list[int]]:
            return [[max(s, start) - start, min(e, end) - start] for s, e, *_ in spans if s < end and e > start]
        return {"headings": cut(self.headings), "strong": cut(self.strong), "skip": cut(self.skip),
                "items": cut(self.items), "links": cut(self.links), "code": cut(self.code)}

    @classmethod
    def from_dict(cls, d: dict | None) -> "Structure":
        d = d or {}
        return cls(*([list(x) for x in d.get(k) or []] for k in ("headings", "strong", "skip", "items", "links", "code")))


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.structure = Structure()

    def block(self, text: str, kind: str = "text", level: int = 0,
              strong: list[tuple[int, int]] | None = None, item: tuple[int, int] | None = None,
              links: list[tuple[int, int]] | None = None, code: list[tuple[int, int]] | None = None) -> None:
        lead = len(text) - len(text.lstrip())
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append("\n\n")
            self.pos += 2
        start = self.pos
        self.parts.append(text)
        self.pos += len(text)
        if kind == "heading":
            self.structure.headings.append([start, self.pos, level])
        elif kind == "code":
            self.structure.skip.append([start, self.pos])
        elif kind == "item":
            a, b = item if item is not None else (0, len(text))
            self.structure.items.append([start + a, start + b])
        for spans, into in ((strong, self.structure.strong), (links, self.structure.links), (code, self.structure.code)):
            for a, b in spans or []:
                a, b = max(a - lead, 0), min(b - lead, len(text))
                if a < b:
                    into.append([start + a, start + b])


def _inline(token) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """The visible text of an inline token (link text, no emphasis markers, no HTML tags), the
    spans of its bold parts, of its links' texts and of its inline code."""
    out: list[str] = []
    spans: dict[str, list[tuple[int, int]]] = {"strong": [], "link": [], "code": []}  # bold parts, link texts, code
    opened: dict[str, list[int]] = {"strong": [], "link": []}
    n = 0
    for child in token.children or []:
        piece = ""
        kind, _, edge = child.type.rpartition("_")
        if child.type in ("text", "code_inline"):
            piece = child.content
        elif child.type in ("softbreak", "hardbreak"):
            piece = " "
        elif kind in spans and edge == "open":
            opened[kind].append(n)
        elif kind in spans and edge == "close" and opened[kind]:
            a = opened[kind].pop()
            if n > a:
                spans[kind].append((a, n))
        elif child.type == "html_inline":
            piece = ""
        if piece:
            piece = _ICON.sub("", piece)
            if child.type == "code_inline" and piece.strip():
                spans["code"].append((n, n + len(piece)))
            out.append(piece)
            n += len(piece)
    text = "".join(out)
    # collapse runs of spaces, mapping the strong spans through the collapse
    keep = [i for i, ch in enumerate(text) if not (ch in " \t" and i > 0 and text[i - 1] in " \t")]
    index = {old: new for new, old in enumerate(keep)}
    collapsed = "".join(text[i] for i in keep)

    def at(i: int) -> int:
        j = bisect.bisect_left(keep, i)
        return index[keep[j]] if j < len(keep) else len(collapsed)

    return (collapsed, *([(at(a), at(b)) for a, b in spans[k]] for k in ("strong", "link", "code")))  # type: ignore[return-value]


def markdown_to_text(markdown: str) -> tuple[str, Structure]:
    """(plain text, structure) of a Markdown document (CommonMark with tables)."""
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(markdown)
    w = _Writer()
    heading_level = 0
    in_item = 0
    row: list[str] = []
    header: list[str] = []
    in_head = False
    for i, tok in enumerate(tokens):
        t = tok.type
        if t == "heading_open":
            heading_level = int(tok.tag[1:])
        elif t == "heading_close":
            heading_level = 0
        elif t == "list_item_open":
            in_item += 1
        elif t == "list_item_close":
            in_item -= 1
        elif t == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
            row.append(_inline(tok)[0])
        elif t == "inline":
            text, strong, links, code = _inline(tok)
            if heading_level:
                w.block(text, "heading", heading_level)
            else:
                w.block(text, "item" if in_item and tokens[i - 1].type == "paragraph_open"
                        and tokens[i - 2].type == "list_item_open" else "text", strong=strong, links=links, code=code)
        elif t in ("fence", "code_block"):
            w.block(tok.content, "code")
        elif t == "html_block":
            for para in re.split(r"\n\s*\n", tok.content):
                w.block(" ".join(html_to_text(para)[0].split()))
        elif t == "thead_open":
            in_head = True
        elif t == "thead_close":
            in_head = False
        elif t == "tr_open":
            row = []
        elif t == "tr_close":
            if in_head:
                header = row
            elif any(row):
                # a row reads "Header: cell; Header: cell"; its first cell is what the row is about
                labelled = header and len(header) == len(row)
                cells = [(f"{h}: " if labelled and h else "", c) for h, c in zip(header if labelled else row, row) if c]
                w.block("; ".join(lead + c for lead, c in cells), "item",
                        item=(len(cells[0][0]), len(cells[0][0]) + len(cells[0][1])))
    return "".join(w.parts), w.structure


def locate_headings(text: str, headings: list[tuple[int, str]]) -> Structure:
    """The structure of a text whose headings are known by their words (an HTML page's h1-h6):
    each is found in order as a block of its own (a paragraph or line of exactly its words)."""
    out = Structure()
    pos = 0
    for level, words in headings:
        m = re.compile(r"(?:^|\n)[ \t]*(" + re.escape(words) + r")[ \t]*(?=\n|$)").search(text, pos)
        if m is None:
            continue
        out.headings.append([m.start(1), m.end(1), level])
        pos = m.end(1)
    return out


def _path(headings: list[list[int]], at: int) -> list[list[int]]:
    path: list[list[int]] = []
    for h in headings:
        if h[0] >= at:
            break
        while path and path[-1][2] >= h[2]:
            path.pop()
        path.append(h)
    return path


def heading_titles(text: str, structure: Structure, at: int) -> list[str]:
    """The titles of the headings above what starts at position `at` of text (a text unit
    opening with headings is under them), outermost first."""
    for s, e, _ in structure.headings:
        if s >= at and not text[at:s].strip():
            at = e
        elif s >= at:
            break
    return [text[s:e] for s, e, _ in _path(structure.headings, at)]


def stored_structure(metadata) -> dict:
    """The structure a document row's metadata holds (as its JSON text or as a dict); {} when none."""
    meta = json.loads(metadata) if isinstance(metadata, str) else metadata or {}
    return meta.get("structure") or {} if isinstance(meta, dict) else {}


def masked(text: str, offset: int, spans: list[list[int]]) -> str:
    """text (which starts at `offset` of its document) with the parts inside spans of the
    document replaced by spaces, line breaks kept: offsets stay valid and no word of a heading
    or code block reaches what reads the text."""
    chars = list(text)
    end = offset + len(text)
    for s, e, *_ in spans:
        if e <= offset or s >= end:
            continue
        for i in range(max(s, offset) - offset, min(e, end) - offset):
            if chars[i] not in "\n":
                chars[i] = " "
    return "".join(chars)

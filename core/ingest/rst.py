"""A reStructuredText document's structure, read by docutils into the same plain text and
`Structure` as a Markdown document (core.ingest.structure): section titles are headings, list
items, definition terms, fields and table rows are items, literal blocks are code, bold is
strong; targets, comments, substitution definitions and docutils' own messages are left out.

Documents are untrusted: file inclusion and raw passthrough are off, configuration files are not
read, and nothing is reported or raised for markup docutils cannot read (a Sphinx-only role keeps
its text, an unknown directive is dropped). A header block of "Key: value" lines before the first
blank line (a PEP's, an e-mail's) is read as one block per field: the fields naming people
(Author, Editor, From ...) as text, the others as metadata extraction skips, as it skips code."""
from __future__ import annotations

import re

from core.ingest.structure import Structure, _Writer

_SETTINGS = {"report_level": 5, "halt_level": 5, "file_insertion_enabled": False, "raw_enabled": False,
             "_disable_config": True, "warning_stream": False, "input_encoding": "unicode",
             "doctitle_xform": False, "sectsubtitle_xform": False}
_FIELD = re.compile(r"([A-Z][\w-]*):(?:[ \t]+(\S.*))?")  # "BDFL-Delegate:" may be empty
_ROLE = re.compile(r":[\w.+-]+:`([^`<]*?)(?:\s*<[^>]*>)?`")  # ":class:`Foo`", ":ref:`text <target>`": the text
_LINK = re.compile(r"`([^`<]*?)\s*<[^>]*>`_{1,2}")
_PEOPLE_FIELD = re.compile(r"author|editor|maintainer|contributor|delegate|sponsor|owner|reviewer|^from$|^to$|^cc$|^by$",
                           re.I)
_SKIP = frozenset({"comment", "target", "substitution_definition", "system_message", "footnote_reference",
                   "citation_reference", "pending", "raw"})
_CODE = frozenset({"literal_block", "doctest_block", "math_block"})


def _header(source: str) -> tuple[list[tuple[str, str]], str]:
    """The fields of a leading "Key: value" block (continuation lines indented) and the rest."""
    lines = source.splitlines()
    fields: list[tuple[str, str]] = []
    i = 0
    while i < len(lines) and lines[i].strip():
        m = _FIELD.fullmatch(lines[i].rstrip())
        if m:
            fields.append((m.group(1), (m.group(2) or "").strip()))
        elif fields and lines[i][:1] in (" ", "\t"):
            fields[-1] = (fields[-1][0], f"{fields[-1][1]} {lines[i].strip()}")
        else:
            return [], source
        i += 1
    return (fields, "\n".join(lines[i:])) if len(fields) >= 2 else ([], source)


def _unescape(text: str) -> str:
    """A text node without docutils' escape marks: "setup.py``\\ -style" is held as
    "setup.py\\x00-style", and a NUL byte would cut the text short for SQLite's string functions."""
    return re.sub(r"\x00[ \n]?", "", text)


def _inline(node) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """The visible text of a paragraph-like node and the spans of its bold parts, links and
    inline literals (``code``)."""
    parts: list[str] = []
    strong: list[tuple[int, int]] = []
    links: list[tuple[int, int]] = []
    code: list[tuple[int, int]] = []
    n = 0

    def walk(x) -> None:
        nonlocal n
        if x.tagname == "#text":
            piece = _unescape(str(x)).replace("\n", " ")
            parts.append(piece)
            n += len(piece)
            return
        if x.tagname in _SKIP:
            return
        if x.tagname == "problematic":  # markup docutils could not read: keep its words
            piece = _ROLE.sub(r"\1", x.astext()).replace("\n", " ")
            parts.append(piece)
            n += len(piece)
            return
        a = n
        for c in x.children:
            walk(c)
        if n > a and x.tagname in ("strong", "reference", "literal"):
            {"strong": strong, "reference": links, "literal": code}[x.tagname].append((a, n))

    for child in node.children:
        walk(child)
    text = "".join(parts)
    # runs of spaces (two after a full stop, as PEPs write) become one; the spans move with them
    out: list[str] = []
    at = [0] * (len(text) + 1)  # each offset of text in the collapsed text
    size = 0
    for m in re.finditer(r"[ \t]+|[^ \t]+", text):
        piece = " " if m.group(0)[0] in " \t" else m.group(0)
        for k in range(m.start(), m.end()):
            at[k] = size + min(k - m.start(), len(piece) - 1)
        out.append(piece)
        size += len(piece)
    at[len(text)] = size
    moved = [[(at[a], at[b]) for a, b in spans] for spans in (strong, links, code)]
    return "".join(out), moved[0], moved[1], moved[2]


def rst_to_text(source: str) -> tuple[str, Structure]:
    """(plain text, structure) of a reStructuredText document."""
    from docutils.core import publish_doctree
    fields, body = _header(source)
    w = _Writer()
    for key, value in fields:
        value = _LINK.sub(r"\1", value).replace("``", "")  # "`10-Apr-2025 <https://...>`__": its text
        # a header's fields are metadata ("Status: Final", "Post-History: 01-Oct-2015"): skipped
        # by extraction, except those that name people (authors, editors, delegates, senders)
        people = bool(_PEOPLE_FIELD.search(key)) and bool(value)
        w.block(f"{key}: {value}", "text" if people else "code")
        if people:  # its label is no name either ("BDFL-Delegate")
            w.structure.skip.append([w.pos - len(value) - len(key) - 2, w.pos - len(value)])
    try:
        doc = publish_doctree(body, settings_overrides=dict(_SETTINGS))
    except Exception:  # docutils could not read it at all: the plain text, as any text file
        for para in re.split(r"\n\s*\n", body):
            w.block(" ".join(para.split()))
        return "".join(w.parts), w.structure

    def visit(node, depth: int, first_in_item: bool = False) -> None:
        tag = node.tagname
        if tag in _SKIP or tag == "#text":
            return
        if tag == "section":
            for c in node.children:
                if c.tagname == "title":
                    w.block(_inline(c)[0], "heading", min(depth + 1, 6))
                else:
                    visit(c, depth + 1)
        elif tag == "title":  # a topic's or an admonition's title
            w.block(_inline(node)[0], "heading", min(depth + 1, 6))
        elif tag in ("paragraph", "line", "attribution", "caption", "rubric"):
            text, strong, links, code = _inline(node)
            w.block(text, "item" if first_in_item else "text", strong=strong, links=links, code=code)
        elif tag in _CODE:
            w.block(node.astext(), "code")
        elif tag in ("list_item", "definition"):
            for i, c in enumerate(node.children):
                visit(c, depth, first_in_item=tag == "list_item" and i == 0 and c.tagname == "paragraph")
        elif tag == "term":
            text, strong, links, code = _inline(node)
            w.block(text, "item", strong=strong, links=links, code=code)
        elif tag == "field":
            name = _inline(node.children[0])[0] if node.children else ""
            value = " ".join(node.children[1].astext().split()) if len(node.children) > 1 else ""
            if value:
                w.block(f"{name}: {value}", "item", item=(len(name) + 2, len(name) + 2 + len(value)))
        elif tag == "row":
            _row(node)
        else:
            for c in node.children:
                visit(c, depth)

    header: list[str] = []

    def _row(row) -> None:
        nonlocal header
        cells = [" ".join(_inline(p)[0] for p in e.children if p.tagname == "paragraph") or " ".join(e.astext().split())
                 for e in row.children]
        if row.parent is not None and row.parent.tagname == "thead":
            header = cells
            return
        labelled = header and len(header) == len(cells)
        pairs = [(f"{h}: " if labelled and h else "", c) for h, c in zip(header if labelled else cells, cells) if c]
        if pairs:
            w.block("; ".join(lead + c for lead, c in pairs), "item",
                    item=(len(pairs[0][0]), len(pairs[0][0]) + len(pairs[0][1])))

    for child in doc.children:
        visit(child, 0)
    return "".join(w.parts), w.structure

"""Checks that a highlight shows exactly what it claims to: the <mark> of a chip's panel or of a
text unit in the drill-down is one whole sentence of that unit (as core.textutil splits it), at
that place in its document; the chunk <mark> of the whole-document view is exactly the unit's
span of the document and its sentence <mark> a whole sentence inside it. A highlight that starts
or ends a few characters off fails, in AppTest and in Chromium alike."""
from __future__ import annotations

import html
import re

from core.textutil import split_sentences

_SOURCE = re.compile(r"Source (\d+) \u00b7")
_MARK = re.compile(r"<mark>(.*?)</mark>", re.S)


def _lead(unit: dict) -> int:
    return max(0, len(unit["text"]) - (unit["char_end"] - unit["char_start"]))


def assert_sentence_of_unit(store, unit_hrid: int, marked: str) -> None:
    """marked (plain text) is a whole sentence of text unit unit_hrid, and its document holds it
    at the unit's place."""
    unit = store.by_hrid("text_units", int(unit_hrid))
    text = unit["text"]
    sentences = [text[a:b] for a, b in split_sentences(text)]
    assert marked in sentences, f"the highlight {marked[:80]!r} is not a whole sentence of Source {unit_hrid}"
    doc = store.get("documents", unit["document_id"])["text"]
    at = text.index(marked)
    start = unit["char_start"] - _lead(unit) + at
    assert doc[start:start + len(marked)] == marked


def assert_panel_marks(store, panel: str) -> int:
    """Every highlighted excerpt of a chip panel or drill-down (escaped HTML) is a whole sentence
    of the Source it names. Returns the number checked."""
    checked = 0
    for meta, body in re.findall(r'<div class="sm-meta">(Source \d+ \u00b7.*?)</div>\s*<div class="sm-source">(.*?)</div>',
                                 panel, re.S):
        m = _MARK.search(body)
        if not m:
            continue
        assert_sentence_of_unit(store, int(_SOURCE.search(meta).group(1)), html.unescape(m.group(1)))
        checked += 1
    return checked


def assert_document_marks(store, unit_hrid: int, page: str) -> None:
    """The whole-document view (escaped HTML page): the chunk mark is exactly the unit's span of
    the document, its sentence mark a whole sentence of the unit."""
    unit = store.by_hrid("text_units", int(unit_hrid))
    doc = store.get("documents", unit["document_id"])["text"]
    m = re.search(r'<mark class="chunk">(.*?)</mark>(?!</mark>)', page, re.S)
    inner = m.group(0)[len('<mark class="chunk">'):-len("</mark>")] if m else ""
    # the sentence mark nests inside the chunk mark: take the chunk up to its own closing tag
    chunk_html = page.split('<mark class="chunk">', 1)[1]
    sent = re.search(r'<mark class="sent">(.*?)</mark>', chunk_html, re.S)
    if sent:
        head = chunk_html[:sent.end()]
        tail = chunk_html[sent.end():].split("</mark>", 1)[0]
        inner = head + tail
    else:
        inner = chunk_html.split("</mark>", 1)[0]
    plain = html.unescape(re.sub(r"</?mark[^>]*>", "", inner))
    assert plain == doc[unit["char_start"]:unit["char_end"]], "the chunk highlight is not the unit's span"
    if sent:
        assert_sentence_of_unit(store, unit_hrid, html.unescape(sent.group(1)))

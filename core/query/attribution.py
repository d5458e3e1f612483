"""References for model text that copies its sources but drops their [Data: ...] markers.

Small models copy report text into map points, and map points into the answer, without the
references: the copied words are kept checkable by giving them the reference of what they copy
(8 or more words in a row). Nothing is attributed on a guess: text that copies nothing keeps no
marker, and the support check (core/query/support.py) still judges every marker added here.
"""
from __future__ import annotations

import re

from core.query.context import report_row
from core.text.citations import format_citation, parse_citations, sentence_spans, sentences_with_citations
from core.query.types import Point

_QUOTE_WORDS = 8


def _words(text: str) -> list[str]:
    return re.sub(r"[\W_]+", " ", (text or "").lower()).split()


def attribute_quotes(points: list[Point], records: list[dict]) -> list[Point]:
    """A point that cites no report but copies one of its batch's reports word for word (small
    models do: 8 or more words in a row) gets the reference of the report it copies most, "[Data:
    Reports (id)]", so it stays checkable. A point quoting nothing, or more than 5 reports equally,
    is left as it is: nothing is attributed on a guess."""
    sources = [(_padded(report_row(r)), {"Reports": [int(r["human_readable_id"])]}) for r in records]
    for p in points:
        if p.report_ids:
            continue
        refs = _copied(p.description, sources)
        if refs:
            p.report_ids = refs["Reports"]
            p.description = f"{p.description.rstrip()} {format_citation(refs)}"
    return points


def _padded(text: str) -> str:
    """The text's words, space-separated and space-padded, for whole-word n-gram search."""
    return " " + " ".join(_words(text)) + " "


def _paragraphs(text: str) -> list[str]:
    return re.split(r"(\n\s*\n)", text)


def _refset(refs: dict[str, list[int]]) -> set[tuple[str, int]]:
    return {(k, i) for k, ids in refs.items() for i in ids}


def _copied(sentence: str, sources: list[tuple[str, dict[str, list[int]]]]) -> dict[str, list[int]] | None:
    """The references of the source the sentence copies most (8+ words in a row); sources tied
    for most share them (5 at most: more is a guess, and None is returned). Sources are
    (_padded text, {kind: [ids]})."""
    words = _words(sentence)
    grams = {" " + " ".join(words[i:i + _QUOTE_WORDS]) + " " for i in range(0, len(words) - _QUOTE_WORDS + 1)}
    if not grams:
        return None
    hits = [sum(g in text for g in grams) for text, _ in sources]
    best = max(hits, default=0)
    tied = [refs for (_, refs), n in zip(sources, hits) if n == best]
    if best == 0 or len(tied) > 5:
        return None
    merged: dict[str, list[int]] = {}
    for refs in tied:
        for kind, ids in refs.items():
            merged.setdefault(kind, []).extend(i for i in ids if i not in merged.get(kind, []))
    return merged


def _attribute_paragraph(para: str, sources: list[tuple[str, dict[str, list[int]]]]) -> tuple[str, int]:
    cited = [(s, e, _refset({r.kind: [r.id] for c in cs for r in c.refs if r.id is not None}))
             for _, (s, e), cs in sentences_with_citations(para)]
    spans = sentence_spans(para)
    # walk back from the paragraph's end: `cover` is what the next marker (one already there or
    # one added) cites; consecutive sentences copying the same source share one marker after the
    # last of them, and none is added where the next marker already cites that source
    inserts: list[tuple[int, str]] = []
    cover: set[tuple[str, int]] = set()
    group: tuple[int, dict[str, list[int]]] | None = None  # (insert position, refs)

    def close() -> None:
        nonlocal group, cover
        if group is not None:
            at, refs = group
            if not _refset(refs) <= cover:
                inserts.append((at, format_citation(refs)))
                cover = _refset(refs)
            group = None

    for s, e in reversed(spans):
        marked = [c for c in cited if c[0] < e and s < c[1]]
        if marked:
            close()
            cover = set().union(*(c[2] for c in marked))
            continue
        refs = _copied(para[s:e], sources)
        if refs is None or (group is not None and refs != group[1]):
            close()
        if refs is not None and group is None:
            group = (e, refs)
    close()
    for at, marker in sorted(inserts, reverse=True):
        para = f"{para[:at]} {marker}{para[at:]}"
    return para, len(inserts)


def attribute_sentences(answer: str, sources: list[tuple[str, dict[str, list[int]]]]) -> tuple[str, int]:
    """An answer whose sentences copy their sources (8+ words in a row) but carry no marker: each
    run of sentences copying the same source gets that source's marker after its last sentence,
    unless the next marker of the paragraph already cites it. sources: (text, {kind: [ids]}).
    Returns (answer, markers added)."""
    sources = [(_padded(text), refs) for text, refs in sources if refs and text]
    if not sources:
        return answer, 0
    parts, added = _paragraphs(answer), 0
    for k in range(0, len(parts), 2):
        if parts[k].strip():
            parts[k], n = _attribute_paragraph(parts[k], sources)
            added += n
    return "".join(parts), added


def attribute_answer(answer: str, points: list[Point]) -> tuple[str, int]:
    """The reduce answer, sentences that copy a point given that point's references."""
    sources = []
    for p in points:
        refs: dict[str, list[int]] = {}
        for c in parse_citations(p.description):
            for r in c.refs:
                if r.id is not None:
                    refs.setdefault(r.kind, []).append(r.id)
        sources.append((p.description, refs))
    return attribute_sentences(answer, sources)


LOCAL_FIELDS = {"sources": ("Sources", "text"), "entities": ("Entities", "description"),
                "relationships": ("Relationships", "description"), "claims": ("Claims", "description"),
                "reports": ("Reports", "full_content")}


def attribute_local(answer: str, records: dict[str, list[dict]]) -> tuple[str, int]:
    """The local answer, sentences that copy a record of its context (a source passage, an
    entity's or relationship's description, a claim, a report) given that record's reference."""
    sources = []
    for key, rows in records.items():
        kind, field = LOCAL_FIELDS[key]
        for r in rows:
            text = r.get(field) or (r.get("summary") if key == "reports" else "")
            sources.append((text or "", {kind: [int(r["human_readable_id"])]}))
    return attribute_sentences(answer, sources)

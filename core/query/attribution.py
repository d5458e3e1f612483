"""References for model text that copies its sources but drops their [Data: ...] markers.

Small models copy report text into map points, and map points into the answer, without the
references: the copied words are kept checkable by giving them the reference of what they copy
(8 or more words in a row). Nothing is attributed on a guess: text that copies nothing keeps no
marker, and the support check (core/query/support.py) still judges every marker added here.
"""
from __future__ import annotations

import re

from core.query.context import report_row
from core.query.citations import format_citation, parse_citations
from core.query.types import Point

_QUOTE_WORDS = 8


def _words(text: str) -> list[str]:
    return re.sub(r"[\W_]+", " ", (text or "").lower()).split()


def attribute_quotes(points: list[Point], records: list[dict]) -> list[Point]:
    """A point that cites no report but copies one of its batch's reports word for word (small
    models do: 8 or more words in a row) gets the reference of the report it copies most, "[Data:
    Reports (id)]", so it stays checkable. A point quoting nothing, or more than 5 reports equally,
    is left as it is: nothing is attributed on a guess."""
    texts = {int(r["human_readable_id"]): " " + " ".join(_words(report_row(r))) + " " for r in records}
    for p in points:
        if p.report_ids:
            continue
        words = _words(p.description)
        grams = {" " + " ".join(words[k:k + _QUOTE_WORDS]) + " " for k in range(0, len(words) - _QUOTE_WORDS + 1)}
        hits = {rid: sum(g in text for g in grams) for rid, text in texts.items()}
        best = max(hits.values(), default=0)
        quoted = [rid for rid, n in hits.items() if n == best and best > 0]  # the one it copies most
        if 0 < len(quoted) <= 5:
            p.report_ids = quoted
            p.description = f"{p.description.rstrip()} [Data: Reports ({', '.join(map(str, quoted))})]"
    return points


def _paragraphs(text: str) -> list[str]:
    return re.split(r"(\n\s*\n)", text)


def attribute_paragraphs(answer: str, sources: list[tuple[str, dict[str, list[int]]]]) -> tuple[str, int]:
    """Each paragraph of `answer` that carries no marker but copies one of the sources (8+
    words in a row) ends with a marker of the source it copies most; sources tied for most
    (5 at most, else it is a guess and nothing is added) share one marker. sources: (text,
    {kind: [ids]}). Returns (answer, paragraphs given a marker)."""
    sources = [(" " + " ".join(_words(text)) + " ", refs) for text, refs in sources if refs and text]
    if not sources:
        return answer, 0
    parts, added = _paragraphs(answer), 0
    for k in range(0, len(parts), 2):
        para = parts[k]
        if not para.strip() or parse_citations(para):
            continue
        words = _words(para)
        grams = {" " + " ".join(words[i:i + _QUOTE_WORDS]) + " " for i in range(0, len(words) - _QUOTE_WORDS + 1)}
        hits = [sum(g in text for g in grams) for text, _ in sources]
        best = max(hits, default=0)
        tied = [refs for (_, refs), n in zip(sources, hits) if n == best]
        if best == 0 or len(tied) > 5:
            continue
        merged: dict[str, list[int]] = {}
        for refs in tied:
            for kind, ids in refs.items():
                merged.setdefault(kind, []).extend(ids)
        parts[k] = f"{para.rstrip()} {format_citation(merged)}" + para[len(para.rstrip()):]
        added += 1
    return "".join(parts), added


def attribute_answer(answer: str, points: list[Point]) -> tuple[str, int]:
    """The reduce answer, each paragraph that copies a point given that point's references."""
    sources = []
    for p in points:
        refs: dict[str, list[int]] = {}
        for c in parse_citations(p.description):
            for r in c.refs:
                if r.id is not None:
                    refs.setdefault(r.kind, []).append(r.id)
        sources.append((p.description, refs))
    return attribute_paragraphs(answer, sources)


LOCAL_FIELDS = {"sources": ("Sources", "text"), "entities": ("Entities", "description"),
                "relationships": ("Relationships", "description"), "claims": ("Claims", "description"),
                "reports": ("Reports", "full_content")}


def attribute_local(answer: str, records: dict[str, list[dict]]) -> tuple[str, int]:
    """The local answer, each paragraph that copies a record of its context (a source passage,
    an entity's or relationship's description, a claim, a report) given that record's reference."""
    sources = []
    for key, rows in records.items():
        kind, field = LOCAL_FIELDS[key]
        for r in rows:
            text = r.get(field) or (r.get("summary") if key == "reports" else "")
            sources.append((text or "", {kind: [int(r["human_readable_id"])]}))
    return attribute_paragraphs(answer, sources)

"""References for model text that copies its sources but drops their [Data: ...] markers.

Small models copy report text into map points, and map points into the answer, without the
references: the copied words are kept checkable by giving them the reference of what they copy
(8 or more words in a row). Nothing is attributed on a guess: text that copies nothing keeps no
marker, and the support check (core/query/support.py) still judges every marker added here.
"""
from __future__ import annotations

import re

from core.query.context import report_row
from core.query.citations import parse_citations
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


def attribute_answer(answer: str, points: list[Point]) -> tuple[str, int]:
    """The reduce answer with each paragraph that has no marker but copies one of the points it
    was given (8+ words in a row) ending with the markers of the point it copies most (all of
    the tied ones, their markers once each). Returns (answer, paragraphs given markers)."""
    cited = [(p, [c.marker for c in parse_citations(p.description)]) for p in points]
    cited = [(" " + " ".join(_words(p.description)) + " ", marks) for p, marks in cited if marks]
    if not cited:
        return answer, 0
    parts, added = _paragraphs(answer), 0
    for k in range(0, len(parts), 2):
        para = parts[k]
        if not para.strip() or parse_citations(para):
            continue
        words = _words(para)
        grams = {" " + " ".join(words[i:i + _QUOTE_WORDS]) + " " for i in range(0, len(words) - _QUOTE_WORDS + 1)}
        hits = [sum(g in text for g in grams) for text, _ in cited]
        best = max(hits, default=0)
        if best == 0:
            continue
        markers = list(dict.fromkeys(m for (_, marks), n in zip(cited, hits) if n == best for m in marks))
        parts[k] = f"{para.rstrip()} {' '.join(markers)}" + para[len(para.rstrip()):]
        added += 1
    return "".join(parts), added

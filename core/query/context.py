"""Context text for the models, packed to token budgets.

Tables are pipe-separated with a header line, one record a line, and the record's
human_readable_id in the `id` column: the ids the model cites back. A table never exceeds its
budget: rows are added while they fit, and a single row larger than the whole budget is
truncated to fit.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from core.query.types import Point
from core.tokens import count_tokens, truncate

REPORT_HEADER = "id|title|summary|findings"


def cell(value: Any) -> str:
    """One table cell: no line breaks or pipes inside."""
    text = "" if value is None else str(value)
    return re.sub(r"\s*\n\s*", " ", text).replace("|", "/").strip()


def findings_text(findings: Any) -> str:
    parts = []
    for f in findings or []:
        if isinstance(f, dict):
            s, e = cell(f.get("summary")), cell(f.get("explanation"))
            parts.append(f"{s}: {e}" if s and e else (s or e))
        elif f:
            parts.append(cell(f))
    return " ; ".join(p for p in parts if p)


def report_row(report: dict) -> str:
    return "|".join([str(report["human_readable_id"]), cell(report.get("title")),
                     cell(report.get("summary")), findings_text(report.get("findings"))])


@dataclass
class Packed:
    """Rows that fit one budget: their text (header included), tokens and the records."""
    text: str
    tokens: int
    records: list[dict] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def line_tokens(line: str) -> int:
    """Tokens of one table line with its newline; remembered, so asking again about the same
    level (the usual way to use global search) does not count its reports again."""
    return count_tokens(line + "\n")


class _Row:
    """A record, its table line and the line's tokens (counted once, when first needed)."""
    __slots__ = ("rec", "line", "_n")

    def __init__(self, rec: dict, line: str):
        self.rec, self.line, self._n = rec, line, None

    @property
    def n(self) -> int:
        if self._n is None:
            self._n = line_tokens(self.line)
        return self._n


def _fill(head: str, rows: list[_Row], budget: int, max_rows: int = 0) -> tuple[Packed, list[_Row]]:
    """Rows in order into one table of at most `budget` tokens (and `max_rows` rows, when set);
    returns the rest.

    Every line ends with a newline and starts with its id (or the header), so the tokenizer's
    pre-split never joins two lines: the table's tokens are exactly the sum of its lines' tokens
    and nothing needs counting twice. A lone row larger than the budget is truncated to fit."""
    head = head + "\n"
    used = count_tokens(head)
    parts, taken = [head], []
    for i, r in enumerate(rows):
        if max_rows and len(taken) >= max_rows:
            return Packed("".join(parts), used, taken), rows[i:]
        if used + r.n <= budget:
            parts.append(r.line + "\n")
            taken.append(r.rec)
            used += r.n
            continue
        if taken:
            return Packed("".join(parts), used, taken), rows[i:]
        room = budget - used - 1
        while room > 8:
            cut = truncate(r.line, room).rstrip()
            n = count_tokens(cut + "\n")
            if used + n <= budget:
                return Packed(head + cut + "\n", used + n, [r.rec]), rows[i + 1:]
            room -= max(1, used + n - budget)
        return Packed("", 0, []), rows[i:]
    if not taken:
        return Packed("", 0, []), []
    return Packed("".join(parts), used, taken), []


def pack_rows(header: str, records: list[dict], row: Callable[[dict], str], budget: int,
              title: str | None = None) -> tuple[Packed, list[dict]]:
    """Fill one table with records in order until the budget is used.
    Returns the packed table and the records that did not fit."""
    head = (f"-----{title}-----\n" if title else "") + header
    packed, rest = _fill(head, [_Row(r, row(r)) for r in records], budget)
    return packed, [r.rec for r in rest]


def pack_report_batches(reports: list[dict], budget: int, max_reports: int = 0) -> list[Packed]:
    """Reports (in the given order) into map batches of at most `budget` tokens (and
    `max_reports` reports, when set) each; every report lands in exactly one batch (each
    report's tokens are counted once)."""
    return list(iter_report_batches(reports, budget, max_reports))


def iter_report_batches(reports: Iterable[dict], budget: int, max_reports: int = 0) -> Iterator[Packed]:
    """pack_report_batches one batch at a time, reading the reports only as far as the batch
    needs: the first map call can go out before the rest of a level's reports are read and
    counted (the same batches as the list: a batch never looks past its first misfit)."""
    head = count_tokens(REPORT_HEADER + "\n")
    source = iter(reports)
    rest: list[_Row] = []
    held, more = 0, True
    while rest or more:
        while more and head + held <= budget and not (max_reports and len(rest) >= max_reports):
            # enough rows to overflow one batch
            r = next(source, None)
            if r is None:
                more = False
                break
            rest.append(_Row(r, report_row(r)))
            held += rest[-1].n
        if not rest:
            return
        packed, rest = _fill(REPORT_HEADER, rest, budget, max_reports)
        if not packed.records:  # budget too small for even a header and a truncated row
            raise ValueError(f"map context budget of {budget} tokens cannot hold one report")
        held = sum(r.n for r in rest)
        yield packed


def point_block(i: int, p: Point) -> str:
    """Point i of the reduce context, ending with a blank line (blocks never merge in the
    tokenizer's pre-split, so the context's tokens are the sum of its blocks' tokens)."""
    return f"----Analyst {i}----\nImportance Score: {p.score}\n{p.description.strip()}\n\n"


def pack_points(points: list[Point], budget: int) -> tuple[list[Point], list[Point], str, int]:
    """Points (best first) into the reduce context: the leading points that fit are selected,
    the rest are cut. Sets every point's `tokens` to what its block costs in the context (cut
    points: what they would have cost). Returns (selected, cut, context_text, tokens)."""
    blocks = [point_block(i + 1, p) for i, p in enumerate(points)]
    for p, block in zip(points, blocks):
        p.tokens = count_tokens(block)
    used, n = 0, 0
    while n < len(points) and used + points[n].tokens <= budget:
        used += points[n].tokens
        n += 1
    return list(points[:n]), list(points[n:]), "".join(blocks[:n]), used


# --------------------------------------------------------------------------- local tables

def source_row(unit: dict) -> str:
    return f"{unit['human_readable_id']}|{cell(unit.get('text'))}"


def entity_row(e: dict) -> str:
    return f"{e['human_readable_id']}|{cell(e.get('title'))}|{cell(e.get('type'))}|" \
           f"{cell(e.get('description'))}|{e.get('degree') or 0}"


def relationship_row(r: dict) -> str:
    return f"{r['human_readable_id']}|{cell(r.get('source'))}|{cell(r.get('target'))}|" \
           f"{cell(r.get('description'))}|{r.get('weight') or 0}"


def claim_row(c: dict) -> str:
    return f"{c['human_readable_id']}|{cell(c.get('subject'))}|{cell(c.get('object'))}|" \
           f"{cell(c.get('type'))}|{cell(c.get('status'))}|{cell(c.get('description'))}"


def local_report_row(r: dict) -> str:
    return f"{r['human_readable_id']}|{cell(r.get('title'))}|{cell(r.get('summary'))}"


LOCAL_TABLES = {
    # kind: (title, header, row)
    "reports": ("Reports", "id|title|content", local_report_row),
    "entities": ("Entities", "id|entity|type|description|number of relationships", entity_row),
    "relationships": ("Relationships", "id|source|target|description|weight", relationship_row),
    "claims": ("Claims", "id|subject|object|type|status|description", claim_row),
    "sources": ("Sources", "id|text", source_row),
}


def local_table(kind: str, records: list[dict], budget: int) -> Packed:
    title, header, row = LOCAL_TABLES[kind]
    packed, _ = pack_rows(header, records, row, budget, title=title)
    return packed


def language_instruction(language: str | None, question: str = "") -> str:
    """What the prompt says about the answer's language: the setting, or (auto) the question's,
    named when it is Chinese, Japanese or Korean (models asked in English to "use the language
    of the question" often answer a Chinese question in English)."""
    if language and language != "auto":
        return f"Write in {language}."
    named = cjk_language(question)
    if named:
        return f"Write in {named}, the language of the user's question."
    return "Write in the language of the user's question."


def cjk_language(text: str) -> str | None:
    """Japanese (kana), Korean (hangul) or Chinese for a text that is mainly CJK, else None."""
    from core.textutil import is_cjk
    if not text or not is_cjk(text):
        return None
    if re.search(r"[\u3040-\u30ff]", text):
        return "Japanese"
    if re.search(r"[\uac00-\ud7af]", text):
        return "Korean"
    return "Chinese"

"""A list question that names a section by its heading ("Which settings can I use in the
prune_graph section?", "What goes under Input Files?"): the section's own list items, in the
document's order, each cited to the text unit holding it.

A heading is named when the question writes it whole as a section's name ("the X section",
"under X"): a heading written as code (`prune_graph`), or one of two words or more, case aside. The section runs from its heading to
the next heading of its level or above, so its subsections' lists ("Fields") are its own. None
when no heading is named, or its section holds fewer than two list items.
"""
from __future__ import annotations

import re

from core.query.lists import list_kind, structured_documents, unit_at, unit_spans
from core.text.lexical import CODE_NAME, cite

MAX_ITEMS = 30


_SECTION = r"(?:section|heading|part|block|table|page)"


def _named(heading: str, question: str, codes: set[str]) -> bool:
    """Does the question name this heading as a section ("in the prune_graph section", "under
    Input Files")? A phrase that merely is a heading too ("reference counting") is no section's."""
    h = heading.strip().strip("`").lower()
    if not h or not (h in codes or len(h.split()) >= 2):
        return False
    q, name = question.lower(), rf"[\"'`\u201c]?{re.escape(h)}[\"'`\u201d]?"
    return re.search(rf"(?<!\w){name}\s+{_SECTION}\b|\b(?:{_SECTION}|under)\s+(?:the\s+)?{name}(?!\w)", q) is not None


def named_section_list(store, question: str) -> str | None:
    if list_kind(question) is None:
        return None
    codes = {c.lower() for c in CODE_NAME.findall(question)}
    best = None
    for d, text, structure in structured_documents(store):
        heads = sorted(h for h in structure.get("headings") or [] if len(h) >= 3)
        for i, (a, b, level) in enumerate(heads):
            title = text[a:b]
            if not _named(title, question, codes):
                continue
            end = next((x[0] for x in heads[i + 1:] if x[2] <= level), len(text))
            items = sorted((x, y) for x, y in structure.get("items") or [] if b <= x < end)
            # the longest heading named wins ("Input Files" over "Files")
            if len(items) >= 2 and (best is None or len(title) > len(best[1])):
                best = (d["id"], title.strip(), items, text)
    if best is None:
        return None
    doc_id, title, items, text = best
    units = unit_spans(store, doc_id)
    lines = [f"The {title} section lists:"]
    for x, y in items[:MAX_ITEMS]:
        hrid = unit_at(units, x)
        item = " ".join(text[x:y].split())
        lines.append(f"- {cite(item, {'Sources': [hrid]}) if hrid is not None else item}")
    return "\n".join(lines)

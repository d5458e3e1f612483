"""Inferred co-occurrence edges: a graph even where the model states no relationship.

Small local models often list a text unit's entities and no relationships at all (a one-unit
news article gave 10 entities and 0 relationships: 0 communities, 0 reports, and global search
had nothing to answer from). For such a unit, entities named in the same sentence are joined
by an edge that is marked inferred: a lower weight than a stated relationship, a description
that says what it is, and `inferred` set, so the graph, the tables and the reports built on
such edges can say so. A unit where the model did state relationships gets none.
"""
from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from core.index.grounding import fold_text, is_grounded
from core.textutil import split_sentences

INFERRED_WEIGHT = 0.5
"""An inferred edge's weight per unit (a stated relationship counts 1)."""
INFERRED_DESCRIPTION = "named in the same sentence (inferred: the model stated no relationship)"
MAX_PER_SENTENCE = 8
"""Entities of one sentence that are joined pairwise (more would make a clique of a list)."""


def sentence_edges(entities: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Inferred edges between the entities named together in a sentence of `text`."""
    titles = [e["title"] for e in entities if e.get("title")]
    if len(titles) < 2:
        return []
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    for a, b in split_sentences(text):
        named = _named_in(text[a:b], titles)[:MAX_PER_SENTENCE]
        for s, t in combinations(named, 2):
            key = (s, t)
            if key in edges:
                continue
            edges[key] = {"source": s, "target": t, "weight": INFERRED_WEIGHT, "strength": INFERRED_WEIGHT,
                          "description": INFERRED_DESCRIPTION, "inferred": True}
    return list(edges.values())


def _named_in(sentence: str, titles: list[str]) -> list[str]:
    """The titles named in a sentence, longest first, each occurrence masked once found: "Chemicals"
    inside "Calloway Chemicals" is not a second name beside it."""
    named = []
    for title in sorted(titles, key=len, reverse=True):
        if is_grounded(title, sentence, fold_text(sentence)):
            named.append(title)
            sentence = re.sub(re.escape(title), lambda m: " " * len(m.group()), sentence, flags=re.I)
    order = {t: i for i, t in enumerate(titles)}
    return sorted(named, key=order.__getitem__)


def is_inferred(relationship: dict[str, Any]) -> bool:
    return bool(relationship.get("inferred"))

"""The entities of the graph a question names by title (local search's entry points, Auto's
narrow signal, a list question's named members)."""
from __future__ import annotations

import re

from core.store.db import Store
from core.text.lexical import STOPWORDS
from core.textutil import has_cjk


def title_matches(store: Store, question: str) -> list[dict]:
    """Entities whose title occurs in the question (case-insensitive; Latin titles as whole
    words), longest title first."""
    q = question.upper()
    found = []
    for e in store.rows("entities", select="id, human_readable_id, title, degree"):
        t = (e.get("title") or "").strip().upper()
        if len(t) < 2 or t.lower() in STOPWORDS or t not in q:
            continue
        if not has_cjk(t) and not re.search(rf"(?<![A-Z0-9]){re.escape(t)}(?![A-Z0-9])", q):
            continue
        found.append(e)
    found.sort(key=lambda e: (-len(e["title"]), -(e.get("degree") or 0)))
    return found

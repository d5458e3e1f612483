"""The entities of the graph a question names by title (local search's entry points, Auto's
narrow signal, a list question's named members)."""
from __future__ import annotations

import re

from core.store.db import Store
from core.text.lexical import STOPWORDS
from core.text.wordnet import common_word
from core.textutil import has_cjk


def _named(name: str, question: str, upper: str) -> bool:
    """Does the question write this name (case-insensitive; a Latin name as a whole word)?"""
    t = name.strip().upper()
    if len(t) < 2 or t.lower() in STOPWORDS or t not in upper:
        return False
    return has_cjk(t) or bool(re.search(rf"(?<![A-Z0-9]){re.escape(t)}(?![A-Z0-9])", upper))


def _alias_named(alias: str, question: str, upper: str) -> bool:
    """Does the question name an entity by one of its other names ("cruz" for Taylor Cruz)? A
    user types names in lower case; an alias that is also an English word ("Chase", "Will")
    counts only as the documents write it, capitalised."""
    if not _named(alias, question, upper):
        return False
    if has_cjk(alias) or " " in alias.strip() or not common_word(alias.strip()):
        return True
    return bool(re.search(rf"(?<![\w]){re.escape(alias.strip())}(?![\w])", question))


def title_matches(store: Store, question: str) -> list[dict]:
    """Entities whose title, or one of whose aliases, occurs in the question (case-insensitive;
    Latin names as whole words), the longest name first."""
    q = question.upper()
    found = []
    for e in store.rows("entities", select="id, human_readable_id, title, degree, aliases"):
        title = e.get("title") or ""
        if _named(title, question, q):
            found.append((len(title), e))
            continue
        aliases = [a for a in (e.get("aliases") or []) if isinstance(a, str) and a.strip()]
        hits = [a for a in aliases if _alias_named(a, question, q)]
        if hits:
            found.append((max(len(a) for a in hits), e))
    found.sort(key=lambda x: (-x[0], -(x[1].get("degree") or 0)))
    return [e for _, e in found]

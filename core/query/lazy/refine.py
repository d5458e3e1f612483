"""Refine: the question into subqueries and one expanded question (one model call), and each
subquery refined with the graph's concepts that match it (entities named in it, else found by
full-text search over entity titles and descriptions). The concepts' names are added to the
subquery's text for ranking units, so a passage naming the concept ranks even when it words the
question differently. Offline (or when the model's answer is unusable): the question itself is
the one subquery and the expanded question."""
from __future__ import annotations

import re
from typing import Any

from core.llm.client import LLM, FatalLLMError, LLMError
from core.llm.jsonparse import JSONParseError, chat_json
from core.prompts import render
from core.query import offline_answer as offline
from core.query.context import language_instruction
from core.query.lazy.params import LazyParams
from core.query.lazy.trace import Subquery
from core.store.db import Store

MAX_CONCEPTS = 4


def validate_refine(obj: Any) -> None:
    if not isinstance(obj, dict) or not isinstance(obj.get("subqueries"), list):
        raise ValueError('expected {"subqueries": [...], "expanded_question": "..."}')
    if not [s for s in obj["subqueries"] if isinstance(s, str) and s.strip()]:
        raise ValueError("no subquery was written")


def refine(store: Store, question: str, params: LazyParams, llm: LLM | None) -> tuple[list[Subquery], str, str]:
    """(subqueries, expanded question, note): note says why the question itself was used, if so."""
    texts, expanded, note = [question], question, "offline: the question is the one subquery"
    if llm is not None:
        texts, expanded, note = _ask(store, question, params, llm)
    subs = []
    for i, text in enumerate(texts):
        subs.append(Subquery(index=i, text=text, concepts=concepts(store, text)))
    return subs, expanded, note


def _ask(store: Store, question: str, params: LazyParams, llm: LLM) -> tuple[list[str], str, str]:
    most = max(1, params.subqueries)
    system = render("lazy_refine", store.workspace, question=question, min_subqueries=min(3, most),
                    max_subqueries=most, language_instruction=language_instruction(params.language, question))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    try:
        obj, _, _ = chat_json(llm, messages, max_tokens=120 + 60 * most, stage="lazy_refine",
                              validate=validate_refine)
    except FatalLLMError:
        raise
    except (JSONParseError, LLMError) as exc:
        return [question], question, f"the refine call failed ({exc}); the question is the one subquery"
    seen, texts = set(), []
    for s in obj["subqueries"]:
        s = " ".join(str(s).split()) if isinstance(s, str) else ""
        if s and s.lower() not in seen:
            seen.add(s.lower())
            texts.append(s)
    expanded = obj.get("expanded_question")
    expanded = " ".join(expanded.split()) if isinstance(expanded, str) and expanded.strip() else question
    return texts[:most], expanded, ""


def concepts(store: Store, text: str) -> list[str]:
    """Titles of the entities matching the text: those it names first, then full-text matches."""
    from core.query.local_search import title_matches
    found = [e["title"] for e in title_matches(store, text)]
    latin = " ".join(w for w in re.findall(r"[^\W_]+", text)
                     if w.lower() not in offline.STOPWORDS and len(w) > 2 and not offline.has_cjk(w))
    if len(found) < MAX_CONCEPTS and latin:
        mine = set(offline.terms(text))  # a concept's name shares a word with the subquery
        found += [r["title"] for r in store.search("entities", latin, limit=3 * MAX_CONCEPTS)
                  if mine & set(offline.terms(r["title"] or ""))]
    return list(dict.fromkeys(t for t in found if t))[:MAX_CONCEPTS]


def refined_text(sub: Subquery) -> str:
    """What the units are ranked against: the subquery and its concepts."""
    return " ".join([sub.text, *sub.concepts])

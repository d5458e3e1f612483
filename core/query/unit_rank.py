"""Ranking text units by similarity to a query: embeddings where the workspace holds text-unit
vectors of the LLM's embedding model, BM25 over the units' text otherwise (the offline scorer's
terms: Chinese as character bigrams). Basic search and lazy search's match step share it.

A UnitIndex is built once per query (the units' terms counted once) and ranks any number of
subqueries; `passage` picks the part of a unit that best matches a query, so a relevance test
can read a sentence or two instead of the whole unit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.query import offline_answer as offline
from core.store.db import Store
from core.textutil import split_sentences
from core.tokens import count_tokens, truncate


@dataclass
class Ranked:
    unit: dict
    """The text unit row (id, human_readable_id, document_id, text, n_tokens)."""
    score: float
    rank: int
    """0 = best."""


class UnitIndex:
    """Every text unit of a workspace, ready to be ranked against queries."""

    def __init__(self, store: Store, llm=None):
        self.units = store.rows("text_units", order_by="human_readable_id",
                                select="id, human_readable_id, document_id, ordinal, text, n_tokens")
        self.by_id = {u["id"]: u for u in self.units}
        self.method = "bm25"
        self._vectors = self._load_vectors(store, llm)
        self._llm = llm
        if self._vectors is None:
            self._bm = offline.BM25([offline.terms(u.get("text") or "") for u in self.units])
        else:
            self.method = "embedding"

    def _load_vectors(self, store: Store, llm) -> np.ndarray | None:
        embedder = getattr(llm, "embedder", None) if llm is not None else None
        if embedder is None or not self.units:
            return None
        rows = store.rows("embeddings", "owner_table = ? and model = ?", ["text_units", embedder.model],
                          select="owner_id, vector")
        got = {r["owner_id"]: np.frombuffer(r["vector"], dtype=np.float32) for r in rows}
        if len(got) < len(self.units):  # only a full set ranks every unit fairly
            return None
        mat = np.stack([got[u["id"]] for u in self.units])
        return mat / (np.linalg.norm(mat, axis=1, keepdims=True) + 1e-12)

    def rank(self, query: str, limit: int | None = None) -> list[Ranked]:
        """Units by similarity to the query, best first; BM25 keeps only units sharing a term."""
        if not self.units:
            return []
        if self._vectors is not None:
            q = np.asarray(self._llm.embed([query])[0], dtype=np.float32)
            if q.shape[0] == self._vectors.shape[1]:
                sims = self._vectors @ (q / (np.linalg.norm(q) or 1.0))
                order = np.argsort(-sims, kind="stable")[:limit]
                return [Ranked(self.units[i], float(sims[i]), r) for r, i in enumerate(order)]
        q = offline.terms(query)
        scored = [(self._bm.score(q, i), -i) for i in range(len(self.units))]
        scored = sorted((s for s in scored if s[0] > 0), reverse=True)[:limit]
        return [Ranked(self.units[-ni], s, r) for r, (s, ni) in enumerate(scored)]

    def coverage(self, query_terms: list[str], text: str) -> float:
        """Share of the query's idf weight (idf over the units) present in text, 0-1; a term
        no unit holds weighs as much as the rarest."""
        q = set(query_terms)
        if not q:
            return 0.0
        have = set(offline.terms(text))
        idf = self._bm.idf if self._vectors is None else {}
        unseen = math.log(1 + (len(self.units) + 0.5) / 0.5)
        weight = {t: idf.get(t, unseen) for t in q}
        total = sum(weight.values())
        return sum(w for t, w in weight.items() if t in have) / total if total else 0.0


def passage(text: str, query: str, max_tokens: int) -> str:
    """The part of text that best matches the query, at most max_tokens: its best sentence
    (most query terms, the first on a tie) with the sentences around it while they fit; the
    start of the text when no sentence shares a term."""
    text = text or ""
    spans = [(a, b) for a, b in split_sentences(text) if b - a > 1] or [(0, len(text))]
    q = set(offline.terms(query))
    hits = [len(q & set(offline.terms(text[a:b]))) for a, b in spans]
    best = max(range(len(spans)), key=lambda i: (hits[i], -i))
    lo = hi = best
    used = count_tokens(_one(text, spans[best]))
    if used > max_tokens:
        return truncate(_one(text, spans[best]), max_tokens)
    while True:  # grow to the neighbour with more query terms (after, on a tie) while it fits
        options = [i for i in (hi + 1, lo - 1) if 0 <= i < len(spans)]
        options.sort(key=lambda i: -hits[i])
        grown = False
        for i in options:
            n = count_tokens(" " + _one(text, spans[i]))
            if used + n <= max_tokens:
                lo, hi = min(lo, i), max(hi, i)
                used += n
                grown = True
                break
        if not grown:
            break
    return " ".join(_one(text, spans[i]) for i in range(lo, hi + 1))


def _one(text: str, span: tuple[int, int]) -> str:
    return " ".join(text[span[0]:span[1]].split())


"""Ranking text units by similarity to a query: embeddings where the workspace holds text-unit
vectors of the LLM's embedding model, BM25 over the units' text otherwise (the offline scorer's
terms: Chinese as character bigrams). Basic search and lazy search's match step share it.

A UnitIndex ranks any number of subqueries; the units' BM25 index is built once per version of
the workspace's units and kept for the process (a second query does not count terms again); `passage` picks the part of a unit that best matches a query, so a relevance test
can read a sentence or two instead of the whole unit.
"""
from __future__ import annotations

import functools
import hashlib
import math
import threading
from dataclasses import dataclass

import numpy as np

from core.query import offline_answer as offline
from core.store.db import Store
from core.text import wordnet
from core.text.lexical import CODE_NAME, query_words
from core.textutil import split_sentences
from core.tokens import count_tokens, truncate


@dataclass
class Ranked:
    unit: dict
    """The text unit row (id, human_readable_id, document_id, text, n_tokens)."""
    score: float
    rank: int
    """0 = best."""


_LEXICAL: dict[str, tuple[str, list[dict], offline.BM25]] = {}
_LEXICAL_LOCK = threading.Lock()


def _lexical(store: Store) -> tuple[list[dict], offline.BM25]:
    """The workspace's units and their BM25 index, built once per version of the units (their
    ids: a unit's id changes with its text) and shared by the queries of this process."""
    ids = " ".join(store.column("text_units", "id", order_by="human_readable_id"))
    version = hashlib.sha1(ids.encode("utf-8")).hexdigest()
    key = str(store.path)
    with _LEXICAL_LOCK:
        hit = _LEXICAL.get(key)
    if hit is not None and hit[0] == version:
        return hit[1], hit[2]
    units = store.rows("text_units", order_by="human_readable_id",
                       select="id, human_readable_id, document_id, ordinal, text, n_tokens, structure")
    bm = offline.BM25([offline.terms(u.get("text") or "") for u in units])
    with _LEXICAL_LOCK:
        _LEXICAL[key] = (version, units, bm)
        while len(_LEXICAL) > 8:  # a few workspaces at a time
            _LEXICAL.pop(next(iter(_LEXICAL)))
    return units, bm


class UnitIndex:
    """Every text unit of a workspace, ready to be ranked against queries."""

    def __init__(self, store: Store, llm=None):
        self.units, self._bm = _lexical(store)
        self.by_id = {u["id"]: u for u in self.units}
        self.method = "bm25"
        self._vectors = self._load_vectors(store, llm)
        self._llm = llm
        if self._vectors is not None:
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
        words = offline.terms(query)
        idf = self._bm.idf  # a word no unit writes: the words it may stand for (wordnet.stand_ins)
        words += [t for w, term in query_words(query).items() for r in wordnet.stand_ins(w, lambda _, held=term: held in idf)
                  for t in offline.terms(r)]
        scored = [(self._bm.score(words, i), -i) for i in range(len(self.units))]
        # a name the query writes as code ("vector_size", "allow_general_knowledge") names one
        # thing, which the units writing it verbatim are about; its parts alone are common words
        codes = [c.lower() for c in CODE_NAME.findall(query)]
        if codes:
            scored = [(sc * (1 + 2 * sum(c in (self.units[-ni].get("text") or "").lower() for c in codes)), ni)
                      for sc, ni in scored]
        scored = sorted((s for s in scored if s[0] > 0), reverse=True)[:limit]
        return [Ranked(self.units[-ni], s, r) for r, (s, ni) in enumerate(scored)]

    def coverage(self, query_terms: list[str], text: str) -> float:
        """Share of the query's idf weight (idf over the units) present in text, 0-1; a term
        no unit holds weighs as much as the rarest."""
        q = set(query_terms)
        if not q:
            return 0.0
        have = set(offline.terms(text))
        idf = self._bm.idf
        unseen = math.log(1 + (len(self.units) + 0.5) / 0.5)
        weight = {t: idf.get(t, unseen) for t in q}
        total = sum(weight.values())
        return sum(w for t, w in weight.items() if t in have) / total if total else 0.0


@functools.lru_cache(maxsize=8192)
def _sentences(text: str) -> tuple[tuple[str, frozenset[str], int], ...]:
    """A unit's sentences, each on one line, with its terms and tokens (remembered: the units of
    a query are tested for several subqueries, and the same units are asked about again)."""
    spans = [(a, b) for a, b in split_sentences(text) if b - a > 1] or [(0, len(text))]
    out = []
    for a, b in spans:
        one = " ".join(text[a:b].split())
        out.append((one, frozenset(offline.terms(one)), count_tokens(" " + one)))
    return tuple(out)


def passage(text: str, query: str, max_tokens: int) -> str:
    """The part of text that best matches the query, at most max_tokens: its best sentence
    (most query terms, the first on a tie) with the sentences around it while they fit (the
    neighbour with more query terms first, the next one on a tie); the start of the text when
    no sentence shares a term."""
    sents = _sentences(text or "")
    q = set(offline.terms(query))
    hits = [len(q & terms) for _, terms, _ in sents]
    best = max(range(len(sents)), key=lambda i: (hits[i], -i))
    if sents[best][2] > max_tokens:
        return truncate(sents[best][0], max_tokens)
    lo = hi = best
    used = sents[best][2]
    while True:
        options = sorted((i for i in (hi + 1, lo - 1) if 0 <= i < len(sents)), key=lambda i: -hits[i])
        grown = next((i for i in options if used + sents[i][2] <= max_tokens), None)
        if grown is None:
            break
        lo, hi = min(lo, grown), max(hi, grown)
        used += sents[grown][2]
    text = "\n".join(sents[i][0] for i in range(lo, hi + 1))  # one sentence a line
    while count_tokens(text) > max_tokens and hi > lo:  # the line breaks may cost a token more
        lo, hi = (lo + 1, hi) if best - lo > hi - best else (lo, hi - 1)
        text = "\n".join(sents[i][0] for i in range(lo, hi + 1))
    return text

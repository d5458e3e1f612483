"""DRIFT's primer: a hypothetical answer written from a sample report (HyDE), the reports ranked
against it (embeddings where the workspace has report vectors of the embedding model, BM25 over
title, summary and findings otherwise), the top reports split into folds, and one call per fold
giving an intermediate answer, a 0-100 score and follow-up questions.

Offline (llm=None): no hypothetical answer (the question itself ranks the reports); a fold's
answer is its reports' best findings, its score their best lexical relevance, its follow-ups
ask about the best-connected entities of the fold's communities.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from core.llm.client import FatalLLMError, LLMError
from core.llm.jsonparse import JSONParseError, chat_json
from core.prompts import render
from core.query import offline_answer as offline
from core.query.context import language_instruction, pack_rows, report_row
from core.store.db import Store
from core.tokens import truncate


@dataclass
class DriftNode:
    """One step of the search: a primer fold (depth 0) or a follow-up answered by local search."""
    id: int
    query: str
    depth: int
    parent: int | None = None
    """The node whose follow-ups asked this (None: a primer fold, a child of the question)."""
    answer: str = ""
    score: float | None = None
    follow_ups: list[str] = field(default_factory=list)
    reports: list[int] = field(default_factory=list)
    """Primer folds: the reports read (human_readable_id)."""
    context: dict[str, Any] = field(default_factory=dict)
    """Follow-ups: entry entities and the ids of the sources used."""
    error: str | None = None
    seconds: float = 0.0


def hypothetical_answer(store: Store, llm, question: str, seed: int, max_tokens: int = 400) -> str:
    """A made-up answer shaped like a report of this workspace, used only to rank reports."""
    if llm is None:
        return question
    rows = store.rows("community_reports", select="full_content, summary, title")
    if not rows:
        return question
    sample = random.Random(seed).choice(rows)
    template = truncate(sample.get("full_content") or f"{sample.get('title')}\n{sample.get('summary')}", 600)
    messages = [{"role": "user", "content": render("drift_hyde", store.workspace, question=question,
                                                   template=template)}]
    try:
        text = (llm.chat(messages, max_tokens=max_tokens, stage="primer").text or "").strip()
    except FatalLLMError:
        raise
    except LLMError:
        text = ""
    return text or question


def rank_reports(store: Store, question: str, hyde: str, llm, k: int) -> tuple[list[dict], str]:
    """The k reports most like the hypothetical answer, best first, and how they were ranked."""
    reports = store.rows("community_reports")
    if not reports:
        return [], "none"
    order = _embedding_order(store, reports, hyde, llm)
    how = "embedding"
    if order is None:
        q = offline.terms(f"{question} {hyde if hyde != question else ''}")
        bm = offline.BM25([offline.terms(offline.report_text(r)) for r in reports])
        order = sorted(range(len(reports)), key=lambda i: (-bm.score(q, i), -float(reports[i].get("rank") or 0), i))
        how = "bm25"
    return [reports[i] for i in order[:k]], how


def _embedding_order(store: Store, reports: list[dict], text: str, llm) -> list[int] | None:
    embedder = getattr(llm, "embedder", None)
    if embedder is None:
        return None
    rows = store.rows("embeddings", "owner_table = ? and model = ?", ["community_reports", embedder.model],
                      select="owner_id, vector")
    by_owner = {r["owner_id"]: np.frombuffer(r["vector"], dtype=np.float32) for r in rows}
    if not by_owner or any(r["id"] not in by_owner for r in reports):
        return None
    try:
        q = np.asarray(llm.embed([text])[0], dtype=np.float32)
    except LLMError:
        return None
    mat = np.stack([by_owner[r["id"]] for r in reports])
    if q.shape[0] != mat.shape[1]:
        return None
    sims = mat @ q / (np.linalg.norm(mat, axis=1) * (np.linalg.norm(q) or 1.0) + 1e-12)
    return [int(i) for i in np.argsort(-sims, kind="stable")]


def folds(reports: list[dict], n: int) -> list[list[dict]]:
    """Reports dealt into n folds of near-equal size, in rank order (fold 0 holds the best)."""
    n = max(1, min(n, len(reports)))
    size, extra = divmod(len(reports), n)
    out, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append(reports[start:end])
        start = end
    return [f for f in out if f]


def validate_primer(obj: Any) -> None:
    if not isinstance(obj, dict):
        raise ValueError("expected an object with intermediate_answer, score, follow_up_queries")
    if not isinstance(obj.get("intermediate_answer", obj.get("response")), str):
        raise ValueError("intermediate_answer is missing")


def score_of(value: Any) -> float:
    try:
        return max(0.0, min(100.0, float(str(value).strip().rstrip("%"))))
    except (TypeError, ValueError):
        return 0.0


def follow_ups_of(obj: dict, limit: int) -> list[str]:
    items = obj.get("follow_up_queries") or obj.get("follow_ups") or []
    if isinstance(items, str):
        items = [items]
    out = [str(q).strip() for q in items if isinstance(q, (str, int)) and str(q).strip()]
    return list(dict.fromkeys(out))[:limit]


def primer_fold(store: Store, llm, question: str, node: DriftNode, fold: list[dict], budget: int,
                followups: int, answer_tokens: int, language: str) -> DriftNode:
    """One fold's intermediate answer, score and follow-ups (offline: extractive)."""
    t = time.perf_counter()
    packed, _ = pack_rows("id|title|summary|findings", fold, report_row, budget)
    node.reports = [int(r["human_readable_id"]) for r in packed.records]
    if llm is None:
        _offline_fold(store, question, node, packed.records, followups)
    else:
        prompt = render("drift_primer", store.workspace, reports=packed.text, followups=followups,
                        language_instruction=language_instruction(language, question))
        messages = [{"role": "system", "content": prompt}, {"role": "user", "content": question}]
        answer_node(llm, node, messages, ("intermediate_answer", "response"), validate_primer,
                    max_tokens=answer_tokens, stage="primer", followups=followups)
    node.seconds = round(time.perf_counter() - t, 4)
    return node


def answer_node(llm, node: DriftNode, messages: list[dict], keys: tuple[str, str],
                validate: Callable[[Any], None], *, max_tokens: int, stage: str, followups: int) -> None:
    """One JSON call of DRIFT (a primer fold, a follow-up) into the node: its answer (under
    keys[0], else keys[1]), its 0-100 score and at most `followups` follow-ups. An answer that
    cannot be parsed, or a failed call, is the node's error with score 0; a fatal error is raised."""
    try:
        obj, _, _ = chat_json(llm, messages, max_tokens=max_tokens, stage=stage, validate=validate)
        node.answer = str(obj.get(keys[0], obj.get(keys[1])) or "").strip()
        node.score = score_of(obj.get("score"))
        node.follow_ups = follow_ups_of(obj, followups)
    except FatalLLMError:
        raise
    except (JSONParseError, LLMError) as exc:
        node.error, node.score = str(exc), 0.0


def _offline_fold(store: Store, question: str, node: DriftNode, reports: list[dict], followups: int) -> None:
    scores = offline.score_reports(question, reports)
    points = []
    for r in reports:
        points += offline.report_points(question, r, scores[int(r["human_readable_id"])], max_points=2)
    points.sort(key=lambda p: -p.score)
    for p in points:
        p.tokens = len(p.description) // 4
    node.answer = offline.extractive_reduce(points[:4], 400)
    node.score = float(max(scores.values(), default=0))
    node.follow_ups = [f"What do we know about {name}?" for name in
                       central_entities(store, [int(r["community"]) for r in reports], followups)]


def central_entities(store: Store, communities: list[int], limit: int) -> list[str]:
    """Titles of the best-connected entities of these communities, best first."""
    if not communities or limit <= 0:
        return []
    rows = store.rows("communities", f"community in ({','.join('?' * len(communities))})", communities,
                      select="community, entity_ids")
    ids = list(dict.fromkeys(e for r in rows for e in (r.get("entity_ids") or [])))
    ents = store.by_ids("entities", ids) if ids else []
    ents.sort(key=lambda e: (-(e.get("degree") or 0), e.get("title") or ""))
    return [(e["title"].title() if e["title"].isupper() else e["title"]) for e in ents[:limit]]

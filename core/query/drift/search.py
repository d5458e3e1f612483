"""DRIFT search: the primer, then `depth` rounds in which the best `k_followups` follow-up
questions not yet asked are each answered by a local search (one call: answer, score,
follow-ups), then one reduce over every intermediate answer, best first, packed to a budget.

The trace (result.context["drift"]) is the tree: the question, the primer folds under it, each
follow-up under the node that asked it, with answers, scores and the sources they used.
Follow-ups are ranked by the score of the node that asked them (then the order asked); a
question asked twice (case and spacing aside) is answered once.
"""
from __future__ import annotations

import dataclasses
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from core.errors import UserError
from core.prompts import render
from core.query import offline_answer as offline
from core.query.budget import small_window
from core.query.context import language_instruction
from core.query.global_search import reduce_answer
from core.query.drift.trace import DriftTrace
from core.query.drift.primer import (DriftNode, answer_node, central_entities, folds, hypothetical_answer,
                                     primer_fold, rank_reports)
from core.query.local_search import TABLE_ORDER, _offline_answer, build_context, entry_entities
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.query.types import LocalParams, Point, SearchResult
from core.store.db import Store
from core.tokens import count_tokens


@dataclass
class DriftParams:
    k_followups: int | None = None
    """Follow-up questions answered per round, and reports the primer reads (graphrag: 20;
    None: 20, or 5 for a model with a small context window)."""
    folds: int | None = None
    """Primer folds: calls the top reports are split across (graphrag: 5; small window: 2)."""
    depth: int | None = None
    """Rounds of follow-ups (graphrag: 3; small window: 2)."""
    primer_max_tokens: int = 6000
    """Report budget of one primer fold."""
    local_max_tokens: int = 6000
    """Context budget of one follow-up's local search."""
    reduce_max_tokens: int = 8000
    answer_tokens: int = 1500
    action_tokens: int = 800
    """Output cap of one primer fold or follow-up answer."""
    concurrency: int = 8
    seed: int | None = None
    """Chooses the sample report the hypothetical answer imitates; None draws one (recorded)."""
    response_type: str = "multiple paragraphs"
    language: str = "auto"


DEFAULTS = {"k_followups": 20, "folds": 5, "depth": 3}
SMALL_DEFAULTS = {"k_followups": 5, "folds": 2, "depth": 2, "primer_max_tokens": 2500,
                  "local_max_tokens": 2500, "reduce_max_tokens": 3000, "answer_tokens": 800,
                  "action_tokens": 500}


def resolve_params(params: DriftParams, llm) -> tuple[DriftParams, str]:
    """Fill the knobs left at None: graphrag's 20/5/3, or smaller for a small context window
    (which also shrinks the budgets left at their defaults). Returns the params and why."""
    small = small_window(llm)
    table = SMALL_DEFAULTS if small else DEFAULTS
    base = DriftParams()
    changes = {}
    for k, v in table.items():
        if getattr(params, k) is None or (small and getattr(params, k) == getattr(base, k)):
            changes[k] = v
    why = ("smaller defaults for a model with a small context window" if small
           else "knobs not given take graphrag's defaults 20/5/3")
    return dataclasses.replace(params, **changes), why


def drift_search(store: Store, question: str, params: DriftParams | None = None, llm=None,
                 record: bool = True, on_node=None) -> SearchResult:
    question = (question or "").strip()
    if not question:
        raise UserError("the question is empty")
    if not store.count("community_reports"):
        raise UserError("DRIFT search starts from community reports and this workspace has none: "
                        "index a corpus first (or ask with local or basic search)")
    params, why = resolve_params(params or DriftParams(), llm)
    for name in ("k_followups", "folds", "depth", "concurrency"):
        if getattr(params, name) < 1:
            raise UserError(f"DRIFT {name.replace('_', ' ')} must be at least 1")
    t0 = time.perf_counter()
    seed = params.seed if params.seed is not None else random.SystemRandom().randrange(2 ** 31)
    before = usage_snapshot(llm)
    result = SearchResult(method="drift", question=question, engine="offline" if llm is None else "llm",
                          model=None if llm is None else llm.model,
                          params={**dataclasses.asdict(params), "seed": seed, "defaults": why})
    nodes: list[DriftNode] = []
    notify = on_node or (lambda node: None)

    hyde = hypothetical_answer(store, llm, question, seed)
    top, how = rank_reports(store, question, hyde, llm, params.k_followups)
    t1 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=params.concurrency, thread_name_prefix="drift") as pool:
        fold_nodes = [DriftNode(id=i, query=question, depth=0) for i, _ in enumerate(folds(top, params.folds))]
        nodes += fold_nodes
        done = list(pool.map(lambda nf: primer_fold(store, llm, question, nf[0], nf[1], params.primer_max_tokens,
                                                    params.k_followups, params.action_tokens, params.language),
                             zip(fold_nodes, folds(top, params.folds))))
        for n in done:
            notify(n)
        t2 = time.perf_counter()
        asked = {_norm(question)}
        rounds = []
        for depth in range(1, params.depth + 1):
            pending = _pending(nodes, asked)
            if not pending:
                break
            batch = []
            for parent, query in pending[:params.k_followups]:
                asked.add(_norm(query))
                batch.append(DriftNode(id=len(nodes) + len(batch), query=query, depth=depth, parent=parent.id))
            nodes += batch
            list(pool.map(lambda n: _answer_follow_up(store, llm, question, n, params), batch))
            for n in batch:
                notify(n)
            rounds.append({"depth": depth, "asked": len(batch), "waiting": max(0, len(pending) - len(batch))})
    t3 = time.perf_counter()
    _reduce(store, llm, result, nodes, params)
    t4 = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer else []
    result.context = {"drift": DriftTrace(
        hypothetical_answer=hyde if llm is not None else "", report_ranking=how,
        top_reports=[int(r["human_readable_id"]) for r in top], nodes=list(nodes), rounds=rounds,
        reduce=result.reduce.pop("drift", {})).to_dict()}
    result.usage = usage_delta(before, llm)
    result.timings = {"primer": round(t2 - t0, 4), "ranking": round(t1 - t0, 4), "follow_ups": round(t3 - t2, 4),
                      "reduce": round(t4 - t3, 4), "total": round(time.perf_counter() - t0, 4)}
    if record:
        save_trace(store, result)
    return result


def _norm(q: str) -> str:
    return " ".join(q.lower().split()).rstrip("?")


def _pending(nodes: list[DriftNode], asked: set[str]) -> list[tuple[DriftNode, str]]:
    """Follow-ups not asked yet, best parent score first, then in the order asked; each once."""
    seen, out = set(asked), []
    for n in sorted(nodes, key=lambda n: (-(n.score or 0), n.id)):
        if n.error:
            continue
        for q in n.follow_ups:
            key = _norm(q)
            if key and key not in seen:
                seen.add(key)
                out.append((n, q))
    return out


def _answer_follow_up(store: Store, llm, question: str, node: DriftNode, params: DriftParams) -> DriftNode:
    """One local search for the follow-up: its answer, a score for the whole question, follow-ups."""
    t = time.perf_counter()
    lp = LocalParams(max_tokens=params.local_max_tokens, answer_tokens=params.action_tokens,
                     language=params.language)
    entities, how = entry_entities(store, node.query, lp, llm)
    tables, _ = build_context(store, entities, lp)
    node.context = {"entry_entities": [e["human_readable_id"] for e in entities], "entry_method": how,
                    "sources": [r["human_readable_id"] for r in tables["sources"].records]}
    if not entities:
        node.answer, node.score = "", 0.0
        node.error = "no entity of the index is named in this follow-up"
    elif llm is None:
        node.answer = _offline_answer(node.query, tables, lp)
        node.score = _lexical_score(question, node.answer)
        named = {e["title"] for e in entities}
        node.follow_ups = [f"What do we know about {t}?" for t in
                           central_entities(store, _communities_of(store, entities), 6)
                           if t.upper() not in named][:3]
    else:
        text = "\n\n".join(tables[k].text for k in TABLE_ORDER if tables[k].text)
        prompt = render("drift_local", store.workspace, global_question=question, context_data=text,
                        followups=min(5, params.k_followups),
                        language_instruction=language_instruction(params.language, question))
        messages = [{"role": "system", "content": prompt}, {"role": "user", "content": node.query}]
        answer_node(llm, node, messages, ("response", "answer"), _validate_action,
                    max_tokens=params.action_tokens, stage="follow_up", followups=5)
    node.seconds = round(time.perf_counter() - t, 4)
    return node


def _validate_action(obj: Any) -> None:
    if not isinstance(obj, dict) or not isinstance(obj.get("response", obj.get("answer")), str):
        raise ValueError('expected {"response": "...", "score": 0-100, "follow_up_queries": [...]}')


def _communities_of(store: Store, entities: list[dict]) -> list[int]:
    wanted = {e["id"] for e in entities}
    return [int(c["community"]) for c in store.rows("communities", select="community, entity_ids, level")
            if wanted & set(c.get("entity_ids") or [])][:5]


def _lexical_score(question: str, answer: str) -> float:
    q = set(offline.terms(question))
    if not q or not answer:
        return 0.0
    return round(100.0 * len(q & set(offline.terms(answer))) / len(q), 1)


def _reduce(store: Store, llm, result: SearchResult, nodes: list[DriftNode], params: DriftParams) -> None:
    ranked = sorted((n for n in nodes if n.answer and (n.score or 0) > 0), key=lambda n: (-(n.score or 0), n.id))
    blocks, used, selected = [], 0, []
    for n in ranked:
        block = f"----Answer {len(selected) + 1} (score {n.score:g})----\nQuestion: {n.query}\n{n.answer.strip()}\n\n"
        cost = count_tokens(block)
        if used + cost > params.reduce_max_tokens:
            continue
        blocks.append(block)
        used += cost
        selected.append(n.id)
    result.reduce = {"drift": {"selected": selected, "cut": [n.id for n in ranked if n.id not in selected],
                               "tokens": used, "budget": params.reduce_max_tokens}}
    if not ranked:
        result.no_data = True
        result.answer = offline.no_data_answer(result.question, "no step of the search found anything relevant")
        return
    if llm is None:
        points = [Point(description=n.answer, score=int(n.score or 0), tokens=count_tokens(n.answer))
                  for n in ranked if n.id in selected]
        result.answer = offline.extractive_reduce(points[:6], params.answer_tokens, per_paragraph=1)
        return
    system = render("drift_reduce", store.workspace, answers="".join(blocks), response_type=params.response_type,
                    language_instruction=language_instruction(params.language, result.question))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": result.question}]
    reduce_answer(llm, messages, params.answer_tokens, result)

"""TS: the paper's text-summarisation baseline. Global map-reduce over the source text units,
shuffled with a recorded seed, instead of community reports: batches of passages packed to the
map budget, each mapped in parallel to scored points citing `[Data: Sources (ids)]`, the points
ranked and packed into the reduce budget (global search's map call, packing and point parsing), one
reduce call. The result has global search's shape (batches, reduce), so its trace draws alike;
`MapBatch.report_ids` holds text unit ids here.

Offline: each passage's best sentences by BM25 against the question become its points; the
answer is extractive.
"""
from __future__ import annotations

import dataclasses
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

from core.errors import UserError
from core.prompts import render
from core.query import offline_answer as offline
from core.query.budget import fit_budget
from core.query.context import Packed, language_instruction, pack_points, pack_rows, source_row
from core.query.global_search import _SLOT, checked_question, map_batch, reduce_answer
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.query.types import GlobalParams, MapBatch, Point, SearchResult
from core.store.db import Store

HEADER = "id|text"


def unit_batches(units: list[dict], budget: int, max_units: int = 0) -> list[Packed]:
    """Text units (in order) into batches of at most `budget` tokens (and max_units, when set)."""
    out, rest = [], list(units)
    while rest:
        take = rest[:max_units] if max_units else rest
        packed, left = pack_rows(HEADER, take, source_row, budget)
        if not packed.records:
            raise ValueError(f"map context budget of {budget} tokens cannot hold one passage")
        out.append(packed)
        rest = left + rest[len(take):]
    return out


def ts_search(store: Store, question: str, params: GlobalParams | None = None, llm=None,
              on_batch=None, record: bool = True) -> SearchResult:
    question, params = checked_question(question, params)
    t0 = time.perf_counter()
    seed = params.seed if params.seed is not None else random.SystemRandom().randrange(2 ** 31)
    units = store.rows("text_units", select="id, human_readable_id, text, n_tokens")
    if not units:
        raise UserError("this workspace has no text yet: index a corpus first")
    random.Random(seed).shuffle(units)
    result = SearchResult(method="ts", question=question, engine="offline" if llm is None else "llm",
                          model=None if llm is None else llm.model,
                          params={**dataclasses.asdict(params), "seed": seed, "level": None,
                                  "text_units": len(units)})
    before = usage_snapshot(llm)
    template = render("ts_map", store.workspace, context_data=_SLOT,
                      max_length=max(50, int(params.map_answer_tokens * 0.6)),
                      language_instruction=language_instruction(params.language, question))
    reduce_fixed = render("ts_reduce", store.workspace, notes="", response_type=params.response_type,
                          language_instruction=language_instruction(params.language, question))
    map_budget, map_cap = fit_budget(llm, params.map_max_tokens, template.replace(_SLOT, "") + question,
                                     params.map_answer_tokens)
    red_budget, red_cap = fit_budget(llm, params.reduce_max_tokens, reduce_fixed + question, params.answer_tokens)
    params = dataclasses.replace(params, map_max_tokens=map_budget, map_answer_tokens=map_cap,
                                 reduce_max_tokens=red_budget, answer_tokens=red_cap)
    packed = unit_batches(units, params.map_max_tokens, params.map_max_reports or 0)
    t1 = time.perf_counter()
    if llm is None:
        result.batches = [_map_offline(question, i, p) for i, p in enumerate(packed)]
    else:
        with ThreadPoolExecutor(max_workers=params.concurrency, thread_name_prefix="ts-map") as pool:
            result.batches = list(pool.map(
                lambda ip: map_batch(llm, question, ip[0], ip[1], params, template, attribute=False),
                enumerate(packed)))
    for b in result.batches:
        if on_batch is not None:
            on_batch(b)
    t2 = time.perf_counter()
    _reduce(store, llm, result, params)
    t3 = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer else []
    result.usage = usage_delta(before, llm)
    result.timings = {"prepare": round(t1 - t0, 4), "map": round(t2 - t1, 4), "reduce": round(t3 - t2, 4),
                      "total": round(time.perf_counter() - t0, 4)}
    if record:
        save_trace(store, result)
    return result


def _ids(p: Packed) -> list[int]:
    return [int(r["human_readable_id"]) for r in p.records]


def _map_offline(question: str, i: int, p: Packed) -> MapBatch:
    q = set(offline.terms(question))
    bm = offline.BM25([offline.terms(r.get("text") or "") for r in p.records])
    points = []
    for k, r in enumerate(p.records):
        score = int(round(min(100.0, 100.0 * bm.coverage(list(q), k))))
        if score <= 0:
            continue
        text = offline.best_sentences(r.get("text") or "", q, 80)
        if text:
            points.append(Point(description=offline.cite(offline.disarm(text), {"Sources": [int(r["human_readable_id"])]}),
                                score=score, batch=i))
    points.sort(key=lambda pt: -pt.score)
    raw = json.dumps({"points": [{"description": pt.description, "score": pt.score} for pt in points]})
    return MapBatch(batch=i, report_ids=_ids(p), context_tokens=p.tokens, raw_output=raw, points=points)


def _reduce(store: Store, llm, result: SearchResult, params: GlobalParams) -> None:
    ranked = sorted((p for b in result.batches for p in b.points if p.score > 0), key=lambda p: -p.score)
    selected, cut, text, tokens = pack_points(ranked, params.reduce_max_tokens)
    result.reduce = {"selected": selected, "cut": cut, "context_text": text, "tokens": tokens,
                     "budget": params.reduce_max_tokens}
    if not ranked:
        result.no_data = True
        failed = len(result.failed_batches)
        if result.batches and failed == len(result.batches):
            result.error = f"all {failed} map batches failed"
        result.answer = offline.no_data_answer(result.question, "no passage of the source text is relevant to it")
        return
    if llm is None:
        result.answer = offline.extractive_reduce(selected, params.answer_tokens)
        return
    system = render("ts_reduce", store.workspace, notes=text, response_type=params.response_type,
                    language_instruction=language_instruction(params.language, result.question))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": result.question}]
    reduce_answer(llm, messages, params.answer_tokens, result)

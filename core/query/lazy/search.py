"""Lazy search, the whole (see the package docstring): refine -> match (rounds of relevance
tests, all subqueries' tests of a round in flight together) -> map (claims calls in parallel) ->
reduce (one answer call). With llm=None every step runs offline: lexical relevance tests,
extracted sentences as claims, an extractive answer keeping the references.

The budget is a hard limit on relevance tests; the trace (SearchResult.lazy) holds the
subqueries, every community visited in order, every test with its yes/no, the claims and which
entered the reduce, and calls, tokens and seconds per phase.
"""
from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from core.errors import UserError
from core.llm.client import LLM, FatalLLMError, LLMError
from core.prompts import render
from core.query import offline_answer as offline
from core.query.attribution import attribute_sentences
from core.query.budget import fit_budget
from core.query.context import language_instruction
from core.query.lazy import claims as cl
from core.query.lazy.match import Pick, SubqueryMatch, load_hierarchy, split_budget
from core.query.lazy.params import LazyParams
from core.query.lazy.refine import refine, refined_text
from core.query.lazy.trace import Claim, LazyTrace, Test
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.query.types import SearchResult
from core.query.unit_rank import UnitIndex, passage
from core.store.db import Store

STAGES = {"refine": "lazy_refine", "relevance": "lazy_relevance", "claims": "lazy_claims",
          "reduce": "lazy_reduce"}
OFFLINE_THRESHOLD = 0.3
OFFLINE_SHARE = 0.5
"""Offline, a passage is relevant when it holds this share of the subquery's idf weight
(OFFLINE_THRESHOLD), or this share of its distinct words (OFFLINE_SHARE: words every passage
uses, such as a place the corpus is about, weigh little but still say what a passage is about)."""
YES = ("yes", "y", "true", "relevant", "是", "有")


def lazy_search(store: Store, question: str, params: LazyParams | None = None, llm: LLM | None = None,
                relevance_llm: LLM | None = None, record: bool = True) -> SearchResult:
    """Answer a question with lazy search. llm=None: offline. relevance_llm: the model for the
    relevance tests (default: llm)."""
    question = (question or "").strip()
    if not question:
        raise UserError("the question is empty")
    params = params or LazyParams()
    if params.budget < 1:
        raise UserError("the relevance-test budget must be at least 1")
    if params.concurrency < 1:
        raise UserError("concurrency must be at least 1")
    if store.count("text_units") == 0:
        raise UserError("this workspace has no text units yet: index a corpus first")
    tester = relevance_llm if (relevance_llm is not None and llm is not None) else llm
    result = SearchResult(method="lazy", question=question, engine="offline" if llm is None else "llm",
                          model=None if llm is None else llm.model, params=dataclasses.asdict(params))
    trace = LazyTrace(relevance_model=None if tester is None else tester.model)
    before = usage_snapshot(llm)
    before_t = usage_snapshot(tester) if tester is not llm else None
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()

    subs, trace.expanded_question, note = refine(store, question, params, llm)
    if note:
        result.params["refine_note"] = note
    seconds["refine"] = time.perf_counter() - t0

    t = time.perf_counter()
    index = UnitIndex(store, llm)
    trace.ranking = index.method
    hierarchy = load_hierarchy(store, [u["id"] for u in index.units])
    for s, b in zip(subs, split_budget(params.budget, len(subs))):
        s.budget = b
    matches = [SubqueryMatch(s, index.rank(refined_text(s)), hierarchy, params) for s in subs]
    pool = ThreadPoolExecutor(max_workers=params.concurrency, thread_name_prefix="lazy")
    try:
        _match(matches, index, params, tester, store, pool, trace)
        seconds["relevance"] = time.perf_counter() - t
        t = time.perf_counter()
        relevant = {m.sub.index: [(index.by_id[u], c) for u, c in m.relevant] for m in matches}
        groups, skipped = cl.plan_map(subs, relevant, params)
        trace.reduce["map_units_unread"] = skipped
        found = _map(store, llm, groups, params, pool, trace, index)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    seconds["claims"] = time.perf_counter() - t
    trace.subqueries = subs
    trace.visits = [v for m in matches for v in m.visits]

    t = time.perf_counter()
    _reduce(store, llm, result, trace, found, params)
    seconds["reduce"] = time.perf_counter() - t
    t = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer and not result.no_data else []
    seconds["citations"] = time.perf_counter() - t

    result.usage = _merged(usage_delta(before, llm), usage_delta(before_t, tester) if before_t is not None else None)
    trace.phases = _phases(result.usage, seconds, trace)
    result.timings = {k: round(v, 4) for k, v in seconds.items()}
    result.timings["total"] = round(time.perf_counter() - t0, 4)
    result.lazy = trace.to_dict()
    if record:
        save_trace(store, result)
    return result


# ------------------------------------------------------------------------------ match

def _match(matches: list[SubqueryMatch], index: UnitIndex, params: LazyParams, tester: LLM | None,
           store: Store, pool: ThreadPoolExecutor, trace: LazyTrace) -> None:
    while True:
        active = [m for m in matches if not m.done]
        shares = split_budget(params.concurrency, len(active))  # one wave of calls per round
        planned = {m.sub.index: m.plan(n) for m, n in zip(active, shares)}
        room = params.concurrency - sum(len(p.units) for ps in planned.values() for p in ps)
        for m in active:  # the share a subquery could not use goes to those its share cut short
            have = len(planned[m.sub.index])
            if room <= 0:
                break
            if not m.done and have < max(1, params.z):
                more = m.plan(room, max(1, params.z) - have)
                planned[m.sub.index] += more
                room -= sum(len(p.units) for p in more)
        plans = [(m, planned[m.sub.index]) for m in active if planned.get(m.sub.index)]
        if not plans:
            return
        jobs = [(m, pick, u) for m, picks in plans for pick in picks for u in pick.units]
        trace.rounds.append(len(jobs))
        if tester is None:
            tests = [_offline_test(index, m, pick, u) for m, pick, u in jobs]
        else:
            futures = [pool.submit(_test, tester, store.workspace, m, pick, u, params) for m, pick, u in jobs]
            tests = [f.result() for f in futures]
        trace.tests += tests
        for m, picks in plans:
            m.settle(picks, [t for t in tests if t.subquery == m.sub.index])


def _test(llm: LLM, workspace: Any, m: SubqueryMatch, pick: Pick, unit: dict, params: LazyParams) -> Test:
    text = passage(unit.get("text") or "", m.sub.text, params.passage_tokens)
    prompt = render("lazy_relevance", workspace, question=m.sub.text, passage=text)
    test = Test(subquery=m.sub.index, unit=int(unit["human_readable_id"]), community=pick.community,
                round=m.round, relevant=False, passage=text)
    try:
        res = llm.chat([{"role": "user", "content": prompt}], max_tokens=2, stage=STAGES["relevance"])
    except FatalLLMError:
        raise
    except LLMError as exc:
        test.answer = f"error: {exc}"
        return test
    word = (res.text or "").strip().lower().strip(".!*\"' ")
    test.answer, test.cached = (res.text or "").strip(), res.cached
    test.relevant = word.startswith(YES)
    return test


def _offline_test(index: UnitIndex, m: SubqueryMatch, pick: Pick, unit: dict) -> Test:
    q = offline.terms(m.sub.text)
    text = passage(unit.get("text") or "", m.sub.text, m.params.passage_tokens)
    weighted = index.coverage(q, text)
    share = len(set(q) & set(offline.terms(text))) / max(1, len(set(q)))
    return Test(subquery=m.sub.index, unit=int(unit["human_readable_id"]), community=pick.community,
                round=m.round, relevant=weighted >= OFFLINE_THRESHOLD or share >= OFFLINE_SHARE,
                answer=f"lexical: {share:.0%} of the words, {weighted:.0%} of their weight", passage=text)


# -------------------------------------------------------------------------------- map

def _map(store: Store, llm: LLM | None, groups: list[cl.Group], params: LazyParams,
         pool: ThreadPoolExecutor, trace: LazyTrace, index: UnitIndex) -> list[Claim]:
    if llm is None:
        done = [cl.offline_claims(g, index.coverage) for g in groups]
    else:
        done = [f.result() for f in [pool.submit(cl.claims_call, store, llm, g, params) for g in groups]]
    found: list[Claim] = []
    for claims, record in done:
        found += claims
        trace.map_calls.append(record)
    return found


# ----------------------------------------------------------------------------- reduce

def _reduce(store: Store, llm: LLM | None, result: SearchResult, trace: LazyTrace,
            found: list[Claim], params: LazyParams) -> None:
    q = result.question
    lang = language_instruction(params.language, q)
    budget, cap = params.reduce_budget(), params.answer_tokens
    if llm is not None:
        fixed = render("lazy_reduce", store.workspace, claims_data="", response_type=params.response_type,
                       language_instruction=lang) + trace.expanded_question
        budget, cap = fit_budget(llm, budget, fixed, cap)
    ranked = cl.rank_claims(found)
    selected, cut, text, tokens = cl.pack_claims(ranked, budget)
    trace.claims = ranked
    trace.reduce.update(budget=budget, tokens=tokens, context_text=text, selected=len(selected),
                        cut=len(cut))
    if not selected:
        result.no_data = True
        tested = sum(s.tests for s in trace.subqueries)
        detail = (f"none of the {tested} passages tested was relevant to it" if tested else
                  "no passage of the corpus matches its words")
        if found:
            detail = "no claim fitted the reduce budget"
        result.answer = offline.no_data_answer(q, detail if not offline.has_cjk(q) else
                                               f"测试的 {tested} 个段落都与它无关")
        return
    if llm is None:
        result.answer = _extractive(selected, cap)
        return
    system = render("lazy_reduce", store.workspace, claims_data=text, response_type=params.response_type,
                    language_instruction=lang)
    asked = trace.expanded_question or q
    messages = [{"role": "system", "content": system}, {"role": "user", "content": asked}]
    try:
        result.answer = (llm.chat(messages, max_tokens=cap, stage=STAGES["reduce"]).text or "").strip()
    except LLMError as exc:
        result.error = f"the answer call failed: {exc}"
        return
    if not result.answer:
        result.error = "the answer call returned an empty answer"
        return
    sources = [(offline.split_refs(c.text)[0], {"Sources": c.sources}) for c in selected]
    result.answer, added = attribute_sentences(result.answer, sources)
    if added:
        trace.reduce["attributed_markers"] = added


def _extractive(claims: list[Claim], answer_tokens: int, per_paragraph: int = 3,
                most: int = 8, floor: float = 0.5) -> str:
    """The best selected claims (at most `most`, none scoring under `floor` of the best), grouped
    by subquery, as paragraphs; each keeps its reference."""
    used = 0
    by_sub: dict = {}
    best = max((c.score for c in claims), default=0)
    for c in claims[:most]:
        if c.score < floor * best or (by_sub and used + c.tokens > answer_tokens):
            break
        used += c.tokens
        by_sub.setdefault(c.subquery, []).append(c.text)
    paras = []
    for texts in by_sub.values():
        paras += [offline.join_sentences(texts[i:i + per_paragraph]) for i in range(0, len(texts), per_paragraph)]
    return "\n\n".join(paras)


# ----------------------------------------------------------------------------- usage

def _merged(a: dict[str, Any], b: dict[str, Any] | None) -> dict[str, Any]:
    if not b:
        return a
    out = {k: (a.get(k, 0) + b.get(k, 0)) for k in a if k != "by_stage"}
    stages = {k: dict(v) for k, v in a.get("by_stage", {}).items()}
    for stage, counts in b.get("by_stage", {}).items():
        mine = stages.setdefault(stage, {})
        for k, v in counts.items():
            mine[k] = mine.get(k, 0) + v
    out["by_stage"] = stages
    return out


def _phases(usage: dict[str, Any], seconds: dict[str, float], trace: LazyTrace) -> dict[str, dict[str, Any]]:
    by = usage.get("by_stage", {})
    out = {}
    for phase, stage in STAGES.items():
        s = by.get(stage, {})
        out[phase] = {"llm_calls": int(s.get("llm_calls", 0)), "cache_hits": int(s.get("cache_hits", 0)),
                      "prompt_tokens": int(s.get("prompt_tokens", 0)),
                      "completion_tokens": int(s.get("completion_tokens", 0)),
                      "seconds": round(seconds.get(phase, 0.0), 4)}
    out["relevance"]["tests"] = len(trace.tests)
    out["relevance"]["relevant"] = sum(1 for t in trace.tests if t.relevant)
    out["claims"]["calls_planned"] = len(trace.map_calls)
    return out

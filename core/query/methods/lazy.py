"""Lazy search (LazyGraphRAG's query side, core/query/lazy/): subqueries, a budget of yes/no
relevance tests over the community hierarchy, claims from the relevant passages, one answer."""
from __future__ import annotations

import argparse

from core.query.methods.frame import Method, Option, pick
from core.query.methods.options import CONCURRENCY, RESPONSE_TYPE, positive


def _budget(value: str) -> int:
    from core.query.lazy.params import budget_value
    try:
        return budget_value(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _presets() -> str:
    from core.query.lazy.params import PRESETS
    return "; ".join(f"{k}: {v}" for k, v in PRESETS.items())


def run(store, question, llm, settings, options, on_batch):
    from core.query.lazy.params import LazyParams
    from core.query.lazy.search import lazy_search
    params = pick(options, LazyParams, concurrency=settings.concurrency, language=settings.language)
    tester = options.get("relevance_llm")
    if tester is None and llm is not None and params.relevance_model and params.relevance_model != llm.model:
        from core.llm.openai import make_llm
        tester = make_llm(settings.with_changes(chat_model=params.relevance_model), getattr(llm, "store", None))
    return lazy_search(store, question, params, llm, relevance_llm=tester)


def trace(result):
    from core.query.lazy.trace import LazyTrace
    return LazyTrace.from_dict(result.lazy)


def describe(result, engine: str, store=None) -> list[str]:
    t = trace(result)
    p = result.params or {}
    offline = "; offline: lexical relevance tests, extracted sentences as claims" if result.engine == "offline" else ""
    lines = [f"- lazy search ({engine}{offline}), budget {p.get('budget')} relevance tests, units ranked by {t.ranking}"
             + (f", tests by {t.relevance_model}" if t.relevance_model and t.relevance_model != result.model else "")]
    if t.expanded_question and t.expanded_question != result.question:
        lines.append(f"- expanded question: {t.expanded_question}")
    for s in t.subqueries:
        path = [f"{v.community}{'v' if v.descend else ''}" for v in t.visits if v.subquery == s.index]
        lines.append(f"- subquery {s.index + 1}: {s.text} (concepts: {', '.join(s.concepts) or 'none'}): "
                     f"{s.tests} of {s.budget} tests, {s.relevant} relevant, {s.rounds} rounds, "
                     f"stopped: {s.stopped}; communities visited: {' '.join(path) or 'none'}")
    r = t.reduce
    lines.append(f"- {len(t.map_calls)} claims calls, {len(t.claims)} claims; {r.get('selected', 0)} entered the "
                 f"answer's context ({r.get('tokens', 0)} of {r.get('budget')} tokens), {r.get('cut', 0)} cut")
    return lines


METHOD = Method(
    "lazy", "Lazy: tested passages",
    "LazyGraphRAG: subqueries, a budget of yes/no relevance tests over the community hierarchy, claims "
    "from the relevant passages, one answer", False, run,
    options=(
        Option("budget", "--budget", f"relevance tests at most (presets: {_presets()}; default 500)", _budget, "N"),
        Option("subqueries", "--subqueries", "subqueries at most (default 3)", positive, "N"),
        Option("z", "--z", "descend into sub-communities after N communities in a row gave nothing relevant "
                           "(default 3)", positive, "N"),
        Option("chunks_per_community", "--chunks-per-community",
               "text units of a community tested per round (default 2)", positive, "N"),
        Option("map_max_tokens", "--map-budget",
               "source text the claims calls read in all (default: by the budget, 2,000 / 6,000 / 12,000)",
               positive, "TOKENS"),
        Option("reduce_max_tokens", "--reduce-budget",
               "claims handed to the answer (default: by the budget, 1,500 / 4,000 / 8,000)", positive, "TOKENS"),
        Option("relevance_model", "--relevance-model",
               "a cheaper model for the relevance tests, on the same endpoint (default: the chat model)",
               metavar="NAME"),
        CONCURRENCY, RESPONSE_TYPE),
    describe=describe, trace=trace, example="What happened, who was involved, and what came of it?")

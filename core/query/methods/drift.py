"""DRIFT search (core/query/drift/): a primer over the reports most like a hypothetical answer,
rounds of local search on its follow-up questions, one reduce."""
from __future__ import annotations

from core.query.methods.frame import Control, Method, Option, pick
from core.query.methods.options import CONCURRENCY, RESPONSE_TYPE, SEED


def run(store, question, llm, settings, options, on_batch):
    from core.query.drift.search import DriftParams, drift_search
    params = pick(options, DriftParams, concurrency=settings.concurrency, language=settings.language)
    return drift_search(store, question, params, llm)


def trace(result):
    from core.query.drift.trace import DriftTrace
    return DriftTrace.from_dict((result.context or {}).get("drift"))


def describe(result, engine: str, store=None) -> list[str]:
    t = trace(result)
    p = result.params or {}
    folds = [n for n in t.nodes if n.depth == 0]
    follow = [n for n in t.nodes if n.depth > 0]
    red = t.reduce
    out = [f"- DRIFT search ({engine}): {len(t.top_reports)} reports ranked by "
           f"{t.report_ranking} read in {len(folds)} primer folds; {p.get('k_followups')} follow-ups "
           f"per round, depth {p.get('depth')} ({p.get('defaults')})"]
    for r in t.rounds:
        out.append(f"- round {r['depth']}: {r['asked']} follow-ups answered by local search"
                   + (f", {r['waiting']} left waiting" if r.get("waiting") else ""))
    for n in sorted(follow, key=lambda n: -(n.score or 0))[:3]:
        out.append(f"  - [{n.score or 0:g}] {n.query}")
    out.append(f"- reduce: {len(red.get('selected', []))} intermediate answers ({red.get('tokens', 0)} of "
               f"{red.get('budget')} tokens), {len(red.get('cut', []))} cut by the budget")
    return out


METHOD = Method(
    "drift", "DRIFT: primer and follow-ups",
    "a primer over the reports most like a hypothetical answer, then rounds of local search on its "
    "follow-up questions, then one reduce", True, run,
    options=(Option("k_followups", "--followups", "follow-up questions answered per round (default 20; 5 for a "
                                                  "small context window)", int, "K",
                    Control("int", "Follow-ups per round", 1, 50, key="k"), 20),
             Option("folds", "--folds", "primer folds (default 5; small window 2)", int,
                    control=Control("int", "Primer folds", 1, 10), default=5),
             Option("depth", "--depth", "rounds of follow-ups (default 3; small window 2)", int,
                    control=Control("int", "Depth (rounds)", 1, 5), default=3),
             CONCURRENCY, SEED, RESPONSE_TYPE),
    describe=describe, trace=trace, example="How did the spill change the city's plans for the waterfront?")

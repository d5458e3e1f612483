"""The knobs of `query --method lazy|basic` and the lines that say how their answer was made."""
from __future__ import annotations

import argparse
from typing import Any


def _budget(value: str) -> int:
    from core.query.lazy.params import budget_value
    try:
        return budget_value(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def add_arguments(q: argparse.ArgumentParser) -> None:
    from core.query.lazy.params import PRESETS
    g = q.add_argument_group("lazy search (--method lazy)")
    g.add_argument("--budget", type=_budget, metavar="N",
                   help="relevance tests at most (presets: " + "; ".join(f"{k}: {v}" for k, v in PRESETS.items())
                        + "; default 500)")
    g.add_argument("--subqueries", type=_positive, metavar="N", help="subqueries at most (default 3)")
    g.add_argument("--z", type=_positive, metavar="N",
                   help="descend into sub-communities after N communities in a row gave nothing relevant (default 3)")
    g.add_argument("--chunks-per-community", type=_positive, metavar="N",
                   help="text units of a community tested per round (default 2)")
    g.add_argument("--map-budget", type=_positive, metavar="TOKENS",
                   help="source text the claims calls read in all (default: by the budget, 2,000 / 6,000 / 12,000)")
    g.add_argument("--reduce-budget", type=_positive, metavar="TOKENS",
                   help="claims handed to the answer (default: by the budget, 1,500 / 4,000 / 8,000)")
    g.add_argument("--relevance-model", metavar="NAME",
                   help="a cheaper model for the relevance tests, on the same endpoint (default: the chat model)")
    b = q.add_argument_group("basic search (--method basic)")
    b.add_argument("--context-budget", type=_positive, metavar="TOKENS",
                   help="tokens of source text in the answer's context (default 8000)")


def options(args: argparse.Namespace) -> dict[str, Any]:
    out = {"budget": args.budget, "subqueries": args.subqueries, "z": args.z,
           "chunks_per_community": args.chunks_per_community, "relevance_model": args.relevance_model,
           "map_max_tokens": args.map_budget, "reduce_max_tokens": args.reduce_budget}
    if args.method == "basic":
        out["max_tokens"] = args.context_budget
    return {k: v for k, v in out.items() if v is not None}


def describe(result, engine: str) -> list[str]:
    if result.method == "basic":
        ctx = result.context or {}
        return [f"- basic search ({engine}): {ctx.get('ranked', 0)} text units ranked by {ctx.get('ranking')}; "
                f"{len(ctx.get('sources', []))} in the context ({(ctx.get('tokens') or {}).get('sources', 0)} of "
                f"{ctx.get('budget')} tokens), {len(ctx.get('cut', []))} cut by the budget"]
    from core.query.lazy.trace import LazyTrace
    t = LazyTrace.from_dict(result.lazy)
    p = result.params or {}
    lines = [f"- lazy search ({engine}{'; offline: lexical relevance tests, extracted sentences as claims' if result.engine == 'offline' else ''}), "
             f"budget {p.get('budget')} relevance tests, units ranked by {t.ranking}"
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

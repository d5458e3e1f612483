"""`sensemaker query` (ask a global or local question) and `sensemaker traces` (the stored ones)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    q = sub.add_parser("query", help="ask a global (whole corpus) or local (named entities) question")
    q.add_argument("question", nargs="?", help="the question (omit with --trace)")
    q.add_argument("--workspace", "-w", required=True, help="workspace folder")
    from core.query.methods import METHODS
    q.add_argument("--method", "-m", choices=list(METHODS), default="global",
                   help="; ".join(f"{m.name}: {m.summary}" for m in METHODS.values()))
    q.add_argument("--engine", choices=["offline", "llm"], help="default: llm when an endpoint or key is set")
    q.add_argument("--level", type=int, help="community level for global search: its communities and the "
                                             "leaves above it (default 1, else 0)")
    q.add_argument("--seed", type=int, help="shuffle seed of the map batches (default: random, recorded)")
    q.add_argument("--rating-threshold", type=float, default=0.0,
                   help="leave out reports rated below this (global; a common setting is 5)")
    q.add_argument("--concurrency", type=int, help="map calls in flight (default: the setting)")
    q.add_argument("--reports-per-map", type=_per_map, metavar="N|auto",
                   help="at most N reports in one map call (global; 0: as many as the map budget holds; "
                        "auto: 1 for a model with a context window of 8,192 tokens or less, else 0; "
                        "default: the setting map_max_reports, SENSEMAKER_MAP_REPORTS, else auto)")
    q.add_argument("--response-type", default="multiple paragraphs",
                   help="the answer's form, as told to the model (default: multiple paragraphs)")
    from core.cli.query_lazy import add_arguments as add_lazy_arguments
    add_lazy_arguments(q)
    q.add_argument("--followups", type=int, dest="k_followups", metavar="K",
                   help="DRIFT: follow-up questions answered per round (default 20; 5 for a small context window)")
    q.add_argument("--folds", type=int, help="DRIFT: primer folds (default 5; small window 2)")
    q.add_argument("--depth", type=int, help="DRIFT: rounds of follow-ups (default 3; small window 2)")
    q.add_argument("--trace", help="show a stored query again (its id or number) instead of asking")
    q.add_argument("--json", action="store_true", help="print the whole result as one JSON object")
    q.set_defaults(func=cmd_query)

    t = sub.add_parser("traces", help="list the stored queries of a workspace, newest first")
    t.add_argument("--workspace", "-w", required=True, help="workspace folder")
    t.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    t.set_defaults(func=cmd_traces)


_AUTO = "auto"


def _per_map(value: str) -> int | str:
    if value.strip().lower() == _AUTO:
        return _AUTO
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of reports or 'auto', not {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("reports per map call must be 0 or more (0: as many as fit)")
    return n


def _open(workspace: str):
    from core.store.db import DB_FILE, Store
    path = Path(workspace)
    if not (path / DB_FILE).exists():
        raise UserError(f"no workspace at {path} (index some documents into it first)")
    return Store(path)


def _llm(args, store):
    from core.settings import load_settings
    settings = load_settings(args.workspace, engine=args.engine)
    if settings.resolved_engine != "llm":
        return None, settings
    if not (settings.llm_base_url or settings.api_key):
        raise UserError("the llm engine needs an endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL "
                        "(a local OpenAI-compatible server), or use --engine offline")
    from core.llm.openai import make_llm
    return make_llm(settings, store), settings


def cmd_query(args) -> int:
    from core.query.traces import load_trace
    store = _open(args.workspace)
    if args.trace:
        result = load_trace(store, args.trace)
    else:
        if not (args.question or "").strip():
            raise UserError("give a question, or --trace ID to show a stored one")
        result = run_query(args, store)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, default=str))
    else:
        print(render_text(result, store))
    if result.error and not result.answer:
        print(f"error: {result.error}", file=sys.stderr)
        return 1
    return 0


def run_query(args, store):
    from core.query.methods import run_method
    llm, settings = _llm(args, store)
    options = dict(level=args.level, seed=args.seed, rating_threshold=args.rating_threshold,
                   concurrency=args.concurrency, response_type=args.response_type,
                   k_followups=args.k_followups, folds=args.folds, depth=args.depth)
    if args.reports_per_map is not None:
        options["map_max_reports"] = None if args.reports_per_map == _AUTO else args.reports_per_map
    from core.cli.query_lazy import options as lazy_options
    options.update(lazy_options(args))
    return run_method(args.method, store, args.question, llm, settings, options,
                      on_batch=_progress(args))


def _progress(args):
    if args.json or not sys.stderr.isatty():
        return None
    done = []

    def on_batch(batch) -> None:
        done.append(batch)
        state = "failed" if batch.error else f"{len(batch.points)} points"
        sys.stderr.write(f"\rmap: {len(done)} batches done (batch {batch.batch}: {state})   ")
        sys.stderr.flush()
    return on_batch


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else ("es" if word.endswith("ch") else "s"))


def render_text(result, store=None) -> str:
    """The answer, then a short account of how it was made."""
    lines = [result.answer or "(no answer)", "", "How it was made:"]
    engine = "offline engine, no language model" if result.engine == "offline" else f"model {result.model}"
    from core.cli.method_text import method_lines, route_line
    lines += route_line(result)
    special = method_lines(result, engine)
    if special is not None:
        lines += special
    elif result.method == "global":
        p = result.params
        lines.append(f"- global search over level {result.level} ({engine}), seed {p.get('seed')}: "
                     f"{p.get('reports_eligible', 0)} of {p.get('reports_at_level', 0)} reports "
                     + (f"({p['reports_from_levels_above']} of them leaves of the levels above) "
                        if p.get("reports_from_levels_above") else "")
                     + f"(rated {p.get('rating_threshold', 0):g} or more) in {_n(len(result.batches), 'batch')}")
        for b in result.failed_batches:
            lines.append(f"- batch {b.batch} FAILED (reports {', '.join(map(str, b.report_ids))}): {b.error}")
        sel, cut = result.reduce.get("selected", []), result.reduce.get("cut", [])
        lines.append(f"- {_n(len(sel) + len(cut), 'point')} scored above 0; {len(sel)} went into the "
                     f"reduce context ({result.reduce.get('tokens', 0)} of "
                     f"{result.reduce.get('budget', p.get('reduce_max_tokens'))} tokens), "
                     f"{len(cut)} cut by the budget")
    elif result.method in ("lazy", "basic"):
        from core.cli.query_lazy import describe
        lines += describe(result, engine)
    else:
        ctx = result.context
        names = []
        for hrid in ctx.get("entry_entities", []):
            row = store.by_hrid("entities", hrid) if store is not None else None
            names.append(row["title"] if row else str(hrid))
        lines.append(f"- local search ({engine}); entry entities found by {ctx.get('entry_method')}: "
                     f"{', '.join(names) or 'none'}")
        tokens = ctx.get("tokens", {})
        kinds = ", ".join(f"{len(ctx.get(k, []))} {k}" for k in
                          ("sources", "reports", "entities", "relationships", "claims"))
        lines.append(f"- context: {kinds} ({sum(tokens.values())} of "
                     f"{result.params.get('max_tokens')} tokens)")
    u = result.usage or {}
    if result.engine == "llm":
        stages = ", ".join(f"{s} {int(v.get('llm_calls', 0))}" for s, v in u.get("by_stage", {}).items())
        lines.append(f"- {_n(int(u.get('llm_calls', 0)), 'LLM call')} ({stages or 'none'}), "
                     f"{u.get('prompt_tokens', 0)} prompt + {u.get('completion_tokens', 0)} completion "
                     f"tokens, {_n(int(u.get('cache_hits', 0)), 'cache hit')}")
    cites = result.citations
    if cites:
        dangling = sum(1 for c in cites if c.get("dangling"))
        verdicts = [((c.get("support") or {}).get("verdict")) for c in cites]
        judged = ", ".join(f"{verdicts.count(v)} {v}" for v in
                           ("supported", "partial", "unsupported", "contradicted", "fabricated"))
        lines.append(f"- {_n(len(cites), 'reference')}: {dangling} dangling; by their sources: {judged}")
    lines.append(f"- {result.timings.get('total', 0):.2f} s; trace {result.trace_id}")
    if result.error:
        lines.append(f"- error: {result.error}")
    return "\n".join(lines)


def cmd_traces(args) -> int:
    from core.query.traces import list_traces
    rows = list_traces(_open(args.workspace), args.limit)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, default=str))
        return 0
    for r in rows:
        print(f"{r['number']:>4}  {r['created_at']}  {r['method']:<6}  {r['question'][:70]}  ({r['id']})")
    if not rows:
        print("no stored queries")
    return 0

"""`sensemaker query` (ask a global or local question) and `sensemaker traces` (the stored ones)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import UserError
from core.textutil import counted


COMMON = ("question", "workspace", "method", "engine", "trace", "json", "help")


def _query_parser(method: str | None, prog: str = "sensemaker query") -> argparse.ArgumentParser:
    """`query`'s options: the common ones, then those of one method (all methods' for None)."""
    from core.query.methods import METHODS
    q = argparse.ArgumentParser(prog=prog, add_help=False,
                                description="ask a question of a workspace with one of the search methods")
    _common(q)
    for m in ([METHODS[method]] if method in METHODS else METHODS.values()):
        if m.accepts_any_option:
            continue
        g = q.add_argument_group(f"--method {m.name}: {m.summary}")
        for o in m.options:
            if not any(o.flag in a.option_strings for a in q._actions):
                o.add_to(g)
    if method == "auto":
        q.epilog = "auto passes every other method's options on to the method it chooses."
    return q


def _common(q: argparse.ArgumentParser) -> None:
    from core.query.methods import METHODS
    q.add_argument("question", nargs="?", help="the question (omit with --trace)")
    q.add_argument("--workspace", "-w", help="workspace folder (required)")
    q.add_argument("--method", "-m", choices=list(METHODS), default="auto",
                   help="; ".join(f"{m.name}: {m.summary}" for m in METHODS.values())
                        + ". Default auto, as in the app. 'query --method NAME --help' lists that method's options")
    q.add_argument("--engine", choices=["offline", "llm"],
                   help="who answers: default the model whenever an endpoint or key is set (a workspace "
                        "indexed offline too), else the offline engine")
    q.add_argument("--trace", help="show a stored query again (its id or number) instead of asking")
    q.add_argument("--json", action="store_true", help="print the whole result as one JSON object")
    q.add_argument("-h", "--help", action="store_true", help="show the options (of --method's method) and exit")


def register(sub: argparse._SubParsersAction) -> None:
    full = _query_parser(None)
    q = sub.add_parser("query", help="ask a global (whole corpus) or local (named entities) question",
                       parents=[full], add_help=False, description=full.description)
    q.set_defaults(func=cmd_query)

    t = sub.add_parser("traces", help="list the stored queries of a workspace, newest first")
    t.add_argument("--workspace", "-w", required=True, help="workspace folder")
    t.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    t.set_defaults(func=cmd_traces)


def _method_options(args) -> dict:
    return {k: v for k, v in vars(args).items() if k not in COMMON and k not in ("func", "command")}


def _open(workspace: str | None):
    from core.store.backends import has_store
    if not workspace:
        raise UserError("give the workspace: --workspace W")
    path = Path(workspace)
    if not has_store(path):
        raise UserError(f"no workspace at {path} (index some documents into it first)")
    from core.cli.acting import open_store
    return open_store(path, "ask")


def _llm(args, store):
    from core.settings import load_settings
    settings = load_settings(args.workspace)
    engine = settings.query_engine(args.engine)
    if engine != "llm":
        return None, settings
    if not (settings.llm_base_url or settings.api_key):
        raise UserError("the llm engine needs an endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL "
                        "(a local OpenAI-compatible server), or use --engine offline")
    from core.llm.openai import make_llm
    return make_llm(settings, store), settings


def cmd_query(args) -> int:
    from core.query.methods import METHODS, foreign_options
    from core.query.traces import load_trace
    if args.help:
        _query_parser(args.method).print_help()
        return 0
    wrong = foreign_options(METHODS[args.method], _method_options(args), METHODS)
    if wrong:
        raise UserError("; ".join(wrong))
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
    return run_method(args.method, store, args.question, llm, settings, _method_options(args),
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


def render_text(result, store=None) -> str:
    """The answer, then a short account of how it was made: which engine answered, the method's
    own lines, usage, references and time."""
    from core.query.methods import METHODS, engine_words
    engine = engine_words(result)
    lines = [result.answer or "(no answer)", "", "How it was made:",
             f"- answered by the {engine}" if result.engine == "offline"
             else f"- answered by the {engine} ({result.engine} engine)"]
    route = (result.params or {}).get("route")
    if route:
        lines.append(f"- auto chose {route['reason']} (override with --method)")
    named = (result.context or {}).get("documents")
    if named:
        lines.append(f"- read only {', '.join(named)}, the document the question names")
    method = METHODS.get(result.method)
    if method is not None and method.describe is not None:
        lines += method.describe(result, engine, store)
    else:
        lines.append(f"- {result.method} search ({engine})")
    u = result.usage or {}
    if result.engine == "llm":
        stages = ", ".join(f"{s} {int(v.get('llm_calls', 0))}" for s, v in u.get("by_stage", {}).items())
        lines.append(f"- {counted(int(u.get('llm_calls', 0)), 'LLM call')} ({stages or 'none'}), "
                     f"{u.get('prompt_tokens', 0)} prompt + {u.get('completion_tokens', 0)} completion "
                     f"tokens, {counted(int(u.get('cache_hits', 0)), 'cache hit')}")
    cites = result.citations
    if cites:
        dangling = sum(1 for c in cites if c.get("dangling"))
        verdicts = [((c.get("support") or {}).get("verdict")) for c in cites]
        judged = ", ".join(f"{verdicts.count(v)} {v}" for v in
                           ("supported", "partial", "unsupported", "contradicted", "fabricated"))
        lines.append(f"- {counted(len(cites), 'reference')}: {dangling} dangling; by their sources: {judged}")
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

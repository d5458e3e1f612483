"""Global search: map-reduce over the community reports of one level (core/query/global_search.py)."""
from __future__ import annotations

from core.query.methods.frame import Control, Method, Option, pick
from core.query.methods.options import CONCURRENCY, RESPONSE_TYPE, SEED, per_map
from core.textutil import counted

LEVEL = Option("level", "--level", "community level: its communities and the leaves above it (default 1, else 0)",
               int, control=Control("int", "Community level", 0, 20))


def run(store, question, llm, settings, options, on_batch):
    from core.query.global_search import global_search
    from core.query.types import GlobalParams
    params = pick(options, GlobalParams, concurrency=settings.concurrency,
                  map_max_reports=settings.map_max_reports, language=settings.language)
    return global_search(store, question, params, llm, on_batch=on_batch)


def describe(result, engine: str, store=None) -> list[str]:
    p = result.params
    lines = [f"- global search over level {result.level} ({engine}), seed {p.get('seed')}: "
             f"{p.get('reports_eligible', 0)} of {p.get('reports_at_level', 0)} reports "
             + (f"({p['reports_from_levels_above']} of them leaves of the levels above) "
                if p.get("reports_from_levels_above") else "")
             + f"(rated {p.get('rating_threshold', 0):g} or more) in {counted(len(result.batches), 'batch')}"]
    for b in result.failed_batches:
        lines.append(f"- batch {b.batch} FAILED (reports {', '.join(map(str, b.report_ids))}): {b.error}")
    sel, cut = result.reduce.get("selected", []), result.reduce.get("cut", [])
    lines.append(f"- {counted(len(sel) + len(cut), 'point')} scored above 0; {len(sel)} went into the "
                 f"reduce context ({result.reduce.get('tokens', 0)} of "
                 f"{result.reduce.get('budget', p.get('reduce_max_tokens'))} tokens), "
                 f"{len(cut)} cut by the budget")
    return lines


METHOD = Method(
    "global", "Global: the corpus as a whole", "map-reduce over the community reports of one level", True, run,
    options=(LEVEL, SEED,
             Option("rating_threshold", "--rating-threshold",
                    "leave out reports rated below this (a common setting is 5)", float,
                    control=Control("float", "Minimum report rating", 0.0, 10.0, 0.5)),
             CONCURRENCY,
             Option("map_max_reports", "--reports-per-map",
                    "at most N reports in one map call (0: as many as the map budget holds; auto: 1 for a "
                    "model with a context window of 8,192 tokens or less, else 0; default: the setting "
                    "map_max_reports, SENSEMAKER_MAP_REPORTS, else auto)", per_map, "N|auto"),
             RESPONSE_TYPE),
    describe=describe, example="What are the main themes in these documents?")

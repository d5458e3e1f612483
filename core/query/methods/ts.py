"""TS: global map-reduce over shuffled source passages instead of reports (the paper's TS
baseline, core/query/ts_search.py)."""
from __future__ import annotations

from core.query.methods.frame import Control, Method, Option, pick
from core.query.methods.options import CONCURRENCY, RESPONSE_TYPE, SEED, positive


def run(store, question, llm, settings, options, on_batch):
    from core.query.ts_search import ts_search
    from core.query.types import GlobalParams
    options = {k: v for k, v in options.items() if k != "level"}
    params = pick(options, GlobalParams, concurrency=settings.concurrency, language=settings.language)
    return ts_search(store, question, params, llm, on_batch=on_batch)


def describe(result, engine: str, store=None) -> list[str]:
    p = result.params or {}
    sel, cut = result.reduce.get("selected", []), result.reduce.get("cut", [])
    return [f"- TS: map-reduce over {p.get('text_units', 0)} source passages ({engine}), seed {p.get('seed')}, "
            f"in {len(result.batches)} batches ({len(result.failed_batches)} failed)",
            f"- {len(sel) + len(cut)} points scored above 0; {len(sel)} went into the reduce context "
            f"({result.reduce.get('tokens', 0)} of {result.reduce.get('budget')} tokens), {len(cut)} cut"]


METHOD = Method("ts", "TS: map-reduce over the text",
                "global map-reduce over shuffled source passages instead of reports (the paper's TS baseline)",
                False, run,
                options=(Option("map_max_tokens", "--map-budget", "tokens of source passages in one map call "
                                "(default 8000)", positive, "TOKENS",
                                Control("int", "Map context budget (tokens)", 500, 64000, 500, key="map"), 8000),
                         Option("reduce_max_tokens", "--reduce-budget", "points handed to the answer, in tokens "
                                "(default 12000)", positive, "TOKENS",
                                Control("int", "Reduce context budget (tokens)", 500, 128000, 500, key="reduce"),
                                12000),
                         SEED, CONCURRENCY, RESPONSE_TYPE),
                describe=describe,
                example="What are the main themes in these documents?")

"""A global query on the indexed Christmas Carol against the simulated OpenAI endpoint (real HTTP,
fixed latency) at concurrency 16. Reports wall time / ideal, where ideal = (ceil(batches / 16) + 1)
rounds x latency (all map rounds, then the reduce call). Target (issue 3): at most 1.2.

    .venv/bin/python bench/global_query.py [--latency 0.1] [--concurrency 16]

The Christmas Carol is indexed offline into a temporary workspace (when the corpus folder is
missing, 60 synthetic reports are written instead). Two runs: the default map budget (8000 tokens)
at the level with the most reports, and a small budget (1200 tokens) that makes more batches than
the concurrency, so that more than one map round is measured. The model's answers come from the
prompt (one point per report in the batch), so parsing, packing and citations all do real work.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import tempfile
import time
from pathlib import Path

from _common import CORPORA, write_result

from core.llm_openai import make_llm
from core.query.global_search import global_search, report_levels
from core.query.types import GlobalParams
from core.settings import Settings
from core.store import Store
from tests.openai_server import FakeOpenAIServer


def respond(messages: list[dict], request: dict) -> str:
    system = messages[0]["content"]
    if "---Analyst reports---" in system:
        ids = sorted({int(i) for i in re.findall(r"Reports \((\d+)", system)})[:5]
        return f"The story turns on Scrooge's change of heart [Data: Reports ({', '.join(map(str, ids))})]."
    table = system.split("---Data table---", 1)[-1]
    ids = [int(i) for i in re.findall(r"^(\d+)\|", table, re.M)]
    return json.dumps({"points": [{"description": f"Report {i} bears on the question [Data: Reports ({i})]",
                                   "score": 10 + (i * 37) % 90} for i in ids]})


def indexed_store(tmp: Path) -> tuple[Store, str]:
    src = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
    store = Store(tmp / "ws")
    try:
        from core.index.pipeline import run_index
        from core.ingest import ingest_paths
    except ImportError:
        src = None
    if src is not None and src.exists():
        ingest_paths(store, [src], max_bytes=50_000_000)
        run_index(store, Settings(engine="offline"))
        return store, src.name
    store.insert("community_reports", [
        {"id": f"rep-{i}", "human_readable_id": i, "community": i, "level": 0, "title": f"Community {i}",
         "summary": "Scrooge and the spirits of Christmas. " * 20, "rating": 5.0, "rank": 5.0,
         "findings": [{"summary": f"Finding {k}", "explanation": "A long explanation of the finding. " * 15}
                      for k in range(5)]} for i in range(60)])
    return store, "60 synthetic reports"


def run(store: Store, llm, latency: float, concurrency: int, level: int, budget: int) -> dict:
    params = GlobalParams(level=level, seed=7, concurrency=concurrency, map_max_tokens=budget)
    t = time.perf_counter()
    result = global_search(store, "What are the main themes of the story?", params, llm, record=False)
    wall = time.perf_counter() - t
    n = len(result.batches)
    ideal = (math.ceil(n / concurrency) + 1) * latency
    return {"map_budget": budget, "batches": n, "failed_batches": len(result.failed_batches),
            "points": len(result.points), "selected": len(result.reduce["selected"]),
            "cut": len(result.reduce["cut"]), "llm_calls": result.usage["llm_calls"],
            "wall_seconds": round(wall, 3), "ideal_seconds": round(ideal, 3),
            "ratio": round(wall / ideal, 3), "timings": result.timings}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store, corpus = indexed_store(Path(tmp))
        index_seconds = time.perf_counter() - t0
        levels = report_levels(store)
        level = max(levels, key=lambda lv: (levels[lv], -lv))
        with FakeOpenAIServer(respond, latency=args.latency) as server:
            settings = server.settings(concurrency=args.concurrency, embedding_model=None)
            llm = make_llm(settings, None)  # no cache: every call goes to the endpoint
            llm.chat([{"role": "user", "content": "warm up"}], stage="warmup")  # open the connection
            runs = [run(store, llm, args.latency, args.concurrency, level, budget) for budget in (8000, 1200)]
            max_in_flight = server.max_in_flight
    result = {"corpus": corpus, "index_seconds": round(index_seconds, 2), "levels": levels, "level": level,
              "latency": args.latency, "concurrency": args.concurrency, "server_max_in_flight": max_in_flight,
              "runs": runs, "target_ratio": 1.2, "worst_ratio": max(r["ratio"] for r in runs)}
    print(f"global query on {corpus} (level {level}: {levels[level]} reports), latency "
          f"{args.latency * 1000:.0f} ms, concurrency {args.concurrency}; server saw at most "
          f"{max_in_flight} requests at once")
    for r in runs:
        print(f"  map budget {r['map_budget']:>5}: {r['batches']:>3} batches, {r['llm_calls']} calls, "
              f"wall {r['wall_seconds']:.3f} s / ideal {r['ideal_seconds']:.3f} s = {r['ratio']:.2f} "
              f"(target <= 1.2)")
    print(f"  -> {write_result('global_query', result)}")


if __name__ == "__main__":
    main()

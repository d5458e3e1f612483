"""The LLM pipeline against a local simulated OpenAI-compatible endpoint (real HTTP, every call
answered after a fixed latency) at concurrency 16: wall time over the ideal, where
ideal = LLM calls x latency / concurrency. Target (issue 2): at most 1.10.

    .venv/bin/python bench/index_llm.py [--latency 0.1] [--concurrency 16] [--fail-rate 0]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import CORPORA, ideal_seconds, peak_rss_mb, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.store.db import Store
from core.llm.openai import make_llm
from core.settings import Settings
from sim_server import SimServer
from tests.openai_server import TEST_KEY


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--fail-rate", type=float, default=0.0)
    ap.add_argument("--name", default="index_llm")
    args = ap.parse_args()
    src = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    with SimServer(args.latency, args.fail_rate) as server, tempfile.TemporaryDirectory() as tmp:
        settings = Settings(engine="llm", llm_base_url=server.url, api_key=TEST_KEY, chat_model="test-model",
                            embedding_model="test-embedding", concurrency=args.concurrency, max_retries=8)
        store = Store(Path(tmp))
        ingest_paths(store, [src], max_bytes=50_000_000)
        llm = make_llm(settings, store)  # client set-up (imports, connection pool) is not pipeline time
        t0 = time.perf_counter()
        summary = run_index(store, settings, llm=llm)
        wall = time.perf_counter() - t0
        usage = summary["usage"]
        calls = usage["llm_calls"] + usage["embedding_calls"]  # successful calls (the ideal's count)
        # the floor on this machine: the same number of bare calls, no pipeline, same client
        msgs = [{"role": "user", "content": "x " * 600}]
        t1 = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency * 2) as pool:
            list(pool.map(lambda i: llm.chat(msgs, use_cache=False), range(calls)))
        floor = time.perf_counter() - t1
    ideal = ideal_seconds(calls, args.latency, args.concurrency)
    result = {"corpus": src.name, "latency": args.latency, "concurrency": args.concurrency,
              "fail_rate": args.fail_rate, "llm_calls": calls, "wall_seconds": round(wall, 2),
              "ideal_seconds": round(ideal, 2), "ratio": round(wall / ideal, 3),
              "bare_calls_seconds": round(floor, 2), "bare_calls_ratio": round(floor / ideal, 3),
              "pipeline_over_bare_calls": round(wall / floor, 3),
              "counts": summary["counts"], "status": summary["status"], "peak_rss_mb": round(peak_rss_mb(), 1)}
    print(f"LLM index of {src.name} at concurrency {args.concurrency}, latency {args.latency * 1000:.0f} ms, "
          f"fail rate {args.fail_rate:.0%}: {calls} successful calls, wall {wall:.2f} s, "
          f"ideal {ideal:.2f} s -> ratio {wall / ideal:.3f}")
    print(f"  the same {calls} calls bare (no pipeline, same client and server): {floor:.2f} s, ratio "
          f"{floor / ideal:.3f}; pipeline / bare calls = {wall / floor:.3f}")
    c = summary["counts"]
    print(f"  status {summary['status']}: {c['entities']} entities, {c['communities']} communities, "
          f"{c['community_reports']} reports")
    print(f"  -> {write_result(args.name, result)}")


if __name__ == "__main__":
    main()

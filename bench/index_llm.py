"""The LLM pipeline against a local simulated OpenAI-compatible endpoint (real HTTP, every call
answered after a fixed latency) at concurrency 16: wall time over the ideal, where
ideal = LLM calls x latency / concurrency. Target (issue 2): at most 1.10.

    .venv/bin/python bench/index_llm.py [--latency 0.1] [--concurrency 16] [--fail-rate 0]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import CORPORA, ROOT, peak_rss_mb, write_result

from core.index.pipeline import run_index
from core.ingest import ingest_paths
from core.store import Store
from tests.fake_model import respond
from tests.openai_server import FakeOpenAIServer


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--fail-rate", type=float, default=0.0)
    ap.add_argument("--name", default="index_llm")
    args = ap.parse_args()
    src = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    with FakeOpenAIServer(lambda m, r: respond(m), latency=args.latency, fail_rate=args.fail_rate,
                          transient_faults=("500", "503", "429:0.1")) as server, \
            tempfile.TemporaryDirectory() as tmp:
        settings = server.settings(concurrency=args.concurrency, max_retries=8)
        store = Store(Path(tmp))
        ingest_paths(store, [src], max_bytes=50_000_000)
        t0 = time.perf_counter()
        summary = run_index(store, settings)
        wall = time.perf_counter() - t0
        calls = server.count()
        failed = sum(1 for c in server.calls if c.status != 200)
    ideal = calls * args.latency / args.concurrency
    ok_calls = calls - failed
    ideal_ok = ok_calls * args.latency / args.concurrency
    result = {"corpus": src.name, "latency": args.latency, "concurrency": args.concurrency,
              "fail_rate": args.fail_rate, "http_calls": calls, "failed_calls": failed,
              "llm_calls_recorded": summary["usage"]["llm_calls"], "wall_seconds": round(wall, 2),
              "ideal_seconds": round(ideal, 2), "ratio": round(wall / ideal, 3),
              "ideal_seconds_successful_calls": round(ideal_ok, 2), "ratio_to_successful_calls": round(wall / ideal_ok, 3),
              "counts": summary["counts"], "status": summary["status"], "peak_rss_mb": round(peak_rss_mb(), 1)}
    print(f"LLM index of {src.name} at concurrency {args.concurrency}, latency {args.latency * 1000:.0f} ms, "
          f"fail rate {args.fail_rate:.0%}: {calls} HTTP calls ({failed} failed), wall {wall:.2f} s, "
          f"ideal {ideal:.2f} s -> ratio {wall / ideal:.3f} (over successful calls only: {wall / ideal_ok:.3f})")
    c = summary["counts"]
    print(f"  status {summary['status']}: {c['entities']} entities, {c['communities']} communities, "
          f"{c['community_reports']} reports")
    print(f"  -> {write_result(args.name, result)}")


if __name__ == "__main__":
    main()

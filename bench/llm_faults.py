"""LLM call overhead against the ideal, with transient faults.

N chat calls go through the real client (core/llm/openai.py, its default backoff) to the local
OpenAI-compatible server (tests/openai_server.py) answering after a fixed latency, with a share
of the calls failing transiently (HTTP 500, 503, or 429 with Retry-After 0.2 s, drawn by a seeded
RNG). The client's concurrency limit is 16. Ideal wall time = calls x latency / concurrency;
the ratio wall / ideal is printed for a clean run and for the faulty run, and for a caller pool
of exactly `concurrency` threads and of twice as many (a thread backing off holds no slot, so
the larger pool keeps the slots busy). Results: bench/results/llm_faults.json.

    .venv/bin/python bench/llm_faults.py [--calls 480] [--latency 0.1] [--fail-rate 0.1]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.llm.client import LLMError  # noqa: E402
from core.llm.openai import OpenAIChatClient  # noqa: E402
from tests.openai_server import FakeOpenAIServer  # noqa: E402


def run(calls: int, latency: float, fail_rate: float, concurrency: int, pool: int,
        seed: int) -> dict:
    with FakeOpenAIServer(lambda m, r: "ok", latency=latency, fail_rate=fail_rate, seed=seed) as server:
        client = OpenAIChatClient(server.settings(concurrency=concurrency, max_retries=6,
                                                  request_timeout=30.0))
        client.complete([{"role": "user", "content": "warm-up"}])
        server.reset()
        failed = 0

        def call(i: int) -> None:
            nonlocal failed
            try:
                client.complete([{"role": "user", "content": f"question {i}"}], max_tokens=16)
            except LLMError:
                failed += 1

        t = time.monotonic()
        with ThreadPoolExecutor(pool) as executor:
            list(executor.map(call, range(calls)))
        wall = time.monotonic() - t
        requests = server.count("chat")
        faults = sum(1 for c in server.calls if c.status != 200)
        max_in_flight = server.max_in_flight
    ideal = calls * latency / concurrency
    return {"calls": calls, "latency_s": latency, "fail_rate": fail_rate,
            "concurrency": concurrency, "caller_threads": pool, "requests": requests,
            "transient_faults": faults, "failed_calls": failed, "max_in_flight": max_in_flight,
            "wall_s": round(wall, 3), "ideal_s": round(ideal, 3), "ratio": round(wall / ideal, 3)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=480)
    p.add_argument("--latency", type=float, default=0.1)
    p.add_argument("--fail-rate", type=float, default=0.1)
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "llm_faults.json"))
    args = p.parse_args(argv)
    runs = []
    for fail_rate in (0.0, args.fail_rate):
        for pool in (args.concurrency, 2 * args.concurrency):
            r = run(args.calls, args.latency, fail_rate, args.concurrency, pool, args.seed)
            runs.append(r)
            print(f"fail rate {fail_rate:.0%}, {pool} caller threads: {r['calls']} calls, "
                  f"{r['requests']} requests ({r['transient_faults']} transient faults), "
                  f"{r['failed_calls']} failed; wall {r['wall_s']:.2f} s, ideal {r['ideal_s']:.2f} s, "
                  f"ratio {r['ratio']:.3f}; max in flight {r['max_in_flight']}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"benchmark": "llm_faults", "runs": runs}, indent=2) + "\n",
                   encoding="utf-8")
    print(f"written to {out}")


if __name__ == "__main__":
    main()

"""A comparison of four methods on the GraphRAG paper's podcast corpus (offline index) against
the simulated endpoint (bench/sim_server.py: the prompt-aware fake model, judge prompts
included, a fixed latency, its own process): wall time and model calls of answering and judging
10 published questions, then the same comparison again, which must cost no call (answers use a
seed per question and every call is cached, the judge's too).

    .venv/bin/python bench/compare.py [--files 300] [--questions 10] [--latency 0.05]
        [--methods global,lazy,basic,drift] [--workspace DIR]

The index is kept in --workspace so a second run starts at the comparison; the workspace's
model cache is emptied first, so the first comparison pays for every call.
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import _common
from _common import podcast_files, write_result

from core.compare.run import CompareSpec, run_comparison
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.llm.openai import make_llm
from core.query.methods import METHODS
from core.settings import Settings
from core.store.db import Store
from sim_server import SimServer
from tests.openai_server import TEST_KEY

# the corpora sit beside the repository in /work/main and two levels up from a worktree
_common.CORPORA = next((p for p in (_common.ROOT.parent / "shared" / "corpora",
                                    _common.ROOT.parents[1] / "shared" / "corpora") if p.is_dir()), _common.CORPORA)
QUESTIONS = _common.CORPORA / "behind_the_tech_podcasts" / "kevin_scott_questions.csv"


def questions(n: int) -> list[str]:
    with open(QUESTIONS, encoding="utf-8-sig") as f:
        rows = [r["question_text"].strip() for r in csv.DictReader(f)]
    return rows[3::12][:n]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=300, help="transcript parts indexed (0: all 1,669)")
    ap.add_argument("--questions", type=int, default=10)
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--methods", default=None)
    ap.add_argument("--workspace", default="/tmp/sensemaker-bench-compare")
    args = ap.parse_args()
    methods = (args.methods.split(",") if args.methods else
               [m for m in ("global", "lazy", "basic", "drift") if m in METHODS] if "lazy" in METHODS
               else ["global", "local", "ts", "drift"])
    path = Path(args.workspace) / f"podcasts-{args.files}"
    path.mkdir(parents=True, exist_ok=True)
    store = Store(path)
    t = time.perf_counter()
    if not store.count("community_reports"):
        ingest_files(store, podcast_files(args.files), max_bytes=50_000_000)
        run_index(store, Settings(engine="offline"))
    index_s = time.perf_counter() - t
    store.db.execute("delete from llm_cache")
    store.db.conn.commit()
    qs = questions(args.questions)
    spec = CompareSpec(methods=methods, trials=2, concurrency=args.concurrency,
                       options={"k_followups": 5, "folds": 3, "depth": 2})
    runs = []
    with SimServer(latency=args.latency, quiet=True) as sim:
        settings = Settings(engine="llm", llm_base_url=sim.url, api_key=TEST_KEY, chat_model="test-model",
                            concurrency=args.concurrency, stream=False)
        for label in ("first", "rerun"):
            llm = make_llm(settings, store)
            t = time.perf_counter()
            s = run_comparison(store, qs, spec, llm, settings, llm, Path(args.workspace) / f"run-{label}")
            wall = time.perf_counter() - t
            answer_calls = sum(c["llm_calls"] for c in s["cost"].values())
            runs.append({"run": label, "wall_seconds": round(wall, 2), "answer_seconds": s["seconds"]["answers"],
                         "judge_seconds": s["seconds"]["judge"], "answer_calls": answer_calls,
                         "answer_cache_hits": sum(c["cache_hits"] for c in s["cost"].values()),
                         "judge_calls": s["judge_cost"]["llm_calls"], "judge_cache_hits": s["judge_cost"]["cache_hits"],
                         "verdicts": s["judgements"], "cost_per_method": s["cost"], "aa": s["aa"],
                         "position_bias": s["position_bias"],
                         "win_rates": [{k: w[k] for k in ("a", "b", "criterion", "rate", "low", "high", "significant")}
                                       for w in s["win_rates"]]})
            r = runs[-1]
            print(f"{label:6} wall {r['wall_seconds']:7.1f} s (answers {r['answer_seconds']:.1f} s, judge "
                  f"{r['judge_seconds']:.1f} s); model calls: answers {r['answer_calls']}, judge {r['judge_calls']}; "
                  f"from the cache: answers {r['answer_cache_hits']}, judge {r['judge_cache_hits']}; "
                  f"{r['verdicts']} verdicts")
    first = runs[0]
    for m, c in first["cost_per_method"].items():
        print(f"  {m:16} {c['llm_calls']:5} calls {c['prompt_tokens'] + c['completion_tokens']:9,} tokens "
              f"{c['seconds']:7.1f} s for {c['answers']} answers")
    print(f"  A/A: {first['aa']['message']}")
    out = write_result("compare", {"corpus": f"behind_the_tech_podcasts, first {args.files or 'all'} parts",
                                   "index_seconds": round(index_s, 1), "questions": qs, "methods": methods,
                                   "latency": args.latency, "concurrency": args.concurrency,
                                   "drift_options": spec.options, "runs": runs})
    print(f"written to {out}")


if __name__ == "__main__":
    main()

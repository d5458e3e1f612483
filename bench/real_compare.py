"""Global, lazy (budget 100) and basic search on Operation Dulce with the real small model, judged
pairwise by the same model (issues 20 and 21). A benchmark only, not part of `make test`.

    .venv/bin/python bench/real_compare.py --url http://127.0.0.1:8791/v1 [--model qwen] [--trials 1]

The index is the offline engine's (NLP only, as LazyGraphRAG's); the model answers and judges.
The judge sees each pair in both orders (--trials per order) on comprehensiveness, diversity,
empowerment and directness; the A/A check judges basic against a second run of itself.
Prints per question and method: seconds, calls, prompt/completion tokens, the agents the answer
names and its first 400 characters; then every verdict with the judge's reason, the win rates
and the A/A result (bench/results/real_compare.json, answers and judgements in --out).
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from _common import CORPORA, write_result

from core.compare.run import CompareSpec, run_comparison
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.openai import make_llm
from core.settings import Settings
from core.store.db import Store

AGENTS = ("MERCER", "CRUZ", "HAYES", "RIVERA")
QUESTIONS = ["Which agents go into the Dulce base together?",
             "What is Operation Dulce about and who are the main people involved?"]


def named(answer: str) -> list[str]:
    return [a.title() for a in AGENTS if a in (answer or "").upper()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True, help="the model server's OpenAI-compatible base URL")
    ap.add_argument("--model", default="qwen")
    ap.add_argument("--trials", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--workspace", default="/tmp/sensemaker-real-compare")
    ap.add_argument("--out", default="/tmp/sensemaker-real-compare-run")
    args = ap.parse_args()
    store = Store(Path(args.workspace))
    if not store.count("community_reports"):
        ingest_paths(store, [CORPORA / "operation_dulce" / "dulce.txt"], max_bytes=50_000_000)
        run_index(store, Settings(engine="offline"))
    settings = Settings(engine="llm", llm_base_url=args.url, api_key=os.environ.get("OPENAI_API_KEY", "local"),
                        chat_model=args.model, request_timeout=args.timeout)
    llm = make_llm(settings, store)
    spec = CompareSpec(methods=["global", "lazy", "basic"], trials=args.trials, aa_method="basic",
                       options={"budget": 100}, concurrency=1)
    t = time.perf_counter()
    summary = run_comparison(store, QUESTIONS, spec, llm=llm, settings=settings, judge_llm=llm,
                             out_dir=args.out, on_progress=lambda m: print(m, flush=True))
    wall = time.perf_counter() - t
    answers = [json.loads(x) for x in (Path(args.out) / "answers.jsonl").read_text().splitlines()]
    judgements = [json.loads(x) for x in (Path(args.out) / "judgements.jsonl").read_text().splitlines()]
    rows = []
    for a in answers:
        u = a.get("usage") or {}
        row = {"question": a["question"], "method": a["method"], "seconds": a.get("seconds"),
               "calls": u.get("llm_calls"), "prompt_tokens": u.get("prompt_tokens"),
               "completion_tokens": u.get("completion_tokens"), "agents_named": named(a.get("answer")),
               "verdicts": a.get("verdicts"), "error": a.get("error"), "answer": a.get("answer")}
        rows.append(row)
        print(f"\n[{row['method']}] {row['question']}\n  {row['seconds']} s, {row['calls']} calls, "
              f"{row['prompt_tokens']} prompt + {row['completion_tokens']} completion tokens; agents named "
              f"{len(row['agents_named'])}/4 {row['agents_named']}; verdicts {row['verdicts']}"
              + (f"; error: {row['error']}" if row["error"] else "")
              + f"\n  {(row['answer'] or '')[:400]!r}")
    print("\njudgements:")
    for j in judgements:
        print(f"- {j['question'][:40]}... {j['a']} vs {j['b']} ({j['order']}, trial {j['trial']}) "
              f"{j['criterion']}: {j['winner']}: {j.get('reason', '')[:200]}")
    print("\nwin rates:")
    for w in summary["win_rates"]:
        print(f"- {w}")
    print(f"\nA/A: {summary['aa']}\njudge cost: {summary['judge_cost']}\nseconds: {summary['seconds']}")
    write_result("real_compare", {"model": args.model, "url": args.url, "wall_seconds": round(wall, 1),
                                  "answers": rows, "judgements": judgements, "summary": summary})


if __name__ == "__main__":
    main()

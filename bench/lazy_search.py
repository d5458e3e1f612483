"""Lazy search against basic search and global search on the GraphRAG paper's podcast corpus
(offline index), with the simulated OpenAI endpoint (bench/sim_server.py: the prompt-aware fake
model, a fixed latency, its own process).

    .venv/bin/python bench/lazy_search.py [--files 0] [--questions 20] [--latency 0.1] [--concurrency 16]

Per question (20 of the corpus's 125 published questions, every sixth): LLM calls, prompt and
completion tokens and wall seconds for basic search, lazy search at budgets 100, 500 and 1,500,
and global search at every level with reports. No cache: every call reaches the endpoint.
Ratios (targets of issue 20): lazy-100 tokens / basic tokens (at most 2), lazy-100 tokens /
global tokens at the finest level (at most 1/10), the most relevance tests any lazy query made
against its budget (never above), and the wall time of a lazy query at concurrency 16 against
its dependency-chain ideal: one measured call round trip x (refine + for each round of tests
ceil(tests / concurrency) + ceil(claims calls / concurrency) + reduce); target at most 1.3.
The endpoint and the client share the machine's cores, so a wave of 16 calls takes longer than
one call; the ratio to the same chain costed with measured waves (k parallel calls, k = 1..16)
is reported too: it isolates what lazy search adds (planning, passages, parsing) from what the
simulated endpoint and the HTTP client cost at that concurrency.
The index is built once and kept (--workspace) so a second run starts at the queries.
"""
from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

from _common import CORPORA, podcast_files, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.llm.openai import make_llm
from core.query.basic_search import basic_search
from core.query.global_search import global_search
from core.query.levels import report_levels
from core.query.lazy.params import LazyParams
from core.query.lazy.search import lazy_search
from core.query.types import GlobalParams
from core.settings import Settings
from core.store.db import Store
from sim_server import SimServer
from tests.openai_server import TEST_KEY

QUESTIONS = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_questions.csv"


def questions(n: int) -> list[str]:
    with open(QUESTIONS, encoding="utf-8-sig") as f:
        rows = [r["question_text"].strip() for r in csv.DictReader(f)]
    return rows[::6][:n]


def index(path: Path, files: int) -> tuple[Store, float]:
    store = Store(path)
    t = time.perf_counter()
    if not store.count("community_reports"):
        ingest_files(store, podcast_files(files), max_bytes=50_000_000)
        run_index(store, Settings(engine="offline"))
    return store, time.perf_counter() - t


def usage_row(result, wall: float) -> dict:
    u = result.usage
    return {"calls": u["llm_calls"], "prompt_tokens": u["prompt_tokens"],
            "completion_tokens": u["completion_tokens"], "tokens": u["prompt_tokens"] + u["completion_tokens"],
            "wall": round(wall, 3), "no_data": result.no_data, "error": result.error,
            "references": len(result.citations),
            "unresolved": sum(1 for c in result.citations if not c["resolved"] and not c["more"]),
            "without_verdict": sum(1 for c in result.citations if c["resolved"] and not c["support"])}


def chain(result, concurrency: int) -> list[int]:
    """The dependency chain of a lazy query: the calls of each step that waits for the one
    before (refine, each round of tests, the claims calls, the reduce), split into waves of at
    most `concurrency` calls."""
    t = result.lazy
    steps = [1] + list(t["rounds"]) + ([len(t["map_calls"])] if t["map_calls"] else [])
    steps += [1] if t["phases"]["reduce"]["llm_calls"] else []
    waves = []
    for n in steps:
        waves += [concurrency] * (n // concurrency) + ([n % concurrency] if n % concurrency else [])
    return waves


def measure_waves(llm, concurrency: int) -> dict[int, float]:
    """Wall seconds of a wave of k parallel relevance-sized calls, k = 1..concurrency (median of 3)."""
    from concurrent.futures import ThreadPoolExecutor
    out = {}
    with ThreadPoolExecutor(concurrency) as pool:
        for k in range(1, concurrency + 1):
            walls = []
            for rep in range(3):
                t = time.perf_counter()
                list(pool.map(lambda i: llm.chat([{"role": "user", "content": f"Question: wave {k} {rep} {i}\n"  # noqa: B023 (mapped within this iteration)
                                                   "Passage: up\nDoes the passage help answer"}],
                                                 max_tokens=2, stage="probe"), range(k)))
                walls.append(time.perf_counter() - t)
            out[k] = statistics.median(walls)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=0, help="transcript parts indexed (0: all 1,669)")
    ap.add_argument("--questions", type=int, default=20)
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--workspace", default="/tmp/sensemaker-bench-lazy/podcasts")
    ap.add_argument("--only", help="comma-separated configurations to run (e.g. basic,lazy-100); default all; "
                                   "the ratios need basic, lazy-100 and the global levels")
    ap.add_argument("--out", default="lazy_search", help="name of the result file in bench/results/")
    args = ap.parse_args()
    ws = Path(args.workspace + (f"-{args.files}" if args.files else ""))
    store, index_seconds = index(ws, args.files)
    levels = sorted(report_levels(store))
    qs = questions(args.questions)
    print(f"index: {store.count('documents')} documents, {store.count('text_units')} text units, "
          f"{store.count('communities')} communities, reports per level "
          f"{ {lv: n for lv, n in report_levels(store).items()} } ({index_seconds:.1f} s)")
    configs = [("basic", None), *((f"lazy-{b}", b) for b in (100, 500, 1500)), *((f"global-L{lv}", lv) for lv in levels)]
    if args.only:
        keep = set(args.only.split(","))
        configs = [(n, k) for n, k in configs if n in keep]
    rows: dict[str, list[dict]] = {name: [] for name, _ in configs}
    with SimServer(args.latency, quiet=True) as server:
        settings = Settings(engine="llm", llm_base_url=server.url, api_key=TEST_KEY, chat_model="test-model",
                            concurrency=args.concurrency, max_retries=0)
        waves = measure_waves(make_llm(settings, None), args.concurrency)
        call = waves[1]
        for qi, q in enumerate(qs):
            for name, knob in configs:
                llm = make_llm(settings, None)  # no cache: every call reaches the endpoint
                t = time.perf_counter()
                if name == "basic":
                    r = basic_search(store, q, llm=llm, record=False)
                elif name.startswith("lazy"):
                    r = lazy_search(store, q, LazyParams(budget=knob, concurrency=args.concurrency), llm, record=False)
                else:
                    r = global_search(store, q, GlobalParams(level=knob, seed=7, concurrency=args.concurrency),
                                      llm, record=False)
                wall = time.perf_counter() - t
                row = usage_row(r, wall)
                if name.startswith("lazy"):
                    row["tests"] = len(r.lazy["tests"])
                    row["budget"] = knob
                    row["relevant"] = sum(x["relevant"] for x in r.lazy["tests"])
                    row["claims"] = len(r.lazy["claims"])
                    steps = chain(r, args.concurrency)
                    row["chain_waves"] = len(steps)
                    row["ideal"] = round(len(steps) * call, 3)
                    row["ratio_to_ideal"] = round(wall / row["ideal"], 3)
                    row["ideal_measured_waves"] = round(sum(waves[n] for n in steps), 3)
                    row["ratio_to_measured_waves"] = round(wall / row["ideal_measured_waves"], 3)
                    row["phases"] = r.lazy["phases"]
                rows[name].append(row)
            print(f"question {qi + 1}/{len(qs)} done", flush=True)

    def mean(name, key):
        return statistics.mean(x[key] for x in rows[name])

    table = {name: {k: round(mean(name, k), 1) for k in ("calls", "prompt_tokens", "completion_tokens", "tokens", "wall")}
             for name, _ in configs}
    names = {n for n, _ in configs}
    summary = _summary(rows, table, names, levels, waves, call, args)
    _print_and_write(args, store, qs, index_seconds, table, summary, rows)


def _summary(rows, table, names, levels, waves, call, args) -> dict:
    out: dict = {"call_seconds": round(call, 4), "wave_seconds": {k: round(v, 4) for k, v in waves.items()},
                 "latency": args.latency, "concurrency": args.concurrency,
                 "unresolved_references": sum(x["unresolved"] for n in rows for x in rows[n]),
                 "references_without_verdict": sum(x["without_verdict"] for n in rows for x in rows[n])}
    lazies = [n for n in ("lazy-100", "lazy-500", "lazy-1500") if n in names]
    if lazies:
        out["tests_over_budget_max"] = max(x["tests"] / x["budget"] for n in lazies for x in rows[n])
        out["lazy_wall_over_dependency_chain_ideal"] = {
            name: {key: {"median": round(statistics.median(x[key] for x in rows[name]), 3),
                         "max": round(max(x[key] for x in rows[name]), 3)}
                   for key in ("ratio_to_ideal", "ratio_to_measured_waves")} for name in lazies}
        out["target_ratio"] = 1.3
    if {"basic", "lazy-100"} <= names:
        per_q = [l["tokens"] / b["tokens"] for l, b in zip(rows["lazy-100"], rows["basic"]) if b["tokens"]]
        out["lazy100_over_basic_tokens"] = {"mean_of_means": round(table["lazy-100"]["tokens"] / table["basic"]["tokens"], 3),
                                            "max_per_question": round(max(per_q), 3), "target": 2.0}
    globals_ = [f"global-L{lv}" for lv in levels if f"global-L{lv}" in names]
    if globals_ and "lazy-100" in names:
        finest = globals_[-1]
        costliest = max(globals_, key=lambda n: table[n]["tokens"])
        per_q = [l["tokens"] / g["tokens"] for l, g in zip(rows["lazy-100"], rows[finest]) if g["tokens"]]
        out["lazy100_over_finest_global_tokens"] = {
            "mean_of_means": round(table["lazy-100"]["tokens"] / table[finest]["tokens"], 4),
            "max_per_question": round(max(per_q), 4), "target": 0.1, "finest_level": finest}
        out["lazy100_over_costliest_global_tokens"] = {
            "mean_of_means": round(table["lazy-100"]["tokens"] / table[costliest]["tokens"], 4),
            "level": costliest, "note": "a level reads its communities and the leaves above it "
                                        "(core/query/levels.py), so the finest level covers the whole graph"}
    return out


def _print_and_write(args, store, qs, index_seconds, table, summary, rows) -> None:
    print(f"\n{'method':<12}{'calls':>9}{'prompt':>11}{'completion':>12}{'tokens':>10}{'wall s':>9}")
    for name, t in table.items():
        print(f"{name:<12}{t['calls']:>9}{t['prompt_tokens']:>11}{t['completion_tokens']:>12}{t['tokens']:>10}{t['wall']:>9}")
    print()
    for k, v in summary.items():
        print(f"{k}: {v}")
    path = write_result(args.out, {
        "corpus": "behind_the_tech_podcasts (offline index)", "files": args.files or "all",
        "documents": store.count("documents"), "text_units": store.count("text_units"),
        "reports_per_level": report_levels(store), "questions": qs, "index_seconds": round(index_seconds, 1),
        "means_per_question": table, "summary": summary, "per_question": rows})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

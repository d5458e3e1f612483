"""Many analysts on a team server (issue 36): 20 sessions ask global, local and lazy questions
(answered by the model, the simulated endpoint) while the podcast corpus (1,669 parts, about 1M
tokens) is indexed by two `sensemaker worker`s, everything in one PostgreSQL. Printed, from one
run: each answer's time against one analyst alone on an idle server (p50 and p95, and their
ratios), errors, answers lost (asked but not stored), and the index runs' outcome.

    SENSEMAKER_BENCH_DATABASE_URL=postgresql://sensemaker:sensemaker@localhost:5432/sensemaker_test \\
        .venv/bin/python bench/many_analysts.py [--sessions 20] [--files 0] [--latency 0.1]

The index is two workspaces of half the corpus each (one job each: a workspace's runs never run
at once, so two workers need two workspaces to share one index's work). The endpoint's
concurrency (--concurrency, 16) is held by all processes together, answers and index alike.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from _common import ROOT, podcast_files, write_result

from core.index.background import start_index
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.llm.openai import make_llm
from core.query.methods.frame import run_method
from core.settings import Settings, load_settings
from core.store.backends import drop_tables, store_at
from sim_server import SimServer
from tests.openai_server import TEST_KEY

QUESTIONS = [("global", "What are the main themes of the podcast?"),
             ("global", "How do the guests see the future of AI?"),
             ("local", "Who is Kevin Scott?"),
             ("local", "What is said about GitHub Copilot?"),
             ("lazy", "Which companies are discussed, and why?"),
             ("lazy", "What do the guests say about education?")]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ask(folder: Path, questions, out: list, errors: list) -> None:
    store = store_at(folder)
    settings = load_settings(folder, engine="llm")
    llm = make_llm(settings, store)
    for method, q in questions:
        t0 = time.perf_counter()
        try:
            res = run_method(method, store, q, llm, settings)
            out.append({"method": method, "seconds": time.perf_counter() - t0, "empty": not res.answer.strip()})
        except Exception as exc:  # counted, never hidden
            errors.append(f"{method} {q!r}: {exc.__class__.__name__}: {exc}")
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--files", type=int, default=0, help="podcast parts to index (0: all 1,669)")
    ap.add_argument("--query-files", type=int, default=200, help="parts in the workspace the analysts ask about")
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    base = os.environ.get("SENSEMAKER_BENCH_DATABASE_URL")
    if not base:
        raise SystemExit("set SENSEMAKER_BENCH_DATABASE_URL=postgresql://... (a database this bench may write)")
    import psycopg
    schema = f"bench_{uuid.uuid4().hex[:8]}"  # the queue and shared limits of this run only
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{base}{'&' if '?' in base else '?'}options=-c%20search_path%3D{schema}"
    files = podcast_files(args.files)
    tmp = Path(tempfile.mkdtemp())
    folders = {"ask": tmp / "ask", "index-a": tmp / "index-a", "index-b": tmp / "index-b"}
    workers: list[subprocess.Popen] = []
    try:
        with SimServer(args.latency, quiet=True) as server:
            server.warm_up()
            env = {"SENSEMAKER_DATABASE_URL": url, "OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": TEST_KEY,
                   "SENSEMAKER_CHAT_MODEL": "test-model", "SENSEMAKER_EMBEDDING_MODEL": "test-embedding",
                   "SENSEMAKER_CONCURRENCY": str(args.concurrency)}
            os.environ.update(env)
            # the analysts' workspace: indexed offline beforehand; its answers come from the model
            ask_store = store_at(folders["ask"])
            ingest_files(ask_store, files[:args.query_files], max_bytes=200_000_000)
            run_index(ask_store, Settings(engine="offline"))
            ask_store.close()
            alone: list[dict] = []
            errors_alone: list[str] = []
            ask(folders["ask"], QUESTIONS, alone, errors_alone)
            # the index: two workspaces, two workers
            half = len(files) // 2
            runs = {}
            for name, part in (("index-a", files[:half]), ("index-b", files[half:])):
                store = store_at(folders[name])
                ingest_files(store, part, max_bytes=200_000_000)
                runs[name] = (store, start_index(folders[name], load_settings(folders[name], engine="llm"), store=store))
            full_env = {**os.environ, **env}
            for n in ("w1", "w2"):
                workers.append(subprocess.Popen([sys.executable, "-m", "core.cli.main", "worker", "--name", n],
                                                cwd=str(ROOT), env=full_env, stdout=subprocess.DEVNULL,
                                                stderr=open(tmp / f"{n}.log", "ab")))
            t_index = time.perf_counter()
            while not all((s.get("runs", r) or {}).get("stage") in ("extract", "summarize", "reports")
                          for s, r in runs.values()):
                time.sleep(0.5)
            loaded: list[dict] = []
            errors: list[str] = []
            sessions = []
            for i in range(args.sessions):
                qs = QUESTIONS[:]
                random.Random(i).shuffle(qs)
                sessions.append(threading.Thread(target=ask, args=(folders["ask"], qs, loaded, errors)))
            t0 = time.perf_counter()
            for t in sessions:
                t.start()
            for t in sessions:
                t.join()
            t_sessions = time.perf_counter() - t0
            still = [(s.get("runs", r) or {}).get("stage") for s, r in runs.values()]
            while not all((s.get("runs", r) or {}).get("status", "") not in ("starting", "running", "cancelling")
                          for s, r in runs.values()):
                time.sleep(1)
            t_index = time.perf_counter() - t_index
            ended = {name: (s.get("runs", r) or {}).get("status") for name, (s, r) in runs.items()}
            traces = store_at(folders["ask"]).count("query_traces")
    finally:
        for p in workers:
            p.send_signal(signal.SIGTERM)
        for p in workers:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
        for f in folders.values():
            try:
                drop_tables(f, {"SENSEMAKER_DATABASE_URL": url})
            except Exception:
                pass
        with psycopg.connect(base, autocommit=True) as db:
            db.execute(f'DROP SCHEMA "{schema}" CASCADE')
    a = [r["seconds"] for r in alone]
    b = [r["seconds"] for r in loaded]
    asked = len(QUESTIONS) * (1 + args.sessions)
    result = {"sessions": args.sessions, "files_indexed": len(files), "latency": args.latency,
              "concurrency": args.concurrency,
              "alone": {"p50": statistics.median(a), "p95": pct(a, 95), "n": len(a)},
              "loaded": {"p50": statistics.median(b), "p95": pct(b, 95), "n": len(b)},
              "ratio_p50": statistics.median(b) / statistics.median(a), "ratio_p95": pct(b, 95) / pct(a, 95),
              "errors": errors_alone + errors, "empty_answers": sum(r["empty"] for r in alone + loaded),
              "answers_lost": asked - traces, "sessions_seconds": round(t_sessions, 1),
              "index_seconds": round(t_index, 1), "index_stage_when_sessions_ended": still, "index_runs": ended}
    print(f"{args.sessions} analysts x {len(QUESTIONS)} questions while {len(files)} podcast parts were indexed "
          f"on 2 workers (endpoint latency {args.latency} s, concurrency {args.concurrency} team-wide)")
    print(f"  one analyst alone: p50 {result['alone']['p50']:.2f} s, p95 {result['alone']['p95']:.2f} s")
    print(f"  {args.sessions} at once + index: p50 {result['loaded']['p50']:.2f} s (x{result['ratio_p50']:.2f}), "
          f"p95 {result['loaded']['p95']:.2f} s (x{result['ratio_p95']:.2f})")
    print(f"  errors {len(result['errors'])}, empty answers {result['empty_answers']}, answers lost "
          f"{result['answers_lost']} of {asked}; index runs {ended} in {t_index:.0f} s "
          f"(stages when the sessions ended: {still})")
    for e in result["errors"][:5]:
        print(f"    {e}")
    print(f"  -> {write_result('many_analysts', result)}")


if __name__ == "__main__":
    main()

"""Store parity (issue 36): the offline index of the podcast corpus on SQLite and on PostgreSQL,
in one run: the wall-time ratio PostgreSQL / SQLite (target <= 1.5) for ingest + index and for a
set of questions, and whether the counts and the answers are identical.

    SENSEMAKER_BENCH_DATABASE_URL=postgresql://sensemaker:sensemaker@localhost:5432/sensemaker_test \
        .venv/bin/python bench/store_parity.py [--files 300]

--files limits the corpus to its first N transcript parts (0: all 1,669, about 1M tokens).
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from _common import podcast_files, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.query.methods.frame import run_method
from core.settings import Settings
from core.store.backends import drop_tables, store_at

QUESTIONS = [("global", "What are the main themes of the podcast?"),
             ("global", "How do the guests think about the future of AI?"),
             ("local", "Who is Kevin Scott?"),
             ("local", "What does the podcast say about GitHub Copilot?"),
             ("basic", "What did the guests say about their childhood?"),
             ("lazy", "Which companies are discussed?")]


def run(folder: Path, files: list[tuple[str, bytes]]) -> dict:
    t0 = time.perf_counter()
    store = store_at(folder)
    ingest_files(store, files, max_bytes=200_000_000)
    summary = run_index(store, Settings(engine="offline"))
    t_index = time.perf_counter() - t0
    t1 = time.perf_counter()
    answers = [run_method(m, store, q).answer for m, q in QUESTIONS]
    t_ask = time.perf_counter() - t1
    counts = store.counts()
    counts.pop("query_traces", None)
    store.close()
    return {"backend": type(store).__name__, "index_seconds": round(t_index, 2), "ask_seconds": round(t_ask, 2),
            "status": summary["status"], "counts": counts, "answers": answers}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=0, help="first N transcript parts (0: all)")
    args = ap.parse_args()
    url = os.environ.get("SENSEMAKER_BENCH_DATABASE_URL") or os.environ.get("SENSEMAKER_DATABASE_URL")
    if not url:
        raise SystemExit("set SENSEMAKER_BENCH_DATABASE_URL=postgresql://... (the database the PostgreSQL run uses)")
    files = podcast_files(args.files)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.pop("SENSEMAKER_DATABASE_URL", None)
        lite = run(Path(tmp) / "sqlite", files)
        os.environ["SENSEMAKER_DATABASE_URL"] = url
        try:
            pg = run(Path(tmp) / "postgresql", files)
        finally:
            drop_tables(Path(tmp) / "postgresql")
    ratio_index = pg["index_seconds"] / lite["index_seconds"]
    ratio_ask = pg["ask_seconds"] / max(lite["ask_seconds"], 1e-9)
    same_counts = lite["counts"] == pg["counts"]
    same_answers = [a == b for a, b in zip(lite["answers"], pg["answers"])]
    print(f"podcast corpus, {len(files)} files, offline engine")
    print(f"  index: SQLite {lite['index_seconds']} s, PostgreSQL {pg['index_seconds']} s, ratio {ratio_index:.2f} (target <= 1.5)")
    print(f"  {len(QUESTIONS)} questions: SQLite {lite['ask_seconds']} s, PostgreSQL {pg['ask_seconds']} s, ratio {ratio_ask:.2f}")
    print(f"  counts identical: {same_counts}" + ("" if same_counts else f"  {lite['counts']} vs {pg['counts']}"))
    print(f"  answers identical: {sum(same_answers)}/{len(same_answers)}")
    for (m, q), same, a, b in zip(QUESTIONS, same_answers, lite["answers"], pg["answers"]):
        if not same:
            print(f"    differs: {m} {q!r}\n      SQLite:     {a[:200]!r}\n      PostgreSQL: {b[:200]!r}")
    out = write_result("store_parity", {"files": len(files), "sqlite": lite, "postgresql": pg,
                                        "ratio_index": round(ratio_index, 3), "ratio_ask": round(ratio_ask, 3),
                                        "same_counts": same_counts, "same_answers": same_answers})
    print(f"  -> {out}")


if __name__ == "__main__":
    main()

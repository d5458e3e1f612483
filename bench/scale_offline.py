"""Offline engine on the GraphRAG paper's podcast corpus (1,669 transcript parts, about 1M
tokens): wall time, peak memory and database size, per stage. Target (issue 8): under 5 minutes
and under 4 GB on the 2-core machine.

    .venv/bin/python bench/scale_offline.py [--limit N]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import peak_rss_mb, podcast_files, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.settings import Settings
from core.store.db import Store


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    args = ap.parse_args()
    files = podcast_files(args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        stages: dict[str, list[float]] = {}
        t0 = time.perf_counter()
        rep = ingest_files(store, files, max_bytes=50_000_000)
        stages["ingest"] = [0.0, time.perf_counter() - t0]

        def on_progress(p):
            t = time.perf_counter() - t0
            stages.setdefault(p.stage, [t, t])[1] = t

        summary = run_index(store, Settings(engine="offline"), on_progress=on_progress)
        wall = time.perf_counter() - t0
        db = sum(f.stat().st_size for f in Path(tmp).glob("sensemaker.db*")) / 1e6
        tokens = store.db.conn.execute("select sum(n_tokens) from documents").fetchone()[0]
    per_stage = {k: round(v[1] - v[0], 2) for k, v in stages.items()}
    result = {"files": len(files), "documents": len(rep.added), "tokens": tokens, "wall_seconds": round(wall, 1),
              "stage_seconds": per_stage, "peak_rss_mb": round(peak_rss_mb(), 1), "db_mb": round(db, 1),
              "counts": summary["counts"], "target_seconds": 300, "ratio_to_target": round(wall / 300, 3),
              "target_memory_mb": 4096}
    print(f"offline index of {len(files)} podcast files ({tokens:,} tokens): {wall:.1f} s "
          f"(target 300 s, ratio {wall / 300:.2f}), peak RSS {result['peak_rss_mb']:.0f} MB, db {db:.0f} MB")
    print(f"  stages (s): {per_stage}")
    c = summary["counts"]
    print(f"  {c['text_units']} units, {c['entities']} entities, {c['relationships']} relationships, "
          f"{c['communities']} communities, {c['community_reports']} reports")
    print(f"  -> {write_result('scale_offline' + (f'_{args.limit}' if args.limit else ''), result)}")


if __name__ == "__main__":
    main()

"""Offline indexing of A Christmas Carol: wall time per stage and peak memory.
Target (issue 2): under 20 s on the 2-core machine.

    .venv/bin/python bench/index_offline.py
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from _common import CORPORA, peak_rss_mb, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.settings import Settings
from core.store.db import Store


def main() -> None:
    src = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = Store(Path(tmp))
        settings = Settings(engine="offline")
        ingest_paths(store, [src], max_bytes=50_000_000)
        t_ingest = time.perf_counter() - t0
        stages: dict[str, float] = {}
        last = {"stage": None, "t": time.perf_counter()}

        def on_progress(p):
            now = time.perf_counter()
            if p.stage != last["stage"]:
                last["stage"], last["t0"] = p.stage, now
            stages[p.stage] = round(now - last["t0"], 3)

        summary = run_index(store, settings, on_progress=on_progress)
        wall = time.perf_counter() - t0
        db_mb = Path(store.path).stat().st_size / 1e6
    result = {"corpus": src.name, "wall_seconds": round(wall, 2), "ingest_seconds": round(t_ingest, 2),
              "stage_seconds": stages, "peak_rss_mb": round(peak_rss_mb(), 1), "db_mb": round(db_mb, 2),
              "counts": summary["counts"], "target_seconds": 20, "ratio_to_target": round(wall / 20, 3)}
    print(f"offline index of {src.name}: {wall:.2f} s wall (target 20 s, ratio {wall / 20:.2f}), "
          f"peak RSS {result['peak_rss_mb']} MB, db {db_mb:.1f} MB")
    print(f"  stages: {stages}")
    c = summary["counts"]
    print(f"  {c['text_units']} units, {c['entities']} entities, {c['relationships']} relationships, "
          f"{c['communities']} communities, {c['community_reports']} reports")
    print(f"  -> {write_result('index_offline', result)}")


if __name__ == "__main__":
    main()

"""Shared bits of the benchmark scripts: paths, peak memory, writing results."""
from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared/corpora beside the checkout (a git worktree sits one level deeper: look further up)
CORPORA = next((p / "shared" / "corpora" for p in ROOT.parents if (p / "shared" / "corpora").is_dir()),
               ROOT.parent / "shared" / "corpora")
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_result(name: str, data: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    return path


def ideal_seconds(calls: int, latency: float, concurrency: int) -> float:
    """The throughput bound of an LLM run: every call takes `latency` and `concurrency` are in
    flight at all times, so `calls` calls need calls x latency / concurrency seconds. A pipeline
    cannot beat it (stages that wait on each other only add to it)."""
    return calls * latency / concurrency


def podcast_files(limit: int = 0) -> list[tuple[str, bytes]]:
    """The GraphRAG paper's podcast corpus (1,669 transcript parts, about 1M tokens) as
    (name, bytes) in name order; only the first `limit` files when limit > 0."""
    import zipfile
    src = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
    with zipfile.ZipFile(src) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".txt"))
        if limit:
            names = names[:limit]
        return [(Path(n).name, z.read(n)) for n in names]

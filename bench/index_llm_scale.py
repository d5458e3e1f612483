"""The LLM pipeline at scale: the GraphRAG paper's podcast corpus (1,669 transcript parts, about
1M tokens) against the simulated OpenAI-compatible endpoint (bench/sim_server.py, its own process,
every call answered after a fixed latency) at concurrency 16. Issue 8.

    .venv/bin/python bench/index_llm_scale.py [--files N] [--latency 0.1] [--concurrency 16]

Figures:
- wall / ideal, ideal = calls x latency / concurrency (_common.ideal_seconds, as bench/index_llm.py);
  also the ideal with the pipeline's stage barriers (extraction before summaries before reports
  before report embeddings; each phase at least its calls' throughput bound and its longest chain
  of dependent calls), which shows how much of the ratio the barriers alone explain.
- LLM calls per stage, and the wall time of each phase of the run (phases split at the last
  progress event of each stage, so they add up to the wall time).
- non-LLM time per chunk, two ways:
  * CPU: the pipeline process's CPU time (all threads) during the run, minus what the same
    number of bare client calls cost in CPU (measured on a sample of bare calls after the run:
    the openai client's HTTP and JSON work), divided by the chunks. This is the pipeline's own
    work: chunking, prompts, parsing, grounding, the cache, the graph, Leiden, report contexts,
    every database write.
  * wall: (wall - ideal) / chunks, the time the run takes beyond a perfect schedule of its calls.
- peak RSS of the pipeline process, database size, CPU time of the simulated server.

The fake model answers with passage-dependent descriptions (sim_server --varied), so entities
and relationships seen in several passages are summarised, as with a real model.
"""
from __future__ import annotations

import argparse
import copy
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import ideal_seconds, peak_rss_mb, podcast_files, write_result

from core.index.pipeline import STAGES, run_index
from core.ingest import ingest_files
from core.llm_openai import make_llm
from core.settings import Settings
from core.store import Store
from sim_server import SimServer
from tests.openai_server import TEST_KEY

BARE_SAMPLE = 1600  # bare calls timed after the run, to price the client's CPU per call


def proc_cpu_seconds(pid: int) -> float:
    """user + system CPU of another process (Linux /proc), for the simulated server."""
    import os
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phase_seconds(first: dict[str, float], last: dict[str, float], wall: float) -> dict[str, float]:
    """Split the run at the last progress event of each stage, in pipeline order, so the phases
    add up to the wall time. 'collect' is the time between the last extraction and the first
    summary (reading the extractions, entity resolution); 'embeddings' is what follows the
    reports (the report embeddings: entity embeddings run beside the reports, in that phase)."""
    out, prev = {}, 0.0
    for stage in STAGES:
        if stage == "summarize" and stage in first:
            out["collect"] = round(first[stage] - prev, 2)
            prev = first[stage]
        end = wall if stage == "embeddings" else last.get(stage)
        if end is None:
            continue
        out[stage] = round(end - prev, 2)
        prev = end
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=0, help="only the first N transcript files (0: all)")
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--name", default="", help="result name (default index_llm_scale[_N])")
    ap.add_argument("--keep", help="keep the workspace in this directory (must not exist)")
    args = ap.parse_args()
    files = podcast_files(args.files)
    name = args.name or "index_llm_scale" + (f"_{args.files}" if args.files else "")
    tmp_ctx = tempfile.TemporaryDirectory()
    workdir = Path(args.keep) if args.keep else Path(tmp_ctx.name)
    with SimServer(args.latency, varied=True) as server, tmp_ctx:
        settings = Settings(engine="llm", llm_base_url=server.url, api_key=TEST_KEY, chat_model="test-model",
                            embedding_model="test-embedding", concurrency=args.concurrency, max_retries=8)
        store = Store(workdir)
        t_ing = time.perf_counter()
        rep = ingest_files(store, files, max_bytes=50_000_000)
        ingest = time.perf_counter() - t_ing
        llm = make_llm(settings, store)  # client set-up is not pipeline time
        last: dict[str, float] = {}
        first: dict[str, float] = {}

        def on_progress(p):
            t = time.perf_counter() - t0
            first.setdefault(p.stage, t)
            last[p.stage] = t

        server_cpu0 = proc_cpu_seconds(server.proc.pid)
        cpu0, t0 = time.process_time(), time.perf_counter()
        summary = run_index(store, settings, llm=llm, on_progress=on_progress)
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        server_cpu = proc_cpu_seconds(server.proc.pid) - server_cpu0
        db_mb = sum(f.stat().st_size for f in workdir.glob("sensemaker.db*")) / 1e6
        tokens = store.db.conn.execute("select sum(n_tokens) from documents").fetchone()[0]
        chunks = store.count("text_units")
        usage = copy.deepcopy(summary["usage"])  # the bare calls below add to the same Usage
        calls = usage["llm_calls"] + usage["embedding_calls"]
        # the client's own CPU per call: the same client, bare calls, no pipeline, no cache
        n_bare = min(BARE_SAMPLE, calls)
        msgs = [{"role": "user", "content": "x " * 600}]
        bcpu0, b0 = time.process_time(), time.perf_counter()
        with ThreadPoolExecutor(args.concurrency * 2) as pool:
            list(pool.map(lambda i: llm.chat(msgs, use_cache=False), range(n_bare)))
        bare_wall = time.perf_counter() - b0
        client_cpu_per_call = (time.process_time() - bcpu0) / n_bare

    lat, conc = args.latency, args.concurrency
    by_stage = {k: int(v["llm_calls"]) for k, v in usage["by_stage"].items()}
    by_stage["embeddings"] = usage["embedding_calls"]
    ideal = ideal_seconds(calls, lat, conc)
    # the same calls with the pipeline's barriers: each phase is bounded by its calls'
    # throughput and by its longest chain of dependent calls (extract -> gleaning, claims beside
    # it; one report per level of the community tree). Entity embeddings go out beside the
    # reports, the report embeddings (batches of 32) after them.
    levels = summary["counts"].get("levels", 0)
    report_batches = -(-summary["counts"].get("community_reports", 0) // 32)
    phase_calls = {"extract": (by_stage.get("extract", 0) + by_stage.get("claims", 0), 2),
                   "summarize": (by_stage.get("summarize", 0), 1),
                   "reports": (by_stage.get("reports", 0) + by_stage["embeddings"] - report_batches, levels),
                   "embeddings": (report_batches, 1)}
    phase_ideal = {k: max(ideal_seconds(n, lat, conc), chain * lat if n else 0.0)
                   for k, (n, chain) in phase_calls.items()}
    barrier_ideal = sum(phase_ideal.values())
    walls = phase_seconds(first, last, wall)
    phase_ratio = {k: round(walls[k] / v, 3) for k, v in phase_ideal.items() if v and k in walls}
    serial = round(sum(v for k, v in walls.items() if k not in phase_ideal), 2)
    non_llm_cpu = max(0.0, cpu - calls * client_cpu_per_call)
    result = {
        "corpus": "behind_the_tech_podcasts", "files": len(files), "documents": len(rep.added),
        "tokens": tokens, "chunks": chunks, "latency": lat, "concurrency": conc,
        "llm_calls": calls, "calls_by_stage": by_stage,
        "wall_seconds": round(wall, 1), "ideal_seconds": round(ideal, 1), "ratio": round(wall / ideal, 3),
        "ideal_with_stage_barriers_seconds": round(barrier_ideal, 1),
        "ratio_to_barrier_ideal": round(wall / barrier_ideal, 3),
        "phase_seconds": walls, "phase_ideal_seconds": {k: round(v, 2) for k, v in phase_ideal.items()},
        "phase_ratio": phase_ratio, "phases_without_calls_seconds": serial,
        "stage_first_last_seconds": {k: [round(first[k], 2), round(last[k], 2)] for k in first},
        "process_cpu_seconds": round(cpu, 1),
        "client_cpu_ms_per_call": round(client_cpu_per_call * 1000, 3),
        "non_llm_cpu_seconds": round(non_llm_cpu, 1),
        "non_llm_cpu_ms_per_chunk": round(non_llm_cpu / chunks * 1000, 2),
        "excess_wall_ms_per_chunk": round((wall - ideal) / chunks * 1000, 2),
        "bare_calls_sample": n_bare, "bare_calls_ratio": round(bare_wall / ideal_seconds(n_bare, lat, conc), 3),
        "sim_server_cpu_seconds": round(server_cpu, 1),
        "ingest_seconds": round(ingest, 1), "peak_rss_mb": round(peak_rss_mb(), 1), "db_mb": round(db_mb, 1),
        "counts": summary["counts"], "status": summary["status"],
    }
    print(f"LLM index of {len(files)} podcast files ({tokens:,} tokens, {chunks} chunks) at concurrency {conc}, "
          f"latency {lat * 1000:.0f} ms: {calls} calls, wall {wall:.1f} s, ideal {ideal:.1f} s -> ratio "
          f"{wall / ideal:.3f} (ideal with stage barriers {barrier_ideal:.1f} s -> {wall / barrier_ideal:.3f})")
    print(f"  calls by stage: {by_stage}")
    print(f"  phases (s): {walls}; wall / ideal of the phases with calls: {phase_ratio}; "
          f"phases without calls {serial} s")
    print(f"  first and last progress event of each stage (s): {result['stage_first_last_seconds']}")
    print(f"  non-LLM CPU {non_llm_cpu:.1f} s = {result['non_llm_cpu_ms_per_chunk']:.1f} ms per chunk "
          f"(process CPU {cpu:.1f} s - {calls} calls x {client_cpu_per_call * 1000:.2f} ms client CPU); "
          f"wall beyond ideal {result['excess_wall_ms_per_chunk']:.1f} ms per chunk")
    print(f"  bare calls ratio {result['bare_calls_ratio']:.3f} ({n_bare} calls); sim server CPU {server_cpu:.1f} s; "
          f"peak RSS {result['peak_rss_mb']:.0f} MB, db {db_mb:.0f} MB; status {summary['status']}")
    c = summary["counts"]
    print(f"  {c['entities']} entities, {c['relationships']} relationships, {c['claims']} claims, "
          f"{c['communities']} communities on {c['levels']} levels, {c['community_reports']} reports")
    print(f"  -> {write_result(name, result)}")


if __name__ == "__main__":
    main()

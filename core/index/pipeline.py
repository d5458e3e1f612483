"""The index run: chunk -> extract -> graph -> communities -> reports -> embeddings.

Each run is a row in `runs` (status, stage, progress per stage, LLM calls, tokens, cache hits,
cost, heartbeat). Finished per-item work is kept (extractions rows, the LLM cache), so a run that
is killed resumes where it stopped and repeats no finished LLM call, and adding documents to an
indexed workspace re-runs only what is needed. A run is cancelled through a threading.Event or,
from another process, by setting the run's status to 'cancelling'.
"""
from __future__ import annotations

import json
import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from core.engine import IndexEngine
from core.errors import UserError
from core.index.chunk_stage import run_chunk
from core.index.changes import summarize
from core.index.communities_stage import compute_communities
from core.index.community_reuse import keep_numbers
from core.index.embed_stage import run_embeddings
from core.index.extract_stage import run_extract
from core.index.graph_stage import run_graph
from core.index.lifecycle import begin_change, end_change, pending_change
from core.index.progress import Cancelled, Progress, ProgressFn, noop
from core.index.reports_stage import run_reports
from core.llm.client import LLM, FatalLLMError
from core.llm.concurrency import limiter_of
from core.settings import Settings
from core.store.db import Store, now
from core.store.access import require

STAGES = ["chunk", "extract", "summarize", "graph", "communities", "reports", "embeddings"]


def make_engine(settings: Settings, store: Store, llm: LLM | None = None) -> tuple[IndexEngine, LLM | None]:
    if settings.resolved_engine == "offline":
        from core.offline.engine import OfflineEngine
        return OfflineEngine(settings), None
    if llm is None:
        from core.llm.openai import make_llm
        llm = make_llm(settings, store)
    from core.index.llm_engine import LLMEngine
    return LLMEngine(llm, settings, store.workspace), llm


class RunRecorder:
    """Keeps the runs row up to date (throttled) and watches for a cancel request."""

    def __init__(self, store: Store, run_id: str, llm: LLM | None, cancel: threading.Event,
                 on_progress: ProgressFn):
        self.store, self.run_id, self.llm, self.cancel, self.forward = store, run_id, llm, cancel, on_progress
        self.progress: dict[str, dict[str, Any]] = {}
        self.server_events: list[str] = []
        self.started: dict[str, float] = {}
        self._last = 0.0
        self._lock = threading.Lock()

    def __call__(self, p: Progress) -> None:
        with self._lock:
            self.started.setdefault(p.stage, time.monotonic())
            self.progress[p.stage] = {"done": p.done, "total": p.total, "message": p.message[:300],
                                      "seconds": round(time.monotonic() - self.started[p.stage], 2)}
            flush = time.monotonic() - self._last > 0.5 or p.done == p.total
            if flush:
                self._last = time.monotonic()
        self.forward(p)
        if flush:
            self.flush(stage=p.stage)

    def server_event(self, message: str) -> None:
        """A change of the model server's concurrency (core/llm/concurrency.py): kept in the
        run's progress under "server", which the run panel shows."""
        limiter = limiter_of(self.llm)
        with self._lock:
            self.server_events.append(message)
            self.progress["server"] = {"events": self.server_events[-10:],
                                       "concurrency": limiter.limit if limiter else None}
        self.flush()

    def flush(self, **values: Any) -> None:
        u = self.llm.usage if self.llm else None
        with self._lock:
            progress = dict(self.progress)
        self.store.update("runs", self.run_id, progress=progress, heartbeat_at=now(),
                          llm_calls=u.llm_calls if u else 0, prompt_tokens=u.prompt_tokens if u else 0,
                          completion_tokens=u.completion_tokens if u else 0,
                          cache_hits=u.cache_hits if u else 0, cost=round(u.cost, 6) if u else 0.0, **values)
        row = self.store.rows("runs", "id = ?", [self.run_id], select="status", order_by=None)
        if row and row[0]["status"] == "cancelling":
            self.cancel.set()


def run_index(store: Store, settings: Settings, **kwargs: Any) -> dict[str, Any]:
    """Run (or resume) indexing of everything in the workspace (see _run_index), refused while
    another run of the workspace goes on in any process."""
    require(store, 'index')
    with store.run_lock():
        return _run_index(store, settings, **kwargs)


def _run_index(store: Store, settings: Settings, *, engine: IndexEngine | None = None, llm: LLM | None = None,
              on_progress: ProgressFn = noop, cancel: threading.Event | None = None,
              run_id: str | None = None, operation: str = "index") -> dict[str, Any]:
    """Run (or resume) indexing of everything in the workspace. Returns the run's summary, with
    the change summary (core/index/changes.py) under "changes". `operation` names the change for
    the run history (index, remove, replace, reindex); a change pending from lifecycle (or killed
    half way) is finished by this run and named by it."""
    require(store, 'index')
    if store.get_meta("imported_from"):
        raise UserError("this workspace holds an imported Microsoft GraphRAG index; indexing it again would "
                        "replace that graph. Index new documents into a new workspace.")
    if engine is None:
        engine, llm = make_engine(settings, store, llm)
    cancel = cancel or threading.Event()
    run_id = run_id or f"run-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
    pending = pending_change(store)
    if pending is None:
        with store.atomic():
            new_docs = [r["title"] for r in store.rows("documents", "status is null or status != 'chunked'",
                                                       select="title", order_by="human_readable_id")]
            pending = begin_change(store, operation, new_docs, unchunked_as_new=True)
    operation = pending["operation"] if operation == "index" else operation
    calls_before = {k: dict(v) for k, v in (llm.usage.by_stage if llm else {}).items()}
    if store.get("runs", run_id) is None:
        store.insert("runs", [{"id": run_id, "started_at": now(), "status": "running", "engine": engine.name,
                               "operation": operation,
                               "settings": settings.to_dict(), "stage": "chunk", "progress": {},
                               "heartbeat_at": now(), "pid": os.getpid(), "llm_calls": 0, "prompt_tokens": 0,
                               "completion_tokens": 0, "cache_hits": 0, "cost": 0.0}])
    elif (store.get("runs", run_id) or {}).get("status") == "cancelling":  # cancelled while starting
        store.update("runs", run_id, heartbeat_at=now(), error=None, pid=os.getpid())
    else:
        store.update("runs", run_id, status="running", heartbeat_at=now(), error=None, pid=os.getpid(),
                     operation=operation)
    store.set_meta("index_pid", str(os.getpid()))
    rec = RunRecorder(store, run_id, llm, cancel, on_progress)
    counts: dict[str, Any] = {}
    reports_done = {"written": 0, "kept": 0}
    status, error = "finished", None
    limiter = limiter_of(llm)
    if limiter is not None:
        limiter.subscribe(rec.server_event)
    try:
        rec.flush(stage="chunk")
        counts["text_units_added"] = run_chunk(store, settings, rec, cancel, run_id=run_id)
        rec.flush(stage="extract")
        counts.update(run_extract(store, engine, settings, rec, cancel))
        rec.flush(stage="graph")
        counts.update(run_graph(store, engine, settings, rec, cancel))
        rec.flush(stage="communities")
        communities, counts["levels"] = compute_communities(store, settings, rec)
        titles = {r["id"]: r["title"] for r in store.rows("entities", select="id, title")}
        communities = keep_numbers(communities, store.rows("communities", select="community, level, entity_ids"),
                                   titles)
        counts["communities"] = len(communities)
        rec.flush(stage="reports")
        # entity embeddings need only the graph: they go out while the reports are written; the
        # new communities are written with their reports, so readers never see them apart
        with ThreadPoolExecutor(max_workers=1) as side:
            ent_emb = side.submit(run_embeddings, store, llm, rec, cancel, "entities", settings.concurrency)
            rep = run_reports(store, engine, settings, rec, cancel, communities=communities)
            counts["embeddings"] = ent_emb.result()
        counts["reports"], counts["reports_failed"] = rep["reports"], len(rep["failed"])
        reports_done = {"written": rep["written"], "kept": rep["kept"]}
        store.replace_table("run_steps", [s for s in store.rows("run_steps") if s["stage"] != "reports"] +
                            [{"id": f"reports|{f['community']}", "run_id": run_id, "stage": "reports",
                              "item": str(f["community"]), "status": "failed", "error": f["error"],
                              "attempts": 1, "updated_at": now()} for f in rep["failed"]])
        rec.flush(stage="embeddings")
        counts["embeddings"] += run_embeddings(store, llm, rec, cancel, "community_reports", settings.concurrency)
        counts["failed_units"] = store.count("extractions", "status = 'failed' and engine = ?", [engine.name])
        if counts["failed_units"] or counts["reports_failed"]:
            status = "finished with failures"
    except Cancelled:
        status, error = "cancelled", "cancelled by the user; finished work is kept and the next run resumes"
    except FatalLLMError as exc:
        status, error = "failed", str(exc)
    except Exception as exc:  # recorded for the app, then re-raised for the caller
        rec.flush(status="failed", error=f"{exc.__class__.__name__}: {exc}", finished_at=now())
        raise
    finally:
        if limiter is not None:
            limiter.unsubscribe(rec.server_event)
    late = store.rows("runs", "id = ?", [run_id], select="status", order_by=None)
    if status.startswith("finished") and late and late[0]["status"] == "cancelling":
        error = "the cancel request came after the last step: the run had finished"
    if rec.server_events:
        counts["server_events"] = rec.server_events
    counts.update({k: store.count(k) for k in ("documents", "text_units", "entities", "relationships",
                                               "claims", "communities", "community_reports")})
    spent = {k: {"llm_calls": v.get("llm_calls", 0) - calls_before.get(k, {}).get("llm_calls", 0)}
             for k, v in (llm.usage.by_stage if llm else {}).items()}
    changes = summarize(pending["baseline"], store, operation=operation, reports=reports_done, by_stage=spent,
                        extracted=counts.get("extracted", 0), documents=pending.get("documents"))
    rec.flush(status=status, error=error, finished_at=now(), counts=counts, stage="done", changes=changes)
    if status in ("finished", "finished with failures"):
        end_change(store)  # else the next run finishes the change and reports all of it
    store.set_meta("index_pid", "")
    summary = {"run_id": run_id, "status": status, "error": error, "engine": engine.name, "counts": counts,
               "usage": llm.usage.as_dict() if llm else {"llm_calls": 0, "cache_hits": 0},
               "operation": operation, "changes": changes}
    if status == "failed":
        raise FatalLLMError(error or "the index run failed")
    return summary


def documents_status(store: Store) -> dict[str, int]:
    out: dict[str, int] = {}
    for status, n in store.tally("documents", "status").items():
        out[status or "new"] = out.get(status or "new", 0) + n
    return out


def last_runs(store: Store, limit: int = 10) -> list[dict[str, Any]]:
    return store.rows("runs", order_by="human_readable_id desc", limit=limit)


def run_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, indent=2, ensure_ascii=False)

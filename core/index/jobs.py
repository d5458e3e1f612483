"""Index runs as durable jobs (team mode): when a workspace's tables are in PostgreSQL, the app
queues its index, re-index, remove and replace runs in that database, and `sensemaker worker`
processes (any number, on any machine that reaches the database and the model endpoint) run them.

The queue is procrastinate's (MIT): it keeps its jobs in PostgreSQL beside the workspaces, so a
team server needs no broker; its jobs take a `lock` (here the workspace's schema), so two runs of
one workspace never run at once while runs of other workspaces go on in parallel; its workers
send heartbeats, so a job whose worker died is found and handed to another (`serve`). A job
carries only the workspace and its run id: the run's progress, cancel request and per-item state
are in the workspace's own tables (runs, extractions, the LLM cache), so a job picked up again
resumes the run and asks the model nothing it already answered.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
from functools import lru_cache
from pathlib import Path

TASK = "sensemaker.index_run"
LIVE = ("todo", "doing")  # a job in these states still runs (or will)
log = logging.getLogger("sensemaker.jobs")


@lru_cache(maxsize=4)
def queue_app(url: str):
    """The procrastinate app of the database at url, with the index-run task."""
    import procrastinate
    connector = procrastinate.PsycopgConnector(conninfo=url, min_size=1, max_size=4, kwargs={"connect_timeout": 10})
    app = procrastinate.App(connector=connector)

    @app.task(name=TASK)
    def index_run(workspace: str, run_id: str, schema: str | None = None) -> None:
        from core.index.worker import run_job
        run_job(workspace, run_id, schema)

    return app


def _ensure_schema(app) -> None:
    if not app.job_manager.check_connection():
        try:
            app.schema_manager.apply_schema()
        except Exception:  # another process applied it at the same moment
            if not app.job_manager.check_connection():
                raise


@lru_cache(maxsize=4)
def _opened(url: str):
    """The app opened for this process's synchronous calls (the app's and the CLI's): its pool
    stays open, so a page run that asks about a job does not connect anew."""
    app = queue_app(url)
    app.open()
    _ensure_schema(app)
    return app


def enqueue(url: str, workspace: str | Path, run_id: str, lock: str) -> int:
    """Queue the run; returns the job's id. lock: one per workspace (its schema's name)."""
    app = _opened(url)
    return app.tasks[TASK].configure(lock=lock, queue="index").defer(workspace=str(workspace), run_id=run_id,
                                                                     schema=lock)


def job_status(url: str, job_id: int) -> str | None:
    """todo, doing, succeeded, failed, cancelled, aborted; None when the queue has no such job."""
    found = _opened(url).job_manager.list_jobs(id=int(job_id))
    status = found[0].status if found else None
    return str(getattr(status, "value", status)) if status else None


def cancel_queued(url: str, job_id: int) -> bool:
    """Take a job that no worker has started off the queue (True when it was still waiting)."""
    return bool(_opened(url).job_manager.cancel_job_by_id(int(job_id)))


def serve(url: str, name: str | None = None, stalled_after: float = 30.0, once: bool = False) -> None:
    """Run index jobs until interrupted (SIGINT, SIGTERM let the job in hand finish). Every
    stalled_after / 3 seconds, jobs whose worker stopped sending heartbeats for stalled_after
    seconds (killed, its machine gone) go back to the queue for a live worker."""
    app = queue_app(url)
    name = name or f"{socket.gethostname()}-{os.getpid()}"
    heartbeat = max(0.5, stalled_after / 6)

    async def rescue() -> None:
        while True:
            try:
                for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after):
                    log.warning("job %s (%s) lost its worker: back on the queue", job.id, job.task_kwargs)
                    await app.job_manager.retry_job(job)
            except Exception as exc:  # another worker retried it first, or the database blinked
                log.info("stalled-job check: %s", exc)
            await asyncio.sleep(stalled_after / 3)

    with app.open():
        _ensure_schema(app)

    async def main() -> None:
        async with app.open_async():
            watcher = asyncio.create_task(rescue())
            try:
                await app.run_worker_async(name=name, queues=["index"], concurrency=1, wait=not once,
                                           update_heartbeat_interval=heartbeat, stalled_worker_timeout=stalled_after,
                                           delete_jobs="never", listen_notify=True)
            finally:
                watcher.cancel()

    asyncio.run(main())


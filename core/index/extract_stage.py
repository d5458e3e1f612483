"""Stage 2: text units -> raw extractions (entities, relationships, claims per unit).

Each unit's result is stored in the `extractions` table as soon as it is done: that row is the
per-item state a resumed run skips. Units are extracted in parallel under the concurrency limit
when the engine calls a model; a unit that fails after retries is recorded as failed with its
error (shown in the app, retried by the next run), never silently dropped. Before the stage
ends, every unit that failed gets one more try at one call at a time.
"""
from __future__ import annotations

import threading
from contextlib import nullcontext
from concurrent.futures import ThreadPoolExecutor, as_completed

from core.engine import IndexEngine
from core.errors import UserError
from core.index.progress import Progress, ProgressFn, check, noop
from core.llm.client import FatalLLMError
from core.llm.concurrency import limiter_of
from core.settings import Settings
from core.store.db import Store


def extraction_id(engine_name: str, text_unit_id: str) -> str:
    return f"{engine_name}|{text_unit_id}"


def pending_units(store: Store, engine_name: str) -> list[dict]:
    return store.rows(
        "text_units",
        "id not in (select text_unit_id from extractions where engine = ? and status = 'ok')",
        [engine_name], order_by="human_readable_id")


def run_extract(store: Store, engine: IndexEngine, settings: Settings, on_progress: ProgressFn = noop,
                cancel: threading.Event | None = None) -> dict[str, int]:
    units = pending_units(store, engine.name)
    total = len(units)
    done = failed = 0
    on_progress(Progress("extract", 0, total, f"{total} text units to extract"))
    lock = threading.Lock()
    failed_ids: set[str] = set()

    def work(unit: dict, again: bool = False) -> None:
        nonlocal done, failed
        check(cancel)
        row = {"id": extraction_id(engine.name, unit["id"]), "text_unit_id": unit["id"], "engine": engine.name}
        try:
            ex = engine.extract(unit)  # its lists are the unit's own: stored as they are (the deep
            # copy of dataclasses.asdict made 442k calls, 1.9 s of a profiled podcast-corpus run)
            row.update(status="ok", entities=ex.entities, relationships=ex.relationships,
                       claims=ex.claims, rejected=ex.rejected, error=None, llm_calls=ex.llm_calls)
        except FatalLLMError:
            raise
        except UserError as exc:
            row.update(status="failed", entities=[], relationships=[], claims=[], rejected=[],
                       error=str(exc), llm_calls=0)
        store.upsert("extractions", [row])
        with lock:
            if again:  # the final pass: the unit was counted once already
                failed -= row["status"] == "ok"
                if row["status"] == "ok":
                    failed_ids.discard(unit["id"])
            else:
                done += 1
                failed += row["status"] == "failed"
            if row["status"] == "failed":
                failed_ids.add(unit["id"])
            msg = f"unit {unit['human_readable_id']}: {len(row['entities'])} entities" if row["status"] == "ok" \
                else f"unit {unit['human_readable_id']} failed: {row['error']}"
            on_progress(Progress("extract", done, total, msg))

    # twice the concurrency in threads: while some wait on the client's limit, the next unit's
    # first call is already queued, so the model is never idle between a unit's calls
    workers = 1 if engine.name == "offline" else max(1, settings.concurrency * 2)
    if workers == 1:
        for u in units:
            work(u)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(work, u) for u in units]
            try:
                for f in as_completed(futures):
                    f.result()
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
    if failed_ids and engine.name != "offline":
        _final_pass([u for u in units if u["id"] in failed_ids], engine, work, on_progress, total)
    return {"extracted": done - failed, "failed": failed}


def _final_pass(units: list[dict], engine: IndexEngine, work, on_progress: ProgressFn, total: int) -> None:
    """One more try for each failed unit, one call at a time: what failed while calls were in
    flight together (a server that cuts answers short, an overloaded one) often passes alone."""
    on_progress(Progress("extract", total, total, f"{len(units)} failed unit{'s' * (len(units) != 1)}: "
                                                  f"one more try each, one call at a time"))
    limiter = limiter_of(getattr(engine, "llm", None))
    with limiter.held(1) if limiter is not None else nullcontext():
        for u in units:
            work(u, again=True)

"""What a `sensemaker worker` does with a queued index run (core.index.jobs): open the workspace,
read its settings (the model key comes from the worker's own environment, never the queue), and
run or resume the run by its id. The workspace's folder (its settings, its prompt overrides) must
be on the worker's machine too, the same SENSEMAKER_HOME: a worker that cannot see it says so in
the run, rather than index with other settings."""
from __future__ import annotations

import os
import socket
from pathlib import Path

from core.errors import UserError
from core.index.pipeline import run_index
from core.settings import load_settings
from core.store.backends import database_url, has_store, store_at
from core.store.db import now

ENDED = ("finished", "finished with failures", "failed", "cancelled", "interrupted")


def run_job(workspace: str, run_id: str, schema: str | None = None) -> None:
    if not has_store(workspace):
        message = (f"the worker on {socket.gethostname()} cannot see the workspace folder {workspace}: "
                   "run workers with the app's SENSEMAKER_HOME (the same folder, mounted on every machine)")
        url = database_url(os.environ)
        if schema and url:  # say it in the run, where the app shows it
            from core.store.postgres import PostgresStore
            PostgresStore(url, schema, Path(workspace)).update("runs", run_id, status="failed", finished_at=now(),
                                                              error=message)
        raise UserError(message)
    store = store_at(workspace)
    try:
        run = store.get("runs", run_id)
        if run is None or run["status"] in ENDED:
            return  # cancelled while it waited, or finished by a worker that died before saying so
        run_index(store, load_settings(workspace), run_id=run_id)
    finally:
        store.close()

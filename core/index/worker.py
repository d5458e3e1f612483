"""What a `sensemaker worker` does with a queued index run (core.index.jobs): open the workspace's
tables in the team database by their schema and run or resume the run by its id. Nothing is read
from the app's workspace folder, so a worker may run on any machine that reaches the database and
the model endpoint: the run row carries the settings and prompt overrides the app queued it with,
and the worker lays them out in a folder of its own for the run (the model key comes from the
worker's own environment, never the queue)."""
from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

from core.errors import UserError
from core.index.pipeline import run_index
from core.prompts import write_overrides
from core.settings import SETTINGS_FILE, load_settings
from core.store.backends import database_url

ENDED = ("finished", "finished with failures", "failed", "cancelled", "interrupted")
log = logging.getLogger("sensemaker.jobs")


def run_job(workspace: str, run_id: str, schema: str | None = None) -> None:
    url = database_url(os.environ)
    if not (schema and url):
        raise UserError("an index job needs the team database (SENSEMAKER_DATABASE_URL) and the "
                        "workspace's schema; this job has neither")
    from core.store.postgres import PostgresStore, schema_exists
    name = Path(workspace).name
    if not schema_exists(url, schema):
        log.warning("workspace %r (schema %s) was deleted: its run %s is dropped", name, schema, run_id)
        return
    with tempfile.TemporaryDirectory(prefix="sensemaker-job-") as tmp:
        folder = Path(tmp) / name  # named as the workspace: messages and logs say its name
        folder.mkdir()
        store = PostgresStore(url, schema, folder)
        try:
            run = store.get("runs", run_id)
            if run is None or run["status"] in ENDED:
                return  # cancelled while it waited, or finished by a worker that died before saying so
            (folder / SETTINGS_FILE).write_text(json.dumps(run.get("settings") or {}), encoding="utf-8")
            write_overrides(folder, run.get("prompts") or {})
            run_index(store, load_settings(folder), run_id=run_id)
        finally:
            store.close()

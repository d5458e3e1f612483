"""What a `sensemaker worker` does with a queued index run (core.index.jobs): open the workspace,
read its settings (the model key comes from the worker's own environment, never the queue), and
run or resume the run by its id."""
from __future__ import annotations

from core.index.pipeline import run_index
from core.settings import load_settings
from core.store.backends import store_at

ENDED = ("finished", "finished with failures", "failed", "cancelled", "interrupted")


def run_job(workspace: str, run_id: str) -> None:
    store = store_at(workspace)
    try:
        run = store.get("runs", run_id)
        if run is None or run["status"] in ENDED:
            return  # cancelled while it waited, or finished by a worker that died before saying so
        run_index(store, load_settings(workspace), run_id=run_id)
    finally:
        store.close()

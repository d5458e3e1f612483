"""Re-index (issue 19): every document indexed again with the current settings, documents kept,
the LLM cache reused; the CLI says the cost first."""
from __future__ import annotations

import pytest

from core.cli.main import main
from core.errors import UserError
from core.index.reindex import reindex_estimate, reset_for_reindex
from core.store.db import Store
from tests.fakes import FakeChat
from tests.fake_model import respond
from test_pipeline_llm import _docs, _run, _settings


def test_reindex_with_the_same_settings_is_answered_from_the_cache(tmp_path):
    store = Store(tmp_path)
    _docs(store, 2)
    first = FakeChat(respond)
    _run(store, _settings(), first)
    entities = store.count("entities")
    assert first.calls and entities
    est = reindex_estimate(store, _settings())
    assert est["chunks"] > 0 and est["llm_calls"] > 0  # every document counted again
    reset_for_reindex(store)
    assert store.count("documents") == 2 and store.count("entities") == 0
    again = FakeChat(respond)
    summary = _run(store, _settings(), again)
    assert summary["status"] == "finished"
    assert again.calls == [] and summary["usage"]["cache_hits"] > 0  # nothing paid twice
    assert store.count("entities") == entities
    # other settings: a new chunk size makes new chunks, and those are new calls
    reset_for_reindex(store)
    third = FakeChat(respond)
    _run(store, _settings(chunk_size=90), third)
    assert third.calls and store.count("documents") == 2


def test_cli_reindex_says_the_cost_then_rebuilds(tmp_path, capsys):
    doc = tmp_path / "notes.txt"
    doc.write_text("Maria Okafor met Thomas Whitlock at Tanner Quay. Maria Okafor wrote to the "
                   "Port Authority about Tanner Quay.\n", encoding="utf-8")
    ws = tmp_path / "ws"
    assert main(["index", str(doc), "-w", str(ws), "--engine", "offline", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["index", "-w", str(ws), "--engine", "offline", "--quiet", "--reindex"]) == 0
    err = capsys.readouterr().err
    assert "re-indexing 1 documents" in err and "free (offline engine" in err
    assert err.index("re-indexing") < err.index("dropped the old index")
    assert Store(ws).count("entities") > 0 and Store(ws).count("documents") == 1


def test_reindex_refuses_while_a_run_is_going(tmp_path):
    store = Store(tmp_path)
    _docs(store, 1)
    import os
    store.insert("runs", [{"id": "r1", "status": "running", "pid": os.getpid(),
                           "started_at": "2024-01-01T00:00:00+00:00",
                           "heartbeat_at": "2024-01-01T00:00:00+00:00"}])
    with pytest.raises(UserError, match="run is going on"):
        reset_for_reindex(store)
    assert store.count("documents") == 1


def test_the_estimate_counts_the_units_the_run_makes_and_the_summary_says_a_reindex(tmp_path):
    """A newcomer read "Chunks 77" before a re-index that made 79 units, and then "+79 -0"."""
    from core.index.changes import plain
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import Settings
    from tests.conftest import SAMPLE
    store = Store(tmp_path / "ws")
    ingest_paths(store, sorted(SAMPLE.glob("*.*"))[:3], max_bytes=50_000_000)
    settings = Settings(engine="offline")
    est = reindex_estimate(store, settings)
    run_index(store, settings)
    units = store.count("text_units")
    assert est["chunks"] == units
    assert reindex_estimate(store, settings)["chunks"] == units
    reset_for_reindex(store)
    summary = run_index(store, settings)
    said = plain(summary["changes"])
    assert f"the same text units, {units} units extracted again" in said, said
    assert "+" not in said.split(";")[0]

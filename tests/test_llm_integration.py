"""The whole LLM path through the real openai client and real HTTP: index, global search and
local search against a local OpenAI-compatible server, calm and in a fault storm."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.openai import make_llm
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.types import GlobalParams, LocalParams
from core.store.db import Store
from tests.fake_model import respond
from tests.openai_server import TEST_KEY, FakeOpenAIServer

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def _ingest(store: Store, n: int = 3) -> None:
    files = sorted(SAMPLE.glob("2024-03-*"))[:n]
    ingest_paths(store, files, max_bytes=10**7)


def test_index_and_both_searches_over_http(tmp_path):
    with FakeOpenAIServer(lambda m, r: respond(m), api_key=TEST_KEY) as server:
        settings = server.settings(concurrency=4)
        store = Store(tmp_path)
        _ingest(store)
        llm = make_llm(settings, store)
        summary = run_index(store, settings, llm=llm)
        assert summary["status"] == "finished"
        c = store.counts()
        assert c["entities"] > 10 and c["community_reports"] == c["communities"] > 0
        assert c["embeddings"] == c["entities"] + c["community_reports"]  # through /v1/embeddings
        run = store.rows("runs")[-1]
        assert run["llm_calls"] == server.count("chat") and run["prompt_tokens"] > 0

        g = global_search(store, "Who is responsible for the spill?", GlobalParams(seed=7), llm=llm)
        assert g.batches and all(b.error is None for b in g.batches)
        assert any(p.score > 0 for b in g.batches for p in b.points)
        assert "[Data: Reports (" in g.answer
        assert all(not c["dangling"] for c in g.citations)

        loc = local_search(store, "What did Maria Okafor admit?", LocalParams(), llm=llm)
        assert "Sources (" in loc.answer and loc.context["entities"]
        assert server.count("embeddings") >= 1  # entry entities found by embedding similarity

        # the key never reaches the workspace
        for f in tmp_path.glob("sensemaker.db*"):
            assert TEST_KEY.encode() not in f.read_bytes()


@pytest.mark.slow
def test_fault_storm_loses_nothing_and_accounts_for_every_failure(tmp_path):
    """A third of the calls fail transiently (500, 503, 429); the run still completes, with the
    same graph as a calm run, and every failure was retried."""
    calm_store = Store(tmp_path / "calm")
    _ingest(calm_store, 2)
    with FakeOpenAIServer(lambda m, r: respond(m)) as calm:
        run_index(calm_store, calm.settings(concurrency=8))
    storm_store = Store(tmp_path / "storm")
    _ingest(storm_store, 2)
    with FakeOpenAIServer(lambda m, r: respond(m), fail_rate=0.33, seed=3,
                          transient_faults=("500", "503", "429:0.05")) as storm:
        settings = storm.settings(concurrency=8, max_retries=10)
        llm = make_llm(settings, storm_store)
        llm.client.backoff_base = 0.02  # keep the test fast; the logic is the same
        if llm.embedder is not None:
            llm.embedder.backoff_base = 0.02
        summary = run_index(storm_store, settings, llm=llm)
        failed = [c for c in storm.calls if c.status != 200]
        ok = [c for c in storm.calls if c.status == 200 and c.endpoint == "chat"]
    assert summary["status"] == "finished"
    assert len(failed) >= 5 and len(failed) >= 0.2 * len(storm.calls)
    assert len(ok) == summary["usage"]["llm_calls"]  # every success counted once, failures retried
    for table in ("entities", "relationships", "communities", "community_reports"):
        assert storm_store.count(table) == calm_store.count(table), table
    assert storm_store.count("extractions", "status = 'failed'") == 0

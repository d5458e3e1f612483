"""Query traces (save, load, list) and the `sensemaker query` command."""
from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.llm.client import LLM
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.traces import TraceNotFound, list_traces, load_trace
from core.query.types import GlobalParams, SearchResult
from core.store.db import Store
from tests.test_global_search import MapReduceFake, synthetic_store
from tests.test_local_search import build_store


def test_a_global_trace_loads_back_exactly_as_it_was(tmp_path):
    store = synthetic_store(tmp_path / "ws")
    result = global_search(store, "What happens?", GlobalParams(seed=9, map_max_tokens=300,
                                                                  reduce_max_tokens=150),
                           LLM(MapReduceFake(bad={3})))
    assert result.trace_id
    loaded = load_trace(store, result.trace_id)
    assert isinstance(loaded, SearchResult)
    assert loaded.to_dict() == json.loads(json.dumps(result.to_dict()))
    # what a reader of the trace needs is all there
    assert loaded.params["seed"] == 9 and loaded.model == "fake-model"
    assert [b.report_ids for b in loaded.batches] == [b.report_ids for b in result.batches]
    assert any(b.failed and "{{{" in b.raw_output for b in loaded.batches)
    assert loaded.reduce["cut"] and loaded.reduce["cut"][0].tokens > 0
    assert "Importance Score" in loaded.reduce["context_text"]
    assert loaded.usage["by_stage"]["map"]["llm_calls"] >= len(loaded.batches)
    assert loaded.usage["by_stage"]["reduce"]["llm_calls"] == 1
    assert loaded.timings["map"] > 0


def test_list_traces_newest_first_and_load_by_number(tmp_path):
    store = build_store(tmp_path / "ws")
    first = global_search(store, "What did Marley warn Scrooge about?")
    second = local_search(store, "Who is Tiny Tim?")
    rows = list_traces(store)
    assert [r["id"] for r in rows] == [second.trace_id, first.trace_id]
    assert rows[0]["method"] == "local" and rows[1]["question"] == "What did Marley warn Scrooge about?"
    again = load_trace(store, rows[1]["number"])
    assert again.answer == first.answer and again.citations == first.citations
    assert again.context == {} and load_trace(store, second.trace_id).context == second.context
    with pytest.raises(TraceNotFound):
        load_trace(store, "no-such-trace")


def test_query_cli_json_has_every_part_a_reader_checks(tmp_path, capsys):
    build_store(tmp_path / "ws")
    code = main(["query", "What did Marley's ghost warn Scrooge about?", "--workspace", str(tmp_path / "ws"),
                 "--method", "global", "--engine", "offline", "--seed", "4", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("method", "question", "answer", "trace_id", "map", "reduce", "context", "citations", "usage"):
        assert key in out
    assert out["params"]["seed"] == 4 and out["level"] == 1
    batch = out["map"]["batches"][0]
    assert {"batch", "report_ids", "points", "error"} <= set(batch)
    assert {"description", "score", "report_ids"} <= set(batch["points"][0])
    assert {"score", "tokens"} <= set(out["reduce"]["selected"][0])
    assert out["reduce"]["cut"] == []
    c = out["citations"][0]
    assert {"marker", "kind", "id", "resolved", "dangling", "text_unit_ids", "document_ids", "support"} <= set(c)
    assert out["usage"]["llm_calls"] == 0 and "prompt_tokens" in out["usage"]

    code = main(["query", "Leiden 算法在 GraphRAG 中起什么作用？", "-w", str(tmp_path / "ws"),
                 "--method", "local", "--engine", "offline", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and {6, 7} <= set(out["context"]["entry_entities"])
    assert {"sources", "reports", "entities", "relationships", "claims"} <= set(out["context"])


def test_query_cli_text_explains_how_the_answer_was_made(tmp_path, capsys):
    ws = str(tmp_path / "ws")
    build_store(ws)
    assert main(["query", "Who is Tiny Tim?", "-w", ws, "-m", "local", "--engine", "offline"]) == 0
    text = capsys.readouterr().out
    assert "Tiny Tim" in text.split("How it was made:")[0]
    assert "entry entities found by" in text and "TINY TIM" in text
    trace_id = list_traces(Store(ws))[0]["id"]
    assert main(["query", "-w", ws, "--trace", trace_id]) == 0
    assert text.split("How it was made:")[0] == capsys.readouterr().out.split("How it was made:")[0]
    assert main(["traces", "-w", ws]) == 0
    assert "Who is Tiny Tim?" in capsys.readouterr().out


def test_query_cli_reports_user_errors(tmp_path, capsys):
    assert main(["query", "anything", "-w", str(tmp_path / "none"), "--engine", "offline"]) == 2
    assert "no workspace" in capsys.readouterr().err
    ws = str(tmp_path / "ws")
    build_store(ws)
    assert main(["query", "anything", "-w", ws, "--level", "7", "--engine", "offline"]) == 2
    assert "levels with reports: 0, 1" in capsys.readouterr().err


def test_query_cli_with_an_openai_compatible_endpoint(tmp_path, capsys, monkeypatch):
    from tests.openai_server import TEST_KEY, FakeOpenAIServer
    from tests.test_global_search import batch_ids, map_answer

    def respond(messages, request):
        system = messages[0]["content"]
        if "---Analyst reports---" in system:
            return "Marley's ghost warned Scrooge [Data: Reports (3)]."
        if "---Data table---" in system:
            return map_answer(batch_ids(system), score=lambda i: 50)
        return "Marley warned Scrooge that three spirits would come [Data: Sources (1); Claims (0)]."

    ws = str(tmp_path / "ws")
    build_store(ws)
    with FakeOpenAIServer(respond) as server:
        for k, v in {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": TEST_KEY,
                     "SENSEMAKER_CHAT_MODEL": "test-model"}.items():
            monkeypatch.setenv(k, v)
        monkeypatch.delenv("SENSEMAKER_EMBEDDING_MODEL", raising=False)
        assert main(["query", "What did Marley warn?", "-w", ws, "-m", "global", "--engine", "llm", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["engine"] == "llm" and out["model"] == "test-model"
        assert out["answer"] == "Marley's ghost warned Scrooge [Data: Reports (3)]."
        assert out["usage"]["llm_calls"] == len(out["map"]["batches"]) + 1
        assert all(p["score"] == 50 for b in out["map"]["batches"] for p in b["points"])
        assert main(["query", "What did Marley warn Scrooge about?", "-w", ws, "-m", "local", "--engine", "llm"]) == 0
        text = capsys.readouterr().out
        assert text.startswith("Marley warned Scrooge") and "model test-model" in text
        assert "1 LLM call (local 1)" in text


def test_query_cli_reports_per_map(tmp_path, capsys, monkeypatch):
    build_store(tmp_path / "ws")
    monkeypatch.setenv("SENSEMAKER_MAP_REPORTS", "1")  # the setting is the default ...
    assert main(["query", "What did Marley's ghost warn Scrooge about?", "-w", str(tmp_path / "ws"),
                 "-m", "global", "--engine", "offline", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["params"]["map_max_reports"] == 1
    monkeypatch.setenv("SENSEMAKER_MAP_REPORTS", "auto")  # the offline engine has no window: auto is 0
    assert main(["query", "What did Marley's ghost warn Scrooge about?", "-w", str(tmp_path / "ws"),
                 "-m", "global", "--engine", "offline", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["params"]["map_max_reports"] == 0
    with pytest.raises(SystemExit):
        main(["query", "Q", "-w", str(tmp_path / "ws"), "-m", "global", "--reports-per-map", "-2"])
    assert "0 or more" in capsys.readouterr().err
    monkeypatch.setenv("SENSEMAKER_MAP_REPORTS", "0")  # ... and the option says otherwise
    code = main(["query", "What did Marley's ghost warn Scrooge about?", "-w", str(tmp_path / "ws"),
                 "-m", "global", "--engine", "offline", "--seed", "4", "--reports-per-map", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"]["map_max_reports"] == 1
    assert len(out["map"]["batches"]) > 1 and all(len(b["report_ids"]) == 1 for b in out["map"]["batches"])

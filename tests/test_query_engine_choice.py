"""Which engine answers `sensemaker query`: with an endpoint configured, a workspace indexed
offline is asked with the model (the answer says so); `--engine offline` overrides it; with no
endpoint the offline engine answers. Against a real local HTTP server speaking the OpenAI API."""
from __future__ import annotations

import json
import shutil

import pytest

from core.cli.main import main
from core.settings import Settings
from openai_server import FakeOpenAIServer


def _answer(messages, request):
    return "The harbour authority runs the port. [Data: Sources (1)]"


@pytest.fixture()
def ws(indexed_home, tmp_path, monkeypatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE", "SENSEMAKER_CHAT_MODEL"):
        monkeypatch.delenv(var, raising=False)
    copy = tmp_path / "test"
    shutil.copytree(indexed_home / "test", copy)  # indexed offline: its settings say engine offline
    return copy


def test_an_offline_index_is_asked_with_the_configured_model(ws, monkeypatch, capsys):
    assert json.loads((ws / "settings.json").read_text())["engine"] == "offline"
    with FakeOpenAIServer(_answer) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("SENSEMAKER_CHAT_MODEL", "test-model")
        assert main(["query", "What does the harbour authority do?", "-w", str(ws), "--method", "basic",
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["engine"] == "llm" and "harbour authority runs the port" in out["answer"]
        calls = server.count("chat")
        assert calls >= 1
        assert main(["query", "What does the harbour authority do?", "-w", str(ws), "--method", "basic"]) == 0
        assert "answered by the model" in capsys.readouterr().out
        # the explicit choice wins: no call reaches the endpoint
        calls = server.count("chat")
        assert main(["query", "What does the harbour authority do?", "-w", str(ws), "--method", "basic",
                     "--engine", "offline", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["engine"] == "offline" and server.count("chat") == calls


def test_with_no_endpoint_the_offline_engine_answers_and_says_so(ws, capsys):
    assert main(["query", "What does the harbour authority do?", "-w", str(ws), "--method", "basic"]) == 0
    assert "answered by the offline engine, no language model" in capsys.readouterr().out


def test_the_rule_in_settings():
    assert Settings(engine="offline", llm_base_url="http://x/v1").query_engine() == "llm"
    assert Settings(engine="offline", llm_base_url="http://x/v1").query_engine("offline") == "offline"
    assert Settings(engine="offline").query_engine() == "offline"
    assert Settings(engine="llm").query_engine() == "llm"

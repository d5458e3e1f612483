"""The context window is read from servers that report it (llama.cpp, vLLM, Ollama, OpenRouter-
style lists) over real HTTP; servers that say nothing leave the setting in force."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from core.llm.context_window import server_context_window


def serve(routes: dict[tuple[str, str], object]):
    """A local HTTP server answering (method, path) -> JSON body; anything else is a 404."""
    seen: list[tuple[str, str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length).decode() if length else ""
            seen.append((method, self.path, self.headers.get("Authorization") or ""))
            found = routes.get((method, self.path))
            data = json.dumps(found).encode() if found is not None else b'{"error": "not found"}'
            self.send_response(200 if found is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._answer("GET")

        def do_POST(self):
            self._answer("POST")

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1", seen


@pytest.mark.parametrize("routes, expected, where", [
    ({("GET", "/props"): {"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1},
      ("GET", "/v1/models"): {"data": [{"id": "qwen", "meta": {"n_ctx_train": 32768}}]}}, 4096, "/props"),
    ({("GET", "/v1/models"): {"object": "list", "data": [{"id": "other", "max_model_len": 2048},
                                                         {"id": "qwen", "max_model_len": 16384}]}}, 16384, "/v1/models"),
    ({("GET", "/v1/models"): {"data": [{"id": "qwen", "context_length": 131072}]}}, 131072, "/v1/models"),
    ({("POST", "/api/show"): {"parameters": "stop \"<|im_end|>\"\nnum_ctx 12288",
                              "model_info": {"qwen2.context_length": 32768}}}, 12288, "/api/show"),
])
def test_the_window_a_server_reports_is_read(routes, expected, where):
    server, url, seen = serve(routes)
    try:
        assert server_context_window(url, "qwen", api_key="sk-test") == (expected, where)
        assert all(auth == "Bearer sk-test" for _, _, auth in seen)
    finally:
        server.shutdown()


def test_a_server_that_says_nothing_leaves_the_setting():
    # llama-cpp-python and OpenAI list models without any window; Ollama without num_ctx
    server, url, _ = serve({("GET", "/v1/models"): {"data": [{"id": "qwen", "object": "model", "owned_by": "me"}]},
                            ("POST", "/api/show"): {"model_info": {"qwen2.context_length": 32768}},
                            ("GET", "/props"): {"default_generation_settings": {"n_ctx": "lots"}}})
    try:
        assert server_context_window(url, "qwen") == (None, "")
    finally:
        server.shutdown()


def test_an_unreachable_server_is_not_an_error():
    server, url, _ = serve({})
    server.shutdown()
    server.server_close()
    assert server_context_window(url, "qwen", timeout=1.0) == (None, "")


def test_the_server_wins_then_the_setting_then_a_known_model_then_the_default():
    from core.llm.context_window import DEFAULT_WINDOW, resolve_window
    says = lambda: (4096, "/props")
    silent = lambda: (None, "")
    assert resolve_window(16000, "qwen", says) == (4096, "reported by the server (/props)")
    assert resolve_window(16000, "gpt-4o-mini", silent) == (16000, "the context_window setting")
    assert resolve_window(None, "gpt-4o-mini", silent)[0] == 128_000
    assert resolve_window(None, "gpt-4-0613", silent)[0] == 8_192
    assert resolve_window(None, "openai/gpt-4.1-mini", silent)[0] == 1_047_576
    assert resolve_window(None, "qwen2.5-coder", silent)[0] == DEFAULT_WINDOW


def test_a_small_model_reporting_its_window_gets_prompts_that_fit(tmp_path):
    """Index and ask over HTTP against a server that runs a 2,500-token window and says so at
    /props, as llama.cpp does: no request exceeds it (the server would answer 400), so no
    chunk is lost and no map batch fails; the same questions with the default budgets on a
    server that does not say, and a setting that does not know, overflow."""
    from core.index.pipeline import run_index
    from core.llm.openai import make_llm
    from core.query.global_search import global_search
    from core.query.local_search import local_search
    from core.query.types import GlobalParams
    from core.store.db import Store
    from tests.fake_model import respond
    from tests.openai_server import FakeOpenAIServer
    from tests.test_llm_integration import _ingest

    with FakeOpenAIServer(lambda m, r: respond(m), context_window=2500, report_window="props") as server:
        settings = server.settings(concurrency=2)
        store = Store(tmp_path / "ws")
        _ingest(store, 3)
        llm = make_llm(settings, store)
        assert llm.context_window_found == (2500, "reported by the server (/props)")
        assert run_index(store, settings, llm=llm)["status"] == "finished"
        g = global_search(store, "What are the main themes?", GlobalParams(seed=1, level=0), llm=llm)
        local = local_search(store, "What does the harbour council do?", llm=llm)
        refused = [c for c in server.calls if c.status == 400]
    assert not refused
    assert not g.failed_batches and g.answer and not g.error
    assert g.params["context_window"] == 2500 and g.params["asked"]["map_max_tokens"] == 8000
    assert local.answer and not local.error
    assert store.count("extractions", "status != 'ok'") == 0

    with FakeOpenAIServer(lambda m, r: respond(m), context_window=2500) as silent:
        settings = silent.settings(concurrency=2, context_window=32000)  # a wrong setting
        llm = make_llm(settings, store)
        assert llm.context_window_found == (32000, "the context_window setting")
        local = local_search(store, "What does the harbour council do?", llm=llm)
    assert local.error and "context" in local.error  # what happens when nothing says the truth


def test_many_descriptions_are_summarised_in_rounds_that_fit_the_window():
    """An entity named in 120 chunks: its descriptions do not fit one call of a 2,048-token
    model, so they are read in rounds, each carrying the summary so far; none is dropped."""
    from core.index.llm_engine import LLMEngine
    from core.llm.client import LLM
    from core.settings import Settings
    from core.tokens import count_tokens
    from tests.fakes import FakeChat

    prompts = []

    def respond(messages):
        prompts.append(messages[0]["content"])
        return f"SUMMARY{len(prompts)} of the harbour master."

    llm = LLM(FakeChat(respond))
    llm.context_window = 2048
    engine = LLMEngine(llm, Settings(engine="llm"))
    descs = [f"Description {i}: the harbour master inspected pier {i} and logged the cargo of ship {i}."
             for i in range(120)]
    summary = engine.summarize("entity", "HARBOUR MASTER", descs)
    assert len(prompts) >= 2 and summary == f"SUMMARY{len(prompts)} of the harbour master."
    for i, p in enumerate(prompts):
        assert count_tokens(p) + 200 <= 2048
        if i:
            assert f"SUMMARY{i} of the harbour master." in p  # the previous round is carried on
    assert all(any(f"Description {i}:" in p for p in prompts) for i in range(120))


def test_the_connection_check_says_which_window_is_used():
    from core.llm.connection import check_connection
    from tests.openai_server import FakeOpenAIServer
    with FakeOpenAIServer(context_window=6144, report_window="models") as vllm:
        ok, said = check_connection(vllm.settings())
    assert ok and "context window 6,144 tokens (reported by the server (/v1/models))" in said
    with FakeOpenAIServer() as silent:
        ok, said = check_connection(silent.settings())
    assert ok and "context window 8,192 tokens (the default (the server does not say" in said

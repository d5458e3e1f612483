"""Basic search (the vector-RAG baseline): the question's best units packed into the budget in
rank order, one answer call citing Sources that resolve and carry verdicts; offline extractive;
the CLI with --json; the whole client path over HTTP for lazy and basic."""
from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.errors import UserError
from core.llm.client import LLM
from core.llm.openai import make_llm
from core.query.basic_search import BasicParams, basic_search
from core.query.methods import run_method
from core.query.unit_rank import UnitIndex
from core.store.db import Store
from conftest import build_workspace
from tests.fake_model import respond
from tests.fakes import FakeChat
from tests.openai_server import TEST_KEY, FakeOpenAIServer
from tests.test_lazy_search import QUESTION, lazy_store


def test_best_units_in_rank_order_within_the_budget_and_one_call(tmp_path):
    store = lazy_store(tmp_path)
    chat = FakeChat(respond)
    r = basic_search(store, QUESTION, BasicParams(max_tokens=2000), LLM(chat, store))
    ranked = [int(x.unit["human_readable_id"]) for x in UnitIndex(store).rank(QUESTION)]
    ctx = r.context
    assert ctx["sources"] == ranked[:len(ctx["sources"])] and ctx["cut"] == ranked[len(ctx["sources"]):50]
    assert 0 < ctx["tokens"]["sources"] <= 2000 and ctx["ranking"] == "bm25"
    assert len(chat.calls) == 1 and r.usage["by_stage"]["basic"]["llm_calls"] == 1
    assert r.citations and all(c["kind"] == "Sources" and c["resolved"] and c["support"]["verdict"]
                               for c in r.citations)
    assert {c["id"] for c in r.citations} <= set(ctx["sources"])


def test_offline_basic_is_extractive_with_references(tmp_path):
    store = lazy_store(tmp_path)
    r = run_method("basic", store, "Who saw the genuine harbour fire?", None)
    assert r.engine == "offline" and "genuine harbour fire" in r.answer
    assert r.citations and all(c["resolved"] and c["support"] for c in r.citations)


def test_no_matching_unit_says_so(tmp_path):
    store = lazy_store(tmp_path)
    r = basic_search(store, "zeppelins over quasars", llm=LLM(FakeChat(respond), store))
    assert r.no_data and "does not answer" in r.answer and r.usage["llm_calls"] == 0
    with pytest.raises(UserError):
        basic_search(store, " ")


def test_cli_lazy_and_basic_with_json_and_knobs(tmp_path, capsys):
    lazy_store(tmp_path)
    assert main(["query", QUESTION, "-w", str(tmp_path), "--engine", "offline", "--method", "lazy",
                 "--budget", "30", "--z", "2", "--chunks-per-community", "1", "--map-budget", "700",
                 "--reduce-budget", "300", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["method"] == "lazy" and d["params"]["budget"] == 30 and d["params"]["z"] == 2
    assert d["lazy"]["reduce"]["budget"] == 300 and d["lazy"]["reduce"]["tokens"] <= 300
    assert sum(c["tokens"] for c in d["lazy"]["map_calls"]) <= 700
    assert d["lazy"]["subqueries"] and len(d["lazy"]["tests"]) <= 30
    assert all(len(v["tested"]) == 1 for v in d["lazy"]["visits"])
    assert main(["query", QUESTION, "-w", str(tmp_path), "--engine", "offline", "--method", "lazy",
                 "--budget", "12"]) == 0
    out = capsys.readouterr().out
    assert "lazy search (offline engine" in out and "lexical relevance tests" in out and "subquery 1:" in out
    assert main(["query", QUESTION, "-w", str(tmp_path), "--engine", "offline", "--method", "basic",
                 "--context-budget", "900"]) == 0
    assert "basic search (offline engine" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["query", QUESTION, "-w", str(tmp_path), "--method", "lazy", "--budget", "lots"])


def test_lazy_and_basic_through_the_openai_client_over_http(tmp_path):
    with FakeOpenAIServer(lambda m, r: respond(m), api_key=TEST_KEY) as server:
        settings = server.settings(concurrency=4)
        store = lazy_store(tmp_path)
        llm = make_llm(settings, store)
        lazy = run_method("lazy", store, QUESTION, llm, settings, {"budget": 20})
        basic = run_method("basic", store, QUESTION, llm, settings)
    assert lazy.lazy["phases"]["relevance"]["llm_calls"] == len(lazy.lazy["tests"]) <= 20
    for r in (lazy, basic):
        assert r.error is None and r.citations
        assert all(c["resolved"] and not c["dangling"] and c["support"] for c in r.citations)


def test_relevance_model_on_the_same_endpoint(tmp_path):
    """--relevance-model: the yes/no tests go to that model, everything else to the chat model."""
    with FakeOpenAIServer(lambda m, r: respond(m), api_key=TEST_KEY,
                          models=("test-model", "test-embedding", "tiny-judge")) as server:
        settings = server.settings(concurrency=4, embedding_model=None)
        store = lazy_store(tmp_path)
        r = run_method("lazy", store, QUESTION, make_llm(settings, store), settings,
                       {"budget": 9, "relevance_model": "tiny-judge"})
        by_model: dict[str, set[str]] = {}
        for c in server.calls:
            if c.endpoint == "chat":
                kind = "test" if "Does the passage help answer" in c.body["messages"][-1]["content"] else "other"
                by_model.setdefault(c.body["model"], set()).add(kind)
    assert by_model == {"tiny-judge": {"test"}, "test-model": {"other"}}
    assert r.lazy["relevance_model"] == "tiny-judge" and r.model == "test-model"
    assert r.usage["by_stage"]["lazy_relevance"]["llm_calls"] == 9


def test_a_heading_is_never_quoted_as_an_answer_sentence(tmp_path):
    """A newcomer's basic answer about PEP 572 quoted the heading "Lowering operator precedence."
    as its first sentence, and the chip highlighted another one."""
    page = ("# Harbour walrus\n\n## Lowering operator precedence.\n\nThe walrus operator binds more loosely "
            "than the comparison operators in Harbourline scripts. Harbourline keeps the operator precedence "
            "of the host language.\n\n## Scope\n\nAssignments inside comprehensions bind in the enclosing scope.\n")
    store = Store(build_workspace(tmp_path, "ws", [("walrus.md", page.encode())]))
    answer = run_method("basic", store, "What about lowering operator precedence?").answer
    assert "binds more loosely" in answer, answer
    assert not answer.startswith("Lowering operator precedence") and "Lowering operator precedence." not in answer, answer

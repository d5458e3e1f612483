"""Local model servers at their defaults (issue 18): a server that interrupts the stream in flight
(llama-cpp-python), one with few parallel slots, a gateway that labels streams as JSON; the
adaptive concurrency limit; the final pass; the exit status; inferred co-occurrence edges."""
from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from core.cli.main import main as cli_main
from core.index.cooccurrence import sentence_edges
from core.index.llm_engine import LLMEngine
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.client import LLM
from core.llm.concurrency import CUT, NEUTRAL, OK, OVERLOAD, AdaptiveLimit
from core.llm.openai import OpenAIChatClient, make_llm
from core.query.global_search import global_search
from core.query.types import GlobalParams
from core.store.db import Store
from tests.fake_model import respond
from tests.fakes import FakeChat
from tests.openai_server import FakeOpenAIServer

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def _ingest(store: Store, n: int = 3) -> None:
    ingest_paths(store, sorted(SAMPLE.glob("2024-03-*"))[:n], max_bytes=10**7)


def _index(server: FakeOpenAIServer, tmp_path: Path, **settings) -> tuple[Store, dict]:
    s = server.settings(concurrency=8, embedding_model=None, **settings)
    store = Store(tmp_path)
    _ingest(store)
    return store, run_index(store, s, llm=make_llm(s, store))


# the limit ----------------------------------------------------------------------------------
def test_an_interrupted_answer_drops_the_limit_to_one_and_once_per_generation():
    heard: list[str] = []
    lim = AdaptiveLimit(8, "srv")
    lim.subscribe(heard.append)
    slots = [lim.acquire() for _ in range(8)]
    assert lim.release(slots[0], CUT) and lim.limit == 1
    assert not any(lim.release(s, CUT) for s in slots[1:])  # the same overload, reported again
    assert heard == ["the server answers one request at a time (answers came back empty or cut short "
                     "while others were in flight): concurrency 8 -> 1"]


def test_overload_halves_and_successes_grow_it_back_slowly_never_past_the_start():
    lim = AdaptiveLimit(4)
    lim.release(lim.acquire(), OVERLOAD)
    assert lim.limit == 2
    lim.release(lim.acquire(), NEUTRAL)  # a 500 says nothing about load
    assert lim.limit == 2
    for _ in range(8 * 2 * 2 - 1):  # growth to 3... waits longer after a failure at... (none yet at 3)
        lim.release(lim.acquire(), OK)
        if lim.limit == 3:
            break
    assert lim.limit == 3
    for _ in range(500):
        lim.release(lim.acquire(), OK)
    assert lim.limit == 4  # the setting is the ceiling


def test_a_level_that_failed_is_probed_again_only_after_a_longer_run():
    lim = AdaptiveLimit(2)
    lim.release(lim.acquire(), OVERLOAD)  # 2 -> 1; a failure at 2
    n = 0
    while lim.limit == 1:
        lim.release(lim.acquire(), OK)
        n += 1
    assert n == 16  # 8 x limit 1 x 2 ** (one failure at 2)


def test_the_limit_starts_from_the_slots_the_server_reports():
    lim = AdaptiveLimit(8, probe=lambda: (2, "/props total_slots"))
    heard: list[str] = []
    lim.subscribe(heard.append)
    lim.release(lim.acquire())
    assert lim.limit == 2 and heard == ["the server has 2 parallel slots (/props total_slots): concurrency 8 -> 2"]


def test_calls_wait_for_a_free_slot():
    lim = AdaptiveLimit(1)
    first = lim.acquire()
    got = threading.Event()
    t = threading.Thread(target=lambda: (lim.acquire(), got.set()))
    t.start()
    assert not got.wait(0.2)
    lim.release(first)
    assert got.wait(2)
    t.join()


# against servers ----------------------------------------------------------------------------
@pytest.mark.parametrize("interrupt", [True, "drop"])
def test_a_server_that_interrupts_the_stream_in_flight_loses_no_unit_at_concurrency_8(tmp_path, interrupt):
    """llama-cpp-python's server at its defaults: each new request ends the answer being streamed
    (with [DONE] and no finish reason, or by closing the connection)."""
    with FakeOpenAIServer(lambda m, r: respond(m), interrupt=interrupt, token_delay=0.0005,
                          models=("test-model",)) as server:
        store, summary = _index(server, tmp_path)
        assert server.interrupted > 0  # the server did cut answers: without adapting, units are lost
    assert summary["status"] == "finished"
    assert store.count("extractions", "status = 'failed'") == 0
    assert store.count("communities") > 0 and store.count("community_reports") == store.count("communities")
    events = summary["counts"]["server_events"]
    assert any("one request at a time" in e and "8 -> 1" in e for e in events)
    run = store.rows("runs")[-1]
    assert run["progress"]["server"]["events"]  # what the run panel shows


def test_llama_cpp_python_is_sent_one_call_at_a_time_from_the_start(tmp_path):
    """It says so only by its /v1/models: no call is sent beside another, so none is cut."""
    with FakeOpenAIServer(lambda m, r: respond(m), interrupt="drop", identify="llama-cpp-python",
                          token_delay=0.0005, models=("test-model",)) as server:
        store, summary = _index(server, tmp_path)
        assert server.interrupted == 0 and server.max_in_flight == 1
    assert summary["status"] == "finished" and store.count("extractions", "status = 'failed'") == 0
    assert any("llama-cpp-python" in e and "8 -> 1" in e for e in summary["counts"]["server_events"])


def test_a_server_with_two_slots_is_sent_two_calls_at_a_time(tmp_path):
    with FakeOpenAIServer(lambda m, r: respond(m), slots=2, latency=0.01, models=("test-model",)) as server:
        store, summary = _index(server, tmp_path)
        assert server.busy_refusals == 0 and server.max_in_flight <= 2
    assert summary["status"] == "finished" and store.count("extractions", "status = 'failed'") == 0
    assert any("2 parallel slots" in e for e in summary["counts"]["server_events"])


def test_a_server_that_refuses_calls_beyond_its_slots_silently_loses_no_unit(tmp_path):
    with FakeOpenAIServer(lambda m, r: respond(m), slots=2, report_slots=False, latency=0.02,
                          models=("test-model",)) as server:
        store, summary = _index(server, tmp_path, max_retries=6)
        assert server.busy_refusals > 0
    assert summary["status"] == "finished" and store.count("extractions", "status = 'failed'") == 0
    assert any("overloaded" in e for e in summary["counts"]["server_events"])


def test_a_stream_served_as_application_json_is_read_as_a_stream():
    with FakeOpenAIServer(lambda m, r: "the streamed answer", json_stream_type=True) as server:
        chat = OpenAIChatClient(server.settings(max_retries=2))
        res = chat.complete([{"role": "user", "content": "hi"}])
        assert res.text == "the streamed answer" and res.finish_reason == "stop"
        assert server.count("chat") == 1  # no retry: it was not taken for broken JSON


# the final pass and the exit status -----------------------------------------------------------
def _flaky_while_shared(limit_seen: list[int]):
    """A model that cannot answer extraction while another call is in flight."""
    active = {"n": 0}
    lock = threading.Lock()

    def answer(messages):
        first = messages[0]["content"]
        with lock:
            active["n"] += 1
            shared = active["n"] > 1
        try:
            import time
            time.sleep(0.02)
            with lock:
                shared = shared or active["n"] > 1
            if first.startswith("-Goal-\nRead the text below") and shared:
                return "not json at all"
            return respond(messages)
        finally:
            with lock:
                active["n"] -= 1
    return answer


def test_failed_units_get_a_final_pass_one_call_at_a_time(tmp_path):
    store = Store(tmp_path)
    _ingest(store)
    from core.settings import Settings
    s = Settings(engine="llm", concurrency=4)
    llm = LLM(FakeChat(_flaky_while_shared([])), store)
    summary = run_index(store, s, engine=LLMEngine(llm, s, store.workspace), llm=llm)
    # a FakeChat has no adaptive limit: the final pass still runs the failed units one at a time
    assert store.count("extractions", "status = 'failed'") == 0
    assert summary["status"] == "finished"


def test_index_exits_non_zero_when_a_unit_failed_and_says_why(tmp_path, capsys):
    def broken_unit(messages, request):
        if messages[0]["content"].startswith("-Goal-\nRead the text below") and "Maria Okafor" in messages[0]["content"]:
            return "no JSON here, sorry"
        return respond(messages)

    with FakeOpenAIServer(broken_unit, models=("test-model",)) as server:
        files = sorted(SAMPLE.glob("2024-03-*"))[:3]
        ws = tmp_path / "ws"
        code = cli_main(["index", *map(str, files), "-w", str(ws), "--engine", "llm", "--base-url", server.url,
                         "--chat-model", "test-model", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert "failed (" in err and "text unit" in err and "unusable twice" in err


# always a graph -----------------------------------------------------------------------------
def _no_relationships(messages):
    first = messages[0]["content"]
    if first.startswith("-Goal-\nRead the text below") and len(messages) == 1:
        obj = json.loads(respond(messages).strip("`").removeprefix("json"))
        return json.dumps({"entities": obj["entities"], "relationships": []})
    return respond(messages)


def test_entities_without_relationships_still_give_communities_reports_and_a_global_answer(tmp_path):
    store = Store(tmp_path)
    _ingest(store, 1)  # one news article
    from core.settings import Settings
    s = Settings(engine="llm", concurrency=2)
    llm = LLM(FakeChat(_no_relationships), store)
    run_index(store, s, engine=LLMEngine(llm, s, store.workspace), llm=llm)
    rels = store.rows("relationships")
    assert rels and all(r["inferred"] == 1 for r in rels) and min(r["weight"] for r in rels) == 0.5
    assert "same sentence" in rels[0]["description"]
    assert store.count("communities") > 0
    reports = store.rows("community_reports")
    assert reports and all("inferred links" in r["summary"] for r in reports)
    g = global_search(store, "What happened?", GlobalParams(seed=1), llm=llm)
    assert any(p.score > 0 for b in g.batches for p in b.points) and "[Data: Reports (" in g.answer


def test_stated_relationships_get_no_inferred_edges(tmp_path):
    store = Store(tmp_path)
    _ingest(store, 1)
    from core.settings import Settings
    s = Settings(engine="llm", concurrency=2)
    llm = LLM(FakeChat(respond), store)
    run_index(store, s, engine=LLMEngine(llm, s, store.workspace), llm=llm)
    assert store.count("relationships") and not store.count("relationships", "inferred = 1")


def test_sentence_edges_join_names_of_one_sentence_only():
    text = "Alice Moreno met Bruno Tell in Lisbon. Carla Diaz stayed home."
    ents = [{"title": t} for t in ("Alice Moreno", "Bruno Tell", "Carla Diaz")]
    pairs = {(e["source"], e["target"]) for e in sentence_edges(ents, text)}
    assert pairs == {("Alice Moreno", "Bruno Tell")}
    nested = [{"title": t} for t in ("Calloway Chemicals", "Chemicals", "Port Aldermere")]
    pairs = {(e["source"], e["target"]) for e in sentence_edges(nested, "Calloway Chemicals left Port Aldermere.")}
    assert pairs == {("Calloway Chemicals", "Port Aldermere")}


def test_the_graph_draws_inferred_edges_dashed():
    from core.viz.graph import community_graph
    ents = [{"id": "a", "title": "A", "degree": 1}, {"id": "b", "title": "B", "degree": 1}]
    view = community_graph(ents, [{"source": "A", "target": "B", "weight": 0.5, "inferred": 1}])
    assert '"dashes": true' in view.html and "inferred from co-occurrence" in view.html

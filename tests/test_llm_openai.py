"""The OpenAI-compatible client against a real local HTTP server, through the real openai package:
every fault a real server shows, the limits, the JSON-mode fallback, the cache, and the key."""
from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from email.utils import formatdate

import pytest

from core.llm.jsonparse import chat_json
from core.llm.client import ContextOverflowError, FatalLLMError, LLMError
from core.llm.connection import check_connection
from core.llm.openai import (OpenAIChatClient, OpenAIEmbeddingClient, make_llm,
                             parse_retry_after, redact)
from core.llm.ratelimit import TokenBucket
from core.store.db import Store
from tests.openai_server import FakeOpenAIServer

SECRET = "sk-proj-SECRETkey0123456789abcdefXYZ"
ENTITIES = {"entities": [{"name": "ALDERMERE", "type": "geo"}, {"name": "MAYOR", "type": "person"},
                         {"name": "HARBOUR BOARD", "type": "organization"},
                         {"name": "DOCK STRIKE", "type": "event"}]}
USER = [{"role": "user", "content": "Extract the entities as JSON."}]


@pytest.fixture(scope="module")
def shared_server():
    with FakeOpenAIServer(lambda messages, request: ENTITIES) as s:
        yield s


@pytest.fixture
def server(shared_server):
    """The module's server, its record and fault script cleared for each test."""
    shared_server.reset()
    shared_server.api_key = None
    yield shared_server
    shared_server.api_key = None


def client(server, **changes) -> OpenAIChatClient:
    c = OpenAIChatClient(server.settings(**changes))
    c.backoff_base = 0.02  # fast tests; the schedule itself is checked separately
    return c


def test_answer_and_token_usage_come_from_the_api(server):
    r = client(server).complete(USER, max_tokens=200)
    assert json.loads(r.text) == ENTITIES
    assert r.prompt_tokens > 0 and r.completion_tokens > 0 and r.finish_reason == "stop"
    assert server.calls[0].body["max_tokens"] == 200 and server.calls[0].body["model"] == "test-model"


def test_without_usage_from_the_server_the_llm_wrapper_counts_tokens(tmp_path):
    with FakeOpenAIServer(lambda m, r: ENTITIES, include_usage=False) as s:
        llm = make_llm(s.settings(), Store(tmp_path))
        r = llm.chat(USER, stage="extract")
    assert r.prompt_tokens > 0 and r.completion_tokens > 0
    assert llm.usage.by_stage["extract"]["completion_tokens"] == r.completion_tokens


def test_429_waits_for_retry_after_instead_of_the_backoff(server):
    c = client(server)
    c.backoff_base = 5.0  # a backoff would take seconds: the short Retry-After must win
    server.add_faults("429:0.3")
    t = time.monotonic()
    r = c.complete(USER)
    elapsed = time.monotonic() - t
    assert json.loads(r.text) == ENTITIES
    assert 0.3 <= elapsed < 1.5
    assert [call.status for call in server.calls] == [429, 200]


def test_retry_after_as_an_http_date_and_the_cap():
    assert 1.0 <= parse_retry_after({"retry-after": formatdate(time.time() + 3, usegmt=True)}) <= 3.0
    assert parse_retry_after({"retry-after": "3600"}) == 60.0
    assert parse_retry_after({"retry-after": "3600"}, cap=5) == 5
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_429_with_a_date_retry_after_through_the_client(server):
    server.add_faults("429-date:1")
    t = time.monotonic()
    client(server).complete(USER)
    assert time.monotonic() - t < 3
    assert server.count("chat") == 2


@pytest.mark.parametrize("fault", ["500", "502", "503", "nochoices"])
def test_transient_faults_are_retried_until_an_answer_comes(server, fault):
    server.add_faults(fault, fault)
    r = client(server).complete(USER)
    assert json.loads(r.text) == ENTITIES
    assert server.count("chat") == 3


def test_an_answer_slower_than_the_timeout_is_abandoned_and_retried(server):
    server.add_faults("slow:3")
    t = time.monotonic()
    r = client(server, request_timeout=0.4).complete(USER)
    assert json.loads(r.text) == ENTITIES
    assert time.monotonic() - t < 2.5
    assert server.count("chat") == 2


def test_a_stream_that_keeps_coming_is_read_past_the_timeout_up_to_its_ceiling():
    """The timeout bounds silence, not a steady answer: a stream whose pieces come well within
    the timeout is read whole although it takes longer than the timeout (a small model on a busy
    CPU), and one still going at STREAM_CEILING timeouts is closed there and asked again."""
    from core.llm.stream import STREAM_CEILING
    with FakeOpenAIServer(lambda m, r: ENTITIES, token_delay=0.05) as s:  # ~40 pieces: ~2 s
        whole = client(s, request_timeout=0.6).complete(USER)  # 2 s > 0.6 s, but never silent
        assert json.loads(whole.text) == ENTITIES and s.count("chat") == 1
        c = client(s, request_timeout=0.3, max_retries=1)  # ceiling 5 x 0.3 = 1.5 s < 2 s
        t = time.monotonic()
        with pytest.raises(LLMError, match="no answer within 0.3 s"):
            c.complete(USER)
        took = time.monotonic() - t
        assert 2 * STREAM_CEILING * 0.3 <= took < 2 * 2.0  # two attempts cut at the ceiling
        assert s.count("chat") == 3


def test_a_stream_silent_for_longer_than_the_timeout_is_closed():
    """The first piece comes, then nothing for longer than the timeout: closed and retried."""
    with FakeOpenAIServer(lambda m, r: ENTITIES, token_delay=0.7) as s:
        c = client(s, request_timeout=0.4, max_retries=0)
        t = time.monotonic()
        with pytest.raises(LLMError, match="no answer within 0.4 s"):
            c.complete(USER)
        assert time.monotonic() - t < 2.0


def test_retries_stop_after_max_retries_with_the_last_cause(server):
    server.add_faults(*["503"] * 10)
    with pytest.raises(LLMError) as info:
        client(server, max_retries=2).complete(USER)
    assert not isinstance(info.value, FatalLLMError)
    assert server.count("chat") == 3
    assert "after 3 attempts" in str(info.value) and "HTTP 503" in str(info.value)


def test_backoff_grows_exponentially_with_jitter(server):
    c = client(server)
    c.backoff_base, c.backoff_cap = 1.0, 4.0
    delays = [[c._backoff(a) for a in range(1, 6)] for _ in range(50)]
    for row in delays:
        assert 0.5 <= row[0] <= 1.0 and 1.0 <= row[1] <= 2.0 and 2.0 <= row[2] <= 4.0
        assert all(2.0 <= d <= 4.0 for d in row[3:])  # capped
    assert len({round(row[0], 6) for row in delays}) > 10  # jittered


def test_a_refused_key_stops_at_once_without_retries(tmp_path):
    with FakeOpenAIServer(api_key="sk-the-right-key-000000") as s:
        c = OpenAIChatClient(s.settings(api_key=SECRET, max_retries=6))
        t = time.monotonic()
        with pytest.raises(FatalLLMError) as info:
            c.complete(USER)
        assert time.monotonic() - t < 1.0
        assert s.count("chat") == 1
    msg = str(info.value)
    assert msg == f"the API key was refused by {s.url}: 401"
    assert SECRET not in msg and SECRET[-4:] not in msg and SECRET not in repr(c)


@pytest.mark.parametrize("fault, words", [("403", "access was refused"),
                                          ("404", "it serves: test-embedding, test-model")])
def test_forbidden_and_unknown_model_are_fatal(server, fault, words):
    server.add_faults(fault)
    with pytest.raises(FatalLLMError) as info:
        client(server).complete(USER)
    assert words in str(info.value) and server.count("chat") == 1


def test_an_unknown_model_names_the_models_the_server_serves(server):
    with pytest.raises(FatalLLMError) as info:
        client(server, chat_model="llama-9000").complete(USER)
    assert str(info.value) == (f"model 'llama-9000' is not served by {server.url}; "
                               f"it serves: test-embedding, test-model")


def test_context_overflow_is_its_own_error_and_not_retried():
    with FakeOpenAIServer(context_window=50) as s:
        with pytest.raises(ContextOverflowError) as info:
            OpenAIChatClient(s.settings()).complete([{"role": "user", "content": "word " * 100}],
                                                    max_tokens=20)
        assert s.count("chat") == 1
    assert "maximum context length is 50" in str(info.value)


def test_json_mode_sends_json_object_where_the_server_accepts_it(server):
    c = client(server)
    c.complete(USER, json_mode=True)
    c.complete(USER, json_mode=True)
    assert [call.body.get("response_format") for call in server.calls] == [{"type": "json_object"}] * 2


@pytest.mark.parametrize("status", [500, 400])
def test_a_rejected_json_object_falls_back_once_and_is_remembered(status):
    with FakeOpenAIServer(lambda m, r: ENTITIES, reject_response_format="json_object",
                          reject_status=status) as s:
        c = OpenAIChatClient(s.settings())
        assert json.loads(c.complete(USER, json_mode=True).text) == ENTITIES
        assert json.loads(OpenAIChatClient(s.settings()).complete(USER, json_mode=True).text) == ENTITIES
        sent = [call.body.get("response_format") for call in s.calls]
        assert sent == [{"type": "json_object"}, None, None]
        assert [call.status for call in s.calls] == [status, 200, 200]


def test_a_server_rejecting_only_json_schema_keeps_json_object():
    with FakeOpenAIServer(lambda m, r: ENTITIES, reject_response_format="json_schema") as s:
        c = OpenAIChatClient(s.settings())
        c.complete(USER, json_mode=True)
        c.complete(USER, json_mode=True)
        assert [call.body.get("response_format") for call in s.calls] == [{"type": "json_object"}] * 2


def test_a_reasoning_model_gets_max_completion_tokens_and_no_temperature():
    with FakeOpenAIServer(lambda m, r: ENTITIES, unsupported_params=("max_tokens", "temperature")) as s:
        c = OpenAIChatClient(s.settings())
        assert json.loads(c.complete(USER, json_mode=True, max_tokens=300).text) == ENTITIES
        assert json.loads(c.complete(USER, json_mode=True, max_tokens=300).text) == ENTITIES
        last = s.calls[-1].body
        assert last["max_completion_tokens"] == 300 and "max_tokens" not in last
        assert "temperature" not in last and last["response_format"] == {"type": "json_object"}
        assert [c.status for c in s.calls] == [400, 400, 200, 200]


def test_tokens_per_minute_counts_the_usage_the_api_reports():
    for usage, at_least, below in ((True, 0.0, 0.5), (False, 0.9, 3.0)):
        with FakeOpenAIServer(lambda m, r: "ok", include_usage=usage) as s:
            c = OpenAIChatClient(s.settings(tokens_per_minute=60_000))  # 1000 a second, burst 10,000
            t = time.monotonic()
            for i in range(2):  # each reserves prompt + 5,500; the answer uses a handful
                c.complete([{"role": "user", "content": f"q{i}"}], max_tokens=5_500)
            assert at_least <= time.monotonic() - t < below, usage


def test_the_concurrency_limit_is_never_exceeded():
    with FakeOpenAIServer(lambda m, r: "ok", latency=0.05) as s:
        c = OpenAIChatClient(s.settings(concurrency=3))
        with ThreadPoolExecutor(12) as pool:
            list(pool.map(lambda i: c.complete([{"role": "user", "content": f"q{i}"}]), range(30)))
        assert s.count("chat") == 30
        assert s.max_in_flight == 3


def test_a_call_backing_off_does_not_hold_a_concurrency_slot():
    with FakeOpenAIServer(lambda m, r: "ok") as s:
        c = OpenAIChatClient(s.settings(concurrency=1))
        s.add_faults("429:0.6")
        done: dict[str, float] = {}
        t = time.monotonic()

        def call(name):
            c.complete([{"role": "user", "content": name}])
            done[name] = time.monotonic() - t

        first = threading.Thread(target=call, args=("first",))
        first.start()
        while s.count("chat") < 1:
            time.sleep(0.01)
        call("second")
        first.join()
    assert done["second"] < 0.4 and done["first"] >= 0.6


def test_clients_of_the_same_settings_share_one_openai_client_and_limit(server):
    a, b = OpenAIChatClient(server.settings()), OpenAIChatClient(server.settings())
    assert a.openai is b.openai and a._ep.limiter is b._ep.limiter
    other = OpenAIChatClient(server.settings(api_key="sk-another-key-123456"))
    assert other.openai is not a.openai


def test_a_cached_answer_is_not_requested_again(server, tmp_path):
    llm = make_llm(server.settings(), Store(tmp_path))
    first = llm.chat(USER, json_mode=True, max_tokens=100, stage="extract")
    second = llm.chat(USER, json_mode=True, max_tokens=100, stage="extract")
    assert second.text == first.text and second.cached and not first.cached
    assert server.count("chat") == 1
    assert llm.usage.cache_hits == 1 and llm.usage.llm_calls == 1


def test_the_api_key_is_never_in_the_workspace_or_an_error(tmp_path):
    with FakeOpenAIServer(lambda m, r: ENTITIES) as s:
        llm = make_llm(s.settings(api_key=SECRET, max_retries=1), Store(tmp_path))
        for c in (llm.client, llm.embedder):
            c.backoff_base = 0.01
        llm.chat(USER, json_mode=True, stage="extract")
        llm.embed(["Aldermere harbour"])
        errors = []
        for fault in ("401", "404", "overflow"):
            s.add_faults(fault)
            with pytest.raises(LLMError) as info:
                llm.chat([{"role": "user", "content": fault}], stage="extract")
            errors.append(str(info.value))
        s.add_faults("500", "500")
        with pytest.raises(LLMError) as info:
            llm.chat([{"role": "user", "content": "again"}], stage="extract")
        errors.append(str(info.value))
    assert "sk-te***cdef" not in errors[0]  # the server's masked key is not repeated either
    for text in errors + [repr(llm.client), repr(llm.embedder)]:
        assert SECRET not in text
    llm.store.close()
    for f in tmp_path.iterdir():
        assert SECRET.encode() not in f.read_bytes(), f.name
        assert SECRET[3:].encode() not in f.read_bytes(), f.name


def test_redact_removes_keys_and_key_shaped_strings():
    assert redact(f"bad key {SECRET} here", SECRET) == "bad key *** here"
    assert "SECRET" not in redact("Incorrect API key provided: sk-proj-SECRE***XYZ", None)
    assert redact("Authorization: Bearer abcdef123", None) == "Authorization: Bearer ***"


@pytest.mark.parametrize("fault, expected_calls", [
    ("fence", 1), ("prose", 1), ("think", 1), ("truncate", 1), ("empty", 2), ("echo", 2)])
def test_what_small_models_return_still_yields_the_json(server, tmp_path, fault, expected_calls):
    server.add_faults(fault)
    # one call at a time: an empty answer is then the model's, retried by chat_json (beside other
    # calls the client takes it for the server's interruption and sends it again itself; the
    # test got that when run alone, and the retry only after an earlier test had taught the
    # shared endpoint one slot)
    llm = make_llm(server.settings(concurrency=1), Store(tmp_path))
    source = " ".join(f"Agent {i} met the mayor of Aldermere at pier {i}." for i in range(20))
    messages = [{"role": "system", "content": "Return the entities as JSON."},
                {"role": "user", "content": source}]
    obj, raw, attempts = chat_json(llm, messages, max_tokens=500, stage="extract")
    assert attempts == expected_calls == server.count("chat")
    if fault == "truncate":  # half the answer: the complete entities of that half are kept
        kept = obj["entities"]
        assert 1 <= len(kept) < 4 and kept == ENTITIES["entities"][:len(kept)]
    else:
        assert obj == ENTITIES


def test_embeddings_come_in_batches_of_64_and_are_deterministic(server):
    e = OpenAIEmbeddingClient(server.settings())
    texts = [f"text number {i} about the harbour" for i in range(130)]
    server.add_faults("503", endpoint="embeddings")
    e.backoff_base = 0.01
    vectors = e.embed(texts)
    assert len(vectors) == 130 and all(len(v) == 64 for v in vectors)
    assert [len(c.body["input"]) for c in server.calls if c.status == 200] == [64, 64, 2]
    assert server.count("embeddings") == 4
    assert e.embed([texts[5]])[0] == vectors[5]


def test_separate_embedding_endpoint(server):
    with FakeOpenAIServer(models=("embed-only",)) as other:
        settings = server.settings(embedding_base_url=other.url, embedding_model="embed-only")
        llm = make_llm(settings)
        assert len(llm.embed(["a", "b"])) == 2
        assert other.count("embeddings") == 1 and server.count("embeddings") == 0


def test_azure_openai_by_api_version_and_deployment(server):
    settings = server.settings(llm_base_url=server.root_url, azure_api_version="2024-06-01")
    r = OpenAIChatClient(settings).complete(USER)
    assert json.loads(r.text) == ENTITIES
    assert server.count("chat") == 1


def test_check_connection_says_exactly_what_is_wrong(server):
    ok, msg = check_connection(server.settings())
    assert ok and msg.startswith(f"connected to {server.url}; model 'test-model' answers")
    ok, msg = check_connection(server.settings(chat_model="gpt-9"))
    assert not ok and msg == f"model 'gpt-9' is not served by {server.url}; it serves: test-embedding, test-model"
    server.api_key = "sk-another-right-key-99"
    ok, msg = check_connection(server.settings(api_key=SECRET))
    assert not ok and msg == f"the API key was refused by {server.url}: 401" and SECRET not in msg
    stopped = FakeOpenAIServer().start()
    url = stopped.url
    stopped.stop()
    t = time.monotonic()
    ok, msg = check_connection(server.settings(llm_base_url=url))
    assert not ok and msg == f"cannot reach {url}: connection refused (is the server running?)"
    assert time.monotonic() - t < 2


def test_the_token_bucket_waits_by_sleeping_not_spinning():
    bucket = TokenBucket(per_minute=1200, capacity=1)  # 20 a second, no burst
    waits: list[float] = []
    wall, cpu = time.monotonic(), time.process_time()
    with ThreadPoolExecutor(4) as pool:
        waits = list(pool.map(lambda i: bucket.acquire(1), range(12)))
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    assert 0.45 <= wall < 1.2  # 11 refills of 50 ms after the first
    assert cpu < 0.2
    assert max(waits) >= 0.15  # a thread behind three reservations waited for all of them


def test_requests_per_minute_paces_the_calls(server):
    c = client(server, requests_per_minute=600)  # 10 a second, a burst of 100
    c._ep.limits.requests.capacity = 1
    c._ep.limits.requests._level = 1
    t = time.monotonic()
    for i in range(4):
        c.complete([{"role": "user", "content": str(i)}])
    assert 0.28 <= time.monotonic() - t < 1.5

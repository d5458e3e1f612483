"""At one call at a time the slot goes to the call that continues what the server holds
(core/llm/affinity.py): a gleaning round right after its extraction, so a server with a prompt
cache (llama-cpp-python's, Ollama's, llama.cpp's slots) evaluates only its last turn."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.affinity import conversation_key, shared_prefix, with_answer
from core.llm.concurrency import OK, AdaptiveLimit
from core.llm.openai import make_llm
from core.store.db import Store
from tests.fake_model import respond
from tests.openai_server import FakeOpenAIServer

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def test_shared_prefix_counts_the_common_start():
    assert shared_prefix("abcdef", "abcxyz") == 3
    assert shared_prefix("", "abc") == 0 and shared_prefix("abc", "abc") == 3
    first = [{"role": "user", "content": "extract this"}]
    follow = first + [{"role": "assistant", "content": "{...}"}, {"role": "user", "content": "more?"}]
    assert conversation_key(follow).startswith(with_answer(conversation_key(first), "{...}"))


def _waiter(lim: AdaptiveLimit, key: str, order: list[str], started: threading.Event | None = None):
    def run():
        slot = lim.acquire(key)
        order.append(key)
        lim.release(slot, OK, with_answer(key, "answer"))
    t = threading.Thread(target=run)
    t.start()
    return t


def _wait_for_waiters(lim: AdaptiveLimit, n: int) -> None:
    deadline = time.monotonic() + 5
    while len(lim._affinity.waiting) < n and time.monotonic() < deadline:
        time.sleep(0.005)


def test_the_call_continuing_the_last_conversation_goes_before_calls_that_came_earlier():
    lim = AdaptiveLimit(1)
    held = lim.acquire("\x1euser\x1fextract unit 1")
    order: list[str] = []
    others = [_waiter(lim, f"\x1euser\x1fextract unit {i}", order) for i in (2, 3)]
    _wait_for_waiters(lim, 2)
    cont = _waiter(lim, with_answer("\x1euser\x1fextract unit 1", "answer") + "\x1euser\x1fmore?", order)
    _wait_for_waiters(lim, 3)
    lim.release(held, OK, with_answer("\x1euser\x1fextract unit 1", "answer"))
    for t in [*others, cont]:
        t.join(5)
    assert order[0].endswith("more?")  # the gleaning round of unit 1 first, though it came last
    assert order[1:] == ["\x1euser\x1fextract unit 2", "\x1euser\x1fextract unit 3"]  # then in arrival order


def test_above_one_call_at_a_time_nothing_waits_for_affinity():
    lim = AdaptiveLimit(2)
    a = lim.acquire("x")
    lim.release(a, OK, with_answer("x", "y"))
    t0 = time.monotonic()
    b = lim.acquire("unrelated")  # another thread's grace period does not apply with free slots
    assert time.monotonic() - t0 < 0.05
    lim.release(b)


def test_a_one_slot_server_gets_each_gleaning_round_right_after_its_extraction(tmp_path):
    """Eight units in flight against llama-cpp-python's server (one answer at a time): without the
    affinity the other units' extraction calls reach the server between a unit's extraction and
    its gleaning round, and the server evaluates the whole conversation again."""
    with FakeOpenAIServer(lambda m, r: respond(m), interrupt="drop", identify="llama-cpp-python",
                          token_delay=0.0005, models=("test-model",)) as server:
        s = server.settings(concurrency=8, embedding_model=None, max_gleanings=1)
        store = Store(tmp_path)
        ingest_paths(store, sorted(SAMPLE.glob("2024-03-*"))[:3], max_bytes=10**7)
        summary = run_index(store, s, llm=make_llm(s, store))
        chats = [c.body["messages"] for c in server.calls if c.endpoint == "chat"]
    assert summary["status"] == "finished"
    gleanings = [i for i, m in enumerate(chats) if len(m) == 3 and m[1]["role"] == "assistant"]
    assert len(gleanings) == store.count("text_units")  # one round per unit
    for i in gleanings:
        assert chats[i - 1][0]["content"] == chats[i][0]["content"]  # its own extraction just before

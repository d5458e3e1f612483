"""Prompt tokens a one-slot local server has to evaluate, with and without call affinity (issue 18).

llama-cpp-python's server keeps the key-value cache of the last prompt and its answer and, for the
next prompt, evaluates only the tokens after the longest common prefix. With eight units in flight
and one call at a time, which call goes next decides how much of each prompt is already held
(core/llm/affinity.py). This indexes documents with the LLM engine at the default settings
(gleaning 1, claims on) against a local OpenAI-compatible server that identifies as
llama-cpp-python (one call at a time, interrupting), with the fake model of tests/fake_model.py,
once with the affinity and once without, and replays the served calls through a one-entry prefix
cache: evaluated = prompt tokens - tokens of the prefix shared with the previous prompt + answer.

    python bench/prefix_cache.py [--files dulce.txt ...]

Prints per corpus the prompt tokens sent, evaluated with and without the affinity, and the
ratio; the projected prompt-evaluation seconds at this machine's Qwen 1.5B (40 prompt tokens/s,
bench/results/real_model_defaults.json) are a projection, not a measurement.
"""
from __future__ import annotations

import argparse
import tempfile
import threading
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

from _common import CORPORA, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.affinity import Affinity, conversation_key, shared_prefix, with_answer
from core.llm.openai import make_llm
from core.store.db import Store
from core.tokens import count_tokens
from tests.fake_model import respond
from tests.openai_server import FakeOpenAIServer

PROMPT_TOKENS_PER_S = 40.0  # Qwen2.5-Coder-1.5B on llama-cpp-python, 2 cores, this machine
FILES = [CORPORA / "operation_dulce" / "dulce.txt",
         CORPORA / "msft_earnings_calls" / "TranscriptFY24Q4.txt"]


def served(src: Path, affinity: bool) -> list[tuple[str, str]]:
    """(conversation key, answer) of every chat call, in the order the server answered them."""
    order: list[tuple[str, str]] = []
    lock = threading.Lock()

    def answer(messages, request):
        text = respond(messages)
        with lock:
            order.append((conversation_key(messages), text))
        return text

    patch = nullcontext() if affinity else mock.patch.object(Affinity, "may_go", lambda self, t, now: (True, None))
    with patch, tempfile.TemporaryDirectory() as tmp, \
            FakeOpenAIServer(answer, interrupt="drop", identify="llama-cpp-python", token_delay=0.0005,
                             models=("test-model",)) as server:
        settings = server.settings(embedding_model=None)  # concurrency 8, gleaning 1, claims on
        store = Store(tmp)
        ingest_paths(store, [src], max_bytes=10**7)
        summary = run_index(store, settings, llm=make_llm(settings, store))
        assert summary["status"] == "finished", summary
    return order


def evaluated(order: list[tuple[str, str]]) -> tuple[int, int]:
    """(prompt tokens sent, prompt tokens a one-entry prefix cache leaves to evaluate)."""
    sent = todo = 0
    held = ""
    for key, text in order:
        n = count_tokens(key)
        same = count_tokens(key[:shared_prefix(key, held)]) if held else 0
        sent += n
        todo += n - same
        held = with_answer(key, text)
    return sent, todo


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", nargs="+", type=Path, default=FILES)
    args = ap.parse_args()
    rows = []
    for src in args.files:
        if not src.exists():
            print(f"{src}: not found, skipped")
            continue
        off_sent, off = evaluated(served(src, affinity=False))
        on_sent, on = evaluated(served(src, affinity=True))
        row = {"file": src.name, "prompt_tokens_sent": on_sent, "evaluated_without": off,
               "evaluated_with": on, "ratio": round(on / off, 3),
               "projected_prompt_seconds_without": round(off / PROMPT_TOKENS_PER_S),
               "projected_prompt_seconds_with": round(on / PROMPT_TOKENS_PER_S)}
        rows.append(row)
        print(f"{src.name}: {on_sent:,} prompt tokens sent; evaluated without affinity {off:,}, with "
              f"{on:,} ({row['ratio']:.2f}x); at 40 tokens/s that is {row['projected_prompt_seconds_without']} s "
              f"-> {row['projected_prompt_seconds_with']} s (projection)", flush=True)
    write_result("prefix_cache", {"rows": rows, "prompt_tokens_per_s": PROMPT_TOKENS_PER_S})


if __name__ == "__main__":
    main()

"""The simulated OpenAI-compatible endpoint for benchmarks, in its own process (so its CPU does
not compete with the pipeline's for one interpreter): tests/openai_server.FakeOpenAIServer
answering with the prompt-aware fake model of tests/fake_model.py after a fixed latency.

    python bench/sim_server.py --latency 0.1 [--fail-rate 0.1] [--request-log FILE] [--varied]
    # prints its base URL, serves until killed

--request-log FILE appends one JSON line per answered request (chat: the hash of model and
messages, and the kind of prompt; embeddings: the hash of each input text), so a harness can tell
across processes which calls were made and whether one was made twice.
--varied makes the fake model's descriptions depend on the passage (so entities seen in several
passages get several descriptions, which the pipeline summarises) and gives each passage a claim.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROMPT_KINDS = [("You break a user's question into", "lazy_refine"),
                ("\nDoes the passage help answer", "lazy_relevance"),
                ("You extract claims from passages", "lazy_claims"), ("answering a question from claims that were extracted", "lazy_reduce"),
                ("(Sources), the ones that matched the question best", "basic"),
                ("Some entities or relationships in the text may have been missed", "glean"),
                ("-Goal-\nRead the text below", "extract"), ("Extract claims", "claims"),
                ("You are writing one description", "summarize"),
                ("writing a report about one community", "report"), ("---Analyst reports---", "reduce"),
                ("---Data table---", "map"), ("entities the question is about", "local")]
from tests.fake_model_methods import KINDS as _METHOD_KINDS  # noqa: E402 - DRIFT, TS, judge (issue 21)
PROMPT_KINDS = _METHOD_KINDS + PROMPT_KINDS


def chat_key(model: str, messages: list[dict]) -> str:
    """The hash a request log records for a chat call (also computable from llm_cache rows)."""
    payload = json.dumps({"model": model, "messages": messages}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt_kind(messages: list[dict]) -> str:
    text = (messages[-1].get("content") or "") + "\n" + (messages[0].get("content") or "")
    return next((kind for marker, kind in PROMPT_KINDS if marker in text), "other")


def varied(messages: list[dict], answer: str) -> str:
    """The fake model's answer with passage-dependent descriptions and one claim per passage."""
    first = messages[0]["content"]
    kind = prompt_kind(messages)
    text = first.split("-Text-\n", 1)[-1]
    tag = hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]
    if kind == "extract":
        obj = json.loads(answer.strip().removeprefix("```json").removesuffix("```"))
        for e in obj["entities"]:
            e["description"] = f"{e['name']} appears in passage {tag}."
        for r in obj["relationships"]:
            r["description"] = f"{r['source']} and {r['target']} appear together in passage {tag}."
        return json.dumps(obj)
    if kind == "claims":
        names = first.split("about these entities:\n", 1)[1].split("\n", 1)[0].split(", ")
        sentence = next((s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if names[0] in s), "")
        if not names[0] or not sentence:
            return answer
        return json.dumps({"claims": [{"subject": names[0], "object": None, "type": "MENTION",
                                       "status": "TRUE", "description": f"{names[0]} is named in passage {tag}.",
                                       "source_text": sentence[:200]}]})
    return answer


def serve() -> None:
    from tests.fake_model import respond
    from tests.openai_server import FakeOpenAIServer

    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--fail-rate", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--request-log")
    ap.add_argument("--varied", action="store_true")
    args = ap.parse_args()
    lock = threading.Lock()
    log_fd = os.open(args.request_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644) if args.request_log else None

    def log(entry: dict) -> None:
        if log_fd is not None:
            with lock:
                os.write(log_fd, (json.dumps(entry) + "\n").encode("utf-8"))

    def answer(messages: list[dict], request: dict) -> str:
        log({"endpoint": "chat", "kind": prompt_kind(messages),
             "key": chat_key(request.get("model", ""), messages), "t": time.time(),
             "in_flight": server.in_flight})
        text = respond(messages)
        return varied(messages, text) if args.varied else text

    class LoggingServer(FakeOpenAIServer):
        async def _embedding_answer(self, body: dict, fault: str, model: str):
            inputs = body.get("input")
            inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
            log({"endpoint": "embeddings", "keys": [text_key(str(x)) for x in inputs], "t": time.time()})
            return await super()._embedding_answer(body, fault, model)

    # streamed answers (the client streams by default) come in a few chunks of 64 pieces after
    # the latency, so the bench does not measure the parsing of a chunk per token
    server = LoggingServer(answer, latency=args.latency, fail_rate=args.fail_rate, seed=args.seed,
                           transient_faults=("500", "503", "429:0.1"), chunk_tokens=64).start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        server.stop()


class SimServer:
    """Start bench/sim_server.py in a child process; .url is its base URL."""

    def __init__(self, latency: float, fail_rate: float = 0.0, request_log: str | Path | None = None,
                 varied: bool = False, quiet: bool = False):
        self.quiet = quiet  # no server tracebacks (a killed client's dropped connections)
        self.args = [sys.executable, str(Path(__file__)), "--latency", str(latency), "--fail-rate", str(fail_rate)]
        if request_log:
            self.args += ["--request-log", str(request_log)]
        if varied:
            self.args.append("--varied")

    def __enter__(self) -> "SimServer":
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, text=True, cwd=str(ROOT),
                                     stderr=subprocess.DEVNULL if self.quiet else None)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            self.proc.kill()
            raise RuntimeError("the simulated endpoint did not start")
        if "--request-log" not in self.args:  # a logged run counts every request: no extra ones
            self.warm_up()
        return self

    def warm_up(self, n: int = 32) -> None:
        """Requests in parallel before anything is timed, so the server's own start-up (thread
        pool, token counter, first requests) is not charged to what a bench measures: a real
        endpoint is warm. Plain HTTP, not through the client under test."""
        import json
        import urllib.request
        from concurrent.futures import ThreadPoolExecutor

        body = json.dumps({"model": "test-model", "messages": [{"role": "user", "content": "warm up " * 50}]}).encode()

        def one(_):
            req = urllib.request.Request(f"{self.url}/chat/completions", data=body,
                                         headers={"Content-Type": "application/json", "Authorization": "Bearer x"})
            try:
                urllib.request.urlopen(req, timeout=30).read()
            except OSError:
                pass  # a scripted fault is fine: the server is warm either way

        with ThreadPoolExecutor(n) as pool:
            list(pool.map(one, range(n)))

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    serve()

"""A real local HTTP server speaking the OpenAI API, with scripted answers and fault injection.

For tests and benches: the real `openai` client talks real HTTP to it (starlette + uvicorn in a
background thread, on a free 127.0.0.1 port; it starts in well under a second).

    from tests.openai_server import FakeOpenAIServer

    def respond(messages, request):          # request: the JSON body the client sent
        return '{"entities": []}'            # a str (or any JSON-able value, sent as JSON text)

    with FakeOpenAIServer(respond, latency=0.1) as server:
        settings = server.settings()          # core Settings pointed at it (engine="llm")
        server.add_faults("429:0.2", "ok", "truncate")   # the next chat calls, in order
        ...
        assert server.count("chat") == 4      # requests received (thread-safe)
        assert server.max_in_flight <= 8

Endpoints: POST /v1/chat/completions (with usage; streamed as server-sent events when the request
says "stream": true, a chunk per piece of about a token, the usage in a last chunk when
stream_options include_usage asks for it, then "data: [DONE]"), POST /v1/embeddings (deterministic
feature-hashed bag-of-words vectors of `dim` = 64 floats, unit length, so texts sharing words
are near), GET /v1/models; the same under Azure's /openai/deployments/{name}/... paths
(`server.root_url` is the Azure endpoint).

Faults, scripted per call with add_faults(*faults, endpoint="chat" | "embeddings"), each a string:
  "ok"                 no fault
  "429" / "429:S"      HTTP 429 with Retry-After: S seconds (default 1), at once (no latency)
  "429-date:S"         HTTP 429 with Retry-After as an HTTP date S seconds ahead
  "500", "503", ...    that HTTP status with an OpenAI-style error body; "401" a refused key,
                       "403" forbidden, "404" an unknown model
  "slow:S"             answer after S seconds (longer than the client's timeout: a timeout)
  "overflow"           HTTP 400 "maximum context length" (a context overflow)
  "truncate"           the answer cut in the middle, finish_reason "length"
  "fence"              the answer inside ```json fences
  "prose"              the answer with prose before and after it
  "think"              the answer after a <think>...</think> block
  "empty"              empty content
  "echo"               the content of the last user message instead of an answer
  "nochoices"          HTTP 200 with an empty choices list
  "drop"               the connection is closed halfway through the answer (streamed or not)
Unscripted calls fail with probability `fail_rate` (a seeded RNG), the fault drawn from
`transient_faults`. Other behaviour, set in the constructor:
  api_key              when set, requests with another key get 401 (like OpenAI, the message
                       shows a masked key)
  models               the served model ids; chat or embeddings for another model get 404
  reject_response_format  "json_schema" (like llama.cpp: a json_schema response_format gets
                       `reject_status`, default 500) or "json_object" (json_object as well)
  context_window       prompt tokens + max_tokens above it get a 400 context-length error
  report_window        "props": GET /props reports context_window as llama.cpp does;
                       "models": /v1/models lists it as max_model_len (vLLM); None: silent
  include_usage        False leaves usage out of the answers
  unsupported_params   ("max_tokens", "temperature"): refused with HTTP 400 and OpenAI's message
                       for reasoning models (use max_completion_tokens; only the default 1)
  streaming            "full" (the default), "no-options" (stream_options refused with HTTP 400,
                       like older Azure API versions), "reject" (stream: true refused with HTTP
                       400, like early reasoning models), "ignore" (answers as if not asked to)
  token_delay          seconds per generated piece: paces a stream; a whole answer waits for all
  chunk_tokens         pieces per streamed chunk (1, like real servers; more for cheap benches)
  interrupt            True: like llama-cpp-python's server at its defaults (interrupt_requests):
                       one answer is generated at a time, and a streamed answer ends at once
                       ("data: [DONE]", no finish reason) when another chat request is waiting;
                       a stream opens with a role-only chunk, so one interrupted at once is empty.
                       "drop": the interrupted stream's connection closes instead (what the real
                       server, llama-cpp-python 0.3.x, was seen to do: its task is cancelled)
  slots                at most this many requests handled at once; more get HTTP 503 ("no free
                       slot", as gateways and a full Ollama queue answer); GET /props reports
                       total_slots and GET /slots the slots, like llama.cpp (unless report_slots
                       is False)
  identify             "llama-cpp-python": /v1/models lists the models as that server does
                       (owned_by "me", empty permissions)
  json_stream_type     True: event streams are served with content-type application/json
                       (some gateways)
A respond() that returns Loop(prefix, unit) plays a model that has fallen into a loop: the
prefix, then the unit again and again up to max_tokens (4096 when none is given). A client that
disconnects stops a stream: `Call.chunks_sent` against `Call.chunks_planned` shows how early,
`Call.disconnected` that it did.
Every chat and embeddings request is recorded in `server.calls` (Call: endpoint, body, fault,
status; GET /v1/models, which clients ask before their first call, only in `server.model_lists`);
`server.max_in_flight` is the most requests it was handling at once.

Command line (a server in its own process, for benches): python -m tests.openai_server
--latency 0.1 --fail-rate 0.1 prints its URL and serves until interrupted.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import math
import random
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass
from email.utils import formatdate
from typing import Any, Callable

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

DEFAULT_MODELS = ("test-model", "test-embedding")
TEST_KEY = "sk-test-0123456789abcdef"


LOOP_CAP = 4096  # tokens a looping model generates when the request sets no max_tokens
_PIECE = re.compile(r"\s?\S{1,4}|\s", re.DOTALL)  # about a token: up to 4 characters


@dataclass
class Call:
    endpoint: str          # "chat", "embeddings" or "models"
    body: dict[str, Any]
    fault: str
    status: int = 0
    chunks_planned: int = 0   # chunks the whole answer takes (pieces of ~a token, chunk_tokens each)
    chunks_sent: int = 0      # chunks sent before the answer ended or the client went away
    disconnected: bool = False  # the client closed the connection before the answer ended
    _finished: bool = False


@dataclass
class Loop:
    """An answer from a model stuck in a loop: `prefix`, then `unit` over and over."""
    prefix: str
    unit: str


class _Drop(Exception):
    """Raised inside a response to close the connection mid-answer (the "drop" fault)."""


def _is_drop(record: logging.LogRecord) -> bool:
    exc = record.exc_info[1] if record.exc_info else None
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, _Drop) or any(isinstance(e, _Drop) for e in getattr(exc, "exceptions", ())):
            return False  # the "drop" fault is not an error worth a traceback
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return True


class _Streamed(StreamingResponse):
    call: Call | None = None
    release: Callable[[], None] | None = None  # frees the one generation (interrupt mode)


def default_respond(messages: list[dict], request: dict) -> str:
    if (request.get("response_format") or {}).get("type") in ("json_object", "json_schema"):
        return json.dumps({"answer": "ok"})
    return "ok"


def embed_text(text: str, dim: int = 64) -> list[float]:
    """Deterministic bag-of-words vector: each word hashed to a signed dimension, unit length."""
    vec = [0.0] * dim
    for word in text.lower().split():
        word = word.strip(".,;:!?\"'()[]{}")
        if not word:
            continue
        h = hashlib.md5(word.encode("utf-8")).digest()
        vec[h[0] % dim] += 1.0 if h[1] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0:
        vec[0], norm = 1.0, 1.0
    return [v / norm for v in vec]


def _count_tokens(text: str) -> int:
    try:
        from core.tokens import count_tokens
        return count_tokens(text)
    except Exception:  # the server also runs where core is not importable
        return max(1, len(text) // 4)


def cut_to_cap(text: str, cap: int | None) -> tuple[str, bool, int]:
    """(text, cut, completion tokens) of an answer generated up to an output cap of `cap` tokens
    (none: no cap): a longer answer is cut where the cap falls, as a real server stops there.
    Shared with in-process stand-ins for this server (bench/index_llm_scale.py), so both cut alike."""
    tokens = _count_tokens(text)
    if cap and tokens > cap:
        return text[:len(text) * cap // max(1, tokens)], True, cap
    return text, False, tokens


def _error(status: int, message: str, type_: str, code: str | None = None,
           headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": type_, "param": None, "code": code}},
                        status_code=status, headers=headers)


class FakeOpenAIServer:
    def __init__(self, respond: Callable[[list[dict], dict], Any] | None = None, *,
                 latency: float = 0.0, fail_rate: float = 0.0, seed: int = 0,
                 transient_faults: tuple[str, ...] = ("500", "503", "429:0.2"),
                 api_key: str | None = None, models: tuple[str, ...] = DEFAULT_MODELS,
                 reject_response_format: str | None = None, reject_status: int = 500,
                 context_window: int | None = None, include_usage: bool = True, dim: int = 64,
                 unsupported_params: tuple[str, ...] = (), streaming: str = "full",
                 token_delay: float = 0.0, chunk_tokens: int = 1, report_window: str | None = None,
                 interrupt: bool | str = False, slots: int | None = None, report_slots: bool = True,
                 json_stream_type: bool = False, identify: str | None = None):
        self.respond = respond or default_respond
        if report_window not in (None, "props", "models"):
            raise ValueError(f"report_window must be None, props or models, not {report_window!r}")
        self.report_window = report_window
        self.latency = latency
        self.fail_rate = fail_rate
        self.transient_faults = transient_faults
        self.api_key = api_key
        self.models = tuple(models)
        self.reject_response_format = reject_response_format
        self.reject_status = reject_status
        self.context_window = context_window
        self.include_usage = include_usage
        self.dim = dim
        self.unsupported_params = tuple(unsupported_params)
        if streaming not in ("full", "no-options", "reject", "ignore"):
            raise ValueError(f"streaming must be full, no-options, reject or ignore, not {streaming!r}")
        self.streaming = streaming
        self.token_delay = token_delay
        self.chunk_tokens = max(1, chunk_tokens)
        self.interrupt = interrupt
        self.slots = slots
        self.report_slots = report_slots
        self.json_stream_type = json_stream_type
        self.identify = identify
        self.model_lists = 0          # GET /v1/models answered (not kept in `calls`)
        self.interrupted = 0          # streams ended early because another request was waiting
        self.busy_refusals = 0        # requests refused with 503 for want of a free slot
        self._waiting = 0             # chat requests waiting for the one generation (interrupt)
        self._gen_lock: asyncio.Lock | None = None
        self.calls: list[Call] = []
        self.max_in_flight = 0
        self.in_flight = 0
        self._faults: dict[str, list[str]] = {"chat": [], "embeddings": []}
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # lifecycle -------------------------------------------------------------------------------
    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.root_url}/v1"

    def start(self) -> "FakeOpenAIServer":
        # proto IPPROTO_TCP, or asyncio leaves Nagle on and every keep-alive answer waits 40 ms
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self._app(), log_level="warning", access_log=False, lifespan="off",
                                loop="asyncio", http="h11", ws="none", backlog=1024,
                                timeout_graceful_shutdown=1, timeout_keep_alive=30)
        self._server = uvicorn.Server(config)
        logging.getLogger("uvicorn.error").addFilter(_is_drop)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                        name=f"fake-openai-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the fake OpenAI server did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeOpenAIServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # test helpers ----------------------------------------------------------------------------
    def settings(self, **changes: Any):
        """core Settings for this server: engine llm, its first model for chat and its second
        for embeddings (when it serves two), its key (or a test key), few fast retries."""
        from core.settings import Settings
        base = dict(engine="llm", llm_base_url=self.url, chat_model=self.models[0],
                    embedding_model=self.models[1] if len(self.models) > 1 else None,
                    api_key=self.api_key or TEST_KEY, max_retries=3, request_timeout=10.0)
        base.update(changes)
        return Settings(**base)

    def add_faults(self, *faults: str, endpoint: str = "chat") -> None:
        with self._lock:
            self._faults[endpoint].extend(faults)

    def count(self, endpoint: str | None = None) -> int:
        with self._lock:
            return sum(1 for c in self.calls if endpoint is None or c.endpoint == endpoint)

    def reset(self) -> None:
        with self._lock:
            self.calls.clear()
            self.max_in_flight = 0
            for q in self._faults.values():
                q.clear()

    # the app ---------------------------------------------------------------------------------
    def _app(self) -> Starlette:
        return Starlette(routes=[
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/embeddings", self._embeddings, methods=["POST"]),
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/props", self._props, methods=["GET"]),
            Route("/slots", self._slots, methods=["GET"]),
            Route("/openai/deployments/{name}/chat/completions", self._chat, methods=["POST"]),
            Route("/openai/deployments/{name}/embeddings", self._embeddings, methods=["POST"]),
        ])

    def _next_fault(self, endpoint: str) -> str:
        with self._lock:
            if self._faults[endpoint]:
                return self._faults[endpoint].pop(0)
            if self.fail_rate and self._rng.random() < self.fail_rate:
                return self._rng.choice(self.transient_faults)
            return "ok"

    def _record(self, endpoint: str, body: dict, fault: str) -> Call:
        call = Call(endpoint, body, fault)
        with self._lock:
            self.calls.append(call)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        return call

    def _done(self, call: Call, response: JSONResponse) -> JSONResponse:
        call.status = response.status_code
        if isinstance(response, _Streamed):
            response.call = call  # in flight until its last chunk is sent
        else:
            self._finish(call)
        return response

    def _finish(self, call: Call) -> None:
        with self._lock:
            if not call._finished:
                call._finished = True
                self.in_flight -= 1

    async def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self._stopping.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 0.05))

    def _auth_error(self, request: Request) -> JSONResponse | None:
        if self.api_key is None:
            return None
        given = request.headers.get("api-key") or request.headers.get("authorization", "")
        given = given.removeprefix("Bearer ").strip()
        if given == self.api_key:
            return None
        masked = f"{given[:3]}{'*' * max(0, len(given) - 7)}{given[-4:]}" if len(given) > 8 else "***"
        return _error(401, f"Incorrect API key provided: {masked}. You can find your API key at "
                           f"the provider's dashboard.", "invalid_request_error", "invalid_api_key")

    def _fault_response(self, fault: str, model: str) -> JSONResponse | None:
        kind, _, arg = fault.partition(":")
        if kind == "429":
            return _error(429, "Rate limit reached. Please try again later.", "requests",
                          "rate_limit_exceeded", headers={"Retry-After": arg or "1"})
        if kind == "429-date":
            when = formatdate(time.time() + float(arg or 1), usegmt=True)
            return _error(429, "Rate limit reached.", "requests", "rate_limit_exceeded",
                          headers={"Retry-After": when})
        if kind == "401":
            return _error(401, "Incorrect API key provided: sk-te***cdef.", "invalid_request_error",
                          "invalid_api_key")
        if kind == "403":
            return _error(403, "You are not allowed to use this model.", "invalid_request_error",
                          "forbidden")
        if kind == "404":
            return self._model_missing(model)
        if kind == "overflow":
            return self._overflow(100_000)
        if kind.isdigit():
            return _error(int(kind), "The server had an error while processing your request.",
                          "server_error")
        return None

    def _model_missing(self, model: str) -> JSONResponse:
        return _error(404, f"The model `{model}` does not exist or you do not have access to it.",
                      "invalid_request_error", "model_not_found")

    def _overflow(self, requested: int) -> JSONResponse:
        window = self.context_window or 8192
        return _error(400, f"This model's maximum context length is {window} tokens. However, you "
                           f"requested {requested} tokens. Please reduce the length of the messages.",
                      "invalid_request_error", "context_length_exceeded")

    async def _handle(self, request: Request, endpoint: str, answer) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            body = {}
        fault = self._next_fault(endpoint)
        call = self._record(endpoint, body, fault)
        try:
            model = request.path_params.get("name") or body.get("model", "")
            response = self._auth_error(request) or self._fault_response(fault, model)
            if response is None or response.status_code != 429:
                await self._sleep(self.latency)
            if response is None and fault.startswith("slow:"):
                await self._sleep(float(fault.partition(":")[2]))
            if response is None and not request.path_params.get("name") and model not in self.models:
                response = self._model_missing(model)
            if response is None:
                response = await answer(body, fault, model)
        except Exception as exc:  # a bug in a test's respond(): show it as a 500 with the reason
            response = _error(500, f"respond() raised {exc!r}", "server_error")
        return self._done(call, response)

    async def _chat(self, request: Request) -> JSONResponse:
        return await self._handle(request, "chat", self._chat_answer)

    async def _chat_answer(self, body: dict, fault: str, model: str) -> JSONResponse:
        if self.slots is not None and self.in_flight > self.slots:
            with self._lock:
                self.busy_refusals += 1
            return _error(503, "The server is busy: no free slot to process the request.", "server_error")
        if not self.interrupt:
            return await self._chat_generate(body, fault, model)
        if self._gen_lock is None:
            self._gen_lock = asyncio.Lock()
        self._waiting += 1  # the stream in flight sees this and ends (llama-cpp-python's outer lock)
        try:
            await self._gen_lock.acquire()
        finally:
            self._waiting -= 1
        try:
            response = await self._chat_generate(body, fault, model)
        except BaseException:
            self._gen_lock.release()
            raise
        if isinstance(response, _Streamed):
            response.release = self._gen_lock.release  # held until its stream ends
        else:
            self._gen_lock.release()
        return response

    async def _chat_generate(self, body: dict, fault: str, model: str) -> JSONResponse:
        messages = body.get("messages") or []
        rf = (body.get("response_format") or {}).get("type")
        mode = self.reject_response_format
        if rf and mode and (rf == "json_schema" or (mode == "json_object" and rf == "json_object")):
            message = (f"response_format {rf!r} is not supported" if self.reject_status < 500
                       else "Internal Server Error")
            return _error(self.reject_status, message, "server_error")
        if "max_tokens" in self.unsupported_params and "max_tokens" in body:
            return _error(400, "Unsupported parameter: 'max_tokens' is not supported with this "
                               "model. Use 'max_completion_tokens' instead.",
                          "invalid_request_error", "unsupported_parameter")
        if ("temperature" in self.unsupported_params and "temperature" in body
                and body["temperature"] != 1):
            return _error(400, f"Unsupported value: 'temperature' does not support "
                               f"{body['temperature']} with this model. Only the default (1) "
                               f"value is supported.", "invalid_request_error", "unsupported_value")
        streaming = bool(body.get("stream"))
        if streaming and self.streaming == "reject":
            return _error(400, "Unsupported value: 'stream' does not support true with this model. "
                               "Only the default (false) value is supported.",
                          "invalid_request_error", "unsupported_value")
        if "stream_options" in body and self.streaming == "no-options":
            return _error(400, "Unrecognized request argument supplied: stream_options",
                          "invalid_request_error")
        streaming = streaming and self.streaming != "ignore"
        # counted in a worker thread: on the event loop it would delay every other answer
        prompt_tokens = await run_in_threadpool(
            lambda: sum(_count_tokens(str(m.get("content") or "")) + 4 for m in messages))
        cap = body.get("max_tokens") or body.get("max_completion_tokens") or 0
        if self.context_window and prompt_tokens + cap > self.context_window:
            return self._overflow(prompt_tokens + cap)
        answer = await run_in_threadpool(self.respond, messages, body)
        text, finish, completion_tokens = await run_in_threadpool(
            self._generate, answer, fault, messages, cap)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "total_tokens": prompt_tokens + completion_tokens} if self.include_usage else None
        head = {"id": f"chatcmpl-{len(self.calls)}", "created": int(time.time()), "model": model}
        if streaming:
            want_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            return self._stream(head, text, finish, fault, usage if want_usage else None)
        if self.token_delay:
            await self._sleep(self.token_delay * len(_PIECE.findall(text)))
        payload: dict[str, Any] = {
            **head, "object": "chat.completion",
            "choices": [] if fault == "nochoices" else [
                {"index": 0, "message": {"role": "assistant", "content": text},
                 "finish_reason": finish}]}
        if usage:
            payload["usage"] = usage
        if fault == "drop":  # half the document, then the connection closes
            data = json.dumps(payload).encode("utf-8")
            return self._events([data[:len(data) // 2]], drop_at=1, media_type="application/json")
        return JSONResponse(payload)

    def _generate(self, answer: Any, fault: str, messages: list[dict], cap: int) -> tuple[str, str, int]:
        """(text, finish_reason, completion tokens) of an answer, cut at the output cap."""
        if isinstance(answer, Loop):
            limit = cap or LOOP_CAP
            reps = limit // max(1, _count_tokens(answer.unit)) + 2
            text, finish, cap = answer.prefix + answer.unit * reps, "length", limit
        else:
            if not isinstance(answer, str):
                answer = json.dumps(answer, ensure_ascii=False)
            text, finish = self._shape(answer, fault, messages)
        text, cut, completion_tokens = cut_to_cap(text, cap)
        return text, ("length" if cut else finish), completion_tokens

    def _stream(self, head: dict, text: str, finish: str, fault: str,
                usage: dict | None) -> "_Streamed":
        """The answer as server-sent events: a chunk per `chunk_tokens` pieces, the finish
        reason, the usage when asked for, [DONE]."""
        def sse(choices: list, **extra: Any) -> bytes:
            data = {**head, "object": "chat.completion.chunk", "choices": choices, **extra}
            return b"data: " + json.dumps(data, ensure_ascii=False).encode("utf-8") + b"\n\n"

        pieces = _PIECE.findall(text)
        k = self.chunk_tokens
        groups = [] if fault == "nochoices" else ["".join(pieces[i:i + k]) for i in range(0, len(pieces), k)]
        events = [sse([{"index": 0, "delta": {"role": "assistant", "content": g} if i == 0 else {"content": g},
                        "finish_reason": None}]) for i, g in enumerate(groups)]
        if self.interrupt and fault != "nochoices":  # llama-cpp-python opens with the role alone
            events.insert(0, sse([{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]))
        tail = [] if fault == "nochoices" else [sse([{"index": 0, "delta": {}, "finish_reason": finish}])]
        if usage:
            tail.append(sse([], usage=usage))
        tail.append(b"data: [DONE]\n\n")
        return self._events(events, tail=tail, delay=self.token_delay * k,
                            drop_at=len(events) // 2 if fault == "drop" else None)

    def _events(self, events: list[bytes], *, tail: tuple | list = (), delay: float = 0.0,
                drop_at: int | None = None, media_type: str = "text/event-stream") -> "_Streamed":
        """A response sending `events` (`delay` seconds before each, counted in the call's
        chunks_sent) then `tail`; the connection is closed instead of event `drop_at`. Stops when
        the client disconnects (Starlette cancels the generator)."""
        async def body():
            call = response.call or Call("chat", {}, "ok")
            call.chunks_planned = len(events)
            completed = False
            try:
                for i, event in enumerate(events):
                    if i == drop_at:
                        raise _Drop()
                    if delay:
                        await asyncio.sleep(delay)
                    if self._stopping.is_set():
                        return
                    call.chunks_sent += 1
                    yield event
                    if self.interrupt and self._waiting and media_type != "application/json":
                        with self._lock:
                            self.interrupted += 1
                        if self.interrupt == "drop":  # what the real server's cancel does
                            raise _Drop()
                        completed = True
                        yield b"data: [DONE]\n\n"  # llama-cpp-python: interrupted, no finish reason
                        return
                if drop_at is not None and drop_at >= len(events):
                    raise _Drop()
                for i, event in enumerate(tail):
                    if i == len(tail) - 1:
                        self._finish(call)  # before the last event: the client may ask again at once
                    yield event
                completed = True
            finally:
                call.disconnected = not completed and not self._stopping.is_set()
                self._finish(call)
                release, response.release = response.release, None
                if release is not None:
                    release()

        served = "application/json" if media_type == "text/event-stream" and self.json_stream_type else media_type
        response = _Streamed(body(), media_type=served)
        return response

    @staticmethod
    def _shape(text: str, fault: str, messages: list[dict]) -> tuple[str, str]:
        if fault == "truncate":
            return text[: max(1, len(text) // 2)], "length"
        if fault == "fence":
            return f"```json\n{text}\n```", "stop"
        if fault == "prose":
            return f"Sure! Here is the JSON you asked for:\n{text}\nLet me know if you need more.", "stop"
        if fault == "think":
            return f"<think>The user wants JSON. Let me think {{step by step}}.</think>\n{text}", "stop"
        if fault == "empty":
            return "", "stop"
        if fault == "echo":
            users = [m for m in messages if m.get("role") == "user"]
            return str(users[-1].get("content") if users else ""), "stop"
        return text, "stop"

    async def _embeddings(self, request: Request) -> JSONResponse:
        return await self._handle(request, "embeddings", self._embedding_answer)

    async def _embedding_answer(self, body: dict, fault: str, model: str) -> JSONResponse:
        inputs = body.get("input")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
        data = []
        for i, text in enumerate(inputs):
            vec = embed_text(str(text), self.dim)
            if body.get("encoding_format") == "base64":
                value: Any = base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode("ascii")
            else:
                value = vec
            data.append({"object": "embedding", "index": i, "embedding": value})
        tokens = sum(_count_tokens(str(t)) for t in inputs)
        return JSONResponse({"object": "list", "data": data, "model": model,
                             "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

    async def _models(self, request: Request) -> JSONResponse:
        with self._lock:  # counted, not kept in `calls`: clients look here before their first call
            self.model_lists += 1
        call = Call("models", {}, "ok")
        call._finished = True
        window = {"max_model_len": self.context_window} if self.report_window == "models" else {}
        who = {"owned_by": "me", "permissions": []} if self.identify == "llama-cpp-python" else {"owned_by": "fake"}
        response = self._auth_error(request) or JSONResponse({"object": "list", "data": [
            {"id": m, "object": "model", "created": 0, **who, **window} for m in self.models]})
        return self._done(call, response)

    async def _props(self, request: Request) -> JSONResponse:
        """llama.cpp's server properties: the window it runs with (only when report_window="props")."""
        slots = self.slots if self.report_slots else None
        if self.report_window != "props" and slots is None:
            return JSONResponse({"error": {"message": "File Not Found", "code": 404}}, status_code=404)
        body: dict[str, Any] = {}
        if self.report_window == "props":
            body["default_generation_settings"] = {"n_ctx": self.context_window or 8192}
        if slots is not None:
            body["total_slots"] = slots
        return JSONResponse(body)

    async def _slots(self, request: Request) -> JSONResponse:
        """llama.cpp's slots (only when `slots` is set and reported)."""
        if self.slots is None or not self.report_slots:
            return JSONResponse({"error": {"message": "File Not Found", "code": 404}}, status_code=404)
        return JSONResponse([{"id": i, "is_processing": False} for i in range(self.slots)])


def main(argv: list[str] | None = None) -> None:
    import argparse
    p = argparse.ArgumentParser(description="A local OpenAI-compatible test server.")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--latency", type=float, default=0.0)
    p.add_argument("--fail-rate", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    server = FakeOpenAIServer(latency=args.latency, fail_rate=args.fail_rate, seed=args.seed)
    if args.port:
        server.port = args.port
    server.start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()

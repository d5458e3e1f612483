"""Chat and embeddings through any OpenAI-compatible endpoint, robust to the faults real servers
show: OpenAI, Azure OpenAI (settings.azure_api_version set; the model name is the deployment),
Ollama, vLLM, llama.cpp server and LM Studio by base URL.

- One `openai` client per endpoint settings, shared by every OpenAIChatClient built from them,
  together with the endpoint's adaptive concurrency limit (core/llm/concurrency.py: it starts
  from the setting or the server's slots and drops when the server interrupts or is overloaded)
  and rate limits (core/llm/ratelimit.py): the registry is core/llm/endpoints.py.
- An answer that comes back empty or cut short (no finish reason, or its connection closed
  mid-stream) while other calls may be in flight is a server signal (llama-cpp-python's server interrupts a stream when the next request
  arrives): the limit drops and the call is sent again at once, without counting against the
  retries or the model.
- Transient faults (429, 408, 409, 5xx, timeouts, connection errors) are retried with
  exponential backoff and jitter, honouring Retry-After; a concurrency slot is held only while
  a request is in flight, never while backing off.
- Faults that retrying cannot fix stop at once with a message that says what is wrong:
  FatalLLMError for a refused key (401/403), an unknown model (404, listing the served models),
  an exhausted quota; ContextOverflowError for a prompt that does not fit the model's context.
- response_format {"type": "json_object"} is sent in JSON mode until the endpoint rejects it;
  the rejection is remembered per endpoint (core/llm/endpoints.py) and the call is repeated
  without it. The same for reasoning models that refuse max_tokens (max_completion_tokens is
  sent) or a temperature, and for servers that refuse stream_options or streaming itself.
- Chat answers are streamed (settings.stream) and read by core/llm/stream.py, which cuts a
  model that has fallen into a loop (core/llm/runaway.py): the result says cut_reason "repetition".
- The API key never appears in a message, a log line or a repr: server messages are redacted.
"""
from __future__ import annotations

import email.utils
import logging
import random
import re
import time
from typing import Any, Callable

import openai

from core.llm.client import LLM, ChatResult, ContextOverflowError, FatalLLMError, LLMError
from core.llm.affinity import conversation_key, with_answer
from core.llm.concurrency import CUT, NEUTRAL, OK, OVERLOAD, AdaptiveLimit
from core.llm.context_window import probe_once, window_resolver
from core.llm.endpoints import add_quirk, endpoint, json_object_accepted, quirks, remember_json_object
from core.llm.stream import (STREAM_CEILING, Answer, Dropped, Transient as _Transient, from_completion,
                             read_stream)
from core.llm.runaway import RunawayWatch
from core.settings import Settings
from core.tokens import count_tokens

log = logging.getLogger(__name__)

EMBED_BATCH = 64
_CONTEXT = re.compile(r"context length|maximum context|context size|context window|"
                      r"context_length_exceeded|too many tokens|prompt is too long", re.I)
_SK = re.compile(r"(sk-|Bearer\s+)[A-Za-z0-9_\-*.]{3,}")


def redact(text: str, api_key: str | None) -> str:
    """`text` without the API key or anything shaped like one (servers echo masked keys)."""
    if api_key:
        text = text.replace(api_key, "***")
    return _SK.sub(lambda m: m.group(1) + "***", text)


def parse_retry_after(headers: Any, cap: float = 60.0) -> float | None:
    """Seconds to wait from retry-after-ms, or Retry-After as seconds or an HTTP date; capped."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, min(cap, float(ms) / 1000))
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, min(cap, float(value)))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, min(cap, when.timestamp() - time.time()))


class _Caller:
    """The retry loop shared by the chat and embedding clients."""

    backoff_base = 0.2   # seconds before the first retry (then doubling to 20 s, with jitter): with
    # 8 retries a call rides out about 45 s of an endpoint restarting, and a lone 500 costs little
    backoff_cap = 20.0
    retry_after_cap = 60.0

    def __init__(self, settings: Settings, base_url: str | None, model: str, what: str):
        self.settings = settings
        self.model = model
        self.what = what
        self.max_retries = max(0, settings.max_retries)
        self._ep = endpoint(settings, base_url, model)
        self.url = self._ep.url
        self._api_key = settings.api_key
        self._sleep: Callable[[float], None] = time.sleep

    @property
    def openai(self) -> Any:
        return self._ep.client

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, url={self.url!r})"

    @property
    def limiter(self) -> AdaptiveLimit:
        return self._ep.limiter

    SIGNAL_RETRIES = 16
    """Calls sent again after a server signal (an interrupted answer): not counted as retries."""

    def _run(self, fn: Callable[[], Any], estimate: int = 0, key: str | None = None,
             held_of: Callable[[Any], str] | None = None) -> Any:
        """Call fn under the endpoint's limits, retrying what is worth retrying. `key` (the
        conversation) and `held_of` (what the server holds after an answer) let a one-slot
        server be sent the call that continues its last one first (core/llm/affinity.py)."""
        attempts = self.max_retries + 1
        attempt = signals = 0
        while True:
            attempt += 1
            self._ep.limits.acquire(estimate)
            slot = self._ep.limiter.acquire(key)
            try:
                with self._ep.limits.held():
                    result = fn()
            except (openai.APIError, _Transient) as exc:
                if isinstance(exc, Dropped) and slot.shared and signals < self.SIGNAL_RETRIES:
                    self._ep.limiter.release(slot, CUT)  # interrupted for the next request
                    signals += 1
                    attempt -= 1
                    log.info("%s call to %s: %s with other calls in flight; sending it again at "
                             "concurrency %d", self.what, self.url, exc, self._ep.limiter.limit)
                    continue
                self._ep.limiter.release(slot, _outcome(exc))
                delay, reason = self._classify(exc, attempt)
            else:
                cut = _cut_short(result)
                if cut is None or not slot.shared or signals >= self.SIGNAL_RETRIES:
                    held = held_of(result) if (held_of and cut is None) else None
                    self._ep.limiter.release(slot, OK if cut is None else CUT, held)
                    return result
                self._ep.limiter.release(slot, CUT)
                signals += 1
                attempt -= 1  # the server's doing, not the model's: sent again, not counted
                log.info("%s call to %s: %s with other calls in flight; sending it again at "
                         "concurrency %d", self.what, self.url, cut, self._ep.limiter.limit)
                continue
            if attempt >= attempts:
                raise LLMError(f"{self.what} call to model '{self.model}' at {self.url} failed "
                               f"after {attempts} attempt{'s' * (attempts > 1)}: {reason}")
            log.info("%s call to %s: %s; retry %d of %d in %.2f s", self.what, self.url, reason,
                     attempt, self.max_retries, delay)
            self._sleep(delay)

    def _backoff(self, attempt: int) -> float:
        d = min(self.backoff_cap, self.backoff_base * 2 ** (attempt - 1))
        return d / 2 + random.uniform(0, d / 2)

    def _classify(self, exc: Exception, attempt: int) -> tuple[float, str]:
        """(delay, reason) for a transient fault; raises for one that retrying cannot fix."""
        if isinstance(exc, openai.APITimeoutError):
            t = float(self.settings.request_timeout)
            return self._backoff(attempt), (f"no answer within {t:g} s (nothing came for that long, or "
                                            f"a streamed answer was still going after {STREAM_CEILING * t:g} s)")
        if isinstance(exc, openai.APIConnectionError):
            return self._backoff(attempt), connection_reason(exc)
        if isinstance(exc, _Transient):
            return self._backoff(attempt), str(exc)
        if not isinstance(exc, openai.APIStatusError):
            return self._backoff(attempt), redact(str(exc), self._api_key)[:200]
        status, msg = exc.status_code, self._server_message(exc)
        if status == 401:
            hint = "" if self._api_key else " (no API key is set: set OPENAI_API_KEY)"
            raise FatalLLMError(f"the API key was refused by {self.url}: 401{hint}") from None
        if status == 403:
            raise FatalLLMError(f"access was refused by {self.url}: 403 {msg}".rstrip()) from None
        if status == 404:
            raise FatalLLMError(self._not_found_message(msg)) from None
        if status in (400, 413, 422) and _CONTEXT.search(msg):
            raise ContextOverflowError(
                f"the prompt plus the output cap does not fit the context window of model "
                f"'{self.model}' at {self.url}: {msg}") from None
        if status == 429 and "quota" in msg.lower() and "insufficient" in msg.lower():
            raise FatalLLMError(f"the account behind the API key has no quota left at {self.url}: "
                                f"429 {msg}") from None
        if status in (408, 409, 429) or status >= 500:
            wait = parse_retry_after(exc.response.headers, self.retry_after_cap)
            delay = self._backoff(attempt) if wait is None else wait + random.uniform(0, 0.1 * wait)
            return delay, f"HTTP {status} {msg}".rstrip()
        raise LLMError(f"model '{self.model}' at {self.url} rejected the request: "
                       f"{status} {msg}".rstrip()) from None

    def _server_message(self, exc: openai.APIStatusError) -> str:
        body, msg = exc.body, ""
        if isinstance(body, dict):
            err = body.get("error", body)
            msg = err.get("message", "") if isinstance(err, dict) else str(err)
            code = err.get("code") if isinstance(err, dict) else None
            if code and str(code) not in msg:
                msg = f"{msg} ({code})".strip()
        elif isinstance(body, str):
            msg = body
        msg = " ".join(redact(str(msg or ""), self._api_key).split())
        return msg if len(msg) <= 300 else msg[:297] + "..."

    def served_models(self) -> list[str] | None:
        """The model ids the endpoint lists, or None where it does not say (Azure, no /models)."""
        if self._ep.azure:
            return None
        try:
            return sorted(m.id for m in self._ep.client.models.list())
        except openai.APIError:
            return None

    def _not_found_message(self, msg: str) -> str:
        if self._ep.azure:
            return f"deployment '{self.model}' is not found at {self.url}: 404 {msg}".rstrip()
        served = self.served_models()
        if served:
            return f"model '{self.model}' is not served by {self.url}; it serves: {', '.join(served)}"
        return (f"model '{self.model}' is not served by {self.url} (404 {msg}); the server does not "
                f"list its models either: check the base URL (it usually ends in /v1)")


def _outcome(exc: Exception) -> str:
    """What a failed call says about the server's load: OVERLOAD for a timeout, 429 or 503."""
    if isinstance(exc, openai.APITimeoutError):
        return OVERLOAD
    if isinstance(exc, openai.APIStatusError) and exc.status_code in (429, 503):
        if "quota" not in str(exc).lower():
            return OVERLOAD
    return NEUTRAL


def _cut_short(result: Any) -> str | None:
    """Why an answer looks interrupted by the server (None: it does not): empty, or a stream that
    ended without a finish reason (and was not closed by us on a loop)."""
    if not isinstance(result, Answer):
        return None
    if not result.generated.strip():
        return "the answer came back empty"
    if result.streamed and result.finish_reason is None and not result.stopped_early:
        return "the answer was cut short (the stream ended without a finish reason)"
    return None


def connection_reason(exc: BaseException) -> str:
    texts = []
    e: BaseException | None = exc
    while e is not None and len(texts) < 8:
        texts.append(str(e))
        e = e.__cause__ or e.__context__
    joined = " ".join(texts).lower()
    if "refused" in joined:
        return "connection refused (is the server running?)"
    if any(s in joined for s in ("name or service not known", "nodename nor servname",
                                 "name resolution", "getaddrinfo", "no address associated")):
        return "the host name does not resolve"
    if "timed out" in joined or "timeout" in joined:
        return "the connection timed out"
    return texts[-1][:200] if texts and texts[-1] else "connection error"


NO_STREAM_BELOW = 16
"""An answer capped at this many tokens (a yes/no relevance test) is not streamed: it cannot fall
into a loop, and streaming costs the endpoint and the client more than the answer."""


class OpenAIChatClient(_Caller):
    """core.llm.client.ChatClient for an OpenAI-compatible chat completions endpoint."""

    def __init__(self, settings: Settings):
        super().__init__(settings, settings.llm_base_url, settings.chat_model, "chat")
        self._rf_key = (self.url, self.model)
        self.stream = settings.stream

    def complete(self, messages: list[dict[str, str]], *, json_mode: bool = False,
                 max_tokens: int | None = None, temperature: float = 0.0) -> ChatResult:
        estimate = 0
        if self._ep.limits.tokens is not None or self._ep.limits.shared is not None:
            estimate = sum(count_tokens(m.get("content") or "") + 4 for m in messages) + (max_tokens or 256)
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        if self.stream and not (max_tokens and max_tokens <= NO_STREAM_BELOW):
            kwargs.update(stream=True, stream_options={"include_usage": True})
        key = conversation_key(messages)
        ans: Answer = self._run(lambda: self._create(kwargs, json_mode), estimate, key,
                                lambda a: with_answer(key, a.generated or a.text))
        pt, ct = ans.prompt_tokens, ans.completion_tokens
        self._ep.limits.settle(estimate, pt + ct)  # only what the server reports is refunded
        if not ans.usage_reported:  # a cut stream, or a server that reports none: count them
            pt = sum(count_tokens(m.get("content") or "") for m in messages)
            ct = count_tokens(ans.generated)
        if ans.runaway is not None:
            log.warning("chat call to %s: model '%s' fell into a loop (%s); %s %d characters, "
                        "%d kept", self.url, self.model, ans.runaway.describe(),
                        "generation stopped after" if ans.stopped_early else
                        "the answer ran to its output cap,", len(ans.generated), len(ans.text))
        return ChatResult(text=ans.text, prompt_tokens=pt, completion_tokens=ct,
                          finish_reason=ans.finish_reason,
                          cut_reason="repetition" if ans.runaway is not None else None)

    def _create(self, kwargs: dict[str, Any], json_mode: bool) -> Answer:
        """One request, adapted to what this endpoint is known to refuse; a refusal of a
        parameter it had not refused before is learnt and the request sent again at once."""
        for _ in range(5):
            try:
                return self._create_json(self._adapted(kwargs), json_mode)
            except openai.APIStatusError as exc:
                if not self._learn_quirk(exc):
                    raise
        return self._create_json(self._adapted(kwargs), json_mode)

    def _adapted(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        refused = quirks(self._rf_key)
        kwargs = dict(kwargs)
        if "max_completion_tokens" in refused and "max_tokens" in kwargs:
            kwargs["max_completion_tokens"] = kwargs.pop("max_tokens")
        if "no_temperature" in refused:
            kwargs.pop("temperature", None)
        if "no_stream" in refused:
            kwargs.pop("stream", None)
        if "no_stream" in refused or "no_stream_options" in refused:
            kwargs.pop("stream_options", None)
        return kwargs

    def _learn_quirk(self, exc: openai.APIStatusError) -> bool:
        """Reasoning models (o-series, gpt-5) refuse max_tokens and any temperature but 1; some
        servers (older Azure API versions, some proxies) refuse stream_options or streaming."""
        if exc.status_code not in (400, 422):
            return False
        msg, known = self._server_message(exc), quirks(self._rf_key)
        if _CONTEXT.search(msg):
            return False
        quirk = None
        if "max_completion_tokens" in msg and "max_tokens" in msg:
            quirk = "max_completion_tokens"
        elif "temperature" in msg and re.search(r"unsupported|not support|only the default", msg, re.I):
            quirk = "no_temperature"
        elif "stream_options" in msg:
            quirk = "no_stream_options"
        elif re.search(r"\bstream", msg, re.I):
            quirk = "no_stream"
        if quirk is None or quirk in known:
            return False
        add_quirk(self._rf_key, quirk)
        log.info("%s refuses a parameter for %s; adapting: %s", self.url, self.model, quirk)
        return True

    def _create_json(self, kwargs: dict[str, Any], json_mode: bool) -> Answer:
        create = self._ep.client.chat.completions.create
        deadline = time.monotonic() + float(self.settings.request_timeout)
        accepted = json_object_accepted(self._rf_key)
        if not json_mode or accepted is False:
            return self._read(create(**kwargs), deadline)
        try:
            resp = create(**kwargs, response_format={"type": "json_object"})
        except openai.APIStatusError as exc:
            if not self._maybe_rejects_json_object(exc, first=accepted is None):
                raise
            resp = create(**kwargs)  # a fault of its own propagates to the retry loop
            remember_json_object(self._rf_key, False)
            log.info("%s rejects response_format json_object for %s; sending it no more",
                     self.url, self.model)
            return self._read(resp, deadline)
        remember_json_object(self._rf_key, True)
        return self._read(resp, deadline)

    def _read(self, resp: Any, deadline: float | None = None) -> Answer:
        """The answer of a request; a streamed one is watched for a loop and cut, and closed
        (a timeout) if it is still going at the deadline."""
        if not isinstance(resp, openai.Stream):
            return from_completion(resp)
        timeout = float(self.settings.request_timeout)
        ceiling = None if deadline is None else deadline + (STREAM_CEILING - 1) * timeout
        answer = read_stream(resp, RunawayWatch(), deadline, gap=timeout, ceiling=ceiling)
        if not answer.streamed and "no_stream" not in quirks(self._rf_key):
            # it answered a stream request with one JSON document: ask no more
            add_quirk(self._rf_key, "no_stream")
            log.info("%s does not stream answers of %s; asking for whole answers", self.url, self.model)
        return answer

    def _maybe_rejects_json_object(self, exc: openai.APIStatusError, first: bool) -> bool:
        status, msg = exc.status_code, self._server_message(exc)
        if status in (401, 403, 404, 408, 409, 429) or _CONTEXT.search(msg):
            return False
        if "response_format" in msg or "json_object" in msg:
            return status in (400, 422, 500)
        if "max_completion_tokens" in msg or "temperature" in msg or "stream" in msg.lower():
            return False  # another parameter was refused: _learn_quirk adapts to it
        return first  # the first time it was sent, any other error may be the rejection


class OpenAIEmbeddingClient(_Caller):
    """core.llm.client.EmbeddingClient for an OpenAI-compatible embeddings endpoint (batches of 64)."""

    def __init__(self, settings: Settings):
        if not settings.embedding_model:
            raise FatalLLMError("no embedding model is configured")
        super().__init__(settings, settings.embedding_base_url or settings.llm_base_url,
                         settings.embedding_model, "embedding")

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), EMBED_BATCH):
            batch = [t if t.strip() else " " for t in texts[start:start + EMBED_BATCH]]
            vectors.extend(self._run(lambda b=batch: self._batch(b)))
        return vectors

    def _batch(self, batch: list[str]) -> list[list[float]]:
        resp = self._ep.client.embeddings.create(model=self.model, input=batch,
                                                 encoding_format="float")
        data = sorted(resp.data, key=lambda d: d.index)
        if len(data) != len(batch):
            raise _Transient(f"{len(data)} vectors came back for {len(batch)} texts")
        return [list(d.embedding) for d in data]


def make_llm(settings: Settings, store: Any = None) -> LLM:
    """The LLM wrapper (cache, usage, prices) around this endpoint's chat and embedding clients."""
    embedder = OpenAIEmbeddingClient(settings) if settings.embedding_model else None
    chat = OpenAIChatClient(settings)
    return LLM(chat, store=store, prices=dict(settings.prices), embedder=embedder,
               window=window_resolver(settings.context_window, chat.model, _window_probe(settings, chat)))


def _window_probe(settings: Settings, chat: "OpenAIChatClient") -> Callable[[], tuple[int | None, str]]:
    """Ask the server for the model's window, except OpenAI and Azure, which never say."""
    if not settings.llm_base_url or settings.azure_api_version:
        return lambda: (None, "")
    return lambda: probe_once(chat.url, chat.model, settings.api_key, min(5.0, settings.request_timeout))

"""Reading a chat answer, streamed or not, into one shape; cutting a streamed answer that loops.

A streamed answer is accumulated from its deltas while core/llm/runaway.py watches the growing text;
when the model has fallen into a loop the stream is closed (closing the response is what makes
llama.cpp, vLLM and the others stop generating) and the text is kept up to the first occurrence
of the repeated passage. Usage comes from the chunk that carries it (stream_options
include_usage); a stream cut short, or a server that sends none, has no usage, and the caller
counts the tokens itself. A server that ignores `stream` and answers with one JSON document is
read as such; an event stream served under a JSON content type (some gateways) is read as a
stream, line by line. A stream that breaks off mid-answer raises Transient, so the call is retried. The request
timeout bounds the silence: the wait for the answer to start, and any gap between two of its
pieces. A streamed answer that keeps coming is read to its end (its length is bounded by the
call's max_tokens and the runaway watch), up to a ceiling of STREAM_CEILING x the timeout from the
request: a small model on a busy CPU writing 8 tokens a second needs more than 120 s for a
900-token extraction and is not stuck. Past the deadline the stream is closed and raises a
timeout, so the call is retried like any other.
"""
from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import openai

from core.llm.runaway import Runaway, RunawayWatch, find_runaway

STREAM_CEILING = 5
"""A streamed answer may take at most this many request timeouts in all, however steadily it comes."""


class Transient(Exception):
    """A malformed or broken answer (no choices, a stream cut off, wrong number of vectors):
    worth another try."""


class Dropped(Transient):
    """The connection closed in the middle of a streamed answer. llama-cpp-python's server does
    this to the answer it is streaming when the next request arrives (interrupt_requests)."""


@dataclass
class Answer:
    text: str                       # the answer (when cut: the part worth keeping)
    finish_reason: str | None
    prompt_tokens: int = 0          # as the server reported them (0: not reported)
    completion_tokens: int = 0
    generated: str = ""             # everything received (more than `text` when cut)
    runaway: Runaway | None = None
    streamed: bool = False          # False also when a stream was asked for and not given
    stopped_early: bool = False     # the stream was closed on a loop (not cut after the fact)

    @property
    def usage_reported(self) -> bool:
        return bool(self.prompt_tokens or self.completion_tokens)


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _usage(answer: Answer, usage: Any) -> None:
    if usage:
        answer.prompt_tokens = int(_get(usage, "prompt_tokens") or 0)
        answer.completion_tokens = int(_get(usage, "completion_tokens") or 0)


def from_completion(resp: Any) -> Answer:
    """A non-streamed answer (an openai ChatCompletion or its JSON as a dict). A looped answer
    that ran to the output cap is cut here too: the time is spent, but the repair of
    truncated JSON then sees one copy of the looped item, not dozens."""
    choices = _get(resp, "choices")
    if not choices:
        raise Transient("the answer has no choices")
    choice = choices[0]
    text = _get(_get(choice, "message") or {}, "content") or ""
    answer = Answer(text, _get(choice, "finish_reason"), generated=text)
    _usage(answer, _get(resp, "usage"))
    if answer.finish_reason == "length":
        _cut(answer, find_runaway(text))
    return answer


def _cut(answer: Answer, runaway: Runaway | None) -> None:
    if runaway is not None:
        answer.runaway = runaway
        answer.text = answer.generated[:runaway.keep]
        answer.finish_reason = "runaway"


def read_stream(stream: openai.Stream, watch: RunawayWatch | None, deadline: float | None = None,
                gap: float | None = None, ceiling: float | None = None) -> Answer:
    """Accumulate a streamed answer, closing the stream early when `watch` sees a loop; past
    `deadline` (time.monotonic()) it is closed and openai.APITimeoutError raised. With `gap`,
    every piece of the answer moves the deadline to `gap` seconds after it, never past
    `ceiling`."""
    ctype = (stream.response.headers.get("content-type") or "").lower()
    chunks: Iterable[Any] = stream
    if "json" in ctype and "event-stream" not in ctype:  # `stream` ignored, or a gateway that
        lines = _lines(stream)                          # labels the event stream as JSON
        try:
            first = next(lines, "")
            if not first.startswith("data:"):  # one JSON document: a plain answer
                try:
                    return from_completion(json.loads("\n".join([first, *lines])))
                except ValueError:
                    raise Transient("the answer is not JSON") from None
                finally:
                    stream.close()
        except Exception as exc:
            if not type(exc).__module__.startswith(("httpx", "httpcore", "h11", "openai")):
                raise
            stream.close()
            raise Dropped(f"the connection dropped in the middle of the answer ({_cause(exc)})") from None
        chunks = _events(itertools.chain([first], lines))
    text, finish, usage, choices_seen = "", None, None, False
    runaway = None
    try:
        for chunk in chunks:
            usage = _get(chunk, "usage") or usage
            for choice in _get(chunk, "choices") or ():
                if (_get(choice, "index") or 0) != 0:
                    continue
                choices_seen = True
                piece = _get(_get(choice, "delta") or {}, "content")
                if piece:
                    text += piece
                    if deadline is not None and gap is not None:
                        deadline = max(deadline, time.monotonic() + gap)
                        if ceiling is not None:
                            deadline = min(deadline, ceiling)
                finish = _get(choice, "finish_reason") or finish
            if watch is not None and finish is None:
                runaway = watch.check(text)
                if runaway is not None:
                    break
            if deadline is not None and finish is None and time.monotonic() > deadline:
                raise openai.APITimeoutError(request=stream.response.request)
    except openai.APITimeoutError:
        raise
    except openai.APIConnectionError as exc:
        raise Dropped(f"the connection dropped in the middle of the answer "
                        f"({_cause(exc)})") from None
    except Exception as exc:  # older openai versions let the transport's errors through
        if not type(exc).__module__.startswith(("httpx", "httpcore", "h11")):
            raise
        raise Dropped(f"the connection dropped in the middle of the answer ({_cause(exc)})") from None
    finally:
        stream.close()
    if not choices_seen:
        raise Transient("the answer has no choices")
    answer = Answer(text, finish, generated=text, streamed=True, stopped_early=runaway is not None)
    _usage(answer, usage)
    if runaway is None and finish == "length":  # the watch looks only every few characters
        runaway = find_runaway(text)
    _cut(answer, runaway)
    return answer


def _lines(stream: openai.Stream) -> Iterator[str]:
    """The body's non-blank lines, as they arrive."""
    for line in stream.response.iter_lines():
        if line.strip():
            yield line


def _events(lines: Iterable[str]) -> Iterator[dict]:
    """The chunks of server-sent events read line by line (up to "data: [DONE]")."""
    for line in lines:
        if not line.startswith("data:"):
            continue  # event:, id:, retry: and comments
        data = line[5:].strip()
        if data == "[DONE]":
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            raise Transient("a piece of the streamed answer is not JSON") from None
        if isinstance(chunk, dict) and chunk.get("error"):
            raise Transient(f"the server reported an error in the stream: {str(chunk['error'])[:200]}")
        yield chunk


def _cause(exc: BaseException) -> str:
    """The innermost error's words ("peer closed connection without sending complete ...")."""
    e, seen = exc, 0
    while (e.__cause__ or e.__context__) is not None and seen < 8:
        e, seen = e.__cause__ or e.__context__, seen + 1  # type: ignore[assignment]
    return (str(e) or type(e).__name__)[:200]

"""The LLM seam: a chat-client protocol, errors, and the caching/accounting wrapper.

`ChatClient` is what talks to a model (core/llm/openai.py for any OpenAI-compatible endpoint; a
deterministic fake in tests). `LLM` wraps a client with the cache of every call (keyed by a hash
of model, messages and parameters, stored in the workspace's llm_cache table) and with token,
call and cost accounting per stage. A cached answer is never requested again, which is what lets
an interrupted index run resume without repeating finished calls.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from core.errors import UserError
from core.store.db import Store, now
from core.tokens import count_tokens


@dataclass
class ChatResult:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    finish_reason: str | None = None
    cut_reason: str | None = None  # "repetition": the model looped and its answer was cut short


class LLMError(UserError):
    """A model call failed after its retries (transient faults exhausted)."""


class FatalLLMError(LLMError):
    """A fault that retrying cannot fix: bad key (401), forbidden (403), unknown model (404),
    unreachable endpoint at configuration time. Stops a run with a clear message."""


class ContextOverflowError(LLMError):
    """The prompt plus the output cap does not fit the model's context window."""


class ChatClient(Protocol):
    model: str

    def complete(self, messages: list[dict[str, str]], *, json_mode: bool = False,
                 max_tokens: int | None = None, temperature: float = 0.0) -> ChatResult: ...


class EmbeddingClient(Protocol):
    model: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


@dataclass
class Usage:
    llm_calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    embedding_calls: int = 0
    runaway_cuts: int = 0  # answers cut short because the model was repeating itself
    by_stage: dict[str, dict[str, float]] = field(default_factory=dict)

    def add(self, stage: str, result: ChatResult, cost: float) -> None:
        s = self.by_stage.setdefault(stage or "other", {"llm_calls": 0, "cache_hits": 0,
                                                        "prompt_tokens": 0, "completion_tokens": 0,
                                                        "cost": 0.0})
        if result.cached:
            self.cache_hits += 1
            s["cache_hits"] += 1
            return
        self.llm_calls += 1
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.cost += cost
        s["llm_calls"] += 1
        s["prompt_tokens"] += result.prompt_tokens
        s["completion_tokens"] += result.completion_tokens
        s["cost"] += cost
        if result.cut_reason:
            self.runaway_cuts += 1
            s["runaway_cuts"] = s.get("runaway_cuts", 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {"llm_calls": self.llm_calls, "cache_hits": self.cache_hits,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "cost": round(self.cost, 6), "embedding_calls": self.embedding_calls,
                "runaway_cuts": self.runaway_cuts, "by_stage": self.by_stage}


def cache_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    payload = json.dumps({"model": model, "messages": messages, "params": params},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class LLM:
    """A chat client with a persistent cache and usage accounting. Thread-safe."""

    def __init__(self, client: ChatClient, store: Store | None = None,
                 prices: dict[str, tuple[float, float]] | None = None,
                 embedder: EmbeddingClient | None = None,
                 window: Callable[[], tuple[int, str]] | None = None):
        self.client = client
        self.store = store
        self.prices = prices or {}
        self.embedder = embedder
        self.usage = Usage()
        self._lock = threading.Lock()
        self._window = window
        self._window_value: tuple[int, str] | None = None
        self._window_lock = threading.Lock()

    @property
    def context_window(self) -> int | None:
        """The model's context window in tokens (None: not known, nothing is fitted to it).
        Resolved once, on first use (core/llm_context.resolve_window), not at construction:
        building an LLM never calls the server."""
        found = self.context_window_found
        return found[0] if found else None

    @context_window.setter
    def context_window(self, tokens: int | None) -> None:
        self._window, self._window_value = None, ((tokens, "set") if tokens else None)

    @property
    def context_window_found(self) -> tuple[int, str] | None:
        """(window, where it came from), or None."""
        if self._window is not None and self._window_value is None:
            with self._window_lock:
                if self._window_value is None:
                    self._window_value = self._window()
        return self._window_value

    @property
    def model(self) -> str:
        return self.client.model

    def chat(self, messages: list[dict[str, str]], *, json_mode: bool = False,
             max_tokens: int | None = None, temperature: float = 0.0, stage: str = "",
             use_cache: bool = True) -> ChatResult:
        params = {"json_mode": json_mode, "max_tokens": max_tokens, "temperature": temperature}
        key = cache_key(self.model, messages, params)
        if use_cache and self.store is not None:
            hit = self.store.get("llm_cache", key)
            if hit is not None:
                result = ChatResult(hit["response"], hit["prompt_tokens"] or 0,
                                    hit["completion_tokens"] or 0, cached=True)
                with self._lock:
                    self.usage.add(stage, result, 0.0)
                return result
        result = self.client.complete(messages, json_mode=json_mode, max_tokens=max_tokens,
                                      temperature=temperature)
        if not result.prompt_tokens:
            result.prompt_tokens = sum(count_tokens(m.get("content") or "") for m in messages)
        if not result.completion_tokens:
            result.completion_tokens = count_tokens(result.text or "")
        cost = self.cost_of(result.prompt_tokens, result.completion_tokens)
        with self._lock:
            self.usage.add(stage, result, cost)
        if use_cache and self.store is not None and result.text:
            self.store.upsert("llm_cache", [{
                "id": key, "model": self.model,
                "request": json.dumps({"messages": messages, "params": params}, ensure_ascii=False),
                "response": result.text, "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens, "created_at": now()}])
        return result

    def forget(self, messages: list[dict[str, str]], *, json_mode: bool = False,
               max_tokens: int | None = None, temperature: float = 0.0) -> None:
        """Drop one cached answer (used when a cached answer turned out unusable)."""
        if self.store is None:
            return
        params = {"json_mode": json_mode, "max_tokens": max_tokens, "temperature": temperature}
        self.store.delete_where("llm_cache", "id = ?", [cache_key(self.model, messages, params)])

    def cost_of(self, prompt_tokens: int, completion_tokens: int) -> float:
        p_in, p_out = self.prices.get(self.model, (0.0, 0.0))
        return (prompt_tokens * p_in + completion_tokens * p_out) / 1_000_000

    def embed(self, texts: list[str]) -> list[list[float]]:
        if self.embedder is None:
            raise LLMError("no embedding model is configured")
        vectors = self.embedder.embed(texts)
        with self._lock:
            self.usage.embedding_calls += 1
        return vectors

"""The app's and CLI's connection test: one cheap look at an endpoint that says exactly what is
wrong (unreachable, bad key, unknown model) or which model answers and with what context window."""
from __future__ import annotations

from typing import Any, Callable

import openai

from core.llm.client import LLMError
from core.llm.context_window import resolve_window
from core.llm.openai import OpenAIChatClient, OpenAIEmbeddingClient, _Caller, _window_probe, connection_reason
from core.settings import Settings


def check_connection(settings: Settings) -> tuple[bool, str]:
    """One cheap look at the endpoint: (ok, what is wrong or which model answers). Never retries."""
    s = settings.with_changes(max_retries=0, request_timeout=min(settings.request_timeout, 15.0))
    try:
        chat = OpenAIChatClient(s)
        _probe(chat, lambda: chat.complete([{"role": "user", "content": "Say OK."}], max_tokens=1))
        message = f"connected to {chat.url}; model '{chat.model}' answers"
        window, source = resolve_window(s.context_window, chat.model, _window_probe(s, chat))
        message += f"; context window {window:,} tokens ({source})"
        if s.embedding_model:
            emb = OpenAIEmbeddingClient(s)
            _probe(emb, lambda: emb.embed(["ping"]))
            message += f"; embedding model '{emb.model}' answers"
            if emb.url != chat.url:
                message += f" at {emb.url}"
    except LLMError as exc:
        return False, str(exc)
    return True, message


def _probe(client: _Caller, call: Callable[[], Any]) -> None:
    """List the served models (cheap; also checks the key); call the model only when the list
    does not name it (llama.cpp and others answer for names they do not list)."""
    try:
        models = client._ep.client.models.list() if not client._ep.azure else None
        served = sorted(m.id for m in models) if models is not None else None
    except openai.APIStatusError as exc:
        if exc.status_code in (401, 403):
            client._classify(exc, 1)  # raises the clear fatal error
        served = None
    except openai.APIConnectionError as exc:
        raise LLMError(f"cannot reach {client.url}: {connection_reason(exc)}") from None
    if served is None or client.model not in served:
        call()

"""A deterministic fake chat client for pipeline logic tests."""
from __future__ import annotations

import threading
from typing import Callable

from core.llm.client import ChatResult


class FakeChat:
    """Answers each call with respond(messages) -> str. Records every call; thread-safe."""

    def __init__(self, respond: Callable[[list[dict]], str], model: str = "fake-model"):
        self.respond = respond
        self.model = model
        self.calls: list[list[dict]] = []
        self._lock = threading.Lock()

    def complete(self, messages, *, json_mode=False, max_tokens=None, temperature=0.0):
        with self._lock:
            self.calls.append(messages)
        text = self.respond(messages)
        return ChatResult(text=text, prompt_tokens=sum(len(m["content"]) // 4 for m in messages),
                          completion_tokens=max(1, len(text) // 4))

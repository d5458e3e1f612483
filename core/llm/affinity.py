"""Which waiting call goes next on a one-slot server: the one that continues what the server holds.

Local servers keep the key-value cache of the last prompt and its answer (llama-cpp-python's
server reuses the longest common prefix with the prompt before; Ollama and llama.cpp's slots do
the same): a prompt that begins with that text is evaluated only from where it departs. On this
machine's Qwen 1.5B a 1,400-token prompt takes about 30 s to evaluate and 1 s when all but its
last 60 tokens are held. An extraction's gleaning round is such a prompt (the extraction prompt,
the model's answer, "anything missed?"), but with eight units in flight and one slot, the other
units' calls reach the server between the two and the held text is lost every time.

So when the endpoint's limit is one call at a time, the slot goes to the waiting call whose
prompt shares the longest prefix with the last prompt and answer (ties: the thread whose call
just ended, then arrival order), and for GRACE seconds after a call ends it is kept for that
call's thread, which needs a moment to read the answer before it sends the next round. Above
one call at a time nothing is reordered: the server then has slots of its own to match prompts
to. A waiting call is never passed over for long: the calls of a run are finite and each one
that goes ahead is a call that had to be made anyway.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

GRACE = 0.25
"""Seconds the slot is kept for the thread whose call just ended (it parses the answer and asks
again: milliseconds); a call takes seconds on the servers this is for."""


def conversation_key(messages: list[dict[str, Any]]) -> str:
    """The messages as one string whose prefixes are the conversation's prefixes."""
    return "".join(f"\x1e{m.get('role', '')}\x1f{m.get('content') or ''}" for m in messages)


def with_answer(key: str, answer: str) -> str:
    """What the server holds after answering: the prompt, then the assistant's turn."""
    return f"{key}\x1eassistant\x1f{answer}"


def shared_prefix(a: str, b: str) -> int:
    """Length of the common prefix of a and b (binary search over slice compares: C speed)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


@dataclass(eq=False)
class Ticket:
    seq: int
    key: str
    thread: int


class Affinity:
    """The waiting calls of one endpoint and the text its server last held. Not locked itself:
    AdaptiveLimit calls it under its own lock."""

    def __init__(self) -> None:
        self.waiting: list[Ticket] = []
        self.held = ""
        self.owner: int | None = None
        self.until = 0.0
        self._seq = 0

    def enter(self, key: str | None) -> Ticket:
        self._seq += 1
        t = Ticket(self._seq, key or "", threading.get_ident())
        self.waiting.append(t)
        return t

    def leave(self, ticket: Ticket) -> None:
        self.waiting.remove(ticket)

    def finished(self, held: str | None, now: float) -> None:
        """A call ended: the server now holds `held` (None: nothing known, e.g. it failed)."""
        self.held = held or ""
        self.owner = threading.get_ident() if held else None
        self.until = now + GRACE if held else 0.0

    def may_go(self, ticket: Ticket, now: float) -> tuple[bool, float | None]:
        """(the ticket's call goes now, seconds to wait before asking again; None: until woken)."""
        best = max(self.waiting, key=self._rank)
        if best is not ticket:
            return False, None
        if (self.owner is not None and ticket.thread != self.owner and now < self.until
                and not (self.held and ticket.key.startswith(self.held))):
            return False, self.until - now  # the thread whose call just ended may continue it
        return True, None

    def _rank(self, t: Ticket) -> tuple[int, bool, int]:
        return shared_prefix(t.key, self.held) if self.held else 0, t.thread == self.owner, -t.seq

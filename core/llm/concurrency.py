"""Adaptive concurrency per endpoint: how many model calls are in flight, learnt from the server.

Local servers differ in what they serve at once. llama.cpp's `llama-server` has a fixed number of
slots (it says so in GET /props `total_slots` and GET /slots) and queues the rest; vLLM and Ollama
queue; llama-cpp-python's server, at its defaults (`interrupt_requests`), ENDS the answer it is
streaming when the next request arrives, so at eight calls in flight almost every answer comes
back empty or cut short. Gateways answer an overload with 429 or 503, and an overloaded server
with timeouts.

`AdaptiveLimit` is an AIMD limit (additive increase, multiplicative decrease, as TCP does):
- it starts from the setting, or from the server's slots where it says fewer (probed once, on
  the first call: building a client never calls the server); llama-cpp-python's server, known
  by its /v1/models, is sent one call at a time from the start and never more: it generates one
  answer at a time anyway, and every call sent beside another only gets the answer in flight
  cut (its prompt evaluation wasted) before the limit could learn it;
- an answer that comes back empty or cut short (no finish reason, or the connection closed in
  the middle of the stream, which is what llama-cpp-python's server really does) while more
  than one call may be in flight means the server interrupts: the limit drops to one at once ("the server answers
  one request at a time: concurrency 8 -> 1");
- a timeout, a 429 or a 503 halves it;
- one decrease per generation: calls that were already in flight when the limit dropped report
  the same overload again and are not counted twice (they are retried under the new limit);
- it grows back by one after a run of successes at the current limit, a run that doubles each
  time growing to that level has failed before (so a server that interrupts is probed rarely),
  never above where it started.
Every change is reported: logged (index.log of a run started from the app) and passed to the
listeners (the run records them for the run panel).
"""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import httpx

from core.llm.affinity import Affinity
from core.llm.context_window import _root

log = logging.getLogger(__name__)

GROW_AFTER = 8
"""Successes at the current limit (times the limit) before it grows by one."""
GROW_CAP = 256
"""The longest run of successes growth waits for, however often it failed before."""

CUT = "cut"            # an empty or cut-short answer: the server interrupts (-> 1)
OVERLOAD = "overload"  # a timeout, 429 or 503 (-> half)
OK = "ok"
NEUTRAL = "neutral"  # a failure that says nothing about load (a 500, a refused request)


@dataclass
class Slot:
    generation: int
    limit: int       # the limit when the call started
    in_flight: int   # calls in flight when it started, itself included

    @property
    def shared(self) -> bool:
        """Other calls may have been in flight beside this one."""
        return self.limit > 1


class AdaptiveLimit:
    def __init__(self, start: int, name: str = "", probe: Callable[[], tuple[int | None, str]] | None = None):
        self.ceiling = max(1, int(start))
        self.limit = self.ceiling
        self.name = name
        self.in_flight = 0
        self.generation = 0
        self.events: list[str] = []
        self._probe = probe
        self._pinned: int | None = None
        self._pending: list[str] = []
        self._successes = 0
        self._failed_at: dict[int, int] = {}  # limit -> times a call at it was cut or overloaded
        self._listeners: list[Callable[[str], None]] = []
        self._cond = threading.Condition()
        self._affinity = Affinity()  # who goes next at one call at a time (core/llm/affinity.py)

    # listeners -----------------------------------------------------------------------------
    def subscribe(self, fn: Callable[[str], None]) -> None:
        with self._cond:
            self._listeners.append(fn)

    def unsubscribe(self, fn: Callable[[str], None]) -> None:
        with self._cond:
            if fn in self._listeners:
                self._listeners.remove(fn)

    def _report(self, message: str) -> None:
        """Record a change (under the lock); listeners hear of it once the lock is released."""
        self.events.append(message)
        del self.events[:-20]
        self._pending.append(message)

    def _deliver(self) -> None:
        with self._cond:
            pending, self._pending = self._pending, []
            listeners = list(self._listeners)
        for message in pending:
            log.warning("%s: %s", self.name or "model server", message)
            self._tell(listeners, message)

    @staticmethod
    def _tell(listeners: list[Callable[[str], None]], message: str) -> None:
        for fn in listeners:
            try:
                fn(message)
            except Exception:  # a listener's fault never breaks a model call
                log.exception("concurrency listener failed")

    # slots ---------------------------------------------------------------------------------
    def _start(self) -> None:
        """Ask the server once what it serves in parallel (under the lock: others wait)."""
        probe, self._probe = self._probe, None
        if probe is None:
            return
        try:
            slots, where = probe()
        except Exception:
            slots, where = None, ""
        if slots and slots < self.limit:
            before = self.limit
            self.limit = self.ceiling = slots
            if slots == 1:
                self._report(f"the server answers one request at a time ({where}): concurrency {before} -> 1")
            else:
                self._report(f"the server has {slots} parallel slots ({where}): concurrency {before} -> {slots}")

    def acquire(self, key: str | None = None) -> Slot:
        """Wait for room under the limit. `key` is the call's conversation (affinity.
        conversation_key): at one call at a time the slot goes to the call that continues what
        the server holds."""
        with self._cond:
            if self._probe is not None:
                self._start()
            ticket = self._affinity.enter(key)
            try:
                while True:
                    if self.in_flight < self.limit:
                        if self.limit > 1:
                            break
                        go, wait = self._affinity.may_go(ticket, time.monotonic())
                        if go:
                            break
                        self._cond.wait(wait)
                    else:
                        self._cond.wait()
            finally:
                self._affinity.leave(ticket)
            self.in_flight += 1
            slot = Slot(self.generation, self.limit, self.in_flight)
        if self._pending:
            self._deliver()
        return slot

    def release(self, slot: Slot, outcome: str = OK, held: str | None = None) -> bool:
        """End a call; returns True when its outcome lowered the limit. `held`: what the server
        holds after it (the conversation and its answer), for the next call's affinity."""
        with self._cond:
            self.in_flight -= 1
            self._affinity.finished(held if outcome == OK else None, time.monotonic())
            lowered = False
            if outcome == OK:
                self._grow(slot)
            elif outcome in (CUT, OVERLOAD) and slot.generation == self.generation:  # first report
                lowered = self._lower(outcome, slot)
            self._cond.notify_all()
        if self._pending:
            self._deliver()
        return lowered

    @contextmanager
    def held(self, limit: int = 1) -> Iterator[None]:
        """Run a block at most `limit` calls at a time (the final pass over failed items)."""
        with self._cond:
            before, self._pinned = self.limit, limit
            if limit < self.limit:
                self.limit = limit
                self.generation += 1
        try:
            yield
        finally:
            with self._cond:
                self._pinned = None
                self.limit = max(1, min(before, self.ceiling))
                self._cond.notify_all()

    def _lower(self, outcome: str, slot: Slot) -> bool:
        before = self.limit
        self._failed_at[before] = self._failed_at.get(before, 0) + 1
        self._successes = 0
        if before <= 1:
            return False
        self.generation += 1
        if outcome == CUT:
            self.limit = 1
            self._report(f"the server answers one request at a time (answers came back empty or cut "
                         f"short while others were in flight): concurrency {before} -> 1")
        else:
            self.limit = max(1, before // 2)
            self._report(f"the server is overloaded (timeouts, 429 or 503): concurrency {before} -> {self.limit}")
        return True

    def _grow(self, slot: Slot) -> None:
        if slot.generation != self.generation or self.limit >= (self._pinned or self.ceiling):
            return
        self._successes += 1
        failed = self._failed_at.get(self.limit + 1, 0)
        if self._successes < min(GROW_CAP, GROW_AFTER * self.limit * 2 ** failed):
            return
        before, self.limit, self._successes = self.limit, self.limit + 1, 0
        self.generation += 1
        self._report(f"answers succeed: concurrency {before} -> {self.limit}")


def server_slots(base_url: str, api_key: str | None = None, timeout: float = 5.0) -> tuple[int | None, str]:
    """(requests the server serves in parallel, where it said so), or (None, ""): llama.cpp's
    GET /props total_slots, else the length of its GET /slots. Others say nothing."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    root = _root(base_url)
    try:
        with httpx.Client(timeout=timeout, headers=headers, follow_redirects=False) as client:
            r = client.get(f"{root}/props")
            if r.status_code == 200:
                n = _count(r.json().get("total_slots") if isinstance(r.json(), dict) else None)
                if n:
                    return n, "/props total_slots"
            r = client.get(f"{root}/slots")
            if r.status_code == 200 and isinstance(r.json(), list) and r.json():
                return len(r.json()), "/slots"
            r = client.get(f"{base_url.rstrip('/')}/models")
            if r.status_code == 200 and _is_llama_cpp_python(r.json()):
                return 1, LLAMA_CPP_PYTHON
    except (httpx.HTTPError, ValueError):
        pass
    return None, ""


LLAMA_CPP_PYTHON = ("llama-cpp-python's server: it generates one answer at a time and, at its defaults, "
                    "ends the answer in flight when another request arrives")


def _is_llama_cpp_python(body: Any) -> bool:
    """llama-cpp-python's /v1/models lists every model as owned by "me" with empty permissions
    (llama_cpp/server/app.py); it has no /props or /slots to say more."""
    data = body.get("data") if isinstance(body, dict) else None
    return bool(data) and all(isinstance(m, dict) and m.get("owned_by") == "me" and m.get("permissions") == []
                              for m in data)


def _count(value: Any) -> int | None:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return None
    return n if 1 <= n <= 1024 else None


def limiter_of(llm: Any) -> AdaptiveLimit | None:
    """The adaptive limit behind an LLM wrapper (None for fakes without one)."""
    limit = getattr(getattr(llm, "client", None), "limiter", None)
    return limit if isinstance(limit, AdaptiveLimit) else None

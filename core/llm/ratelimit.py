"""Blocking rate limits for model calls: requests per minute and tokens per minute.

A `TokenBucket` refills continuously at `per_minute / 60` units a second up to `capacity`. A
caller takes what it needs with `acquire(amount)`; when the bucket cannot cover it, the caller's
share is reserved (the balance goes negative) and the caller sleeps exactly until the refill
covers it. Reservations make waiting callers line up in arrival order, and nobody spins: each
waiter sleeps once for a computed time. `refund(amount)` gives back what a call reserved but did
not use (a token estimate that turned out too high).
"""
from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from typing import Any, Callable, ContextManager


class TokenBucket:
    def __init__(self, per_minute: float, capacity: float | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self.rate = per_minute / 60.0  # units per second
        # Default burst: ten seconds' worth, at least one unit. A full minute's burst would send
        # a minute of traffic at once, which servers that enforce limits per second answer with 429.
        self.capacity = float(capacity if capacity is not None else max(1.0, per_minute / 6.0))
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._level = self.capacity
        self._stamp = clock()

    def _refill(self) -> None:
        t = self._clock()
        self._level = min(self.capacity, self._level + (t - self._stamp) * self.rate)
        self._stamp = t

    def reserve(self, amount: float = 1.0) -> float:
        """Take `amount` now and return how many seconds the caller must wait before using it."""
        with self._lock:
            self._refill()
            self._level -= amount
            return 0.0 if self._level >= 0 else -self._level / self.rate

    def acquire(self, amount: float = 1.0) -> float:
        """Block (sleeping, not spinning) until `amount` is available; return the time waited."""
        wait = self.reserve(amount)
        if wait > 0:
            self._sleep(wait)
        return wait

    def refund(self, amount: float) -> None:
        if amount <= 0:
            return
        with self._lock:
            self._refill()
            self._level = min(self.capacity, self._level + amount)


class RateLimits:
    """The optional requests-per-minute and tokens-per-minute limits of one endpoint."""

    def __init__(self, requests_per_minute: int | None = None, tokens_per_minute: int | None = None,
                 shared: Any = None):
        self.requests = TokenBucket(requests_per_minute) if requests_per_minute else None
        self.tokens = TokenBucket(tokens_per_minute) if tokens_per_minute else None
        # team mode: the same limits held by every process of the team together
        # (core.store.shared_limits.SharedLimits), on top of this process's own
        self.shared = shared

    def acquire(self, tokens: int) -> float:
        waited = 0.0
        if self.requests is not None:
            waited += self.requests.acquire(1)
        if self.tokens is not None:
            waited += self.tokens.acquire(tokens)
        if self.shared is not None:
            waited += self.shared.acquire(tokens)
        return waited

    def settle(self, estimated: int, actual: int) -> None:
        """Give back the part of a token estimate that the call did not use."""
        if self.tokens is not None and actual > 0:
            self.tokens.refund(estimated - actual)
        if self.shared is not None and actual > 0:
            self.shared.refund(estimated - actual)

    def held(self) -> ContextManager[Any]:
        """Around one call: a lease of the team's concurrency (team mode), else nothing."""
        return self.shared.slot() if self.shared is not None else nullcontext()

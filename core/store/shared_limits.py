"""A model endpoint's limits held by every process of a team together (team mode: the app, the
command line and any number of `sensemaker worker`s on other machines), in the team's PostgreSQL.

- Concurrency: `settings.concurrency` slots per endpoint, each a PostgreSQL advisory lock
  (endpoint, slot number). A call takes a free slot before it goes out, on a connection it holds
  for the call, and gives it back after. A killed worker's connection drops, and PostgreSQL lets
  its slots go at once: nobody waits for a lease to run out.
- Rate: requests and tokens per minute as token buckets kept in one row each
  (`sensemaker_llm_buckets`), refilled by the time since their last use and reserved as
  core/llm/ratelimit.py's are: a caller takes its share at once and sleeps until the refill covers
  it, so callers on all machines line up in arrival order.
Each process still keeps its own adaptive limit (core/llm/concurrency.py) under these.
"""
from __future__ import annotations

import os
import time
import zlib
from contextlib import contextmanager
from typing import Iterator

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS sensemaker_llm_buckets (endpoint TEXT NOT NULL, kind TEXT NOT NULL, "
    "level DOUBLE PRECISION NOT NULL, stamp TIMESTAMPTZ NOT NULL, PRIMARY KEY (endpoint, kind))",
]
POLL = 0.05  # seconds between tries for a free slot


class SharedLimits:
    def __init__(self, url: str, endpoint: str, concurrency: int, requests_per_minute: int | None = None,
                 tokens_per_minute: int | None = None, sleep=time.sleep):
        self.url, self.endpoint = url, endpoint
        self.key = zlib.crc32(endpoint.encode("utf-8")) & 0x7FFFFFFF  # the slots' advisory-lock class
        self.concurrency = max(1, int(concurrency))
        self.rates = {k: float(v) for k, v in (("requests", requests_per_minute), ("tokens", tokens_per_minute)) if v}
        self._sleep = sleep
        for sql in SCHEMA:
            try:
                self._run(sql)
            except Exception:  # another process created it at the same moment
                pass

    def _run(self, sql: str, params: list | None = None) -> tuple | None:
        """One statement on a connection of the process's pool for the database; its first row."""
        with _pool(self.url).connection() as db:
            cur = db.execute(sql, params)
            return cur.fetchone() if cur.description else None

    # concurrency -------------------------------------------------------------------------
    def _try(self, db) -> int | None:
        row = db.execute("SELECT s FROM generate_series(0, %s) s WHERE pg_try_advisory_lock(%s, s) LIMIT 1",
                         [self.concurrency - 1, self.key]).fetchone()
        return int(row[0]) if row else None

    @contextmanager
    def slot(self) -> Iterator[float]:
        """Hold one of the endpoint's slots for a call; yields the seconds waited for it. A
        connection is held only while a slot is (a waiting caller borrows one per try)."""
        pool = _pool(self.url)
        t0 = time.monotonic()
        while True:
            db = pool.getconn()
            try:
                got = self._try(db)
            except BaseException:
                pool.putconn(db)
                raise
            if got is not None:
                break
            pool.putconn(db)
            self._sleep(POLL)
        try:
            yield time.monotonic() - t0
        finally:
            try:
                db.execute("SELECT pg_advisory_unlock(%s, %s)", [self.key, got])
            finally:
                pool.putconn(db)

    def in_use(self) -> int:
        row = self._run("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
                        "AND objsubid = 2 AND granted", [self.key])
        return int(row[0]) if row else 0

    # rate --------------------------------------------------------------------------------
    def reserve(self, kind: str, amount: float) -> float:
        """Take `amount` from the kind's bucket now; the seconds to wait before using it."""
        per_minute = self.rates.get(kind)
        if not per_minute or amount <= 0:
            return 0.0
        rate, capacity = per_minute / 60.0, max(1.0, per_minute / 6.0)
        self._run("INSERT INTO sensemaker_llm_buckets (endpoint, kind, level, stamp) VALUES (%s, %s, %s, now()) "
                  "ON CONFLICT DO NOTHING", [self.endpoint, kind, capacity])
        row = self._run(
            "UPDATE sensemaker_llm_buckets SET level = least(%s, level + extract(epoch FROM now() - stamp) * %s) - %s, "
            "stamp = now() WHERE endpoint = %s AND kind = %s RETURNING level",
            [capacity, rate, amount, self.endpoint, kind])
        level = float(row[0]) if row else 0.0
        return 0.0 if level >= 0 else -level / rate

    def acquire(self, tokens: int) -> float:
        """Wait for one request and `tokens` tokens of the endpoint's shared rates."""
        wait = max(self.reserve("requests", 1), self.reserve("tokens", tokens))
        if wait > 0:
            self._sleep(wait)
        return wait

    def refund(self, tokens: float) -> None:
        per_minute = self.rates.get("tokens")
        if not per_minute or tokens <= 0:
            return
        self._run("UPDATE sensemaker_llm_buckets SET level = least(%s, level + %s) "
                           "WHERE endpoint = %s AND kind = 'tokens'", [max(1.0, per_minute / 6.0), tokens, self.endpoint])


def _pool(url: str):
    """The team database's pool: a connection per call in flight (each holds its slot's lock),
    and a few to wait with."""
    from core.store.postgres import pool_for
    return pool_for(url, None, int(os.environ.get("SENSEMAKER_PG_SLOTS_POOL") or 40), purpose="model slots")

"""Team mode: a model endpoint's concurrency and rate limits hold across processes together
(core/store/shared_limits.py, in PostgreSQL). Each SharedLimits below has connections of its own,
as a worker on another machine would."""
from __future__ import annotations

import threading
import time

import pytest

from core.store.shared_limits import SharedLimits
from tests.conftest import pg_schema


@pytest.fixture()
def url():
    with pg_schema("l") as url:
        yield url


def test_three_processes_never_hold_more_calls_than_the_endpoint_allows(url):
    workers = [SharedLimits(url, "http://model:8000/v1", concurrency=2) for _ in range(3)]
    lock, now, peak, done = threading.Lock(), [0], [0], []

    def call(limits: SharedLimits) -> None:
        with limits.slot():
            with lock:
                now[0] += 1
                peak[0] = max(peak[0], now[0])
            time.sleep(0.05)
            with lock:
                now[0] -= 1
        done.append(1)

    threads = [threading.Thread(target=call, args=(workers[i % 3],)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(done) == 12 and peak[0] == 2
    assert workers[0].in_use() == 0


def test_the_slots_of_a_killed_worker_come_back_at_once(url):
    import signal
    import subprocess
    import sys
    from pathlib import Path
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom core.store.shared_limits import SharedLimits\n"
         "s = SharedLimits(sys.argv[1], 'http://model:8000/v1', concurrency=1)\n"
         "with s.slot():\n    print('held', flush=True)\n    time.sleep(600)", url],
        cwd=str(Path(__file__).resolve().parents[1]), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        alive = SharedLimits(url, "http://model:8000/v1", concurrency=1)
        assert alive.in_use() == 1
        waited = []

        def call() -> None:
            with alive.slot() as w:
                waited.append(w)

        t = threading.Thread(target=call)
        t.start()
        time.sleep(0.5)
        assert not waited  # the only slot is the other process's
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        t.join(10)
        assert waited and waited[0] < 3.0 and alive.in_use() == 0
    finally:
        if holder.poll() is None:
            holder.kill()


def test_the_request_rate_is_shared_in_arrival_order(url):
    # 120 a minute: a burst of 20 (ten seconds' worth), then one every half second, for everyone
    a = SharedLimits(url, "http://model:8000/v1", concurrency=4, requests_per_minute=120)
    b = SharedLimits(url, "http://model:8000/v1", concurrency=4, requests_per_minute=120)
    waits = [(a if i % 2 else b).reserve("requests", 1) for i in range(30)]
    assert waits[:20] == [0.0] * 20
    assert all(w > 0 for w in waits[20:]) and waits == sorted(waits)
    assert waits[-1] == pytest.approx(5.0, abs=0.5)  # the 30th waits for 10 refills of 0.5 s
    other = SharedLimits(url, "http://other:8000/v1", concurrency=4, requests_per_minute=120)
    assert other.reserve("requests", 1) == 0.0  # another endpoint has its own

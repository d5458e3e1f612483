"""Two sessions answering at once stem words in two threads: each must get its own words' stems.

Snowball's stemmer keeps the word it works on in the object itself; one shared stemmer made a
local search fail with "string index out of range" while a global search ran beside it (the
background-indexing test caught it in CI)."""
from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import snowballstemmer

from core.offline import fact_rank

ROOT = Path(__file__).resolve().parent.parent


def test_stemming_in_many_threads_at_once_gives_each_word_its_own_stem():
    text = " ".join(p.read_text(errors="replace") for p in sorted((ROOT / "sample_corpus").glob("*.md")))
    words = sorted(set(re.findall(r"[a-z]{4,}", text.lower())))
    assert len(words) > 300
    reference = snowballstemmer.stemmer("english")
    expected = [reference.stemWord(w) for w in words]
    stem = fact_rank.stem.__wrapped__  # past the cache: every call stems
    failures: list[str] = []

    def work():
        try:
            for _ in range(15):
                got = [stem(w) for w in words]
                if got != expected:
                    failures.append(next(f"{w}: {g} != {e}" for w, g, e in zip(words, got, expected) if g != e))
                    return
        except Exception as exc:  # noqa: BLE001 - the failure a user saw
            failures.append(repr(exc))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not failures, failures[:3]

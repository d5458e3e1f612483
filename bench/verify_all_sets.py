"""Every labelled claim set of bench/data at once (claims.jsonl, claims_own, claims_fresh*), judged
offline in one run over one workspace per corpus (bench/claim_workspaces.py): the figures per
set, for the sets written blind (claims_fresh10 onwards: their writers read no code and ran no
judge) and for all of them. Writes bench/results/verify_all_sets.json, with one row per claim,
so two runs (two commits) can be compared claim by claim.

    python bench/verify_all_sets.py [--cache DIR]
"""
from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from _common import ROOT, write_result
from claim_workspaces import load_claims
from verify_claims import figures, rule_figures, run_claims, show_rules


def _blind(stem: str) -> bool:
    m = re.fullmatch(r"claims_fresh(\d+)", stem)
    return bool(m) and int(m.group(1)) >= 10


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sensemaker-claims"))
    args = ap.parse_args()
    data = ROOT / "bench" / "data"
    # bench/data/blind's claim sets too, once measured: a set with no result in bench/results yet
    # is held out, to be measured once (its README), and is not read here
    measured = [s for s in sorted((data / "blind").glob("claims_fresh*.jsonl"))
                if any((ROOT / "bench" / "results").glob(f"verify_*{s.stem}*.json"))]
    sets = [s for s in [*sorted(data.glob("claims*.jsonl")), *measured] if "model_subset" not in s.name]
    claims = []
    for s in sets:
        for c in load_claims(s):
            claims.append(dict(c, set=s.stem, id=f"{s.stem}:{c['id']}"))
    rows = run_claims(claims, Path(args.cache), False)
    of = {c["id"]: c["set"] for c in claims}
    for r in rows:
        r["set"] = of[r["id"]]
    out = {}
    for name, part in [*((s.stem, [r for r in rows if r["set"] == s.stem]) for s in sets),
                       ("written blind (fresh10 on)", [r for r in rows if _blind(r["set"])]), ("all", rows)]:
        f = figures(part, "offline")
        out[name] = f
        print(f"{name:28s} n={f['n']:5d} accuracy={f['accuracy']:.3f} recall of true={f['recall_true']:.3f} "
              f"false accepts={f['false_accept']:.3f} numbers+negations caught={f['numbers_negations_caught']}")
    rules = {name: rule_figures(part) for name, part in (
        ("written blind (fresh10 on)", [r for r in rows if _blind(r["set"])]), ("all", rows))}
    for name, table in rules.items():
        show_rules(name, table)
    print(f"-> {write_result('verify_all_sets', {'figures': out, 'rules': rules, 'rows': rows})}")


if __name__ == "__main__":
    main()

"""Could a learned layer over the offline judge's measurements decide supported / partial /
unsupported better than its clause rules? A probe, not a part of the judge (session 17 tried it
and did not ship it): every labelled claim set of bench/data judged by the rules, what they
measured of each claim read from its public verdict (the share of its terms in the window, the
clauses that failed and why, how rare the words it misses are in the workspace, its length...),
and a multinomial logistic model fitted on all sets but one and judged on the one left out.

It prints, for the sets written blind (claims_fresh10 onwards), the rules' figures and the
held-out figures with every measurement and without the three that describe how a claim is
written rather than what it says (its length, its count of matched and missed terms): the gap
between the two is what the model learned of how our claim writers write (a paraphrase must
share at most half its words: bench/data/check_claims.py), which no analyst's sentence follows.

    python bench/calibration_probe.py [--threshold 0.6]
"""
from __future__ import annotations

import argparse
import math
import re
import tempfile
from pathlib import Path

import numpy as np

from _common import ROOT
from claim_workspaces import build_all, cite, load_claims
from core.verify import facts as fx
from core.verify.clauses import clauses
from core.verify.names import Names
from core.verify.offline import judge

CLS = ["supported", "partial", "unsupported"]
STYLE = ("length", "nmatch", "nmiss")  # how the claim is written, not what it says
_CUES = re.compile(r"\b(because|so that|which means|shows|proves|therefore|thus|led to|leading|will|would|"
                   r"likely|expect|most|best|only|always|never|since|due to|in order to)\b", re.I)


def blind(stem: str) -> bool:
    m = re.fullmatch(r"claims_fresh(\d+)", stem)
    return bool(m) and int(m.group(1)) >= 10


def measure(sentence: str, v, names: Names) -> dict[str, float]:
    surface = {}
    for t, a, b in fx.content_terms(sentence):
        surface.setdefault(t, sentence[a:b])
    idf = lambda t: -math.log(max(names.share(surface.get(t, t)), 1e-3))
    miss, got = [idf(t) for t in v.missing or []], [idf(t) for t in v.matched or []]
    failed = [f for f in v.facts if f.kind == "meaning" and f.status == "not found"]
    notes = " ".join(f.note for f in failed)
    n_clauses = len(clauses(sentence))
    f = {"score": v.score or 0.0, "coverage": v.coverage or 0.0,
         "idf_miss_max": max(miss, default=0.0), "idf_miss_mean": sum(miss) / len(miss) if miss else 0.0,
         "idf_match_mean": sum(got) / len(got) if got else 0.0, "nfail": len(failed),
         "fail_share": len(failed) / max(1, n_clauses),
         "miss_share": len(miss) / max(1, len(miss) + len(got)),
         "r_one": notes.count("more than one"), "r_away": notes.count("sentence away"),
         "r_infer": notes.count("inference"), "cues": len(_CUES.findall(sentence)),
         "digits": float(bool(re.search(r"\d", sentence))), "zh": float(bool(re.search(r"[\u4e00-\u9fff]", sentence))),
         "names_missing": sum(1 for x in v.facts if x.kind == "name" and x.status == "not found"),
         "length": len(sentence.split()), "nmatch": len(got), "nmiss": len(miss)}
    for c in CLS:
        f[f"rule_{c}"] = float(v.verdict == c)
    return f


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1.0):
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([(X - mu) / sd, np.ones((len(X), 1))])
    W, Y = np.zeros((Z.shape[1], len(CLS))), np.eye(len(CLS))[y]
    for _ in range(3000):
        P = np.exp(Z @ W - (Z @ W).max(1, keepdims=True))
        P /= P.sum(1, keepdims=True)
        W -= 0.1 * (Z.T @ (P - Y) / len(Z) + l2 * np.vstack([W[:-1], np.zeros((1, len(CLS)))]) / len(Z))
    return lambda Xt: _p(Xt, mu, sd, W)


def _p(X, mu, sd, W):
    Z = np.hstack([(X - mu) / sd, np.ones((len(X), 1))])
    P = np.exp(Z @ W - (Z @ W).max(1, keepdims=True))
    return P / P.sum(1, keepdims=True)


def figures(rows: list[dict], said: dict[str, str]) -> str:
    false = [r for r in rows if r["label"] != "supported"]
    true = [r for r in rows if r["label"] == "supported"]
    acc = sum(said[r["id"]] == r["label"] for r in rows) / len(rows)
    return (f"accuracy {acc:.3f}, recall of true {sum(said[r['id']] == 'supported' for r in true) / len(true):.3f}, "
            f"false accepts {sum(said[r['id']] == 'supported' for r in false) / len(false):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sensemaker-claims"))
    ap.add_argument("--threshold", type=float, default=0.6, help="P(supported) needed for supported")
    ap.add_argument("--lower-only", action="store_true", help="the model may only lower a supported verdict")
    args = ap.parse_args()
    sets = [s for s in sorted((ROOT / "bench" / "data").glob("claims*.jsonl")) if "model_subset" not in s.name]
    claims = [dict(c, set=s.stem, id=f"{s.stem}:{c['id']}") for s in sets for c in load_claims(s)]
    stores = build_all(claims, Path(args.cache))
    names = {k: Names(v) for k, v in stores.items()}
    rows = []
    for c in claims:
        located = cite(stores[c["corpus"]], c)
        if located is None:
            continue
        sentence, ref = located
        v = judge(sentence, [stores[c["corpus"]].get("text_units", ref["id"])], names=names[c["corpus"]])
        # only what the clause rules decide: quotes, contradictions and fabricated names stay theirs
        meaning = v.verdict in CLS and v.reason != "the cited text says it word for word"
        rows.append({"id": c["id"], "set": c["set"], "label": c["label"], "rule": v.verdict,
                     "f": measure(sentence, v, names[c["corpus"]]) if meaning else None})
    rule = {r["id"]: r["rule"] for r in rows}
    bl = [r for r in rows if blind(r["set"])]
    print(f"{len(rows)} claims, {len(bl)} in the sets written blind")
    print(f"rules alone:                    {figures(bl, rule)}")
    keys_all = sorted(next(r["f"] for r in rows if r["f"]))
    for label, keys in (("every measurement", keys_all), ("without length and term counts", [k for k in keys_all if k not in STYLE])):
        said = dict(rule)
        for s in sets:
            train = [r for r in rows if r["set"] != s.stem and r["f"]]
            y = np.array([CLS.index(r["label"]) if r["label"] in CLS else 2 for r in train])
            model = fit(np.array([[r["f"][k] for k in keys] for r in train]), y)
            test = [r for r in rows if r["set"] == s.stem and r["f"]]
            if not test:
                continue
            for r, p in zip(test, model(np.array([[r["f"][k] for k in keys] for r in test]))):
                low = "partial" if p[1] >= p[2] else "unsupported"
                if args.lower_only:  # only ever lowers a supported: a second look at what the rules accept
                    said[r["id"]] = low if r["rule"] == "supported" and p[0] < args.threshold else r["rule"]
                else:
                    said[r["id"]] = "supported" if p[0] >= args.threshold else low
        print(f"held out, {label + ':':30s} {figures(bl, said)}")
        if "claims_fresh19" in {s.stem for s in sets}:
            f19 = [r for r in rows if r["set"] == "claims_fresh19"]
            print(f"   claims_fresh19 alone: rules {figures(f19, rule)}; held out {figures(f19, said)}")
    # what it learned: a short claim every word of which the cited sentence holds
    probe = [r for r in rows if r["f"] and r["rule"] == "supported" and r["f"]["miss_share"] == 0 and r["f"]["length"] <= 12]
    print(f"claims the rules call supported with every term matched, 12 words or fewer: {len(probe)}")


if __name__ == "__main__":
    main()

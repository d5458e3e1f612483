"""The verifier against the labelled claim set (bench/data/claims.jsonl): every claim cited to the
text unit that holds its evidence (offline index of its document, bench/claim_workspaces.py),
judged by the offline judge and, with --model, by the model judge (falling back to the offline
judge where the model's quote is not in the source). Prints accuracy, recall of true claims,
false-accept rate and the confusion per kind; --carol also verifies Microsoft GraphRAG's index of
A Christmas Carol and prints the ten least supported reports. Writes bench/results/verify_claims.json.

The development part (christmas_carol, msft_earnings_calls, graphrag_articles_zh) is what the
judge's rules were tried on; the held-out part (operation_dulce, behind_the_tech_podcasts) was
only measured. Extra claims (--claims FILE) are measured like the held-out part.
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

from _common import write_result
from claim_workspaces import CLAIMS, build_all, cite, load_claims

from core.verify.names import Names
from core.verify.offline import judge as offline_judge
from core.verify.verdict import VERDICTS

DEV = {"christmas_carol", "msft_earnings_calls", "graphrag_articles_zh"}
TRUE = {"supported"}


def figures(rows: list[dict], key: str) -> dict:
    n = len(rows)
    if not n:
        return {"n": 0}
    right = sum(r["label"] == r[key] for r in rows)
    true = [r for r in rows if r["label"] in TRUE]
    false = [r for r in rows if r["label"] not in TRUE]
    per_kind: dict[str, dict[str, int]] = {}
    for r in rows:
        per_kind.setdefault(r["kind"], collections.Counter())[r[key]] += 1
    caught = [r for r in rows if r["kind"] in ("number", "negation")]
    return {
        "n": n, "accuracy": round(right / n, 3),
        "recall_true": round(sum(r[key] in TRUE for r in true) / len(true), 3) if true else None,
        "false_accept": round(sum(r[key] in TRUE for r in false) / len(false), 3) if false else None,
        "numbers_negations_caught": round(sum(r[key] == "contradicted" for r in caught) / len(caught), 3) if caught else None,
        "confusion": {k: dict(v) for k, v in sorted(per_kind.items())},
    }


def show(name: str, f: dict) -> None:
    if not f.get("n"):
        return
    print(f"  {name}: {f['n']} claims, accuracy {f['accuracy']:.2f}, recall of true {f['recall_true']:.2f}, "
          f"false accepts {f['false_accept']:.2f}, numbers+negations caught {f['numbers_negations_caught']}")
    cols = list(VERDICTS)
    print("    " + "kind".ljust(12) + "".join(c[:12].rjust(13) for c in cols))
    for kind, counts in f["confusion"].items():
        print("    " + kind.ljust(12) + "".join(str(counts.get(c, 0)).rjust(13) for c in cols))


def run_claims(claims: list[dict], cache: Path, verbose: bool, model=None) -> list[dict]:
    stores = build_all(claims, cache)
    out = []
    t0 = time.perf_counter()
    for c in claims:
        store = stores[c["corpus"]]
        located = cite(store, c)
        if located is None:
            print(f"  {c['id']}: evidence not found in its workspace", file=sys.stderr)
            continue
        sentence, unit_ref = located
        unit = store.get("text_units", unit_ref["id"])
        names = Names(store)
        v = offline_judge(sentence, [unit], names=names)
        row = {"id": c["id"], "corpus": c["corpus"], "kind": c["kind"], "label": c["label"],
               "offline": v.verdict, "reason": v.reason, "rule": v.rule, "sentence": sentence,
               "score": v.score, "missing": v.missing, "matched": v.matched, "best": v.best_sentence,
               "closeness": v.failing.closeness if v.failing is not None else None}
        if model is not None:
            from core.verify.model import judge as model_judge
            m = model_judge(model, sentence, [unit], names=names, offline=v)
            row["model"], row["model_reason"], row["model_judge"] = m.verdict, m.reason, m.judge
            row["model_rule"] = m.rule if m.judge == "model" else ""
        out.append(row)
        if verbose and row["offline"] != c["label"]:
            print(f"  x {c['id']} {c['kind']}: {c['label']} -> {v.verdict}: {v.reason} | {c['claim'][:110]}")
    print(f"judged {len(out)} claims in {time.perf_counter() - t0:.2f} s")
    return out


ALARMS = ("contradicted", "fabricated")


def rule_figures(rows: list[dict]) -> dict:
    """Per rule (the one that decided each verdict): how many verdicts it decided, its alarms
    (contradicted or fabricated) and how many of them the label confirms (the same verdict), and
    the supported verdicts it gave to claims labelled otherwise."""
    out: dict[str, dict] = {}
    for r in rows:
        f = out.setdefault(r.get("rule") or "?", {"decided": 0, "alarms": 0, "alarms_right": 0, "alarms_false_claim": 0,
                                                  "supported": 0, "false_supported": 0})
        f["decided"] += 1
        if r["offline"] in ALARMS:
            f["alarms"] += 1
            f["alarms_right"] += r["label"] == r["offline"]
            # a false name is fabricated by its label when its document lacks it, contradicted
            # by the judge when another document of the workspace holds it: an alarm either way
            f["alarms_false_claim"] += r["label"] in ALARMS
        if r["offline"] == "supported":
            f["supported"] += 1
            f["false_supported"] += r["label"] != "supported"
    for f in out.values():
        f["alarm_precision"] = round(f["alarms_right"] / f["alarms"], 3) if f["alarms"] else None
    return out


def show_rules(name: str, table: dict) -> None:
    print(f"per rule, {name}: verdicts decided, alarms (contradicted/fabricated), how many the label confirms "
          f"(the same verdict; in brackets: any alarm label)")
    for rule, f in sorted(table.items(), key=lambda kv: -kv[1]["decided"]):
        prec = "-" if f["alarms"] == 0 else f"{f['alarm_precision']:.2f}"
        print(f"  {rule:20s} decided {f['decided']:5d}  alarms {f['alarms']:4d}  right {f['alarms_right']:4d} "
              f"({f['alarms_false_claim']:4d})  precision {prec:>5s}  supported {f['supported']:4d} of which false "
              f"{f['false_supported']:3d}")


def carol() -> dict:
    """graphrag's Carol index imported and verified: the ten least supported reports, the share of
    the other reports' findings called fabricated or contradicted, the time (wall and CPU)."""
    from claim_workspaces import CORPORA
    from core.interop.graphrag_import import import_graphrag
    from core.store.db import Store
    from core.verify.reports import verify_reports
    ref = CORPORA / "christmas_carol_graphrag_reference" / "parquet"
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "carol")
        import_graphrag(ref, store)
        t0, c0 = time.perf_counter(), time.process_time()
        r = verify_reports(store)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        # one chip: a finding sentence against one report's references, judged again
        from core.store.references import Resolver
        from core.verify.names import Names
        from core.verify.offline import judge
        resolver, names = Resolver(store), Names(store)
        res = resolver.resolve(__import__("core.text.citations", fromlist=["Ref"]).Ref("Reports", r.reports[0].report))
        t1, c1 = time.perf_counter(), time.process_time()
        judge("Scrooge sees Marley's ghost on Christmas Eve.", res.text_units[:80], res.record_texts(), names=names)
        chip_ms, chip_cpu_ms = (time.perf_counter() - t1) * 1000, (time.process_time() - c1) * 1000
        store.close()
    others = [t for t in r.reports if t.community != 21]
    n = sum(t.judged for t in others)
    bad = sum(t.counts["fabricated"] + t.counts["contradicted"] for t in others)
    print(f"graphrag's Carol index: {r.summary()}")
    print(f"  verify took {wall:.2f} s wall, {cpu:.2f} s CPU (target < 10 s); one chip {chip_ms:.0f} ms wall, "
          f"{chip_cpu_ms:.0f} ms CPU (target < 100 ms)")
    print(f"  other reports' findings fabricated or contradicted: {bad} of {n} ({bad / max(1, n):.1%}; target <= 10%)")
    print("  the ten least supported reports:")
    for t in r.reports[:10]:
        print(f"    report {t.report} (community {t.community}) {t.title[:60]}: {t.line()}")
    return {"summary": r.summary(), "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
            "chip_ms": round(chip_ms, 1), "chip_cpu_ms": round(chip_cpu_ms, 1), "others_flagged_share": round(bad / max(1, n), 3),
            "least_supported": [t.to_dict() for t in r.reports[:10]]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--claims", default=str(CLAIMS))
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sensemaker-claims"))
    ap.add_argument("--verbose", action="store_true", help="print every claim judged wrong")
    ap.add_argument("--base-url", help="an OpenAI-compatible endpoint for the model judge")
    ap.add_argument("--model-name", default="local")
    ap.add_argument("--fake-model", action="store_true",
                    help="the model judge against tests/openai_server.py's fake (checks the path, not a model)")
    ap.add_argument("--carol", action="store_true", help="also verify graphrag's Carol index")
    args = ap.parse_args()
    claims = load_claims(Path(args.claims))
    model, server = None, None
    if args.base_url or args.fake_model:
        from core.llm.openai import make_llm
        from core.settings import Settings
        from core.store.db import Store
        cache_store = Store(Path(args.cache) / "model-judge-cache")
        if args.fake_model:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
            from tests.fake_model import respond
            from tests.openai_server import FakeOpenAIServer
            server = FakeOpenAIServer(lambda messages, request: respond(messages)).start()
            settings = server.settings(stream=False)
        else:
            settings = Settings(engine="llm", llm_base_url=args.base_url, chat_model=args.model_name,
                                api_key="sk-local", request_timeout=600.0, max_retries=2)
        model = make_llm(settings, cache_store)
    t0 = time.perf_counter()
    rows = run_claims(claims, Path(args.cache), args.verbose, model)
    result = {"claims": args.claims, "judge_seconds": round(time.perf_counter() - t0, 2),
              "model": None if model is None else ("fake" if args.fake_model else args.model_name)}
    if server is not None:
        server.stop()
    for judge_name in ["offline"] + (["model"] if model is not None else []):
        print(f"{judge_name} judge:")
        for part, sel in (("development", lambda r: r["corpus"] in DEV), ("held out", lambda r: r["corpus"] not in DEV),
                          ("all", lambda r: True)):
            f = figures([r for r in rows if sel(r)], judge_name)
            show(part, f)
            result[f"{judge_name}_{part.replace(' ', '_')}"] = f
    result["rules"] = rule_figures(rows)
    show_rules("all", result["rules"])
    if model is not None:
        ruled = collections.Counter((r.get("model_rule") or "offline verdict stands") for r in rows)
        print("model judge: " + "; ".join(f"{k}: {v}" for k, v in ruled.most_common()))
    if args.carol:
        result["carol"] = carol()
    result["rows"] = rows
    name = "verify_claims" + ("" if Path(args.claims) == CLAIMS else f"_{Path(args.claims).stem}") \
        + ("_model" if model is not None else "")
    print(f"  -> {write_result(name, result)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

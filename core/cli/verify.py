"""`sensemaker verify --workspace DIR [--json] [--judge offline|model]`: check the citations of
every community report; `--claims FILE` or `--text "..."`: check sentences of one's own.

Reports: prints the dangling references, the flagged findings (unsupported, contradicted,
fabricated) with the fact that fails, the reports least supported first with their trust line,
and a summary line; `--json` prints one object whose `reports` list is ordered least supported
first (each: report, title, counts per verdict, fabricated). Claims: one JSON object per line
of FILE (`{"id": ..., "text": "One sentence [Data: Sources (12)]."}`) in, one per line out
(`id`, `verdict`, `facts`, `evidence`, ...). Exit code 0 whatever it finds (it is a report),
unless `--strict`: then 1 when a sentence or finding is contradicted or fabricated (a memo or an
index can gate a pipeline); 2 when the workspace does not exist or the input cannot be read.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import UserError
from core.store.backends import has_store
from core.store.db import DB_FILE, Store
from core.verify.judges import JUDGES, make_judge
from core.verify.reports import missing_text, verify_reports


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check every report's citations (or sentences of your own): "
                                      "dangling references, findings their sources do not support, "
                                      "contradict, or that name what no document holds")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder")
    p.add_argument("--json", action="store_true", help="print JSON (reports: one object; claims: one per line)")
    p.add_argument("--claims", metavar="FILE", help='check the sentences of FILE: one JSON object a line, '
                                                    '{"id": ..., "text": "... [Data: Sources (12)]."}')
    p.add_argument("--text", help="check one paragraph of your own with [Data: ...] markers")
    p.add_argument("--judge", choices=JUDGES, help="who judges: offline (no model) or model (the "
                                                    "workspace's LLM); default: the judge setting")
    p.add_argument("--strict", action="store_true", help="exit 1 when anything checked is contradicted or fabricated")
    p.add_argument("--top", type=int, default=10, help="reports listed in the text output (default 10)")
    p.set_defaults(func=run_verify)


def open_workspace(path: str) -> Store:
    folder = Path(path)
    if not folder.is_dir():
        raise UserError(f"workspace {path} does not exist")
    if not has_store(folder):
        raise UserError(f"{path} is not a Sensemaker workspace (no {DB_FILE}); index or import "
                        "a corpus into it first")
    from core.cli.acting import open_store
    return open_store(folder, "verify")


def _one_line(text: str, width: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _judge(args, store):
    from core.settings import load_settings
    settings = load_settings(args.workspace)
    name = args.judge or settings.judge or "offline"
    llm = None
    if name == "model":
        if not (settings.llm_base_url or settings.api_key):
            raise UserError("the model judge needs an endpoint: set OPENAI_BASE_URL (a local "
                            "OpenAI-compatible server) or OPENAI_API_KEY, or use --judge offline")
        from core.llm.openai import make_llm
        llm = make_llm(settings, store)
    from core.verify.rules import Policy
    return make_judge(name, llm, Policy.default().changed(settings.verify)), name


def _print_claims(results: list[dict], as_json: bool) -> None:
    for r in results:
        if as_json:
            print(json.dumps(r, ensure_ascii=False))
            continue
        print(f"{r['id']}: {r['verdict']} ({r['judge']} judge)  {_one_line(r['sentence'], 120)}")
        if r["verdict"] != "supported" and r.get("failing"):
            print(f"      {_one_line(r['failing'], 150)}")
        if r.get("dangling") and r.get("failing") != missing_text(r["dangling"]):
            print(f"      {missing_text(r['dangling'])}")
        for m in r.get("malformed") or []:
            if m not in (r.get("failing") or ""):
                print(f"      the marker {_one_line(m, 80)} is not read whole: a marker names a kind and numbers")
        if r.get("evidence"):
            print(f"      source: {_one_line(r['evidence']['text'], 140)}")


def run_verify(args: argparse.Namespace) -> int:
    store = open_workspace(args.workspace)
    judge, name = _judge(args, store)
    if args.claims or args.text is not None:
        from core.verify.text import check_claims, check_text, read_claims
        if args.claims:
            try:
                lines = Path(args.claims).read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise UserError(f"cannot read {args.claims}: {exc.strerror or exc}") from None
            results = check_claims(store, read_claims(lines), judge)
        else:
            if not args.text.strip():
                raise UserError('--text is empty: give the paragraph to check, e.g. --text "Revenue grew '
                                '12% [Data: Sources (12)]."')
            results = check_text(store, args.text, judge)
        _print_claims(results, args.json)
        return _strict(args, [r["verdict"] for r in results])
    result = verify_reports(store, judge=judge, judge_name=name)
    found = [v for t in result.reports for v, n in t.counts.items() if n]  # the verdicts --strict reads
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return _strict(args, found)
    out = sys.stdout
    if result.dangling:
        print(f"dangling references ({len(result.dangling)}):", file=out)
        for d in result.dangling:
            print(f"  report {d['report']} finding {d['finding']}: {d['kind']} ({d['id']}) does "
                  f"not exist  in {_one_line(d['marker'], 100)}", file=out)
    if result.unsupported:
        print(f"flagged findings ({result.flagged_count}):", file=out)
        for u in result.unsupported:
            print(f"  report {u['report']} finding {u['finding']} {u['verdict']}: "
                  f"{_one_line(u['sentence'])}", file=out)
            if u.get("failing"):
                print(f"      {_one_line(u['failing'], 150)}", file=out)
            if u["best_sentence"]:
                print(f"      closest source sentence: {_one_line(u['best_sentence'], 140)}",
                      file=out)
    if result.reports:
        print(f"least supported reports (of {len(result.reports)}):", file=out)
        for t in result.reports[: args.top]:
            print(f"  report {t.report} ({_one_line(t.title, 70)}): {t.line()}", file=out)
    print(result.summary(), file=out)
    return _strict(args, found)


def _strict(args, verdicts: list[str]) -> int:
    """1 under --strict when a verdict is contradicted or fabricated (said on stderr), else 0."""
    bad = {v: verdicts.count(v) for v in ("contradicted", "fabricated") if v in verdicts}
    if not args.strict or not bad:
        return 0
    print("strict: " + ", ".join(f"{n} {v}" for v, n in bad.items()) + " -> exit 1", file=sys.stderr)
    return 1

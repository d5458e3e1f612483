"""End to end (issue 22): `sensemaker index --replace` of a book with one paragraph edited asks the
model to extract at most 2 units. A Christmas Carol (or --file) is indexed with the LLM engine
against the simulated endpoint (bench/sim_server.py); then, for each edit kind of
bench/chunk_edits.py in turn, the file is written with one more paragraph edited and replaced
through the CLI; the extraction requests the server saw (first pass, gleaning, claims) and the
units they were for are counted, next to the run's own change summary.

    .venv/bin/python bench/replace_edits.py [--edits-per-kind 2] [--latency 0.01]
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import CORPORA, write_result  # noqa: E402
from chunk_edits import KINDS, edit  # noqa: E402
from crash_harness import log_size, read_log  # noqa: E402
from lifecycle import Bench  # noqa: E402
from sim_server import SimServer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", type=Path, default=CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt")
    ap.add_argument("--edits-per-kind", type=int, default=2)
    ap.add_argument("--latency", type=float, default=0.01)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--name", default="replace_edits")
    args = ap.parse_args()
    rnd = random.Random(22)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        doc = tmp / args.file.name
        text = args.file.read_text(encoding="utf-8-sig")
        doc.write_text(text, encoding="utf-8")
        log = tmp / "requests.jsonl"
        with SimServer(args.latency, request_log=log, varied=True, quiet=True) as server:
            b = Bench(server.url, log, args.concurrency)
            ws = tmp / "ws"
            summary, calls, sec = b.cli("index", str(doc), "--workspace", str(ws), "--engine", "llm")
            print(f"index: {summary['counts'].get('text_units_added')} units, calls {calls}, {sec:.1f} s", flush=True)
            for kind in KINDS:
                for _ in range(args.edits_per_kind):
                    new = None
                    while new is None:
                        new = edit(text, kind, rnd)
                    text = new
                    doc.write_text(text, encoding="utf-8")
                    start = log_size(log)
                    summary, calls, sec = b.cli("index", str(doc), "--workspace", str(ws), "--replace")
                    kinds = Counter(e.get("kind") for e in read_log(log, start) if e["endpoint"] == "chat")
                    ch = summary.get("changes") or {}
                    row = {"kind": kind, "extract_requests": kinds.get("extract", 0),
                           "extraction_calls": calls.get("extraction", 0), "summary_calls": calls.get("summary", 0),
                           "report_calls": calls.get("report", 0), "units_extracted": ch.get("units_extracted"),
                           "text_units": ch.get("text_units"), "seconds": round(sec, 1)}
                    rows.append(row)
                    print(f"  {kind:<20} units extracted {row['units_extracted']} (first-pass extract requests "
                          f"{row['extract_requests']}, extraction calls {row['extraction_calls']}), summary "
                          f"{row['summary_calls']}, report {row['report_calls']}, {sec:.1f} s", flush=True)
    worst = max(r["extract_requests"] for r in rows)
    print(f"replaces: {len(rows)}, units extracted at most {max(r['units_extracted'] or 0 for r in rows)}, "
          f"first-pass extract requests at most {worst}")
    print(f"  -> {write_result(args.name, {'file': str(args.file), 'replaces': rows})}")


if __name__ == "__main__":
    main()

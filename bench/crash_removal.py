"""Crash harness for a removal (issue 22): `sensemaker remove DOC` is killed with SIGKILL in each of
its stages (right after its first step committed; summarising descriptions; communities; reports;
embeddings), then run again to completion. Each time the result must be the rows of an
uninterrupted removal, `sensemaker check` must pass, no call whose answer the killed run had
stored may be sent again, and no extraction call may be made at all (a removal extracts nothing).
Built on bench/crash_harness.py (its endpoint, request log, watch and comparisons).

    .venv/bin/python bench/crash_removal.py [--latency 0.03] [--stages ...]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import crash_harness as ch  # noqa: E402
from sim_server import SimServer  # noqa: E402

STAGES = ["prune", "summarize", "communities", "reports", "embeddings"]


def _docs(w: ch.Watch) -> int:
    return w.count("documents")


def _install(base_docs: int) -> None:
    """The removal's stages, in the harness's tables of "inside stage X" (live and after death)."""
    removed = lambda w: _docs(w) == base_docs - 1
    first_step = lambda w: removed(w) and w.run()[1] != "running"  # committed, its run not started
    live = {
        "remove-prune": first_step,
        "remove-summarize": lambda w: removed(w) and ch._running(w, "graph", "summarize") and w.requests("summarize") >= 1,
        "remove-communities": lambda w: removed(w) and ch._running(w, "communities"),
        "remove-reports": lambda w: removed(w) and ch._running(w, "reports") and w.requests("report") >= 1,
        "remove-embeddings": lambda w: removed(w) and ch._running(w, "embeddings"),
    }
    ch.INSIDE.update(live)
    ch.DIED_INSIDE.update({
        "remove-prune": first_step,
        "remove-summarize": lambda w: removed(w) and ch._running(w, "graph", "summarize"),
        "remove-communities": lambda w: removed(w) and ch._running(w, "communities"),
        "remove-reports": lambda w: removed(w) and ch._running(w, "reports", "embeddings"),
        "remove-embeddings": lambda w: removed(w) and ch._running(w, "embeddings"),
    })


class Removal(ch.Harness):
    doc: str = ""

    def command(self, ws: Path) -> list[str]:
        return [sys.executable, "-m", "core.cli.main", "remove", self.doc, "--workspace", str(ws), "--quiet", "--json"]


def run_removal_harness(files: list[Path], root: Path, doc: str, *, latency: float = 0.03, concurrency: int = 8,
                        stages: list[str] | None = None) -> dict[str, Any]:
    stages = stages or STAGES
    log = root / "requests.jsonl"
    with SimServer(latency, request_log=log, varied=True, quiet=True) as server:
        indexer = ch.Harness(files, server.url, log, concurrency)
        base_ws = root / "indexed"
        indexer.run(base_ws)
        base_chats, base_texts = ch.stored_calls(base_ws)
        base_docs = len(ch.rows_of(base_ws)["documents"])
        _install(base_docs)
        rm = Removal(files, server.url, log, concurrency)
        rm.doc = doc
        ref_ws = root / "uninterrupted"
        shutil.copytree(base_ws, ref_ws)
        summary, ref_requests, ref_seconds = rm.run(ref_ws)
        ref = ch.rows_of(ref_ws)
        ref_kinds: dict[str, int] = {}
        for e in ref_requests:
            if e["endpoint"] == "chat":
                ref_kinds[e["kind"]] = ref_kinds.get(e["kind"], 0) + 1
        again = [e.get("kind", "embedding") for e in ref_requests
                 if (e["endpoint"] == "chat" and e["key"] in base_chats)
                 or (e["endpoint"] != "chat" and any(k in base_texts for k in e["keys"]))]
        print(f"  calls the index had stored, sent again by the removal: {len(again)} ({sorted(set(again))})")
        print(f"uninterrupted removal of {doc}: {ref_seconds:.1f} s, chat requests by kind {ref_kinds}", flush=True)
        out = []
        for stage in stages:
            ws = root / f"killed-{stage}"
            shutil.copytree(base_ws, ws)
            state = rm.kill_inside(ws, f"remove-{stage}")
            chats, texts = ch.stored_calls(ws)
            _, resumed, _ = rm.run(ws)
            extraction = sum(1 for e in resumed if e.get("kind") in ("extract", "glean", "claims"))
            # finished work of the killed run itself (stored after the index) must not be asked again
            r = {"stage": stage, **state, "repeated_calls": ch.repeats(resumed, chats - base_chats, texts - base_texts),
                 "extraction_calls_on_resume": extraction, "resumed_requests": len(resumed), **ch.compare(ws, ref)}
            r["survived"] = bool(r["killed"] and r["same_counts"] and r["rows_lost"] == 0 and r["rows_extra"] == 0
                                 and r["check_ok"] and r["repeated_calls"] == 0 and extraction == 0)
            out.append(r)
            print(f"  {stage:<12} killed={r['killed']!s:<5} inside={r['died_inside']!s:<5} (runs.stage "
                  f"{r['stage_at_death']}) -> resumed: rows lost {r['rows_lost']}, extra {r['rows_extra']}, check "
                  f"{r['check_ok']}, repeated calls {r['repeated_calls']}, extraction calls {extraction}", flush=True)
    return {"files": [p.name for p in files], "document": doc, "latency": latency,
            "uninterrupted": {"seconds": round(ref_seconds, 2), "requests_by_kind": ref_kinds,
                              "stored_by_the_index_sent_again": len(again),
                              "status": summary["status"], "changes": summary.get("changes")},
            "runs": out, "kills": len(out), "survived": sum(r["survived"] for r in out),
            "died_inside": sum(bool(r["died_inside"]) for r in out)}


def main() -> None:
    from _common import write_result

    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.03)
    ap.add_argument("--stages", nargs="+", default=STAGES, choices=STAGES)
    ap.add_argument("--name", default="crash_removal")
    args = ap.parse_args()
    files = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")
    doc = next(p.name for p in files if "gazette" in p.name)
    with tempfile.TemporaryDirectory() as tmp:
        res = run_removal_harness(files, Path(tmp), doc, latency=args.latency, stages=args.stages)
    print(f"kills {res['kills']}, died inside their stage {res['died_inside']}, survived {res['survived']}")
    print(f"  -> {write_result(args.name, res)}")


if __name__ == "__main__":
    main()

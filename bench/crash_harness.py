"""Crash harness (issue 7): `sensemaker index --engine llm` is killed with SIGKILL inside each
pipeline stage, then run again to completion. Each time it must resume and finish with the same
rows as an uninterrupted run, `sensemaker check` must pass, and no call whose answer the killed
run had stored (llm_cache rows, embedding rows) may be sent to the endpoint again.

The endpoint is bench/sim_server.py in its own process (the prompt-aware fake model, a fixed
latency so stages take measurable time, passage-dependent descriptions so the summarise stage has
work) with a request log: one line per answered request, hashed, which is how calls are compared
across processes. Where the run is comes from the workspace database (the `runs` row's stage,
the extractions, cache and report rows); after the kill the database shows where it really died.

Two scenarios: "single" (a fresh workspace per stage: one kill, one resume) and "chain" (one
workspace killed once in every stage in turn, each resume killed in the next stage, then a
final resume).

    .venv/bin/python bench/crash_harness.py [--latency 0.03] [--scenario single chain] [--stages ...]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sim_server import SimServer, chat_key, text_key  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
STAGES = ["chunk", "extract", "graph", "summarize", "communities", "reports", "embeddings"]
TABLES = ["documents", "text_units", "entities", "relationships", "claims", "communities",
          "community_reports", "embeddings"]
TEST_KEY = "sk-test-0123456789abcdef"


def default_files() -> list[Path]:
    carol = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    sample = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")
    return [carol, *sample]


# where a run is -----------------------------------------------------------------------------
@dataclass
class Watch:
    """What the harness sees of a live run: the database (read-only connection) and the
    endpoint's request log from this attempt on."""
    con: sqlite3.Connection
    log: Path
    log_start: int
    half: dict[str, int] = field(default_factory=dict)  # half the requests of each kind of a whole run

    def one(self, sql: str, params: tuple = ()) -> Any:
        row = self.con.execute(sql, params).fetchone()
        return row[0] if row else None

    def run(self) -> tuple[str | None, str | None]:
        row = self.con.execute("select stage, status from runs order by human_readable_id desc limit 1").fetchone()
        return (row[0], row[1]) if row else (None, None)

    def requests(self, kind: str) -> int:
        return sum(1 for e in read_log(self.log, self.log_start) if e.get("kind") == kind)

    def count(self, table: str, where: str = "") -> int:
        return self.one(f"select count(*) from [{table}]" + (f" where {where}" if where else ""))


def _running(w: Watch, *stages: str) -> bool:
    stage, status = w.run()
    return status == "running" and stage in stages


# "inside stage X": checked while the run is live; the database part is checked again after the
# kill, when it shows where the process really was.
INSIDE: dict[str, Callable[[Watch], bool]] = {
    # the batch of text units is computed but not committed
    "chunk": lambda w: _running(w, "chunk"),
    # about half the units extracted and stored, the others not yet
    "extract": lambda w: _running(w, "extract")
    and w.count("text_units") // 2 <= w.count("extractions", "status = 'ok'") < w.count("text_units"),
    # extractions collected and merged, before the first description summary
    "graph": lambda w: _running(w, "graph") and w.requests("summarize") == 0,
    # about half the description summaries answered (cached), the graph tables not yet written
    "summarize": lambda w: _running(w, "graph", "summarize") and w.requests("summarize") >= w.half.get("summarize", 1)
    and w.count("entities") == 0,
    "communities": lambda w: _running(w, "communities"),
    # about half the reports answered (cached), the reports table not yet written
    "reports": lambda w: _running(w, "reports", "embeddings") and w.requests("report") >= w.half.get("report", 1)
    and w.count("community_reports") == 0,
    # the report embeddings (the last stage), after the reports are written
    "embeddings": lambda w: _running(w, "embeddings") and w.count("community_reports") > 0,
}

DIED_INSIDE: dict[str, Callable[[Watch], bool]] = {
    "chunk": lambda w: _running(w, "chunk"),
    "extract": lambda w: _running(w, "extract") and 0 < w.count("extractions", "status = 'ok'") < w.count("text_units"),
    "graph": lambda w: _running(w, "graph", "summarize") and w.count("entities") == 0,
    "summarize": lambda w: _running(w, "graph", "summarize") and w.count("entities") == 0,
    "communities": lambda w: _running(w, "communities"),
    "reports": lambda w: _running(w, "reports", "embeddings") and w.count("community_reports") == 0,
    "embeddings": lambda w: _running(w, "embeddings") and w.count("community_reports") > 0,
}


def read_log(path: Path, start: int = 0) -> list[dict]:
    """The log's complete lines from `start`: the server may be writing its last line while this
    reads (a line without its newline yet is left for the next read)."""
    if not path.exists():
        return []
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read()
    whole = data[:data.rfind(b"\n") + 1]
    return [json.loads(line) for line in whole.splitlines() if line.strip()]


def log_size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


# running the CLI -------------------------------------------------------------------------------
@dataclass
class Harness:
    files: list[Path]
    url: str
    log: Path
    concurrency: int = 8
    half: dict[str, int] = field(default_factory=dict)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
        env.update(OPENAI_BASE_URL=self.url, OPENAI_API_KEY=TEST_KEY, SENSEMAKER_CHAT_MODEL="test-model",
                   SENSEMAKER_EMBEDDING_MODEL="test-embedding", SENSEMAKER_CONCURRENCY=str(self.concurrency))
        return env

    def command(self, ws: Path) -> list[str]:
        return [sys.executable, "-m", "core.cli.main", "index", *map(str, self.files), "--workspace", str(ws),
                "--engine", "llm", "--quiet", "--json"]

    def run(self, ws: Path) -> tuple[dict, list[dict], float]:
        """Run to completion: (summary, requests it made, seconds)."""
        start, t0 = log_size(self.log), time.perf_counter()
        proc = subprocess.run(self.command(ws), cwd=str(ROOT), env=self.env(), capture_output=True,
                              text=True, timeout=600)
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"index run failed ({proc.returncode}): {proc.stderr[-2000:]}")
        time.sleep(0.05)
        return json.loads(proc.stdout), read_log(self.log, start), seconds

    def kill_inside(self, ws: Path, stage: str, poll: float = 0.002) -> dict[str, Any]:
        """Start a run and SIGKILL it once it is inside `stage`. Returns what was seen."""
        start = log_size(self.log)
        proc = subprocess.Popen(self.command(ws), cwd=str(ROOT), env=self.env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        watch, killed, seen = None, False, []
        try:
            while proc.poll() is None:
                if watch is None and (ws / "sensemaker.db").exists():
                    try:
                        con = sqlite3.connect(f"file:{ws / 'sensemaker.db'}?mode=ro", uri=True, timeout=10)
                        con.execute("select 1 from runs limit 1")
                        watch = Watch(con, self.log, start, self.half)
                    except sqlite3.Error:
                        watch = None
                if watch is not None:
                    try:
                        st = watch.run()[0]
                        if st and (not seen or seen[-1] != st):
                            seen.append(st)
                        if INSIDE[stage](watch):
                            os.kill(proc.pid, signal.SIGKILL)
                            killed = True
                            break
                    except sqlite3.Error:
                        pass
                time.sleep(poll)
            proc.wait(timeout=60)
            time.sleep(0.3)  # let requests the dead run left in flight reach the log
            state = {"stages_seen": seen, "killed": killed, "exit": proc.returncode}
            if watch is None:
                watch = Watch(sqlite3.connect(f"file:{ws / 'sensemaker.db'}?mode=ro", uri=True), self.log, start)
            state["died_inside"] = killed and DIED_INSIDE[stage](watch)
            state["stage_at_death"], state["status_at_death"] = watch.run()
            state["rows_at_death"] = {t: watch.count(t) for t in TABLES + ["extractions", "llm_cache"]}
            state["chat_requests"] = chat_requests(read_log(self.log, start))
            watch.con.close()
            return state
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


# what the workspace holds ----------------------------------------------------------------------
def stored_calls(ws: Path) -> tuple[set[str], set[str]]:
    """Keys of the chat calls whose answers are cached, and of the texts whose embeddings are
    stored: the finished calls a resumed run must not repeat."""
    from core.index.embed_stage import embedding_id, texts_to_embed
    from core.store.db import Store

    store = Store(ws)
    chats = {chat_key(r["model"], json.loads(r["request"])["messages"])
             for r in store.rows("llm_cache", select="model, request", order_by=None)}
    have = {r["id"]: r["model"] for r in store.rows("embeddings", select="id, model", order_by=None)}
    models = set(have.values())
    texts = set()
    for table in ("entities", "community_reports"):
        for t, owner, text in texts_to_embed(store, table):
            if any(embedding_id(t, owner, m, text) in have for m in models):
                texts.add(text_key(text))
    store.close()
    return chats, texts


def rows_of(ws: Path) -> dict[str, set[str]]:
    con = sqlite3.connect(ws / "sensemaker.db")
    out = {t: {r[0] for r in con.execute(f"select id from [{t}]")} for t in TABLES}
    con.close()
    return out


def check_passes(ws: Path) -> bool:
    proc = subprocess.run([sys.executable, "-m", "core.cli.main", "check", "--workspace", str(ws)], cwd=str(ROOT),
                          capture_output=True, text=True)
    return proc.returncode == 0 and "workspace is consistent" in proc.stdout


def repeats(requests: list[dict], chats: set[str], texts: set[str]) -> int:
    n = 0
    for e in requests:
        if e["endpoint"] == "chat":
            n += e["key"] in chats
        else:
            n += sum(k in texts for k in e["keys"])
    return n


def chat_requests(requests: list[dict]) -> int:
    return sum(1 for e in requests if e["endpoint"] == "chat")


def compare(ws: Path, base: dict[str, set[str]]) -> dict[str, Any]:
    got = rows_of(ws)
    lost = {t: len(base[t] - got[t]) for t in TABLES}
    extra = {t: len(got[t] - base[t]) for t in TABLES}
    return {"counts": {t: len(got[t]) for t in TABLES}, "same_counts": all(len(got[t]) == len(base[t]) for t in TABLES),
            "rows_lost": sum(lost.values()), "rows_extra": sum(extra.values()),
            "lost_by_table": {t: n for t, n in lost.items() if n}, "check_ok": check_passes(ws)}


# scenarios -------------------------------------------------------------------------------------
def single(h: Harness, root: Path, stages: list[str], base: dict[str, set[str]], base_calls: int) -> list[dict]:
    """A fresh workspace per stage: kill inside it once, run again to completion."""
    out = []
    for stage in stages:
        ws = root / f"single-{stage}"
        t0 = time.perf_counter()
        state = h.kill_inside(ws, stage)
        chats, texts = stored_calls(ws)
        _, resumed, _ = h.run(ws)
        result = {"scenario": "single", "stage": stage, **state,
                  "cached_at_death": len(chats), "embedded_at_death": len(texts),
                  "resumed_requests": len(resumed), "repeated_calls": repeats(resumed, chats, texts),
                  "chat_requests_total": state["chat_requests"] + chat_requests(resumed),
                  "chat_requests_uninterrupted": base_calls,
                  **compare(ws, base), "seconds": round(time.perf_counter() - t0, 2)}
        result["survived"] = _survived(result)
        out.append(result)
        print(_line(result), flush=True)
    return out


def chain(h: Harness, root: Path, stages: list[str], base: dict[str, set[str]], base_calls: int) -> list[dict]:
    """One workspace: every run is killed in the next stage, then a final run completes."""
    ws = root / "chain"
    out, chat_total = [], 0
    for stage in stages:
        state = h.kill_inside(ws, stage)
        chat_total += state["chat_requests"]
        chats, texts = stored_calls(ws)
        start = log_size(h.log)
        out.append({"scenario": "chain", "stage": stage, **state, "cached_at_death": len(chats),
                    "embedded_at_death": len(texts), "_stored": (chats, texts), "_next_start": start})
    _, final, _ = h.run(ws)
    chat_total += chat_requests(final)
    # a call stored before kill k must not be sent by any later run (k+1 .. final)
    later_runs = [read_log(h.log, r["_next_start"]) for r in out]
    verdict = compare(ws, base)
    for r, later in zip(out, later_runs):
        chats, texts = r.pop("_stored")
        r.pop("_next_start")
        r.update(repeated_calls=repeats(later, chats, texts), **verdict)
        r["survived"] = _survived(r)
        print(_line(r), flush=True)
    out.append({"scenario": "chain", "stage": "final", "chat_requests_total": chat_total,
                "chat_requests_uninterrupted": base_calls, **verdict})
    return out


def _survived(r: dict) -> bool:
    return bool(r["killed"] and r["same_counts"] and r["rows_lost"] == 0 and r["rows_extra"] == 0
                and r["check_ok"] and r["repeated_calls"] == 0)


def _line(r: dict) -> str:
    d = r["rows_at_death"]
    return (f"  {r['scenario']:<6} {r['stage']:<12} killed={r['killed']!s:<5} inside={r['died_inside']!s:<5} "
            f"(runs.stage {r['stage_at_death']}; units {d['text_units']}, extractions {d['extractions']}, "
            f"cache {d['llm_cache']}, reports {d['community_reports']}, embeddings {d['embeddings']}) -> "
            f"resumed: same counts {r['same_counts']}, rows lost {r['rows_lost']}, check {r['check_ok']}, "
            f"repeated calls {r['repeated_calls']}")


def run_harness(files: list[Path], root: Path, *, latency: float = 0.03, concurrency: int = 8,
                scenarios: tuple[str, ...] = ("single", "chain"), stages: list[str] | None = None) -> dict[str, Any]:
    stages = stages or STAGES
    log = root / "requests.jsonl"
    with SimServer(latency, request_log=log, varied=True, quiet=True) as server:
        h = Harness(files, server.url, log, concurrency)
        summary, base_requests, base_seconds = h.run(root / "uninterrupted")
        base = rows_of(root / "uninterrupted")
        # the request log and the workspace must name calls alike, or "repeated" would always be 0:
        # every call of the uninterrupted run is found among its stored calls
        chats, texts = stored_calls(root / "uninterrupted")
        found = repeats(base_requests, chats, texts)
        sent = chat_requests(base_requests) + sum(len(e["keys"]) for e in base_requests if e["endpoint"] == "embeddings")
        base_calls = chat_requests(base_requests)
        for e in base_requests:
            if e["endpoint"] == "chat":
                h.half[e["kind"]] = h.half.get(e["kind"], 0) + 1
        h.half = {k: max(1, v // 2) for k, v in h.half.items()}
        print(f"uninterrupted run: {base_seconds:.1f} s, {base_calls} chat requests, "
              f"{sum(1 for e in base_requests if e['endpoint'] == 'embeddings')} embedding requests, "
              f"{ {t: len(v) for t, v in base.items()} }", flush=True)
        results: list[dict] = []
        if "single" in scenarios:
            results += single(h, root, stages, base, base_calls)
        if "chain" in scenarios:
            results += chain(h, root, stages, base, base_calls)
    kills = [r for r in results if r["stage"] != "final"]
    per_stage = {s: {"attempted": sum(1 for r in kills if r["stage"] == s),
                     "killed_inside": sum(1 for r in kills if r["stage"] == s and r["died_inside"]),
                     "survived": sum(1 for r in kills if r["stage"] == s and r["survived"])} for s in stages}
    return {"files": [p.name for p in files], "latency": latency, "concurrency": concurrency,
            "uninterrupted": {"seconds": round(base_seconds, 2), "chat_requests": base_calls,
                              "requests_found_stored": found, "requests_sent": sent,
                              "counts": {t: len(v) for t, v in base.items()}, "status": summary["status"]},
            "per_stage": per_stage, "kills_attempted": len(kills),
            "kills_inside_stage": sum(r["died_inside"] for r in kills),
            "kills_survived": sum(r["survived"] for r in kills),
            "rows_lost": sum(r["rows_lost"] for r in results if "rows_lost" in r),
            "repeated_calls": sum(r["repeated_calls"] for r in kills),
            "calls_in_flight_at_kills": sum(r["chat_requests_total"] - base_calls for r in results
                                            if "chat_requests_total" in r),
            "runs": results}


def main() -> None:
    from _common import write_result

    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.03)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--scenario", nargs="+", default=["single", "chain"], choices=["single", "chain"])
    ap.add_argument("--stages", nargs="+", default=STAGES, choices=STAGES)
    ap.add_argument("--name", default="crash_harness", help="results file bench/results/<name>.json")
    ap.add_argument("--files", nargs="+", type=Path, help="default: A Christmas Carol and the sample corpus")
    args = ap.parse_args()
    files = args.files or default_files()
    with tempfile.TemporaryDirectory() as tmp:
        res = run_harness(files, Path(tmp), latency=args.latency, concurrency=args.concurrency,
                          scenarios=tuple(args.scenario), stages=args.stages)
    print("stage        attempted  inside  survived")
    for s, v in res["per_stage"].items():
        print(f"  {s:<12} {v['attempted']:>7} {v['killed_inside']:>7} {v['survived']:>9}")
    print(f"kills attempted {res['kills_attempted']}, died inside their stage {res['kills_inside_stage']}, "
          f"survived {res['kills_survived']}; rows lost {res['rows_lost']}; repeated calls {res['repeated_calls']} "
          f"(calls in flight when killed, never answered to the run, sent again: {res['calls_in_flight_at_kills']}; "
          f"{res['uninterrupted']['requests_found_stored']} of {res['uninterrupted']['requests_sent']} "
          f"requests of the uninterrupted run matched to its stored calls)")
    print(f"  -> {write_result(args.name, res)}")


if __name__ == "__main__":
    main()

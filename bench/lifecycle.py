"""Documents change (issue 22) on the podcast corpus through the LLM engine, against the simulated
endpoint (bench/sim_server.py, passage-dependent descriptions): index N parts, remove one episode
(all its parts), replace one part with one paragraph edited, add the episode back; for each
operation the LLM calls by kind (extraction = extract + gleaning + claims, summary, report) and the
wall time, and the same for a full index of the result in a fresh workspace. After each operation:
`sensemaker check`, dangling references of the reports, and the result compared with a fresh index
of the same documents (entities, relationships, communities by membership).

    .venv/bin/python bench/lifecycle.py [--parts 200] [--latency 0.02] [--concurrency 8]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import CORPORA, write_result  # noqa: E402
from crash_harness import read_log, log_size  # noqa: E402
from sim_server import SimServer  # noqa: E402

ZIP = (CORPORA if CORPORA.exists() else Path("/work/shared/corpora")) / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
KINDS = {"extract": "extraction", "glean": "extraction", "claims": "extraction", "summarize": "summary",
         "report": "report"}


def episode(name: str) -> str:
    return name.rsplit("-part", 1)[0]


def pick_parts(out: Path, n: int) -> list[Path]:
    """Whole episodes, in name order, until n parts."""
    with zipfile.ZipFile(ZIP) as z:
        names = sorted(i for i in z.namelist() if i.endswith(".txt"))
        by_ep: dict[str, list[str]] = {}
        for i in names:
            by_ep.setdefault(episode(Path(i).name), []).append(i)
        chosen: list[str] = []
        for ep in sorted(by_ep):
            if len(chosen) >= n:
                break
            chosen += by_ep[ep]
        chosen = chosen[:n]
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for i in chosen:
            p = out / Path(i).name
            p.write_bytes(z.read(i))
            paths.append(p)
    return paths


class Bench:
    def __init__(self, url: str, log: Path, concurrency: int):
        self.url, self.log, self.concurrency = url, log, concurrency

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
        env.update(OPENAI_BASE_URL=self.url, OPENAI_API_KEY="sk-test-0123456789abcdef",
                   SENSEMAKER_CHAT_MODEL="test-model", SENSEMAKER_CONCURRENCY=str(self.concurrency))
        return env

    def cli(self, *args: str) -> tuple[dict, dict, float]:
        """Run one `sensemaker` command: (its JSON summary, chat calls by kind, seconds)."""
        start, t0 = log_size(self.log), time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "core.cli.main", *args, "--quiet", "--json"], cwd=str(ROOT),
                              env=self.env(), capture_output=True, text=True, timeout=3600)
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        time.sleep(0.05)
        calls = Counter(KINDS.get(e.get("kind"), "other") for e in read_log(self.log, start) if e["endpoint"] == "chat")
        return json.loads(proc.stdout), dict(calls), seconds


def graph_of(ws: Path) -> dict:
    from core.store.db import Store
    store = Store(ws)
    title = {e["id"]: e["title"] for e in store.rows("entities", select="id, title")}
    # units by document title and text (a replaced document keeps its id, a fresh one has its own)
    unit = {r[0]: (r[1], r[2]) for r in store.db.conn.execute(
        "select t.id, d.title, t.text from text_units t join documents d on d.id = t.document_id")}
    out = {"entities": {e["title"]: sorted(unit[u] for u in e["text_unit_ids"])
                        for e in store.rows("entities", select="title, text_unit_ids")},
           "relationships": {(r["source"], r["target"]) for r in store.rows("relationships", select="source, target")},
           "communities": sorted((c["level"], tuple(sorted(title[i] for i in c["entity_ids"])))
                                 for c in store.rows("communities", select="level, entity_ids"))}
    store.close()
    return out


def health(ws: Path) -> dict:
    from core.verify.reports import verify_reports
    from core.store.check import check_workspace
    from core.store.db import Store
    store = Store(ws)
    out = {"check_ok": check_workspace(store).ok, "dangling": len(verify_reports(store).dangling)}
    store.close()
    return out


def touched(ws: Path, titles: list[str]) -> dict:
    """Before a removal: entities and relationships that lose a unit (the descriptions it may have
    to summarise again), and communities holding one of those entities."""
    from core.store.db import Store
    store = Store(ws)
    docs = [d["id"] for d in store.rows("documents", select="id, title") if d["title"] in titles]
    marks = ",".join("?" * len(docs))
    units = {r[0] for r in store.db.conn.execute(f"select id from text_units where document_id in ({marks})", docs)}
    ents = {e["id"] for e in store.rows("entities", select="id, text_unit_ids") if set(e["text_unit_ids"]) & units}
    coms = sum(1 for c in store.rows("communities", select="entity_ids") if set(c["entity_ids"]) & ents)
    rels = sum(1 for r in store.rows("relationships", select="text_unit_ids") if set(r["text_unit_ids"]) & units)
    out = {"units": len(units), "entities": len(ents), "relationships": rels, "communities": coms,
           "communities_total": store.count("communities")}
    store.close()
    return out


def communities_of(ws: Path) -> dict[int, tuple[int, frozenset, int]]:
    """community number -> (level, titles of its entities, parent number)."""
    from core.store.db import Store
    store = Store(ws)
    title = {e["id"]: e["title"] for e in store.rows("entities", select="id, title")}
    out = {c["community"]: (c["level"], frozenset(title.get(i, i) for i in c["entity_ids"]), c["parent"])
           for c in store.rows("communities", select="community, level, parent, entity_ids")}
    store.close()
    return out


def changed_with_ancestors(before: dict, after: dict) -> dict:
    """After an operation: communities whose membership is new (same-seed Leiden on the whole
    graph), and those plus their ancestors (whose reports read the changed sub-reports)."""
    old = {(lvl, mem) for lvl, mem, _ in before.values()}
    changed = {n for n, (lvl, mem, _) in after.items() if (lvl, mem) not in old}
    closure = set(changed)
    for n in changed:
        p = after[n][2]
        while p is not None and p in after and p not in closure:
            closure.add(p)
            p = after[p][2]
    return {"changed_by_membership": len(changed), "changed_plus_ancestors": len(closure)}


def edit_one_paragraph(text: str, rnd: random.Random) -> str:
    paras = text.split("\n\n")
    k = rnd.choice([i for i, p in enumerate(paras) if len(p) > 200])
    words = paras[k].split(" ")
    j = rnd.randrange(1, len(words))
    paras[k] = " ".join(words[:j] + ["(corrected)"] + words[j:])
    return "\n\n".join(paras)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, default=200)
    ap.add_argument("--latency", type=float, default=0.02)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--name", default="lifecycle")
    args = ap.parse_args()
    rnd = random.Random(22)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = pick_parts(tmp / "parts", args.parts)
        log = tmp / "requests.jsonl"
        with SimServer(args.latency, request_log=log, varied=True, quiet=True) as server:
            b = Bench(server.url, log, args.concurrency)
            ws = tmp / "ws"

            def op(name: str, summary: dict, calls: dict, seconds: float, docs: list[Path], extra: dict | None = None):
                fresh_ws = tmp / f"fresh-{name}"
                fdir = tmp / f"docs-{name}"
                fdir.mkdir()
                for p in docs:
                    shutil.copy(p, fdir / p.name)
                # the documents in the workspace's order (a document added back comes last)
                fsum, fcalls, fsec = b.cli("index", *[str(fdir / p.name) for p in docs], "--workspace",
                                           str(fresh_ws), "--engine", "llm")
                if graph_of(ws) != graph_of(fresh_ws):
                    a, f = graph_of(ws), graph_of(fresh_ws)
                    for k in a:
                        if a[k] != f[k]:
                            print("  differs:", k, len(a[k]), len(f[k]), flush=True)
                row = {"operation": name, "seconds": round(seconds, 2), "calls": calls,
                       "changes": summary.get("changes"), **health(ws),
                       "same_as_fresh": graph_of(ws) == graph_of(fresh_ws),
                       "fresh_seconds": round(fsec, 2), "fresh_calls": fcalls, **(extra or {})}
                shutil.rmtree(fresh_ws)
                rows.append(row)
                c, f = row["calls"], row["fresh_calls"]
                print(f"{name:<10} {seconds:7.1f} s  calls extraction {c.get('extraction', 0):>5} summary "
                      f"{c.get('summary', 0):>4} report {c.get('report', 0):>4} | fresh index {fsec:7.1f} s: "
                      f"{f.get('extraction', 0):>5} {f.get('summary', 0):>4} {f.get('report', 0):>4} | check "
                      f"{row['check_ok']} dangling {row['dangling']} same as fresh {row['same_as_fresh']}", flush=True)

            summary, calls, sec = b.cli("index", *map(str, files), "--workspace", str(ws), "--engine", "llm")
            rows.append({"operation": "index", "seconds": round(sec, 2), "calls": calls, "changes": summary["changes"],
                         **health(ws)})
            print(f"index      {sec:7.1f} s  calls {calls}  {summary['counts']}", flush=True)
            docs = list(files)
            # remove one episode (all its parts): a middle one
            eps = sorted({episode(p.name) for p in files})
            ep = eps[len(eps) // 2]
            gone = [p for p in docs if episode(p.name) == ep]
            t = touched(ws, [p.name for p in gone])
            coms_before = communities_of(ws)
            summary, calls, sec = b.cli("remove", *[p.name for p in gone], "--workspace", str(ws))
            t.update(changed_with_ancestors(coms_before, communities_of(ws)))
            docs = [p for p in docs if p not in gone]
            op("remove", summary, calls, sec, docs, {"episode": ep, "parts": len(gone), "touched": t})
            r = calls.get("report", 0)
            print(f"  removal's report calls {r} against the communities it touched, two definitions:\n"
                  f"    (a) communities holding a touched entity before the removal: {t['communities']} of "
                  f"{t['communities_total']} -> calls {'<=' if r <= t['communities'] else '>'} (a)\n"
                  f"    (b) communities changed by membership after the same-seed Leiden "
                  f"({t['changed_by_membership']}) plus their ancestors: {t['changed_plus_ancestors']} -> calls "
                  f"{'<=' if r <= t['changed_plus_ancestors'] else '>'} (b)\n"
                  f"  summary calls {calls.get('summary', 0)} against entities + relationships that lost a unit: "
                  f"{t['entities']} + {t['relationships']}", flush=True)
            # replace one part with one paragraph edited
            target = rnd.choice(docs)
            edited = tmp / "edited" / target.name
            edited.parent.mkdir()
            edited.write_text(edit_one_paragraph(target.read_text(encoding="utf-8"), rnd), encoding="utf-8")
            summary, calls, sec = b.cli("index", str(edited), "--workspace", str(ws), "--replace")
            docs = [edited if p == target else p for p in docs]
            op("replace", summary, calls, sec, docs, {"part": target.name})
            # add the episode back
            summary, calls, sec = b.cli("index", *map(str, gone), "--workspace", str(ws))
            docs = docs + gone
            op("add back", summary, calls, sec, docs)
    res = {"parts": args.parts, "latency": args.latency, "concurrency": args.concurrency, "operations": rows}
    print(f"  -> {write_result(args.name, res)}")


if __name__ == "__main__":
    main()

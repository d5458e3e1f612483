"""A synthetic graph of 100k entities, through the real stages: Leiden, offline reports, a global
query's first map batch, and a report citation's drill-down. Targets (issue 8): Leiden under 30 s;
the first map batch within one map latency of the start (the time before the first call goes
out, i.e. first batch - one measured call, is at most one latency); drill-down under 200 ms.

    .venv/bin/python bench/scale_graph.py [--entities 100000] [--dir /tmp/sensemaker-scale] [--rebuild]

The graph has community structure: groups of power-law sizes (8 to 3,000 entities), each grown by
preferential attachment (a few hubs, many leaves), plus cross-group links (about 300k
relationships for 100k entities). Every relationship is one sentence of a text unit ("Kavel
Rodarmin met Sela Tharnos at the quay to discuss the grain contract."), text units (about 20k)
make up documents (40 units each) with exact character spans, entity descriptions are sentences
that mention them, and a tenth of the entities have a claim, so every citation resolves to
source text. Rows go in through Store.insert; the stages that follow are the product's own.

The workspace is kept at <dir>/ws (root <dir>, workspace name "ws") for bench/scale_app.py;
an existing one of the same size is reused unless --rebuild.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import time
from collections import defaultdict
from pathlib import Path

from _common import peak_rss_mb, write_result

from core.index.communities_stage import run_communities
from core.index.graph_stage import entity_id
from core.index.reports_stage import run_reports
from core.offline.engine import OfflineEngine
from core.settings import Settings
from core.store.db import Store

SYL = ("ka", "ro", "vel", "min", "dar", "los", "te", "qui", "bran", "sel", "mor", "fen", "li", "tha",
       "gor", "wen", "zu", "pex", "ri", "nal", "sto", "vi", "hal", "mer", "ond", "cas", "tir", "bel")
ORG = ("Holdings", "Group", "Works", "Trust", "Council", "Guild", "Mills", "Shipping")
GEO = ("ford", "ton", "mere", "wick", "haven", "stead")
PLACES = ("the quay", "the harbour office", "the mill", "the town hall", "the old bridge",
          "the market square", "the archive", "the shipyard", "the grain exchange", "the chapel")
TOPICS = ("the grain contract", "the flood repairs", "the new ferry line", "the tax on salt",
          "the missing ledgers", "the school fund", "the harbour dredging", "the wool prices",
          "the lighthouse lease", "the railway survey", "the fever hospital", "the canal tolls")
TEMPLATES = ("{a} met {b} at {p} to discuss {t}.",
             "{a} wrote to {b} about {t}, asking for an answer before the spring.",
             "At {p}, {a} and {b} argued over {t} until late in the evening.",
             "{a} lent money to {b} for {t}, and the loan was recorded at {p}.",
             "{b} accused {a} of delaying {t} at {p}.",
             "{a} and {b} signed an agreement on {t} at {p}.")
CLAIM_TYPES = ("FRAUD", "DELAY", "PROMISE", "DISPUTE")
UNITS_PER_DOC = 40
SENTENCES_PER_UNIT = 15


def _names(n: int, rng: random.Random) -> list[tuple[str, str]]:
    """n unique (display name, type)."""
    out: dict[str, str] = {}
    while len(out) < n:
        first = "".join(rng.choice(SYL) for _ in range(2)).capitalize()
        last = "".join(rng.choice(SYL) for _ in range(rng.choice((2, 3)))).capitalize()
        kind = rng.choices(("person", "organization", "geo", "event"), (6, 2, 1.5, 0.5))[0]
        if kind == "person":
            name = f"{first} {last}"
        elif kind == "organization":
            name = f"{last} {rng.choice(ORG)}"
        elif kind == "geo":
            name = f"{first}{rng.choice(GEO)}"
        else:
            name = f"{last} {first} Fair"
        out.setdefault(name, kind)
    return list(out.items())


def _group_sizes(n: int, rng: random.Random) -> list[int]:
    sizes, left = [], n
    while left > 0:
        s = min(left, max(8, min(3000, int(8 * rng.paretovariate(1.15)))))
        sizes.append(s)
        left -= s
    return sizes


def build(ws: Path, n_entities: int, seed: int = 8) -> dict:
    """Write the synthetic corpus and graph into a fresh store at ws; returns its counts."""
    rng = random.Random(seed)
    names = _names(n_entities, rng)
    sizes = _group_sizes(n_entities, rng)
    group_of: list[int] = []
    members: list[list[int]] = []
    for g, s in enumerate(sizes):
        start = len(group_of)
        members.append(list(range(start, start + s)))
        group_of += [g] * s
    # preferential attachment inside each group: m = 2 or 3 links per new node
    edges: dict[tuple[int, int], float] = {}
    for ms in members:
        targets: list[int] = [ms[0]]
        for k, v in enumerate(ms[1:], start=1):
            m = min(k, rng.choice((2, 3)))
            chosen = set()
            while len(chosen) < m:
                chosen.add(rng.choice(targets) if rng.random() < 0.8 else ms[rng.randrange(k)])
            for u in chosen:
                edges[(min(u, v), max(u, v))] = float(rng.randint(1, 6))
                targets += [u, v]
    n_cross = int(0.45 * n_entities)
    while n_cross:
        u, v = rng.randrange(n_entities), rng.randrange(n_entities)
        if group_of[u] != group_of[v] and (min(u, v), max(u, v)) not in edges:
            edges[(min(u, v), max(u, v))] = float(rng.randint(1, 3))
            n_cross -= 1
    degree = [0] * n_entities
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1

    # sentences -> text units, grouped by the source's group; then documents of 40 units
    by_group: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for u, v in edges:
        by_group[group_of[u]].append((u, v))
    units: list[dict] = []
    unit_sents: list[list[tuple[int, int, str]]] = []
    for g in range(len(sizes)):
        pairs = by_group.get(g, [])
        for i in range(0, len(pairs), SENTENCES_PER_UNIT):
            sents = []
            for u, v in pairs[i:i + SENTENCES_PER_UNIT]:
                a, b = (u, v) if rng.random() < 0.5 else (v, u)
                text = rng.choice(TEMPLATES).format(a=names[a][0], b=names[b][0], p=rng.choice(PLACES),
                                                    t=rng.choice(TOPICS))
                sents.append((u, v, text))
            unit_sents.append(sents)
    docs: list[dict] = []
    rel_unit: dict[tuple[int, int], str] = {}
    rel_sentence: dict[tuple[int, int], str] = {}
    ent_units: list[list[str]] = [[] for _ in range(n_entities)]
    ent_sents: list[list[str]] = [[] for _ in range(n_entities)]
    for d in range(0, len(unit_sents), UNITS_PER_DOC):
        doc_id = f"doc-{d // UNITS_PER_DOC:05d}"
        pieces, pos = [], 0
        for k, sents in enumerate(unit_sents[d:d + UNITS_PER_DOC]):
            text = " ".join(s for _, _, s in sents)
            uid = f"tu-{doc_id}-{k:03d}"
            units.append({"id": uid, "document_id": doc_id, "ordinal": k, "text": text,
                          "n_tokens": int(len(text.split()) * 1.3), "char_start": pos, "char_end": pos + len(text)})
            pieces.append(text)
            pos += len(text) + 2
            for u, v, s in sents:
                rel_unit[(u, v)] = uid
                rel_sentence[(u, v)] = s
                for x in (u, v):
                    if not ent_units[x] or ent_units[x][-1] != uid:
                        ent_units[x].append(uid)
                    if len(ent_sents[x]) < 3:
                        ent_sents[x].append(s)
        body = "\n\n".join(pieces)
        docs.append({"id": doc_id, "title": f"Harbour minutes, volume {d // UNITS_PER_DOC + 1}",
                     "source_name": f"minutes_{d // UNITS_PER_DOC + 1:04d}.txt", "mime": "text/plain",
                     "sha256": f"{d:064x}", "n_tokens": sum(u["n_tokens"] for u in units[-len(pieces):]),
                     "text": body, "metadata": {}, "created_at": "2025-01-01T00:00:00+00:00", "status": "chunked"})
    titles = [n.upper() for n, _ in names]
    entities = [{"id": entity_id(titles[i]), "title": titles[i], "type": names[i][1],
                 "description": " ".join(ent_sents[i]) or f"{names[i][0]} is named in the minutes.",
                 "text_unit_ids": ent_units[i], "frequency": len(ent_units[i]), "degree": degree[i],
                 "aliases": [names[i][0]]} for i in range(n_entities)]
    rels = [{"id": f"rel-{k:07d}", "source": titles[u], "target": titles[v], "description": rel_sentence[(u, v)],
             "weight": w, "combined_degree": degree[u] + degree[v], "text_unit_ids": [rel_unit[(u, v)]]}
            for k, ((u, v), w) in enumerate(edges.items())]
    claims = []
    for i in rng.sample(range(n_entities), n_entities // 10):
        if not ent_units[i]:
            continue
        claims.append({"id": f"clm-{i:07d}", "subject": titles[i], "object": None,
                       "type": rng.choice(CLAIM_TYPES), "status": rng.choice(("TRUE", "SUSPECTED")),
                       "description": ent_sents[i][0], "source_text": ent_sents[i][0],
                       "text_unit_id": ent_units[i][0]})
    if ws.exists():
        shutil.rmtree(ws)
    store = Store(ws)
    times = {}
    for table, rows in (("documents", docs), ("text_units", units), ("entities", entities),
                        ("relationships", rels), ("claims", claims)):
        t = time.perf_counter()
        for i in range(0, len(rows), 20_000):
            store.insert(table, rows[i:i + 20_000])
        times[table] = round(time.perf_counter() - t, 2)
    store.set_meta("synthetic", json.dumps({"entities": n_entities, "seed": seed}))
    return {"groups": len(sizes), "largest_group": max(sizes), "insert_seconds": times,
            "documents": len(docs), "text_units": len(units), "entities": n_entities,
            "relationships": len(rels), "claims": len(claims)}


def first_batch(store: Store, latency: float, concurrency: int) -> dict:
    """A global query against the simulated endpoint: when does the first map batch arrive?"""
    from sim_server import SimServer

    from core.llm.openai import make_llm
    from core.query.global_search import global_search
    from core.query.types import GlobalParams
    from tests.openai_server import TEST_KEY

    with SimServer(latency) as sim:
        settings = Settings(engine="llm", llm_base_url=sim.url, chat_model="test-model", api_key=TEST_KEY,
                            concurrency=concurrency, max_retries=0)
        llm = make_llm(settings, None)
        calls = []
        for i in range(4):
            t = time.perf_counter()
            llm.chat([{"role": "user", "content": f"warm up {i}"}], stage="warmup")
            calls.append(time.perf_counter() - t)
        call = statistics.median(calls[1:])
        runs = []
        for rep in range(3):
            stamps: list[float] = []
            t0 = time.perf_counter()
            res = global_search(store, "What disputes arose over the grain contract and the harbour?",
                                GlobalParams(seed=rep, concurrency=concurrency), llm,
                                on_batch=lambda b: stamps.append(time.perf_counter()), record=False)  # noqa: B023 (called within this run)
            wall = time.perf_counter() - t0
            runs.append({"first_batch_seconds": round(stamps[0] - t0, 3), "wall_seconds": round(wall, 3),
                         "batches": len(res.batches), "level": res.level,
                         "reports": res.params["reports_at_level"], "timings": res.timings})
    best = sorted(runs, key=lambda r: r["first_batch_seconds"])[1]  # median of 3
    overhead = best["first_batch_seconds"] - call
    cold = runs[0]["first_batch_seconds"] - call  # the first question on this level in the process
    return {"latency": latency, "concurrency": concurrency, "call_seconds": round(call, 4), "runs": runs,
            "first_batch_seconds": best["first_batch_seconds"], "before_first_call_seconds": round(overhead, 3),
            "ratio_to_target": round(overhead / latency, 3),
            "first_query_before_first_call_seconds": round(cold, 3),
            "first_query_ratio_to_target": round(cold / latency, 3)}


def drill_down(store: Store) -> dict:
    """resolve + judge of report citations, as the drill-down dialog does: a typical report
    (median size at the query level), the report of the largest community, and an entity."""
    from core.text.citations import Ref
    from core.store.references import resolve
    from core.text.support import judge

    def one(kind: str, hrid: int, sentence: str | None = None) -> dict:
        times = []
        for _ in range(3):  # a new resolver each time, as the dialog does
            t = time.perf_counter()
            res = resolve(store, Ref(kind, hrid))
            texts = res.record_texts()
            claim = sentence or (texts[0][:600] if texts else "")
            judge(claim, res.text_units[:80], texts)
            times.append(time.perf_counter() - t)
        return {"kind": kind, "id": hrid, "text_units": len(res.text_units), "seconds": round(min(times), 4),
                "first_seconds": round(times[0], 4), "ratio_to_target": round(min(times) / 0.2, 3)}

    q = store.query("select r.human_readable_id h, c.size s, r.level l from community_reports r "
                    "join communities c on c.community = r.community order by c.size")
    at1 = [r for r in q if r["l"] == 1] or q
    typical = at1[len(at1) // 2]["h"]
    largest = q[-1]["h"]
    finding = (store.by_hrid("community_reports", largest)["findings"] or [{}])[0].get("explanation")
    ent = store.query("select human_readable_id h from entities order by degree desc limit 1")[0]["h"]
    return {"typical_report": one("Reports", typical), "largest_report": one("Reports", largest, finding),
            "top_entity": one("Entities", ent)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entities", type=int, default=100_000)
    ap.add_argument("--dir", default="/tmp/sensemaker-scale")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--skip", default="", help="comma list of phases to skip: communities,reports,query,drill")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    ws = Path(args.dir) / "ws"
    result: dict = {"workspace": str(ws), "entities": args.entities,
                    "load_average_at_start": os.getloadavg(), "cores": os.cpu_count()}
    existing = Store(ws).get_meta("synthetic") if (ws / "sensemaker.db").exists() else None
    if args.rebuild or not existing or json.loads(existing)["entities"] != args.entities:
        t = time.perf_counter()
        result["build"] = build(ws, args.entities)
        result["build"]["seconds"] = round(time.perf_counter() - t, 1)
        print(f"built {ws}: {json.dumps(result['build'])}", flush=True)
    store = Store(ws)
    settings = Settings(engine="offline")
    if "communities" not in skip:
        msgs = []
        t, cpu = time.perf_counter(), time.process_time()
        c = run_communities(store, settings, on_progress=lambda p: msgs.append((time.perf_counter() - t, p.message)))
        sec = time.perf_counter() - t
        result["communities"] = {**c, "seconds": round(sec, 2), "cpu_seconds": round(time.process_time() - cpu, 2),
                                 "target_seconds": 30,
                                 "ratio_to_target": round(sec / 30, 3), "peak_rss_mb": round(peak_rss_mb()),
                                 "progress": [(round(a, 2), m) for a, m in msgs]}
        print(f"communities: {c['communities']} on {c['levels']} levels in {sec:.1f} s "
              f"({result['communities']['cpu_seconds']} s CPU) "
              f"(target 30 s, ratio {sec / 30:.2f}); peak RSS {peak_rss_mb():.0f} MB", flush=True)
    if "reports" not in skip:
        t, cpu = time.perf_counter(), time.process_time()
        r = run_reports(store, OfflineEngine(settings), settings)
        sec = time.perf_counter() - t
        result["reports"] = {"reports": r["reports"], "failed": len(r["failed"]), "seconds": round(sec, 1),
                             "cpu_seconds": round(time.process_time() - cpu, 1),
                             "ms_per_report": round(1000 * sec / max(1, r["reports"]), 2),
                             "peak_rss_mb": round(peak_rss_mb())}
        print(f"reports (offline engine): {r['reports']} in {sec:.1f} s ({result['reports']['cpu_seconds']} s CPU) "
              f"({result['reports']['ms_per_report']} ms each); peak RSS {peak_rss_mb():.0f} MB", flush=True)
    if "query" not in skip:
        q = first_batch(store, args.latency, args.concurrency)
        result["global_query"] = q
        print(f"global query: first map batch after {q['first_batch_seconds']:.3f} s (one call "
              f"{q['call_seconds']:.3f} s; before the first call {q['before_first_call_seconds']:.3f} s, target "
              f"<= {args.latency} s, ratio {q['ratio_to_target']:.2f}); {q['runs'][0]['batches']} batches of "
              f"{q['runs'][0]['reports']} level-{q['runs'][0]['level']} reports, wall {q['runs'][0]['wall_seconds']} s; "
              f"the first question: {q['first_query_before_first_call_seconds']:.3f} s before the first call",
              flush=True)
    if "drill" not in skip:
        d = drill_down(store)
        result["drill_down"] = d
        for k, v in d.items():
            print(f"drill-down {k} ({v['kind']} {v['id']}, {v['text_units']} text units): "
                  f"{v['seconds'] * 1000:.0f} ms, first {v['first_seconds'] * 1000:.0f} ms (target 200 ms, ratio "
                  f"{v['ratio_to_target']:.2f})", flush=True)
    result["load_average_at_end"] = os.getloadavg()
    result["db_mb"] = round(sum(f.stat().st_size for f in ws.glob("sensemaker.db*")) / 1e6, 1)
    result["peak_rss_mb"] = round(peak_rss_mb())
    name = "scale_graph" if args.entities == 100_000 else f"scale_graph_{args.entities}"
    prev = Path(__file__).parent / "results" / f"{name}.json"
    if prev.exists() and skip:  # a partial run keeps the other phases' figures
        result = {**json.loads(prev.read_text()), **result}
    print(f"workspace kept at {ws} (SENSEMAKER_HOME={ws.parent}, workspace 'ws'); db {result['db_mb']} MB")
    print(f"  -> {write_result(name, result)}")


if __name__ == "__main__":
    main()

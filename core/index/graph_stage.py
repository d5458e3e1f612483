"""Stage 3: raw extractions -> the entities, relationships and claims tables.

Entities merge by exact normalised name; relationships by their unordered pair of ends, weight =
times seen (the offline engine reports sentence counts, the LLM engine 1 per unit; an edge
inferred from co-occurrence in a sentence, core/index/cooccurrence.py, counts 0.5 and stays
marked `inferred` unless the model states the relationship in some unit). An entity or
relationship with several distinct descriptions gets one summary from the engine (cached, so a
resumed or incremental run does not ask again). Rebuilt from all extractions each run: cheap,
deterministic, and human_readable_ids of surviving rows are kept.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import networkx as nx

from core.index.community_reuse import writer_signature
from core.engine import IndexEngine
from core.index.entity_resolution import adjacent_units, apply_merges, find_merges, record_merges, undone_merges
from core.index.prune import forget_members, revive_hrids
from core.index.progress import Progress, ProgressFn, check, noop
from core.ingest.structure import stored_structure
from core.settings import Settings
from core.offline.corpus_names import CorpusNames, corpus_names
from core.offline.sentence_rank import prose_text
from core.store.db import Store
from core.textutil import normalize_title


def prose_of(document: dict) -> str:
    """A document's text with its code blocks and headings blanked, as sentence_rank.prose_text
    blanks a unit's: "python -m graphrag" in a code block and "Activate Python Virtual
    Environment" as a heading say nothing of how its prose writes a word."""
    return prose_text({"text": document.get("text") or "", "structure": stored_structure(document.get("metadata"))})


def entity_id(title: str) -> str:
    return "ent-" + hashlib.sha256(title.encode("utf-8")).hexdigest()[:16]


def relationship_id(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return "rel-" + hashlib.sha256(f"{x}\x1f{y}".encode("utf-8")).hexdigest()[:16]


def claim_id(subject: str, description: str, text_unit_id: str) -> str:
    return "clm-" + hashlib.sha256(f"{subject}\x1f{description}\x1f{text_unit_id}".encode()).hexdigest()[:16]


def description_key(kind: str, key: Any, descriptions: list[str], engine_name: str) -> str:
    return hashlib.sha256(json.dumps([kind, key, sorted(descriptions), engine_name], ensure_ascii=False).encode()).hexdigest()[:20]


def _distinct(descs: list[str]) -> list[str]:
    return [d for d in dict.fromkeys(d.strip() for d in descs) if d]


def collect(store: Store, engine_name: str) -> tuple[dict, dict, list]:
    """Group the ok extractions of this engine by entity and relationship."""
    ents: dict[str, dict[str, Any]] = {}
    rels: dict[tuple[str, str], dict[str, Any]] = {}
    claims: list[dict[str, Any]] = []
    # in document order, then unit order (not unit ids: a replaced document's new units are
    # numbered last, yet its descriptions stay where a fresh index would put them)
    order = store.unit_order()
    rows = store.rows("extractions", "engine = ? and status = 'ok'", [engine_name])
    rows.sort(key=lambda r: order.get(r["text_unit_id"], (0, 0, 0)))
    corpus: CorpusNames | None = None
    dropped: set[str] = set()  # tentative names the corpus does not write as names
    for row in rows:
        tu = row["text_unit_id"]
        for e in row["entities"] or []:
            key = normalize_title(e["title"])
            if not key:
                continue
            if e.get("tentative"):  # a word its unit could not tell from a sentence start
                if corpus is None:
                    corpus = corpus_names(prose_of(r) for r in store.rows("documents", select="text, metadata"))
                if not corpus.named(e["title"]):
                    dropped.add(key)
                    continue
            g = ents.setdefault(key, {"types": Counter(), "descriptions": [], "units": [], "aliases": Counter()})
            g["types"][e.get("type") or "other"] += 1
            g["descriptions"].append(e.get("description") or "")
            g["aliases"][e["title"]] += 1
            if tu not in g["units"]:
                g["units"].append(tu)
        for r in row["relationships"] or []:
            a, b = normalize_title(r["source"]), normalize_title(r["target"])
            if not a or not b or a == b:
                continue
            if r.get("tentative") and not (a in ents and b in ents):
                continue  # a tentative name the corpus does not write as one
            key = tuple(sorted((a, b)))
            g = rels.setdefault(key, {"source": a, "target": b, "descriptions": [], "units": [], "weight": 0.0,
                                      "stated": False})
            if not r.get("inferred"):
                if not g["stated"]:  # a stated relationship's words replace the inferred note
                    g["descriptions"] = []
                g["stated"] = True
            if g["stated"] == (not r.get("inferred")):
                g["descriptions"].append(r.get("description") or "")
            g["weight"] += float(r.get("weight") or 1.0)
            if tu not in g["units"]:
                g["units"].append(tu)
        for c in row["claims"] or []:
            claims.append({**c, "text_unit_id": tu})
    # a relationship to a dropped tentative name goes too, whoever wrote it (an engine may relate
    # another name to the first name of its unit, tentative or not)
    gone = dropped - set(ents)
    rels = {k: g for k, g in rels.items() if g["source"] not in gone and g["target"] not in gone}
    return ents, rels, claims


def run_graph(store: Store, engine: IndexEngine, settings: Settings, on_progress: ProgressFn = noop,
              cancel: threading.Event | None = None) -> dict[str, int]:
    ents, rels, raw_claims = collect(store, engine.name)
    rels = {k: v for k, v in rels.items() if k[0] in ents and k[1] in ents}
    unit_text = lambda uid: (store.get("text_units", uid) or {}).get("text", "")
    nearby = adjacent_units(store.rows("text_units", select="id, document_id, ordinal"))
    merges = find_merges(ents, rels, undone_merges(store), unit_text, nearby)
    ents, rels = apply_merges(ents, rels, merges)
    record_merges(store, merges)
    merged_into = {m["from"]: m["into"] for m in merges}
    for c in raw_claims:  # claims follow their subject into the merged entity
        subj = normalize_title(c.get("subject") or "")
        while subj in merged_into:
            subj = merged_into[subj]
        c["subject"] = subj
    graph = nx.Graph()
    graph.add_nodes_from(ents)
    graph.add_edges_from(rels)

    # summaries of multi-description records; one whose descriptions are those it was summarised
    # from last time keeps its summary (no call, cache or not: a removal asks only for the rest)
    had = {r["id"]: r for r in store.rows("entities", select="id, description, description_key")}
    had.update({r["id"]: r for r in store.rows("relationships", select="id, description, description_key")})
    writer = writer_signature(engine.name, settings, store.workspace, ("summarize_descriptions",))
    todo: list[tuple[str, Any, list[str]]] = []
    for kind, groups in (("entity", ents), ("relationship", rels)):
        for key, g in groups.items():
            d = _distinct(g["descriptions"])
            g["description"] = d[0] if len(d) == 1 else ""
            g["description_key"] = description_key(kind, key, d, writer)
            old = had.get(entity_id(key) if kind == "entity" else relationship_id(*key))
            if len(d) > 1 and old and old["description_key"] == g["description_key"] and old["description"]:
                g["description"] = old["description"]
            elif len(d) > 1:
                todo.append((kind, key, d))
    total = len(todo)
    on_progress(Progress("summarize", 0, total, f"{total} descriptions to summarise"))
    lock = threading.Lock()
    done = 0

    def summarise(item: tuple[str, Any, list[str]]) -> None:
        nonlocal done
        check(cancel)
        kind, key, descs = item
        name = key if kind == "entity" else f"{key[0]} -> {key[1]}"
        text = engine.summarize(kind, name, descs)
        (ents if kind == "entity" else rels)[key]["description"] = text
        with lock:
            done += 1
            if done % 25 == 0 or done == total:
                on_progress(Progress("summarize", done, total, name))

    # twice the concurrency in threads, as for extraction: while one thread renders its prompt or
    # stores its answer, another's call holds the free slot (the client's semaphore still caps
    # requests in flight at the concurrency)
    workers = 1 if engine.name == "offline" else max(1, settings.concurrency * 2)
    if workers == 1:
        for item in todo:
            summarise(item)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(summarise, todo))

    entity_rows = []
    for key in sorted(ents, key=lambda k: (-len(ents[k]["units"]), k)):
        g = ents[key]
        entity_rows.append({"id": entity_id(key), "title": key, "type": _entity_type(g["types"]),
                            "description": g["description"], "text_unit_ids": g["units"],
                            "frequency": len(g["units"]), "degree": graph.degree(key),
                            "aliases": [a for a, _ in g["aliases"].most_common(10)],
                            "description_key": g["description_key"]})
    rel_rows = []
    for key in sorted(rels, key=lambda k: (-rels[k]["weight"], k)):
        g = rels[key]
        rel_rows.append({"id": relationship_id(*key), "source": g["source"], "target": g["target"],
                         "description": g["description"], "weight": g["weight"],
                         "combined_degree": graph.degree(g["source"]) + graph.degree(g["target"]),
                         "text_unit_ids": g["units"], "description_key": g["description_key"],
                         "inferred": int(not g.get("stated", True))})
    claim_rows, seen = [], set()
    for c in raw_claims:
        subj = normalize_title(c.get("subject") or "")
        if subj not in ents:
            continue
        cid = claim_id(subj, c.get("description") or "", c["text_unit_id"])
        if cid in seen:
            continue
        seen.add(cid)
        claim_rows.append({"id": cid, "subject": subj,
                           "object": normalize_title(c["object"]) if c.get("object") else None,
                           "type": c.get("type"), "status": c.get("status"), "description": c.get("description"),
                           "source_text": c.get("source_text"), "text_unit_id": c["text_unit_id"],
                           "start_date": c.get("start_date"), "end_date": c.get("end_date")})
    with store.atomic():  # one transaction: readers never see new entities beside old relationships
        for table, rows in (("entities", entity_rows), ("relationships", rel_rows), ("claims", claim_rows)):
            revive_hrids(store, table, rows)
        store.replace_table("entities", entity_rows)
        store.replace_table("relationships", rel_rows)
        store.replace_table("claims", claim_rows)
        # the last run's communities lose the members this rebuild no longer has (a tentative name
        # the grown corpus now writes in lower case): no reader sees a community listing a missing row
        live_e, live_r = {r["id"] for r in entity_rows}, {r["id"] for r in rel_rows}
        forget_members(store, live_e.__contains__, live_r.__contains__)
    on_progress(Progress("graph", 1, 1, f"{len(entity_rows)} entities, {len(rel_rows)} relationships, "
                                         f"{len(claim_rows)} claims"))
    return {"entities": len(entity_rows), "relationships": len(rel_rows), "claims": len(claim_rows),
            "merges": len(merges)}


def _entity_type(types: Counter) -> str:
    """The most frequent type, a specific one before "other": "Dulce" is untyped where it stands
    alone and a place where the text says "in Dulce", so it is a place."""
    specific = [(n, t) for t, n in types.items() if t != "other"]
    return max(specific, key=lambda nt: (nt[0], -list(types).index(nt[1])))[1] if specific \
        else types.most_common(1)[0][0]

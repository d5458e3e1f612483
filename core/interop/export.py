"""Export a workspace: GraphML for Gephi, parquet tables with graphrag's column names (readable by
graphrag's own query code and graphrag-visualizer), CSV of every table."""
from __future__ import annotations

import csv
import json
from array import array
from datetime import date
from pathlib import Path
from typing import Any, Callable

from core.errors import UserError
from core.interop.columns import EXPORT_COLUMNS, EXPORT_TYPES
from core.store.schema import TABLES
from core.store.db import Store
from core.query.traces import sees_all_questions
from core.store.access import require

FORMATS = ("graphml", "parquet", "csv")
GRAPHML_FILE = "graph.graphml"
Progress = Callable[[str, int, int, str], None]


# GraphML ---------------------------------------------------------------------------------
def memberships(store: Store) -> dict[str, dict[int, int]]:
    """Entity id -> {level: community number}."""
    out: dict[str, dict[int, int]] = {}
    for c in store.rows("communities", select="community, level, entity_ids"):
        for eid in c["entity_ids"] or []:
            out.setdefault(eid, {})[int(c["level"])] = int(c["community"])
    return out


def build_graph(store: Store):
    """The entity graph as networkx, with community attributes on the nodes: `community` and
    `level` of the entity's finest community (-1 when it is in none) and `community_level_N`
    for every level it is in."""
    import networkx as nx
    g = nx.Graph()
    member = memberships(store)
    for e in store.rows("entities"):
        levels = member.get(e["id"], {})
        finest = max(levels) if levels else -1
        attrs: dict[str, Any] = {
            "label": e["title"], "title": e["title"], "entity_id": e["id"],
            "human_readable_id": int(e["human_readable_id"]), "type": e["type"] or "",
            "description": e["description"] or "", "degree": int(e["degree"] or 0),
            "frequency": int(e["frequency"] or 0),
            "community": levels.get(finest, -1), "level": finest,
        }
        attrs.update({f"community_level_{lv}": n for lv, n in sorted(levels.items())})
        g.add_node(e["title"], **attrs)
    for r in store.rows("relationships"):
        for end in (r["source"], r["target"]):
            if end not in g:  # an endpoint the extraction never described as an entity
                g.add_node(end, label=end, title=end, community=-1, level=-1)
        g.add_edge(r["source"], r["target"], weight=float(r["weight"] or 1.0),
                   description=r["description"] or "", relationship_id=r["id"],
                   human_readable_id=int(r["human_readable_id"]))
    return g


def export_graphml(store: Store, out_dir: str | Path) -> Path:
    import networkx as nx
    path = Path(out_dir) / GRAPHML_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    nx.write_graphml(build_graph(store), path)
    return path


# parquet (graphrag's columns) ------------------------------------------------------------
def graphrag_rows(store: Store) -> dict[str, list[dict[str, Any]]]:
    """Our tables as graphrag's final tables (graphrag file stem -> rows)."""
    period = date.today().isoformat()
    ents = store.rows("entities")
    rels = store.rows("relationships")
    claims = store.rows("claims")
    units = store.rows("text_units", order_by="document_id, ordinal, human_readable_id")
    comms = store.rows("communities")
    by_number = {c["community"]: c for c in comms}
    linked: dict[str, dict[str, list[str]]] = {u["id"]: {"entity_ids": [], "relationship_ids": [],
                                                         "covariate_ids": []} for u in units}
    for key, rows in (("entity_ids", ents), ("relationship_ids", rels)):
        for r in rows:
            for tu in r["text_unit_ids"] or []:
                if tu in linked:
                    linked[tu][key].append(r["id"])
    for c in claims:
        if c["text_unit_id"] in linked:
            linked[c["text_unit_id"]]["covariate_ids"].append(c["id"])
    degree = {e["title"]: e["degree"] or 0 for e in ents}
    doc_units: dict[str, list[str]] = {}
    for u in units:
        doc_units.setdefault(u["document_id"], []).append(u["id"])
    out: dict[str, list[dict[str, Any]]] = {}
    out["documents"] = [{
        "id": d["id"], "human_readable_id": d["human_readable_id"], "title": d["title"],
        "text": d["text"], "text_unit_ids": doc_units.get(d["id"], []),
        "creation_date": d["created_at"],
        "raw_data": json.dumps(d["metadata"], ensure_ascii=False) if d["metadata"] else None,
    } for d in store.rows("documents")]
    out["text_units"] = [{
        "id": u["id"], "human_readable_id": u["human_readable_id"], "text": u["text"],
        "n_tokens": u["n_tokens"], "document_id": u["document_id"], **linked[u["id"]],
    } for u in units]
    out["entities"] = [{k: e.get(k) for k in EXPORT_COLUMNS["entities"]} for e in ents]
    out["relationships"] = [{
        **{k: r.get(k) for k in EXPORT_COLUMNS["relationships"]},
        "combined_degree": r["combined_degree"] if r["combined_degree"] is not None
        else degree.get(r["source"], 0) + degree.get(r["target"], 0),
    } for r in rels]
    out["communities"] = [{
        **{k: c.get(k) for k in EXPORT_COLUMNS["communities"]},
        "parent": -1 if c["parent"] is None else c["parent"], "children": c["children"] or [],
        "title": c["title"] or f"Community {c['community']}", "period": period,
        "size": c["size"] if c["size"] is not None else len(c["entity_ids"] or []),
    } for c in comms]
    out["community_reports"] = []
    for r in store.rows("community_reports"):
        c = by_number.get(r["community"], {})
        rating = r["rating"] if r["rating"] is not None else r["rank"]
        findings = [{"summary": f.get("summary", ""), "explanation": f.get("explanation", "")}
                    for f in (r["findings"] or [])]
        out["community_reports"].append({
            "id": r["id"], "human_readable_id": r["human_readable_id"],
            "community": r["community"], "level": r["level"],
            "parent": -1 if c.get("parent") is None else c["parent"],
            "children": c.get("children") or [], "title": r["title"], "summary": r["summary"],
            "full_content": r["full_content"], "rank": rating,
            "rating_explanation": r["rating_explanation"], "findings": findings,
            "full_content_json": json.dumps({
                "title": r["title"], "summary": r["summary"], "findings": findings,
                "rating": rating, "rating_explanation": r["rating_explanation"]},
                indent=4, ensure_ascii=False),
            "period": period, "size": c.get("size") or len(c.get("entity_ids") or []),
        })
    out["covariates"] = [{
        "id": c["id"], "human_readable_id": c["human_readable_id"], "covariate_type": "claim",
        "type": c["type"], "description": c["description"], "subject_id": c["subject"],
        "object_id": c["object"], "status": c["status"], "start_date": c["start_date"],
        "end_date": c["end_date"], "source_text": c["source_text"],
        "text_unit_id": c["text_unit_id"],
    } for c in claims]
    return out


def arrow_table(stem: str, rows: list[dict[str, Any]]):
    import pyarrow as pa
    kinds = {
        "int": pa.int64(), "float": pa.float64(), "list<str>": pa.list_(pa.string()),
        "list<int>": pa.list_(pa.int64()),
        "findings": pa.list_(pa.struct([("summary", pa.string()), ("explanation", pa.string())])),
    }
    types = EXPORT_TYPES[stem]
    fields, arrays = [], []
    for col in EXPORT_COLUMNS[stem]:
        kind = types.get(col, "str")
        values = [cast(r.get(col), kind) for r in rows]
        typ = kinds.get(kind, pa.string())
        fields.append(pa.field(col, typ))
        arrays.append(pa.array(values, type=typ))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def cast(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "list<str>":
        return [str(v) for v in value]
    if kind == "list<int>":
        return [int(v) for v in value]
    if kind == "findings":
        return [{"summary": str(f.get("summary") or ""), "explanation": str(f.get("explanation") or "")}
                for f in value]
    return str(value)


def export_parquet(store: Store, out_dir: str | Path) -> list[Path]:
    import pyarrow.parquet as pq
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, rows in graphrag_rows(store).items():
        path = out / f"{stem}.parquet"
        pq.write_table(arrow_table(stem, rows), path)
        paths.append(path)
    return paths


# CSV -------------------------------------------------------------------------------------
def csv_value(value: Any) -> Any:
    if isinstance(value, bytes):  # embedding vectors: float32 -> JSON list
        vec = array("f")
        vec.frombytes(value[: len(value) - len(value) % 4])
        return json.dumps([round(v, 7) for v in vec])
    return value


QUESTION_TABLES = ("query_traces", "llm_cache")
"""Tables holding the questions asked and their answers (the traces, and the model calls that
carry them), left out of an export meant for someone else when the analyst says so."""


def export_csv(store: Store, out_dir: str | Path, questions: bool = True) -> list[Path]:
    """Every table with our own column names; JSON columns stay JSON text. questions=False
    leaves out QUESTION_TABLES."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for table, columns in TABLES.items():
        if not questions and table in QUESTION_TABLES:
            continue
        cols = list(columns)
        path = out / f"{table}.csv"
        cur = store.tuples(table, cols)
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(cols)
            for row in cur:
                writer.writerow([csv_value(v) for v in row])
        paths.append(path)
    return paths


def export_workspace(store: Store, fmt: str, out_dir: str | Path,
                     on_progress: Progress | None = None, questions: bool = True) -> list[Path]:
    """Write the workspace in one format to out_dir; returns the files written. Only CSV holds
    the questions asked (query_traces, llm_cache); questions=False leaves them out, and so does
    a team member who may not see every question (core.query.traces)."""
    require(store, "export")
    questions = questions and sees_all_questions(store)
    writers = {"graphml": lambda: [export_graphml(store, out_dir)],
               "parquet": lambda: export_parquet(store, out_dir),
               "csv": lambda: export_csv(store, out_dir, questions=questions)}
    if fmt not in writers:
        raise UserError(f"unknown export format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if on_progress:
        on_progress("export", 0, 1, f"writing {fmt} to {out_dir}")
    paths = writers[fmt]()
    if on_progress:
        on_progress("export", 1, 1, f"{len(paths)} files written")
    return paths

"""Open a Microsoft GraphRAG index (graphrag 1.x-3.x output tables) as a Sensemaker workspace.

graphrag's numbering is kept: every row keeps its `human_readable_id`, reports and communities
are numbered by `community` (as graphrag writes them), so the citations written inside the
imported reports ("[Data: Entities (0); Relationships (904, 911, +more)]", "[Data: Reports (3)]")
resolve as written. Our `id` is graphrag's `id`; relationships and claims name entities by title,
as in graphrag.

Quirks handled:
- graphrag prepends "title: <file>." (and other metadata lines) to each text unit's text. The
  text is kept as written; char_start/char_end are the span of the text without those lines in
  its document, so a citation can be highlighted in the whole document.
- documents without a text column (the jsonl twins) get their text rebuilt from their text units
  by removing the chunk overlaps.
- In graphrag's local search "Sources (n)" is the row position of a text unit in the context
  table that one answer was given, not the unit's human_readable_id; our Sources citations use
  human_readable_id, so graphrag's local-search answers cannot be resolved after import.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from core.errors import UserError
from core.interop.columns import (ALIASES, EXTENSIONS, FILES, NEEDED, NONE_MARKER, OPTIONAL,
                                  REQUIRED)
from core.store.db import Store, now
from core.tokens import count_tokens
from core.store.access import require

ENGINE = "graphrag-import"
META_KEY = "imported_from"  # meta row: the graphrag folder this workspace's index came from
# tables an import fills (and --replace empties first)
CONTENT_TABLES = ("documents", "text_units", "extractions", "entities", "relationships", "claims",
                  "communities", "community_reports", "embeddings")
Progress = Callable[[str, int, int, str], None]
_META_LINE = re.compile(r"[A-Za-z_][\w-]*: [^\n]*\.\n")


class GraphRAGImportError(UserError):
    """The directory is not a graphrag index we can read, or the workspace is not empty."""


@dataclass
class ImportReport:
    source: str
    counts: dict[str, int] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    run_id: str = ""


# reading ---------------------------------------------------------------------------------
def find_tables(source_dir: str | Path) -> dict[str, Path]:
    """Our table name -> graphrag file, looking in DIR and DIR/output."""
    source = Path(source_dir)
    if not source.is_dir():
        raise GraphRAGImportError(f"{source} is not a directory")
    found: dict[str, Path] = {}
    for folder in (source, source / "output"):
        for table, stems in FILES.items():
            for stem in stems:
                for ext in EXTENSIONS:
                    path = folder / f"{stem}{ext}"
                    if table not in found and path.is_file():
                        found[table] = path
    return found


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a parquet or jsonl table as plain python values (lists, not numpy arrays)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq
        rows = pq.read_table(path).to_pylist()
    else:
        with path.open(encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    return [{k: plain(v) for k, v in r.items()} for r in rows]


def plain(value: Any) -> Any:
    """numpy arrays/scalars -> python lists/scalars, NaN -> None, recursively."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def renamed(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """Our column -> value, from whichever graphrag name the row has."""
    out: dict[str, Any] = {}
    for ours, names in ALIASES[table].items():
        for name in names:
            if name in row:
                out[ours] = row[name]
                break
    return out


def as_list(value: Any) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                return list(json.loads(text))
            except json.JSONDecodeError:
                pass
        return [v.strip() for v in text.split(",") if v.strip()]
    return list(value)


def as_int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value) if value is not None and value != "" else default
    except (TypeError, ValueError):
        return default


def as_float(value: Any) -> float | None:
    try:
        return float(value) if value is not None and value != "" else None
    except (TypeError, ValueError):
        return None


def none_marker(value: Any) -> Any:
    return None if value is None or str(value).strip().upper() == NONE_MARKER else value


# text spans ------------------------------------------------------------------------------
def strip_metadata(text: str) -> str:
    """The unit's text without graphrag's leading "key: value." lines ("title: a.txt.")."""
    body = text
    for _ in range(8):
        m = _META_LINE.match(body)
        if not m:
            break
        body = body[m.end():]
    return body


def stitch(bodies: list[str]) -> str:
    """A document's text rebuilt from its consecutive, overlapping chunks."""
    acc = ""
    for body in bodies:
        probe = body[:64]
        p = acc.find(probe, max(0, len(acc) - len(body))) if probe else -1
        while p != -1 and not body.startswith(acc[p:]):
            p = acc.find(probe, p + 1)
        acc += body if p == -1 else body[len(acc) - p:]
    return acc


def locate(doc_text: str, text: str, start: int) -> tuple[int, int] | None:
    """Span of a unit's text in its document: searched from `start`, then anywhere."""
    for body in dict.fromkeys((strip_metadata(text), text)):
        if not body:
            continue
        for frm in (start, 0):
            p = doc_text.find(body, frm)
            if p != -1:
                return p, p + len(body)
    return None


# tables ----------------------------------------------------------------------------------
def convert_entities(raw: list[dict], relationships: list[dict]) -> list[dict]:
    degree: dict[str, int] = {}
    for r in relationships:
        for end in (r.get("source"), r.get("target")):
            degree[end] = degree.get(end, 0) + 1
    out = []
    for r in raw:
        title = str(r.get("title") or "").strip()
        units = as_list(r.get("text_unit_ids"))
        out.append({
            "id": str(r.get("id") or title), "human_readable_id": as_int(r.get("human_readable_id")),
            "title": title, "type": r.get("type"), "description": r.get("description"),
            "text_unit_ids": units, "frequency": as_int(r.get("frequency"), len(units)),
            "degree": as_int(r.get("degree"), degree.get(title, 0)), "aliases": [],
        })
    return out


def convert_relationships(raw: list[dict]) -> list[dict]:
    return [{
        "id": str(r.get("id") or f"{r['source']}->{r['target']}"),
        "human_readable_id": as_int(r.get("human_readable_id")),
        "source": str(r["source"]).strip(), "target": str(r["target"]).strip(),
        "description": r.get("description"), "weight": as_float(r.get("weight")),
        "combined_degree": as_int(r.get("combined_degree")),
        "text_unit_ids": as_list(r.get("text_unit_ids")),
    } for r in raw]


def convert_communities(raw: list[dict]) -> list[dict]:
    out = []
    for r in raw:
        n = as_int(r["community"])
        ents = as_list(r.get("entity_ids"))
        has_id = "id" in r and str(r["id"]) != str(r["community"])
        out.append({
            "id": str(r["id"]) if has_id else f"community-{n}",
            "human_readable_id": as_int(r.get("human_readable_id"), n), "community": n,
            "level": as_int(r.get("level"), 0), "parent": as_int(r.get("parent")),
            "children": [as_int(c) for c in as_list(r.get("children"))] if "children" in r else None,
            "title": r.get("title") or f"Community {n}", "entity_ids": [str(e) for e in ents],
            "relationship_ids": [str(e) for e in as_list(r.get("relationship_ids"))],
            "text_unit_ids": [str(e) for e in as_list(r.get("text_unit_ids"))],
            "size": as_int(r.get("size"), len(ents)),
        })
    by_level: dict[int, list[dict]] = {}
    for c in out:
        by_level.setdefault(c["level"], []).append(c)
    for c in out:  # graphrag < 1.0 had no parent column: the most overlapping coarser community
        if c["parent"] is None:
            ents = set(c["entity_ids"])
            above = by_level.get(c["level"] - 1, [])
            best = max(above, key=lambda p: len(ents & set(p["entity_ids"])), default=None)
            c["parent"] = best["community"] if best and ents & set(best["entity_ids"]) else -1
    for c in out:  # graphrag < 2.0 had no children column
        if c["children"] is None:
            c["children"] = [k["community"] for k in out if k["parent"] == c["community"]]
    return out


def convert_findings(value: Any) -> list[dict]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return [{"summary": "", "explanation": value}]
    out = []
    for f in as_list(value):
        if isinstance(f, dict):
            out.append({"summary": f.get("summary") or "", "explanation": f.get("explanation") or ""})
        else:
            out.append({"summary": "", "explanation": str(f)})
    return out


def convert_reports(raw: list[dict], levels: dict[int, int]) -> list[dict]:
    out = []
    for r in raw:
        n = as_int(r["community"])
        rating = as_float(r.get("rating"))
        out.append({
            "id": str(r.get("id") or f"report-{n}"),
            "human_readable_id": as_int(r.get("human_readable_id"), n), "community": n,
            "level": as_int(r.get("level"), levels.get(n, 0)), "title": r.get("title"),
            "summary": r.get("summary"), "rating": rating,
            "rating_explanation": r.get("rating_explanation"),
            "findings": convert_findings(r.get("findings")), "full_content": r.get("full_content"),
            "rank": as_float(r.get("rank")), "engine": ENGINE,
        })
    return out


def convert_claims(raw: list[dict]) -> list[dict]:
    return [{
        "id": str(r.get("id") or uuid.uuid4()), "human_readable_id": as_int(r.get("human_readable_id")),
        "subject": r.get("subject"), "object": none_marker(r.get("object")), "type": r.get("type"),
        "status": r.get("status"), "description": r.get("description"),
        "source_text": r.get("source_text"), "text_unit_id": r.get("text_unit_id"),
        "start_date": none_marker(r.get("start_date")), "end_date": none_marker(r.get("end_date")),
    } for r in raw]


def convert_documents_and_units(raw_docs: list[dict], raw_units: list[dict],
                                report: ImportReport) -> tuple[list[dict], list[dict]]:
    units = []
    for u in raw_units:
        doc_id = u.get("document_id")
        if isinstance(doc_id, (list, tuple)) or (isinstance(doc_id, str) and doc_id.startswith("[")):
            ids = as_list(doc_id)
            if len(ids) > 1:
                report.warnings.append(f"text unit {u.get('id')} belongs to {len(ids)} documents; "
                                       "kept the first")
            doc_id = ids[0] if ids else None
        text = u.get("text") or ""
        units.append({"id": str(u["id"]), "human_readable_id": as_int(u.get("human_readable_id")),
                      "document_id": doc_id, "text": text,
                      "n_tokens": as_int(u.get("n_tokens")) or count_tokens(text),
                      "ordinal": None, "char_start": None, "char_end": None})
    docs = {str(d["id"]): d for d in raw_docs}
    for u in units:  # units whose document is not in the documents table
        if u["document_id"] is not None and u["document_id"] not in docs:
            docs[u["document_id"]] = {"id": u["document_id"], "title": u["document_id"]}
    if not raw_docs:
        report.messages.append(f"documents: table not found; made {len(docs)} from the text units")
    order_key = {}
    for d in docs.values():
        for i, tu in enumerate(as_list(d.get("text_unit_ids"))):
            order_key[str(tu)] = i
    members: dict[str, list[dict]] = {}
    for u in units:
        members.setdefault(u["document_id"], []).append(u)
    rebuilt, missed = 0, 0
    out_docs = []
    for doc_id, d in docs.items():
        mine = sorted(members.get(doc_id, []), key=lambda u: (order_key.get(u["id"], 1 << 30),
                                                               u["human_readable_id"] or 0))
        text = d.get("text")
        if not text and mine:
            text = stitch([strip_metadata(u["text"]) for u in mine])
            rebuilt += 1
        pos = 0
        for u in mine:
            span = locate(text or "", u["text"], pos)
            if span:
                u["char_start"], u["char_end"] = span
                pos = span[0]
            else:
                missed += 1
        mine.sort(key=lambda u: (u["char_start"] is None, u["char_start"] or 0))
        for i, u in enumerate(mine):
            u["ordinal"] = i
        meta = d.get("metadata")
        out_docs.append({
            "id": doc_id, "human_readable_id": as_int(d.get("human_readable_id")),
            "title": d.get("title") or doc_id, "source_name": d.get("title") or doc_id,
            "mime": "text/plain", "sha256": hashlib.sha256((text or "").encode()).hexdigest(),
            "n_tokens": count_tokens(text or ""), "text": text,
            "metadata": {"graphrag": meta} if meta else {},
            "created_at": str(d["created_at"]) if d.get("created_at") else None, "status": "chunked",
        })
    if rebuilt:
        report.messages.append(f"documents: {rebuilt} had no text column; rebuilt their text "
                               "from their text units (chunk overlaps removed)")
    if missed:
        report.warnings.append(f"text units: {missed} not found in their document's text; "
                               "their character spans are empty")
    return out_docs, units


# the import ------------------------------------------------------------------------------
def number(table: str, rows: list[dict], report: ImportReport) -> list[dict]:
    """Drop repeated ids; keep each row's human_readable_id, give fresh ones where missing or
    repeated (and say so)."""
    seen_ids: set[str] = set()
    kept = []
    for r in rows:
        if r["id"] in seen_ids:
            continue
        seen_ids.add(r["id"])
        kept.append(r)
    if len(kept) < len(rows):
        report.warnings.append(f"{table}: {len(rows) - len(kept)} rows repeat an id; kept the first")
    used: set[int] = set()
    fresh = []
    for r in kept:
        h = r.get("human_readable_id")
        if h is None or h in used:
            fresh.append(r)
        else:
            used.add(h)
    nxt = max(used, default=-1) + 1
    for r in fresh:
        if r.get("human_readable_id") is not None:
            report.warnings.append(f"{table}: human_readable_id {r['human_readable_id']} repeats; "
                                   f"row {r['id']} is now {nxt}")
        r["human_readable_id"] = nxt
        nxt += 1
    return kept


def check_source(source_dir: str | Path) -> dict[str, Path]:
    """The tables of a graphrag output folder; a clear error naming the required ones missing."""
    files = find_tables(source_dir)
    missing = [FILES[t][0] for t in REQUIRED if t not in files]
    if missing:
        raise GraphRAGImportError(
            f"{source_dir} is not a GraphRAG index: missing {', '.join(missing)} "
            f"(looked for {'/'.join(EXTENSIONS)} files in it and in its output/ folder)")
    return files


def read_index(source_dir: str | Path, report: ImportReport,
               on_progress: Progress | None = None) -> dict[str, list[dict]]:
    """Every table of a graphrag index converted to our rows (nothing written)."""
    files = check_source(source_dir)
    raw: dict[str, list[dict]] = {}
    for i, (table, path) in enumerate(sorted(files.items())):
        if on_progress:
            on_progress("read", i, len(files), path.name)
        rows = [renamed(table, r) for r in read_rows(path)]
        lacking = [c for c in NEEDED[table] if rows and c not in rows[0]]
        if lacking:
            raise GraphRAGImportError(f"{path.name} has no {', '.join(lacking)} column "
                                      f"(accepted names: {', '.join(ALIASES[table][lacking[0]])})")
        raw[table] = rows
        report.messages.append(f"{path.name}: {len(rows)} rows -> {table}")
    for table in OPTIONAL:
        if table not in files:
            label = "covariates (claims)" if table == "claims" else table
            report.messages.append(f"{label}: not in this index (optional), imported none")
    report.messages.append("embeddings: not imported (graphrag keeps them in its vector store); "
                           "local search finds entry entities by full-text search")
    if on_progress:
        on_progress("convert", 0, 1, "converting tables")
    rels = convert_relationships(raw["relationships"])
    ents = convert_entities(raw["entities"], rels)
    comms = convert_communities(raw["communities"])
    reports = convert_reports(raw["community_reports"], {c["community"]: c["level"] for c in comms})
    docs, units = convert_documents_and_units(raw.get("documents", []), raw["text_units"], report)
    tables = {"documents": docs, "text_units": units, "entities": ents, "relationships": rels,
              "claims": convert_claims(raw.get("claims", [])), "communities": comms,
              "community_reports": reports}
    tables = {t: number(t, rows, report) for t, rows in tables.items()}
    check_references(tables, report)
    return tables


def check_references(tables: dict[str, list[dict]], report: ImportReport) -> None:
    """Say what graphrag's own tables leave dangling (real LLM output has defects)."""
    titles = {e["title"] for e in tables["entities"]}
    ends = {end for r in tables["relationships"] for end in (r["source"], r["target"])}
    if ends - titles:
        report.warnings.append(f"relationships: {len(ends - titles)} endpoint names are not entity "
                               f"titles (e.g. {sorted(ends - titles)[0]!r}); kept as written")
    units = {u["id"] for u in tables["text_units"]}
    dangling = sum(1 for t in ("entities", "relationships") for r in tables[t]
                   for tu in r["text_unit_ids"] if tu not in units)
    if dangling:
        report.warnings.append(f"{dangling} text_unit_ids of entities/relationships name no text unit")
    numbers = {c["community"] for c in tables["communities"]}
    orphans = [r["community"] for r in tables["community_reports"] if r["community"] not in numbers]
    if orphans:
        report.warnings.append(f"community_reports: {len(orphans)} reports of communities not in "
                               f"communities (e.g. {orphans[0]})")


def is_empty(store: Store) -> bool:
    return all(store.count(t) == 0 for t in CONTENT_TABLES)


def import_graphrag(source_dir: str | Path, store: Store, on_progress: Progress | None = None,
                    replace: bool = False) -> ImportReport:
    """Read a graphrag output folder into the workspace of `store`, in one transaction.
    Refuses a workspace that already holds an index unless replace=True (which empties it)."""
    require(store, 'index')
    source = Path(source_dir).resolve()
    report = ImportReport(source=str(source))
    if not replace and not is_empty(store):
        raise GraphRAGImportError(
            f"workspace {store.workspace} already holds an index; import into a new workspace, "
            "or replace its index (--replace)")
    started = now()
    tables = read_index(source, report, on_progress)
    report.counts = {t: len(rows) for t, rows in tables.items()}
    report.run_id = f"import-{uuid.uuid4().hex[:12]}"
    run = {"id": report.run_id, "started_at": started, "finished_at": now(), "status": "finished",
           "engine": ENGINE, "settings": {"source": str(source), "replace": replace},
           "stage": "done", "counts": report.counts, "llm_calls": 0, "prompt_tokens": 0,
           "completion_tokens": 0, "cache_hits": 0, "cost": 0.0,
           "progress": {"messages": report.messages, "warnings": report.warnings}}
    with store.atomic():
        store.clear(*CONTENT_TABLES)
        for i, (table, rows) in enumerate(tables.items()):
            if on_progress:
                on_progress("write", i, len(tables), f"{table}: {len(rows)} rows")
            store.insert(table, rows)
        store.insert("runs", [run])
        store.set_meta(META_KEY, str(source))
    if on_progress:
        on_progress("write", len(tables), len(tables), "done")
    return report

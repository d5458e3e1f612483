"""Documents change: remove one, replace one with a new version.

Both are two steps. First one transaction: the change summary's baseline is recorded (meta
`pending_change`), the document goes (remove) or gets its new text and units (replace), and
every row only the vanished units supported goes with them (prune_units): their extractions and
claims; entities and relationships left without a unit (and their embeddings, and relationships
losing an end); the vanished units drop out of the `text_unit_ids` of what stays and out of the
communities. So the workspace is consistent (`sensemaker check`) the moment it commits, and a kill
before that leaves it as it was. Then an ordinary index run (pipeline.run_index) rebuilds the graph
from the extractions that remain: descriptions summarised again only where their set of
descriptions changed, communities recomputed with the same seed, reports written again only for
communities whose contents changed (and their ancestors), no extraction call for a removal. A run
killed there resumes with the next `sensemaker index` (or `remove`) and finishes the change.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from core.errors import UserError
from core.index.changes import snapshot
from core.index.prune import prune_units
from core.store.db import Store, now
from core.textutil import normalize_title
from core.store.access import require

PENDING = "pending_change"


def find_documents(store: Store, names: Iterable[str]) -> tuple[list[dict], list[str]]:
    """Documents by id, title or source file name (case and spacing aside). Returns (found,
    names matching nothing)."""
    rows = store.rows("documents", select="id, human_readable_id, title, source_name, n_tokens", order_by="human_readable_id")
    found: dict[str, dict] = {}
    missing = []
    for name in names:
        key = normalize_title(name)
        hits = [r for r in rows if name in (r["id"], str(r["human_readable_id"]))
                or key in (normalize_title(r["title"] or ""), normalize_title(r["source_name"] or ""))]
        if not hits:
            missing.append(name)
        for r in hits:
            found[r["id"]] = r
    return list(found.values()), missing


def removal_preview(store: Store, doc_ids: list[str]) -> dict[str, Any]:
    """What removing these documents takes away (for the confirmation): their units, and the
    entities and relationships that only those units support (the rest stay)."""
    if not doc_ids:
        return {"documents": 0, "text_units": 0, "entities": 0, "relationships": 0, "claims": 0,
                "entities_kept": 0, "entity_titles": []}
    units = {r["id"] for r in store.rows_in("text_units", "document_id", doc_ids, select="id")}
    ents_gone, kept, rels_gone = [], 0, 0
    for e in store.rows("entities", select="title, text_unit_ids"):
        tus = set(e["text_unit_ids"] or [])
        if tus & units:
            if tus <= units:
                ents_gone.append(e["title"])
            else:
                kept += 1
    gone = set(ents_gone)
    for r in store.rows("relationships", select="source, target, text_unit_ids"):
        tus = set(r["text_unit_ids"] or [])
        if (tus and tus <= units) or r["source"] in gone or r["target"] in gone:
            rels_gone += 1
    claims = sum(1 for r in store.rows("claims", select="text_unit_id") if r["text_unit_id"] in units)
    return {"documents": len(doc_ids), "text_units": len(units), "entities": len(ents_gone),
            "relationships": rels_gone, "claims": claims, "entities_kept": kept,
            "entity_titles": sorted(ents_gone)[:20]}


def begin_change(store: Store, operation: str, documents: list[str], unchunked_as_new: bool = False
                 ) -> dict[str, Any]:
    """Record the baseline of a change unless one is pending (a change killed half way keeps
    the baseline it started from). Inside the caller's transaction."""
    pending = pending_change(store)
    if pending:
        pending["documents"] = sorted(set(pending.get("documents", [])) | set(documents))
        if pending.get("operation") != operation:
            pending["operation"] = f"{pending['operation']}+{operation}"
    else:
        pending = {"operation": operation, "documents": documents, "started_at": now(),
                   "baseline": snapshot(store, unchunked_as_new)}
    store.set_meta(PENDING, json.dumps(pending, ensure_ascii=False))
    return pending


def pending_change(store: Store) -> dict[str, Any] | None:
    raw = store.get_meta(PENDING)
    return json.loads(raw) if raw else None


def end_change(store: Store) -> None:
    store.set_meta(PENDING, "")


def remove_documents(store: Store, names: Iterable[str]) -> dict[str, Any]:
    """Step one of a removal (see the module docstring): returns what went. A name matching no
    document is an error unless a removal of it is pending (then the run finishes it)."""
    require(store, 'remove')
    names = list(names)
    if store.get_meta("imported_from"):
        raise UserError("this workspace holds an imported Microsoft GraphRAG index; its documents cannot be "
                        "removed one by one")
    docs, missing = find_documents(store, names)
    pending = pending_change(store) or {}
    missing = [m for m in missing if normalize_title(m) not in
               {normalize_title(t) for t in pending.get("documents", [])}]
    if missing:
        raise UserError(f"no document named {', '.join(repr(m) for m in missing)} in this workspace "
                        "(give a title, a file name or an id: `sensemaker status` lists counts, the Corpus page the documents)")
    ids = [d["id"] for d in docs]
    preview = removal_preview(store, ids)
    if ids:
        with store.atomic():
            begin_change(store, "remove", [d["title"] for d in docs])
            units = [r["id"] for r in store.rows_in("text_units", "document_id", ids, select="id")]
            titles = {d["id"]: d["title"] for d in docs}
            prune_units(store, units, titles=titles)
            store.delete_in("documents", "id", ids)
    return {**preview, "titles": [d["title"] for d in docs]}


def _now() -> str:
    from datetime import datetime, timezone
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def replace_document(store: Store, old_id: str, new_row: dict[str, Any], settings) -> dict[str, Any]:
    """Step one of a replacement: the document keeps its id (so units whose text did not change
    keep theirs, and their extractions) and gets the new text; its units are chunked again in the
    same transaction, the vanished ones pruned. Returns units kept / added / removed."""
    require(store, 'replace')
    from core.index.chunk_stage import unit_rows, write_units
    old = store.get("documents", old_id)
    if old is None:
        raise UserError(f"no document with id {old_id}")
    rows = unit_rows(old_id, new_row["text"], settings, new_row.get("metadata"))
    with store.atomic():
        begin_change(store, "replace", [old["title"]])
        before = set(store.column("text_units", "id", "document_id = ?", [old_id]))
        values = {k: new_row[k] for k in ("source_name", "mime", "sha256", "n_tokens", "text", "metadata", "sketch")
                  if k in new_row}
        meta = values.get("metadata", old.get("metadata"))
        if isinstance(meta, str):
            try:
                meta = json.loads(meta or "{}")
            except ValueError:
                meta = {}
        meta = dict(meta) if isinstance(meta, dict) else {}
        meta["replaced_at"] = _now()  # the document table says when its text last changed
        values["metadata"] = meta
        store.update("documents", old_id, **values, status="new")
        added = write_units(store, [old_id], rows)
    after = {r["id"] for r in rows}
    return {"title": old["title"], "units_kept": len(before & after), "units_added": added,
            "units_removed": len(before - after)}

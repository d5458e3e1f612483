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
from core.store.db import Store, now
from core.textutil import normalize_title

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
    marks = ",".join("?" * len(doc_ids))
    units = {r[0] for r in store.db.conn.execute(f"select id from text_units where document_id in ({marks})", doc_ids)}
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
        with store.atomic() as db:
            begin_change(store, "remove", [d["title"] for d in docs])
            marks = ",".join("?" * len(ids))
            units = [r[0] for r in db.conn.execute(f"select id from text_units where document_id in ({marks})", ids)]
            titles = {d["id"]: d["title"] for d in docs}
            prune_units(store, units, titles=titles)
            db.conn.execute(f"delete from documents where id in ({marks})", ids)
    return {**preview, "titles": [d["title"] for d in docs]}


def replace_document(store: Store, old_id: str, new_row: dict[str, Any], settings) -> dict[str, Any]:
    """Step one of a replacement: the document keeps its id (so units whose text did not change
    keep theirs, and their extractions) and gets the new text; its units are chunked again in the
    same transaction, the vanished ones pruned. Returns units kept / added / removed."""
    from core.index.chunk_stage import unit_rows, write_units
    old = store.get("documents", old_id)
    if old is None:
        raise UserError(f"no document with id {old_id}")
    rows = unit_rows(old_id, new_row["text"], settings)
    with store.atomic() as db:
        begin_change(store, "replace", [old["title"]])
        before = {r[0] for r in db.conn.execute("select id from text_units where document_id = ?", [old_id])}
        values = {k: new_row[k] for k in ("source_name", "mime", "sha256", "n_tokens", "text", "metadata", "sketch")
                  if k in new_row}
        store.update("documents", old_id, **values, status="new")
        added = write_units(store, [old_id], rows)
    after = {r["id"] for r in rows}
    return {"title": old["title"], "units_kept": len(before & after), "units_added": added,
            "units_removed": len(before - after)}


def prune_units(store: Store, unit_ids: list[str], titles: dict[str, str] | None = None,
                run_id: str | None = None) -> dict[str, int]:
    """Inside a transaction: delete these text units and everything only they supported; what
    stays loses them from its text_unit_ids. Each removed citable row is recorded in `removed`."""
    if not unit_ids:
        return {}
    gone = set(unit_ids)
    conn = store.db.conn
    out = {"text_units": len(gone)}
    with store.atomic():
        doc_of = {}
        for i in range(0, len(unit_ids), 500):
            part = unit_ids[i:i + 500]
            doc_of.update(dict(conn.execute(f"select id, document_id from text_units where id in ({','.join('?' * len(part))})",
                                            part).fetchall()))
        title_of = dict(titles or {})
        for d in set(doc_of.values()) - set(title_of):
            row = conn.execute("select title from documents where id = ?", [d]).fetchone()
            title_of[d] = row[0] if row else ""
        tomb: list[dict] = []

        def bury(table: str, hrid: int, unit: str | None = None, owner: str | None = None) -> None:
            tomb.append({"id": f"{table}|{hrid}", "owner_table": table, "owner_hrid": hrid, "owner_id": owner,
                         "document_title": title_of.get(doc_of.get(unit or "", ""), ""), "run_id": run_id,
                         "removed_at": now()})

        for uid, hrid in _select(conn, "text_units", "id, human_readable_id", "id", unit_ids):
            bury("text_units", hrid, uid, uid)
        for hrid, tu, cid in _select(conn, "claims", "human_readable_id, text_unit_id, id", "text_unit_id", unit_ids):
            bury("claims", hrid, tu, cid)
        _delete(conn, "claims", "text_unit_id", unit_ids)
        _delete(conn, "extractions", "text_unit_id", unit_ids)
        _delete(conn, "text_units", "id", unit_ids)
        dead_titles, dead_ents = set(), []
        for e in store.rows("entities", select="id, human_readable_id, title, text_unit_ids"):
            tus = e["text_unit_ids"] or []
            if not gone & set(tus):
                continue
            left = [u for u in tus if u not in gone]
            if left:
                conn.execute("update entities set text_unit_ids = ?, frequency = ? where id = ?",
                             [json.dumps(left), len(left), e["id"]])
            else:
                bury("entities", e["human_readable_id"], next(iter(gone & set(tus))), e["id"])
                dead_titles.add(e["title"])
                dead_ents.append(e["id"])
        _delete(conn, "entities", "id", dead_ents)
        _delete(conn, "embeddings", "owner_id", dead_ents)
        dead_rels = []
        for r in store.rows("relationships", select="id, human_readable_id, source, target, text_unit_ids"):
            tus = r["text_unit_ids"] or []
            left = [u for u in tus if u not in gone]
            if r["source"] in dead_titles or r["target"] in dead_titles or (tus and not left):
                bury("relationships", r["human_readable_id"], next(iter(gone & set(tus)), None), r["id"])
                dead_rels.append(r["id"])
            elif len(left) < len(tus):
                conn.execute("update relationships set text_unit_ids = ? where id = ?", [json.dumps(left), r["id"]])
        _delete(conn, "relationships", "id", dead_rels)
        dead_e, dead_r = set(dead_ents), set(dead_rels)
        for c in store.rows("communities", select="id, entity_ids, relationship_ids, text_unit_ids"):
            e2 = [x for x in c["entity_ids"] or [] if x not in dead_e]
            r2 = [x for x in c["relationship_ids"] or [] if x not in dead_r]
            t2 = [x for x in c["text_unit_ids"] or [] if x not in gone]
            if (e2, r2, t2) != (c["entity_ids"] or [], c["relationship_ids"] or [], c["text_unit_ids"] or []):
                conn.execute("update communities set entity_ids = ?, relationship_ids = ?, text_unit_ids = ?, "
                             "size = ? where id = ?", [json.dumps(e2), json.dumps(r2), json.dumps(t2), len(e2), c["id"]])
        for hrid, subj, cid in conn.execute("select human_readable_id, subject, id from claims").fetchall():
            if subj in dead_titles:
                bury("claims", hrid, None, cid)
        if dead_titles:
            _delete(conn, "claims", "subject", sorted(dead_titles))
        store.upsert("removed", tomb)
        out.update(entities=len(dead_ents), relationships=len(dead_rels))
    return out


def revive_hrids(store: Store, table: str, rows: list[dict]) -> list[dict]:
    """Rows coming back after they were removed (an entity extracted again from the edited
    paragraph of a replaced document, a document added back) get their old human_readable_id
    where it is free, so a stored citation of them points at them again."""
    try:
        dead = {r[0]: r[1] for r in store.db.conn.execute(
            "select owner_id, owner_hrid from removed where owner_table = ? and owner_id is not null", [table])}
    except Exception:
        return rows
    if not dead:
        return rows
    live = {r[0] for r in store.db.conn.execute(f"select human_readable_id from [{table}]")}
    ids = {r["id"] for r in rows}
    taken = {r[0]: r[1] for r in store.db.conn.execute(f"select id, human_readable_id from [{table}]")}
    free = {h for i, h in dead.items() if i in ids and i not in taken and h not in live}
    back = []
    for r in rows:
        h = dead.get(r["id"])
        if r.get("human_readable_id") is None and r["id"] not in taken and h in free:
            r["human_readable_id"] = h
            free.discard(h)
            back.append(f"{table}|{h}")
    if back:  # the other new rows numbered above every number in use (replace_table would count
        # from the table's largest, which a revived number may equal)
        nxt = max(live | {r["human_readable_id"] for r in rows if r.get("human_readable_id") is not None}) + 1
        for r in rows:
            if r.get("human_readable_id") is None and r["id"] not in taken:
                r["human_readable_id"] = nxt
                nxt += 1
    for i in range(0, len(back), 500):
        part = back[i:i + 500]
        store.db.conn.execute(f"delete from removed where id in ({','.join('?' * len(part))})", part)
    return rows


def _select(conn, table: str, cols: str, key: str, values: list[str]) -> list[tuple]:
    out = []
    for i in range(0, len(values), 500):
        part = values[i:i + 500]
        out += conn.execute(f"select {cols} from [{table}] where [{key}] in ({','.join('?' * len(part))})", part).fetchall()
    return out


def _delete(conn, table: str, key: str, values: list[str]) -> None:
    for i in range(0, len(values), 500):
        part = values[i:i + 500]
        conn.execute(f"delete from [{table}] where [{key}] in ({','.join('?' * len(part))})", part)

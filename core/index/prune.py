"""Pruning: text units go (a document removed, a paragraph replaced) with everything only they
supported; what stays loses them from its text_unit_ids. Every removed citable row is recorded in
the `removed` table, so a stored citation of it says "source removed", and revive_hrids gives a
row that comes back its old number."""
from __future__ import annotations

import json

from core.store.db import Store, now


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
        forget_members(store, lambda x: x not in dead_e, lambda x: x not in dead_r, lambda x: x not in gone)
        for hrid, subj, cid in conn.execute("select human_readable_id, subject, id from claims").fetchall():
            if subj in dead_titles:
                bury("claims", hrid, None, cid)
        if dead_titles:
            _delete(conn, "claims", "subject", sorted(dead_titles))
        store.upsert("removed", tomb)
        out.update(entities=len(dead_ents), relationships=len(dead_rels))
    return out


def forget_members(store: Store, entity_kept, relationship_kept, unit_kept=lambda _: True) -> None:
    """Inside a transaction: each community keeps only the entities, relationships and text
    units the predicates keep (its size follows its entities)."""
    for c in store.rows("communities", select="id, entity_ids, relationship_ids, text_unit_ids"):
        e2 = [x for x in c["entity_ids"] or [] if entity_kept(x)]
        r2 = [x for x in c["relationship_ids"] or [] if relationship_kept(x)]
        t2 = [x for x in c["text_unit_ids"] or [] if unit_kept(x)]
        if (e2, r2, t2) != (c["entity_ids"] or [], c["relationship_ids"] or [], c["text_unit_ids"] or []):
            store.db.conn.execute("update communities set entity_ids = ?, relationship_ids = ?, text_unit_ids = ?, "
                                  "size = ? where id = ?", [json.dumps(e2), json.dumps(r2), json.dumps(t2), len(e2), c["id"]])


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

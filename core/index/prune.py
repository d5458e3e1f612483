"""Pruning: text units go (a document removed, a paragraph replaced) with everything only they
supported; what stays loses them from its text_unit_ids. Every removed citable row is recorded in
the `removed` table, so a stored citation of it says "source removed", and revive_hrids gives a
row that comes back its old number."""
from __future__ import annotations

from core.store.db import Store, now


def prune_units(store: Store, unit_ids: list[str], titles: dict[str, str] | None = None,
                run_id: str | None = None) -> dict[str, int]:
    """Inside a transaction: delete these text units and everything only they supported; what
    stays loses them from its text_unit_ids. Each removed citable row is recorded in `removed`."""
    if not unit_ids:
        return {}
    gone = set(unit_ids)
    out = {"text_units": len(gone)}
    with store.atomic():
        units = store.rows_in("text_units", "id", unit_ids, select="id, human_readable_id, document_id")
        doc_of = {u["id"]: u["document_id"] for u in units}
        title_of = dict(titles or {})
        for d in set(doc_of.values()) - set(title_of):
            title_of[d] = str((store.get("documents", d) or {}).get("title") or "")
        tomb: list[dict] = []

        def bury(table: str, hrid: int, unit: str | None = None, owner: str | None = None) -> None:
            tomb.append({"id": f"{table}|{hrid}", "owner_table": table, "owner_hrid": hrid, "owner_id": owner,
                         "document_title": title_of.get(doc_of.get(unit or "", ""), ""), "run_id": run_id,
                         "removed_at": now()})

        for u in units:
            bury("text_units", u["human_readable_id"], u["id"], u["id"])
        for c in store.rows_in("claims", "text_unit_id", unit_ids, select="human_readable_id, text_unit_id, id"):
            bury("claims", c["human_readable_id"], c["text_unit_id"], c["id"])
        store.delete_in("claims", "text_unit_id", unit_ids)
        store.delete_in("extractions", "text_unit_id", unit_ids)
        store.delete_in("text_units", "id", unit_ids)
        dead_titles, dead_ents, thinner = set(), [], []
        for e in store.rows("entities", select="id, human_readable_id, title, text_unit_ids"):
            tus = e["text_unit_ids"] or []
            if not gone & set(tus):
                continue
            left = [u for u in tus if u not in gone]
            if left:
                thinner.append({"id": e["id"], "text_unit_ids": left, "frequency": len(left)})
            else:
                bury("entities", e["human_readable_id"], next(iter(gone & set(tus))), e["id"])
                dead_titles.add(e["title"])
                dead_ents.append(e["id"])
        store.update_rows("entities", thinner)
        store.delete_in("entities", "id", dead_ents)
        store.delete_in("embeddings", "owner_id", dead_ents)
        dead_rels, thinner = [], []
        for r in store.rows("relationships", select="id, human_readable_id, source, target, text_unit_ids"):
            tus = r["text_unit_ids"] or []
            left = [u for u in tus if u not in gone]
            if r["source"] in dead_titles or r["target"] in dead_titles or (tus and not left):
                bury("relationships", r["human_readable_id"], next(iter(gone & set(tus)), None), r["id"])
                dead_rels.append(r["id"])
            elif len(left) < len(tus):
                thinner.append({"id": r["id"], "text_unit_ids": left})
        store.update_rows("relationships", thinner)
        store.delete_in("relationships", "id", dead_rels)
        dead_e, dead_r = set(dead_ents), set(dead_rels)
        forget_members(store, lambda x: x not in dead_e, lambda x: x not in dead_r, lambda x: x not in gone)
        for c in store.rows("claims", select="human_readable_id, subject, id"):
            if c["subject"] in dead_titles:
                bury("claims", c["human_readable_id"], None, c["id"])
        store.delete_in("claims", "subject", sorted(dead_titles))
        store.upsert("removed", tomb)
        out.update(entities=len(dead_ents), relationships=len(dead_rels))
    return out


def forget_members(store: Store, entity_kept, relationship_kept, unit_kept=lambda _: True) -> None:
    """Inside a transaction: each community keeps only the entities, relationships and text
    units the predicates keep (its size follows its entities)."""
    changed = []
    for c in store.rows("communities", select="id, entity_ids, relationship_ids, text_unit_ids"):
        e2 = [x for x in c["entity_ids"] or [] if entity_kept(x)]
        r2 = [x for x in c["relationship_ids"] or [] if relationship_kept(x)]
        t2 = [x for x in c["text_unit_ids"] or [] if unit_kept(x)]
        if (e2, r2, t2) != (c["entity_ids"] or [], c["relationship_ids"] or [], c["text_unit_ids"] or []):
            changed.append({"id": c["id"], "entity_ids": e2, "relationship_ids": r2, "text_unit_ids": t2,
                            "size": len(e2)})
    store.update_rows("communities", changed)


def revive_hrids(store: Store, table: str, rows: list[dict]) -> list[dict]:
    """Rows coming back after they were removed (an entity extracted again from the edited
    paragraph of a replaced document, a document added back) get their old human_readable_id
    where it is free, so a stored citation of them points at them again."""
    dead = {r["owner_id"]: r["owner_hrid"] for r in store.rows(
        "removed", "owner_table = ? and owner_id is not null", [table], select="owner_id, owner_hrid")}
    if not dead:
        return rows
    taken = {r["id"]: r["human_readable_id"] for r in store.rows(table, select="id, human_readable_id")}
    live = set(taken.values())
    ids = {r["id"] for r in rows}
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
    store.delete_in("removed", "id", back)
    return rows


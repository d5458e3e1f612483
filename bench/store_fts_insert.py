"""Bulk inserts into full-text indexed tables (issue 8): Store.insert with a trigger per row
(before) against one statement per index for the batch (after, core/store/db.py _insert_indexed),
measured in one run by switching core.store.db.FTS_BATCH. Both indexes (words and trigrams) are
checked to find the new rows, and SQLite's integrity check of each must pass.

    .venv/bin/python bench/store_fts_insert.py [--rows 100000]

Cases: 100k entities in one insert into an empty table and into a table of 20k; text units of
about 600 tokens in batches of 200 (the chunk stage's shape: 100 documents per transaction),
3,000 of them; 20 batches of 50 entities into a table of 20k (the smallest batch that takes the
batched path).
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time

from _common import write_result

import core.store.db
from core.store.db import Store

_rng = random.Random(0)
WORDS = ["".join(_rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(_rng.randint(3, 9))) for _ in range(5000)]


def entities(n: int, offset: int, rng: random.Random) -> list[dict]:
    return [{"id": f"e{offset + i}", "title": f"ENTITY {offset + i}", "type": "person",
             "description": " ".join(rng.choice(WORDS) for _ in range(25)) + f" zz{offset + i}qq", "text_unit_ids": [],
             "frequency": 1, "degree": 1} for i in range(n)]


def units(n: int, offset: int, rng: random.Random) -> list[dict]:
    return [{"id": f"u{offset + i}", "document_id": f"d{(offset + i) // 10}", "ordinal": (offset + i) % 10,
             "text": " ".join(rng.choice(WORDS) for _ in range(450)) + f" zz{offset + i}qq", "n_tokens": 600}
            for i in range(n)]


def consistent(store: Store, table: str, new: list[dict], col: str) -> bool:
    """Both indexes find the first and the last new row by their marker word (zz<n>qq); both pass
    SQLite's integrity check."""
    ok = True
    for row in (new[0], new[-1]):
        probe = row[col].split()[-1]
        words = [r["id"] for r in store._search_words(table, probe, 5)]
        trigram = [r[0] for r in store.db.conn.execute(
            f"select {table}.id from {table} join {table}_cjk on {table}.rowid = {table}_cjk.rowid "
            f"where {table}_cjk match ?", [f'"{probe}"'])]
        ok = ok and words == [row["id"]] and trigram == [row["id"]]
    for fts in (f"{table}_fts", f"{table}_cjk"):
        try:
            store.db.conn.execute(f"insert into [{fts}]([{fts}], rank) values ('integrity-check', 1)")
        except sqlite3.DatabaseError:
            ok = False
    return ok


def case(label: str, table: str, make, prefill: int, batches: int, size: int, batched: bool) -> dict:
    core.store.db.FTS_BATCH = 50 if batched else 10**12
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        if prefill:
            store.replace_table(table, make(prefill, 10**7, rng))
        data = [make(size, b * size, rng) for b in range(batches)]
        t = time.perf_counter()
        for part in data:
            store.insert(table, part)
        seconds = time.perf_counter() - t
        ok = consistent(store, table, data[-1], "text" if table == "text_units" else "description")
        store.close()
    return {"case": label, "path": "batched" if batched else "trigger per row", "seconds": round(seconds, 2),
            "indexes_consistent": ok}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    args = ap.parse_args()
    n = args.rows
    cases = [(f"{n} entities, one insert, empty table", "entities", entities, 0, 1, n),
             (f"{n} entities, one insert, table of 20k", "entities", entities, 20_000, 1, n),
             ("3000 text units in batches of 200", "text_units", units, 0, 15, 200),
             ("20 batches of 50 entities, table of 20k", "entities", entities, 20_000, 20, 50)]
    out = []
    for label, table, make, prefill, batches, size in cases:
        before = case(label, table, make, prefill, batches, size, batched=False)
        after = case(label, table, make, prefill, batches, size, batched=True)
        out.append({"case": label, "before_seconds": before["seconds"], "after_seconds": after["seconds"],
                    "speedup": round(before["seconds"] / max(after["seconds"], 1e-9), 2),
                    "indexes_consistent": before["indexes_consistent"] and after["indexes_consistent"]})
        r = out[-1]
        print(f"{label}: trigger per row {r['before_seconds']:.2f} s -> batched {r['after_seconds']:.2f} s "
              f"(x{r['speedup']:.1f}); both indexes consistent: {r['indexes_consistent']}")
    print(f"  -> {write_result('store_fts_insert', {'cases': out})}")


if __name__ == "__main__":
    main()

"""`sensemaker migrate`: a SQLite workspace's tables copied into PostgreSQL.

Every table is copied row for row (the same ids and citation numbers, so stored answers and
links keep pointing at the same records) in one transaction, the counts compared, and only then
does the workspace's folder switch over: `postgresql.json` names the new schema and the SQLite
file is kept beside it as `sensemaker.db.migrated` (nothing is deleted; moving it back undoes
the switch)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from core.errors import UserError
from core.store.access import require
from core.store.backends import backend_of, schema_name, write_marker
from core.store.db import DB_FILE, Store
from core.store.schema import TABLES

BATCH = 1000
KEPT = DB_FILE + ".migrated"


def migrate_to_postgres(store: Store, url: str,
                        on_progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
    """Copy the (SQLite) workspace `store` into a new schema of the PostgreSQL database `url`
    and switch the workspace over to it. Returns the rows copied per table."""
    from core.store.postgres import PostgresStore, drop_schema
    from core.store.workspace import _running
    require(store, "delete")  # the workspace's owner moves its tables
    folder = Path(store.workspace)
    if backend_of(folder) == "postgresql":
        raise UserError(f"workspace {folder.name!r} is already in PostgreSQL")
    if not url.startswith(("postgresql://", "postgres://")):
        raise UserError("--to takes a PostgreSQL URL: postgresql://user:password@host:5432/database")
    if _running(store):
        raise UserError(f"an index run is going on in {folder.name!r}: wait for it or cancel it first")
    schema = schema_name(folder.name)
    target = PostgresStore(url, schema, folder)
    copied: dict[str, int] = {}
    try:
        with target.atomic():
            target.clear(*TABLES)
            for i, (table, columns) in enumerate(TABLES.items()):
                if on_progress:
                    on_progress(table, i, len(TABLES))
                cols = list(columns)
                batch: list[dict] = []
                n = 0
                for row in store.tuples(table, cols):
                    batch.append(dict(zip(cols, row)))
                    if len(batch) >= BATCH:
                        target._write(table, batch, "insert")
                        n, batch = n + len(batch), []
                if batch:
                    target._write(table, batch, "insert")
                    n += len(batch)
                copied[table] = n
        have = {t: target.count(t, "id != 'write_stamp'" if t == "meta" else None) for t in copied}
        differ = {t: (n, have[t]) for t, n in copied.items() if have[t] != n}
        if differ:
            raise UserError(f"the copy does not match the workspace ({differ}); nothing was switched")
    except BaseException:
        target.close()
        drop_schema(url, schema)
        raise
    target.close()
    store.close()
    write_marker(folder, schema)
    db = folder / DB_FILE
    for suffix in ("", "-wal", "-shm"):
        part = db.with_name(db.name + suffix)
        if part.exists():
            part.rename(folder / (KEPT + suffix))
    if on_progress:
        on_progress("done", len(TABLES), len(TABLES))
    return copied

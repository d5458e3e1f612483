"""Creating and upgrading a workspace's SQLite database: its tables, indexes, both full-text
indexes and their triggers, and the migrations between schema versions. A mixin of
core.store.db.Store (the PostgreSQL store does this its own way: core/store/postgres.py)."""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from core.store.schema import FTS, INDEXES, SCHEMA_VERSION, TABLES, StoreError

# Migrations: version -> SQL statements that bring a database from version-1 to version.
MIGRATIONS: dict[int, list[str]] = {
    2: ["update query_traces set author = json_extract(trace, '$.author') where author is null"],
}


class SQLiteSchema:
    if TYPE_CHECKING:  # provided by core.store.db.Store
        path: Any
        db: Any
        _write_lock: Any

        def atomic(self) -> Any: ...

        def set_meta(self, key: str, value: str) -> None: ...

    def ensure_schema(self) -> None:
        db = self.db
        try:
            db.conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a Sensemaker workspace database: {exc}") from exc
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer Sensemaker (schema {version}, "
                f"this one knows {SCHEMA_VERSION})")
        if version == SCHEMA_VERSION and self._schema_complete():
            return  # nothing to write: opening a workspace takes no write lock and changes no file
        with self.atomic():
            for name, columns in TABLES.items():
                if not db[name].exists():
                    db[name].create(columns, pk="id", not_null={"id"})
                else:  # add columns a newer version introduced
                    have = set(db[name].columns_dict)
                    for col, typ in columns.items():
                        if col not in have:
                            db[name].add_column(col, typ)
                db[name].create_index(["human_readable_id"], unique=True, if_not_exists=True,
                                      index_name=f"idx_{name}_hrid")
            for name, indexes in INDEXES.items():
                for cols in indexes:
                    db[name].create_index(list(cols), if_not_exists=True,
                                          index_name=f"idx_{name}_{'_'.join(cols)}")
            for v in range(max(version, 0) + 1, SCHEMA_VERSION + 1):
                for sql in MIGRATIONS.get(v, []):
                    db.execute(sql)
        for name, cols in FTS.items():
            if not db[f"{name}_fts"].exists():
                db[name].enable_fts(list(cols), create_triggers=True, tokenize="porter")
            if not db[f"{name}_cjk"].exists():
                self._enable_trigram_fts(name, cols)
        self.set_meta("schema_version", str(SCHEMA_VERSION))

    def _schema_complete(self) -> bool:
        """Every table, column, index and full-text index of this version is there (read only)."""
        db = self.db
        have = {r[0] for r in db.execute("select name from sqlite_master")}
        wanted = set(TABLES) | {f"idx_{t}_hrid" for t in TABLES} | \
            {f"idx_{t}_{'_'.join(cols)}" for t, indexes in INDEXES.items() for cols in indexes} | \
            {f"{t}_{kind}" for t in FTS for kind in ("fts", "cjk")}
        if not wanted <= have:
            return False
        return all(set(columns) <= set(db[name].columns_dict) for name, columns in TABLES.items())

    def _enable_trigram_fts(self, table: str, cols: tuple[str, ...]) -> None:
        """A second full-text index with SQLite's trigram tokenizer: it matches Chinese,
        Japanese and Korean text (no spaces between words) by substring, which the word
        tokenizer cannot. Kept in step with the table by triggers, like the first."""
        fts, names = f"{table}_cjk", ", ".join(f"[{c}]" for c in cols)
        new = ", ".join(f"new.[{c}]" for c in cols)
        old = ", ".join(f"old.[{c}]" for c in cols)
        with self._write_lock:  # executescript commits any open transaction: it carries its own
            self.db.conn.executescript(f"""
                begin immediate;
                create virtual table [{fts}] using fts5({names}, content=[{table}], tokenize='trigram');
                create trigger [{table}_cjk_ai] after insert on [{table}] begin
                    insert into [{fts}] (rowid, {names}) values (new.rowid, {new}); end;
                create trigger [{table}_cjk_ad] after delete on [{table}] begin
                    insert into [{fts}] ([{fts}], rowid, {names}) values ('delete', old.rowid, {old}); end;
                create trigger [{table}_cjk_au] after update on [{table}] begin
                    insert into [{fts}] ([{fts}], rowid, {names}) values ('delete', old.rowid, {old});
                    insert into [{fts}] (rowid, {names}) values (new.rowid, {new}); end;
                insert into [{fts}] ([{fts}]) values ('rebuild');
                commit;
            """)

    def schema_version(self) -> int:
        db = self.db
        if not db["meta"].exists():
            return 0
        row = db.execute("select value from meta where id = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

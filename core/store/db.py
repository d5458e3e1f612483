"""The workspace store: one SQLite database per workspace, through sqlite-utils.

A Store is safe to share between threads: every thread gets its own connection (sqlite3
connections must not cross threads). WAL mode lets the app read while an index run writes; a
busy timeout makes writers wait instead of failing with "database is locked".
"""
from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

import sqlite_utils

from core.access import LOCAL, Principal
from core.errors import UserError

from core.store.fulltext import FullTextSearch
from core.store.reads import Reads
from core.store.schema import FTS, TABLES, StoreError, check_table, decode, encode
from core.store.sqlite_schema import SQLiteSchema

DB_FILE = "sensemaker.db"
# Rows from which an insert into a full-text indexed table indexes the batch in one statement
# (dropping and re-creating the per-row triggers in its transaction) rather than row by row.
FTS_BATCH = 50

def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store(SQLiteSchema, FullTextSearch, Reads):
    def __init__(self, path: str | Path):
        path = Path(path)
        if path.is_dir() or path.suffix != ".db":
            path.mkdir(parents=True, exist_ok=True)
            path = path / DB_FILE
        self.path = path
        self.workspace = path.parent
        # who uses this store and their role in the workspace (core.store.access): the local
        # user, who owns every workspace, unless it was opened for a signed-in user
        self.principal: Principal = LOCAL
        self.role: str | None = "owner"
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self.ensure_schema()

    # connections -------------------------------------------------------------------------
    @property
    def db(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is None:
            # autocommit mode: write transactions are opened explicitly with BEGIN IMMEDIATE in
            # atomic(), so a writer takes the lock up front (waiting on busy_timeout) instead of
            # upgrading a stale read snapshot, which SQLite refuses at once with "database is locked"
            conn = sqlite3.connect(str(self.path), timeout=60, check_same_thread=False, isolation_level=None)
            try:
                conn.execute("PRAGMA busy_timeout = 60000")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("select count(*) from sqlite_master").fetchone()
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise StoreError(f"{self.path} is not a Sensemaker workspace database: {exc}") from exc
            db = sqlite_utils.Database(conn)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None

    @contextmanager
    def atomic(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction (serialised within this process). Nested blocks join the
        outermost one: it alone commits, or rolls everything back on an error."""
        with self._write_lock:
            db = self.db
            depth = getattr(self._local, "depth", 0)
            self._local.depth = depth + 1
            try:
                if depth:
                    yield db
                else:
                    self._begin(db.conn)
                    try:
                        yield db
                    except BaseException:
                        db.conn.execute("ROLLBACK")
                        raise
                    self._commit(db.conn)
            finally:
                self._local.depth = depth

    @contextmanager
    def run_lock(self) -> Iterator[None]:
        """Held for the whole of an index run: a second run of the workspace, from any process
        (the app's child, the command line, a worker), is refused instead of interleaving."""
        import fcntl
        with open(self.workspace / "index.lock", "a+b") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UserError("another index run is going on in this workspace: wait for it or cancel it") from None
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _begin(self, conn) -> None:
        conn.execute("BEGIN IMMEDIATE")

    def _commit(self, conn) -> None:
        conn.execute("COMMIT")

    def data_stamp(self) -> tuple:
        """What identifies the database's present content for a cache of what is computed from it:
        the size and modification time of its file and of its write-ahead log, which every commit
        changes. Equal stamps mean no commit in between; a changed stamp may mean nothing changed
        for the cache (a checkpoint, a question's trace), which only costs a recomputation. Take
        it before reading what it keys: a commit during the reading then changes the next stamp."""
        stamp: list = [str(self.path)]
        for f in (self.path, self.path.with_name(self.path.name + "-wal")):
            try:
                st = f.stat()
                stamp += [st.st_size, st.st_mtime_ns]
            except FileNotFoundError:
                stamp += [None, None]
        return tuple(stamp)

    # meta --------------------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.conn.execute("select value from meta where id = ?", [key]).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.upsert("meta", [{"id": key, "value": value}])

    # reading -----------------------------------------------------------------------------
    # Plain SQL on the thread's connection: sqlite-utils' table helpers introspect the schema
    # on every call, which serialises concurrent writers behind those PRAGMA queries.
    def query(self, sql: str, params: Iterable[Any] | dict | None = None) -> list[dict[str, Any]]:
        cur = self.db.conn.execute(sql, params if isinstance(params, dict) else list(params or []))
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def rows(self, table: str, where: str | None = None, params: Iterable[Any] | dict | None = None,
             order_by: str | None = "human_readable_id", limit: int | None = None,
             select: str = "*") -> list[dict[str, Any]]:
        check_table(table)
        sql = f"select {select} from [{table}]"
        if where:
            sql += f" where {where}"
        if order_by:
            sql += f" order by {order_by}"
        if limit is not None:
            sql += f" limit {int(limit)}"
        return [decode(table, r) for r in self.query(sql, params)]

    def get(self, table: str, id: str) -> dict[str, Any] | None:
        found = self.rows(table, "id = ?", [id], order_by=None, limit=1)
        return found[0] if found else None

    def by_hrid(self, table: str, hrid: int) -> dict[str, Any] | None:
        found = self.rows(table, "human_readable_id = ?", [int(hrid)], order_by=None, limit=1)
        return found[0] if found else None

    def by_ids(self, table: str, ids: Iterable[str]) -> list[dict[str, Any]]:
        ids = list(dict.fromkeys(ids))
        out: list[dict[str, Any]] = []
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            out += self.rows(table, f"id in ({','.join('?' * len(part))})", part)
        return out

    def count(self, table: str, where: str | None = None, params: Iterable[Any] | None = None) -> int:
        check_table(table)
        sql = f"select count(*) from [{table}]" + (f" where {where}" if where else "")
        return self.db.conn.execute(sql, list(params or [])).fetchone()[0]

    def counts(self) -> dict[str, int]:
        return {t: self.count(t) for t in TABLES if t not in ("meta",)}

    # writing -----------------------------------------------------------------------------
    def _next_hrid(self, table: str) -> int:
        row = self.db.conn.execute(f"select max(human_readable_id) from [{table}]").fetchone()
        return (row[0] + 1) if row and row[0] is not None else 0

    def _write(self, table: str, rows: list[dict[str, Any]], mode: str) -> None:
        """Write encoded rows grouped by their column sets. mode: insert, replace or upsert
        (upsert updates only the columns given and keeps human_readable_id)."""
        groups: dict[tuple[str, ...], list[tuple]] = {}
        for r in rows:
            cols = tuple(k for k in r if k in TABLES[table])
            groups.setdefault(cols, []).append(tuple(r[c] for c in cols))
        for cols, values in groups.items():
            names = ", ".join(f"[{c}]" for c in cols)
            marks = ", ".join("?" * len(cols))
            if mode == "upsert":
                sets = ", ".join(f"[{c}] = excluded.[{c}]" for c in cols if c not in ("id", "human_readable_id"))
                sql = f"insert into [{table}] ({names}) values ({marks}) on conflict(id) do " + \
                      (f"update set {sets}" if sets else "nothing")
            else:
                sql = f"insert {'or replace ' if mode == 'replace' else ''}into [{table}] ({names}) values ({marks})"
            self.db.conn.executemany(sql, values)

    def insert(self, table: str, rows: Iterable[dict[str, Any]], replace: bool = False) -> int:
        """Insert rows, assigning human_readable_id in order where missing. Returns rows written.
        A batch of FTS_BATCH rows or more into a full-text indexed table updates its indexes once
        for the batch instead of by a trigger per row (_insert_indexed)."""
        check_table(table)
        rows = list(rows)
        if not rows:
            return 0
        with self.atomic():
            nxt = self._next_hrid(table)
            out = []
            for r in rows:
                r = encode(table, r)
                if r.get("human_readable_id") is None:
                    r["human_readable_id"] = nxt
                    nxt += 1
                out.append(r)
            if table in FTS and not replace and len(out) >= FTS_BATCH:
                self._insert_indexed(table, out)
            else:
                self._write(table, out, "replace" if replace else "insert")
        return len(rows)

    def _insert_indexed(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Insert rows into a full-text indexed table (inside its transaction) with the triggers
        that index row by row suspended, then add the new rows to both indexes (words and
        trigrams) in one statement each: the new rows are those above the table's largest rowid
        before the insert. Into an empty table, the indexes are rebuilt instead. 100k entities into
        a table of 20k: 45.8 s with a trigger per row, 14.2 s so (bench/store_fts_insert.py)."""
        conn = self.db.conn
        last = conn.execute(f"select max(rowid) from [{table}]").fetchone()[0]
        triggers = self._suspend_fts(table)
        self._write(table, rows, "insert")
        if not triggers:  # this table's indexes are not kept by triggers: nothing to keep in step
            return
        new = conn.execute(f"select count(*) from [{table}] where rowid > ?", [last or 0]).fetchone()[0]
        if last is None or new != len(rows):  # empty before, or rowids not above the old ones
            self._resume_fts(table, triggers)
            return
        cols = ", ".join(f"[{c}]" for c in FTS[table])
        for fts in (f"{table}_fts", f"{table}_cjk"):
            conn.execute(f"insert into [{fts}] (rowid, {cols}) select rowid, {cols} from [{table}] "
                         f"where rowid > ?", [last])
        for sql in triggers:
            conn.execute(sql)

    def upsert(self, table: str, rows: Iterable[dict[str, Any]]) -> int:
        """Insert or update by id; existing rows keep their human_readable_id."""
        check_table(table)
        rows = list(rows)
        if not rows:
            return 0
        with self.atomic():
            existing = self._hrids(table, [r["id"] for r in rows])
            nxt = self._next_hrid(table)
            out = []
            for r in rows:
                r = encode(table, r)
                if r["id"] in existing:
                    r["human_readable_id"] = existing[r["id"]]
                elif r.get("human_readable_id") is None:
                    r["human_readable_id"] = nxt
                    nxt += 1
                out.append(r)
            self._write(table, out, "upsert")
        return len(rows)

    def replace_table(self, table: str, rows: Iterable[dict[str, Any]], keep_hrids: bool = True) -> int:
        """Make the table hold exactly these rows. Rows whose id existed keep their
        human_readable_id (so citations stay stable when a corpus grows); new rows get new ones."""
        check_table(table)
        rows = list(rows)
        with self.atomic() as db:
            triggers = self._suspend_fts(table)
            old = dict(db.conn.execute(f"select id, human_readable_id from [{table}]").fetchall()) if keep_hrids else {}
            db.conn.execute(f"delete from [{table}]")
            nxt = (max(old.values()) + 1) if old else 0
            out = []
            for r in rows:
                r = encode(table, r)
                if r.get("human_readable_id") is None:
                    if r["id"] in old:
                        r["human_readable_id"] = old[r["id"]]
                    else:
                        r["human_readable_id"] = nxt
                        nxt += 1
                out.append(r)
            self._write(table, out, "insert")
            self._resume_fts(table, triggers)
        return len(rows)

    def _suspend_fts(self, table: str) -> list[str]:
        """For a rewrite of the whole table, inside its transaction: drop the triggers that keep
        the full-text indexes in step row by row, and return their SQL for _resume_fts. Rebuilding
        an index once is several times faster than a trigger per row (20k entities: 3.8 s with
        the triggers, 1.3 s without them and with the rebuild)."""
        if table not in FTS:
            return []
        names = {f"{table}{kind}_{op}" for kind in ("", "_cjk") for op in ("ai", "ad", "au")}
        found = [(n, sql) for n, sql in self.db.conn.execute(
            "select name, sql from sqlite_master where type = 'trigger' and tbl_name = ?", [table])
            if n in names]
        for n, _ in found:
            self.db.conn.execute(f"drop trigger [{n}]")
        return [sql for _, sql in found]

    def _resume_fts(self, table: str, triggers: list[str]) -> None:
        if not triggers:
            return
        for fts in (f"{table}_fts", f"{table}_cjk"):
            self.db.conn.execute(f"insert into [{fts}] ([{fts}]) values ('rebuild')")
        for sql in triggers:
            self.db.conn.execute(sql)

    def update(self, table: str, id: str, **values: Any) -> None:
        check_table(table)
        values = {k: v for k, v in encode(table, values).items() if k in TABLES[table]}
        if not values:
            return
        sets = ", ".join(f"[{c}] = ?" for c in values)
        with self.atomic() as db:
            db.conn.execute(f"update [{table}] set {sets} where id = ?", [*values.values(), id])

    def update_rows(self, table: str, rows: Iterable[dict[str, Any]], key: str = "id") -> None:
        """Set the given columns of each row, found by its key column (every row of one call
        sets the same columns)."""
        check_table(table)
        rows = [encode(table, r) for r in rows]
        if not rows:
            return
        cols = [c for c in rows[0] if c != key and c in TABLES[table]]
        sets = ", ".join(f"[{c}] = ?" for c in cols)
        with self.atomic() as db:
            db.conn.executemany(f"update [{table}] set {sets} where [{key}] = ?",
                                [[*(r[c] for c in cols), r[key]] for r in rows])

    def update_all(self, table: str, **values: Any) -> None:
        """Set these columns in every row of the table."""
        check_table(table)
        values = encode(table, values)
        sets = ", ".join(f"[{c}] = ?" for c in values)
        with self.atomic() as db:
            db.conn.execute(f"update [{table}] set {sets}", list(values.values()))

    def delete_in(self, table: str, col: str, values: Iterable[Any]) -> None:
        """Delete the rows whose column holds one of the values."""
        check_table(table)
        values = list(dict.fromkeys(values))
        if not values:
            return
        with self.atomic() as db:
            for i in range(0, len(values), 500):
                part = values[i:i + 500]
                db.conn.execute(f"delete from [{table}] where [{col}] in ({','.join('?' * len(part))})", part)

    def clear(self, *tables: str) -> None:
        """Delete every row of these tables (their full-text indexes follow)."""
        with self.atomic() as db:
            for table in tables:
                check_table(table)
                db.conn.execute(f"delete from [{table}]")

    def delete_where(self, table: str, where: str, params: Iterable[Any]) -> None:
        check_table(table)
        with self.atomic() as db:
            db.conn.execute(f"delete from [{table}] where {where}", list(params))

    def _hrids(self, table: str, ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            out.update(dict(self.db.conn.execute(
                f"select id, human_readable_id from [{table}] where id in ({','.join('?' * len(part))})",
                part).fetchall()))
        return out


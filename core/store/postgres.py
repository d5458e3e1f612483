"""A workspace's tables in PostgreSQL (psycopg 3): the same Store interface and SQL as the
SQLite backend, in a schema of its own per workspace in the database SENSEMAKER_DATABASE_URL
names. The SQL of core/store is written once: this backend turns its `[name]` quoting and `?`
placeholders into PostgreSQL's, and does in its own way what SQLite does by file and extension:
the schema, full-text search (tsvector expression indexes, and pg_trgm for substrings and Chinese
text), one writer at a time (an advisory lock per workspace) and the stamp caches key on.

Embeddings are BYTEA and compared in Python, as on SQLite: no extension Debian's PostgreSQL 15
lacks (pgvector) is needed."""
from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from core.access import LOCAL, Principal
from core.errors import UserError
from core.store.db import Store
from core.store.schema import FTS, INDEXES, SCHEMA_VERSION, TABLES, StoreError, check_table
from core.textutil import has_cjk

TYPES = {str: "TEXT", int: "BIGINT", float: "DOUBLE PRECISION", bytes: "BYTEA"}
# the text search configuration: English stemming, as SQLite's porter tokenizer
CONFIG = "english"
_IDENT = re.compile(r"\[(\w+)\]")


@lru_cache(maxsize=2048)
def pg_sql(sql: str) -> str:
    """core/store's SQL in PostgreSQL's dialect: "name" for [name], %s for ?, %% for %."""
    return _IDENT.sub(r'"\1"', sql).replace("%", "%%").replace("?", "%s")


def _value(v: Any) -> Any:
    if isinstance(v, bool):  # SQLite stores booleans as 0/1 in integer columns
        return int(v)
    if hasattr(v, "item") and not isinstance(v, (bytes, str)):  # a numpy scalar
        return v.item()
    return v


def _params(params: Iterable[Any] | dict | None) -> list | dict:
    if isinstance(params, dict):
        return {k: _value(v) for k, v in params.items()}
    return [_value(v) for v in (params or [])]


class _Result:
    """A statement's rows, read at once (the connection goes back to the pool straight after)."""

    def __init__(self, cur):
        self.description = cur.description
        self._rows = cur.fetchall() if cur.description else []

    def fetchone(self):
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list:
        return self._rows

    def __iter__(self):
        return iter(self._rows)


class _Conn:
    """Takes core/store's SQL as SQLite's connection does, on a connection of the workspace's
    pool: the one its thread holds for a transaction, else one borrowed for the statement."""

    def __init__(self, store: "PostgresStore"):
        self.store = store

    @contextmanager
    def raw(self) -> Iterator[Any]:
        pinned = getattr(self.store._local, "pinned", None)
        if pinned is not None:
            yield pinned
            return
        with self.store._pool().connection() as raw:
            yield raw

    def execute(self, sql: str, params: Iterable[Any] | dict | None = None) -> _Result:
        return self.run(pg_sql(sql), _params(params))

    def run(self, sql: str, params: Any = None) -> _Result:
        """PostgreSQL's own SQL (%s placeholders)."""
        with self.raw() as raw:
            return _Result(raw.execute(sql, params))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        with self.raw() as raw, raw.cursor() as cur:
            cur.executemany(pg_sql(sql), [_params(r) for r in rows])


class _Db:
    """What Store reads as `self.db`: its connection, as `.conn`."""

    def __init__(self, conn: _Conn):
        self.conn = conn

    def execute(self, sql: str, params: Iterable[Any] | None = None) -> _Result:
        return self.conn.execute(sql, params)


def check_database(url: str, what: str = "the team database") -> None:
    """Connect once, so a wrong URL or password says so at once in one line (a connection pool
    would retry quietly until its timeout)."""
    import psycopg
    try:
        psycopg.connect(url, connect_timeout=10).close()
    except psycopg.Error as exc:
        lines = [x.strip() for x in str(exc).strip().splitlines() if x.strip()]
        raise StoreError(f"cannot reach {what} (SENSEMAKER_DATABASE_URL): {lines[-1] if lines else exc}") from None


_POOLS: dict[tuple[str, str | None, str], Any] = {}
_POOLS_LOCK = threading.Lock()


def pool_for(url: str, schema: str | None = None, max_size: int = 8, purpose: str = "tables"):
    """The process's connections to the database for one purpose (a workspace's tables, with its
    schema; the team's members; the model's slots), shared by threads: a server of many sessions
    and a run of many threads hold a few connections, not one per thread. Made on first use,
    after one plain connection has checked the URL (a pool would retry a wrong password quietly
    until its timeout)."""
    key = (url, schema, purpose)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            from psycopg_pool import ConnectionPool

            def configure(conn) -> None:
                if schema:
                    conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                    conn.execute(f'SET search_path TO "{schema}", public')

            what = f"the PostgreSQL database of workspace schema {schema!r}" if schema else "the team database"
            check_database(url, what)
            pool = ConnectionPool(url, min_size=1, max_size=max_size, kwargs={"autocommit": True, "connect_timeout": 10},
                                  configure=configure, timeout=120, open=False, name=f"sensemaker-{schema or purpose}")
            try:
                pool.open(wait=True, timeout=15)
            except Exception as exc:
                pool.close()
                raise StoreError(f"cannot reach {what}: "
                                 f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc}") from exc
            _POOLS[key] = pool
        return pool


def close_pools(url: str) -> None:
    """Close every pool of this process to the database at url (its schema about to be dropped)."""
    with _POOLS_LOCK:
        gone = [_POOLS.pop(k) for k in list(_POOLS) if k[0] == url]
    for pool in gone:
        pool.close()


def _forget_pool(url: str, schema: str) -> None:
    with _POOLS_LOCK:
        pool = _POOLS.pop((url, schema, "tables"), None)
    if pool is not None:
        pool.close()


def _fts_expr(table: str, alias: str | None = None) -> str:
    """The text a table's word index holds, as an expression (the index is on it)."""
    pre = f'"{alias}".' if alias else ""
    cols = " || ' ' || ".join(f"coalesce({pre}\"{c}\", '')" for c in FTS[table])
    return f"to_tsvector('{CONFIG}', {cols})"


class PostgresStore(Store):
    def __init__(self, url: str, schema: str, workspace: str | Path):
        try:
            import psycopg  # noqa: F401 - a clear error now when the driver is missing
        except ImportError as exc:
            raise StoreError("this workspace's tables are in PostgreSQL and the psycopg driver is "
                             "not installed (pip install 'psycopg[binary]')") from exc
        self.url = url
        self.schema = schema
        self.workspace = Path(workspace)
        self.path = self.workspace  # what caches key on: one workspace, one key
        self.principal: Principal = LOCAL
        self.role: str | None = "owner"
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self.ensure_schema()

    # connections -------------------------------------------------------------------------
    def _pool(self):
        return pool_for(self.url, self.schema, int(os.environ.get("SENSEMAKER_PG_POOL") or 8))

    @property
    def db(self) -> _Db:  # type: ignore[override]
        return _Db(_Conn(self))

    @contextmanager
    def atomic(self) -> Iterator[_Db]:  # type: ignore[override]
        """As Store.atomic: the outermost block holds one pooled connection for its transaction
        (the thread's statements go to it), takes the workspace's write lock and commits or
        rolls back."""
        with self._write_lock:
            depth = getattr(self._local, "depth", 0)
            self._local.depth = depth + 1
            try:
                if depth:
                    yield self.db
                    return
                with self._pool().connection() as raw:
                    raw.execute("BEGIN")
                    self._local.pinned = raw
                    try:
                        # one writer per workspace at a time, across processes and machines
                        raw.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [self.schema])
                        yield self.db
                        # the stamp changes with the commit that changes the data (data_stamp)
                        raw.execute("INSERT INTO meta (id, human_readable_id, value) VALUES ('write_stamp', -1, '1') "
                                    "ON CONFLICT (id) DO UPDATE SET value = (meta.value::bigint + 1)::text")
                    except BaseException:
                        self._local.pinned = None
                        raw.execute("ROLLBACK")
                        raise
                    self._local.pinned = None
                    raw.execute("COMMIT")
            finally:
                if not depth:
                    self._local.pinned = None
                self._local.depth = depth

    @contextmanager
    def run_lock(self) -> Iterator[None]:
        """As Store.run_lock, across machines: a session advisory lock on a connection of its own
        (PostgreSQL lets it go when a killed worker's connection drops)."""
        import psycopg
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as raw:
            got = raw.execute("SELECT pg_try_advisory_lock(hashtext(%s))", [self.schema + "/run"]).fetchone()
            if not (got and got[0]):
                raise UserError("another index run is going on in this workspace: wait for it or cancel it")
            yield

    # schema ------------------------------------------------------------------------------
    def _existing(self) -> dict[str, set[str]]:
        rows = self.db.conn.run(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s",
            [self.schema]).fetchall()
        out: dict[str, set[str]] = {}
        for t, c in rows:
            out.setdefault(t, set()).add(c)
        return out

    def _indexes(self) -> set[str]:
        return {r[0] for r in self.db.conn.run(
            "SELECT indexname FROM pg_indexes WHERE schemaname = %s", [self.schema]).fetchall()}

    def ensure_schema(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(f"workspace {self.workspace.name!r} was written by a newer Sensemaker "
                             f"(schema {version}, this one knows {SCHEMA_VERSION})")
        if version == SCHEMA_VERSION and self._schema_complete():
            return
        trigram = self._trigram()
        with self.atomic() as db:
            have = self._existing()
            for name, columns in TABLES.items():
                if name not in have:
                    cols = ", ".join(f'"{c}" {TYPES[t]}' + (" PRIMARY KEY" if c == "id" else "")
                                     for c, t in columns.items())
                    db.conn.execute(f'CREATE TABLE "{name}" ({cols})')
                else:
                    for c, t in columns.items():
                        if c not in have[name]:
                            db.conn.execute(f'ALTER TABLE "{name}" ADD COLUMN "{c}" {TYPES[t]}')
                db.conn.execute(f'CREATE UNIQUE INDEX IF NOT EXISTS "idx_{name}_hrid" ON "{name}" (human_readable_id)')
            for name, indexes in INDEXES.items():
                for key in indexes:
                    db.conn.execute(f'CREATE INDEX IF NOT EXISTS "idx_{name}_{"_".join(key)}" ON "{name}" '
                                    f'({", ".join(chr(34) + c + chr(34) for c in key)})')
            for name in FTS:
                db.conn.execute(f'CREATE INDEX IF NOT EXISTS "{name}_fts" ON "{name}" USING gin ({_fts_expr(name)})')
                if trigram:
                    for c in FTS[name]:
                        db.conn.execute(f'CREATE INDEX IF NOT EXISTS "{name}_{c}_trgm" ON "{name}" '
                                        f'USING gin (lower("{c}") gin_trgm_ops)')
        self.set_meta("schema_version", str(SCHEMA_VERSION))

    def _trigram(self) -> bool:
        """pg_trgm (a trusted extension: a database owner may create it) makes the substring
        searches fast; without it they scan, and give the same rows. It lives in the schema every
        workspace's search path ends on (public): created in a workspace's own schema, it would be
        out of the other workspaces' reach and dropped with that workspace."""
        conn = self.db.conn
        where = conn.run("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                         "WHERE e.extname = 'pg_trgm'").fetchone()
        if where:
            return where[0] in ("public", "pg_catalog")
        try:
            conn.run("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
            return True
        except Exception:
            return False

    def _schema_complete(self) -> bool:
        have = self._existing()
        if any(not set(cols) <= have.get(name, set()) for name, cols in TABLES.items()):
            return False
        wanted = {f"idx_{t}_hrid" for t in TABLES} | {f"{t}_fts" for t in FTS} | \
            {f"idx_{t}_{'_'.join(cols)}" for t, indexes in INDEXES.items() for cols in indexes}
        return wanted <= self._indexes()

    def schema_version(self) -> int:
        conn = self.db.conn
        found = conn.run("SELECT to_regclass(%s)", [f'"{self.schema}".meta']).fetchone()
        if not found or found[0] is None:
            return 0
        row = conn.run("SELECT value FROM meta WHERE id = 'schema_version'").fetchone()
        return int(row[0]) if row else 0

    def data_stamp(self) -> tuple:
        return (self.url.rsplit("@", 1)[-1], self.schema, self.get_meta("write_stamp"))

    def close(self) -> None:
        """Nothing to close: the connections are the process's pool's (drop_schema closes it)."""

    # writing -----------------------------------------------------------------------------
    def _write(self, table: str, rows: list[dict[str, Any]], mode: str) -> None:
        if mode != "replace":
            return super()._write(table, rows, mode)
        groups: dict[tuple[str, ...], list[tuple]] = {}
        for r in rows:
            cols = tuple(k for k in r if k in TABLES[table])
            groups.setdefault(cols, []).append(tuple(r[c] for c in cols))
        for cols, values in groups.items():
            sets = ", ".join(f"[{c}] = excluded.[{c}]" for c in cols if c != "id")
            self.db.conn.executemany(
                f"insert into [{table}] ({', '.join(f'[{c}]' for c in cols)}) values ({', '.join('?' * len(cols))}) "
                f"on conflict (id) do update set {sets}", values)

    def _insert_indexed(self, table: str, rows: list[dict[str, Any]]) -> None:
        self._write(table, rows, "insert")  # the indexes follow the rows by themselves

    def _suspend_fts(self, table: str) -> list[str]:
        return []

    def _resume_fts(self, table: str, triggers: list[str]) -> None:
        return None

    def tuples(self, table: str, cols: list[str]) -> Iterator[tuple]:
        check_table(table)
        yield from self.db.conn.execute(
            f"select {', '.join(f'[{c}]' for c in cols)} from [{table}] order by human_readable_id")

    # full-text search --------------------------------------------------------------------
    def fulltext_problems(self) -> list[tuple[str, str]]:
        return []  # expression indexes: PostgreSQL keeps them in step with their rows

    def _rows_with_any(self, table: str, words: list[str], limit: int, select: str = "*") -> list[dict[str, Any]]:
        return self.query(f"select {select} from [{table}] where {_fts_expr(table)} @@ to_tsquery('{CONFIG}', ?) "
                          f"order by human_readable_id limit ?", [" | ".join(words), limit])

    def _cjk_candidates(self, table: str, terms: list[str]) -> list[dict[str, Any]]:
        """Rows holding one of the terms, by LIKE (pg_trgm's index where there is one)."""
        cols = FTS[table]
        clauses = " or ".join(f"lower([{c}]) like ?" for t in terms for c in cols)
        params = [f"%{t.lower()}%" for t in terms for _ in cols]
        return self.query(f"select * from [{table}] where {clauses} limit 2000", params)

    def units_with(self, phrase: str, limit: int = 20) -> list[dict[str, Any]]:
        return self.query(f"select id, human_readable_id, text from text_units where "
                          f"{_fts_expr('text_units')} @@ phraseto_tsquery('{CONFIG}', ?) limit ?", [phrase, limit])

    def unit_share(self, phrase: str, document_id: str | None = None) -> float:
        words = re.findall(r"[^\W_]+", phrase.lower())
        where = ("document_id = ?", [document_id]) if document_id else (None, None)
        total = self.count("text_units", *where)
        if not words or not total:
            return 0.0
        match = f"{_fts_expr('text_units')} @@ phraseto_tsquery('{CONFIG}', ?)"
        n = self.count("text_units", f"document_id = ? and {match}" if document_id else match,
                       [document_id, " ".join(words)] if document_id else [" ".join(words)])
        return n / total

    def unit_texts_with(self, word: str, limit: int = 50, substring: bool = False) -> list[str]:
        like = f"%{word.lower()}%"
        if substring or has_cjk(word):
            return [r["text"] for r in self.rows("text_units", "lower(text) like ?", [like], select="text",
                                                 limit=limit, order_by=None)]
        return [r["text"] for r in self.rows(
            "text_units", f"{_fts_expr('text_units')} @@ phraseto_tsquery('{CONFIG}', ?) and lower(text) like ?",
            [word, like], select="text", limit=limit, order_by=None)]


def drop_schema(url: str, schema: str) -> None:
    """Delete a workspace's schema and every table in it."""
    import psycopg
    _forget_pool(url, schema)
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as raw:
        raw.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def schema_exists(url: str, schema: str) -> bool:
    """Does the database hold this workspace's schema (it is gone once the workspace is deleted)?"""
    import psycopg
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as raw:
        return raw.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s",
                           [schema]).fetchone() is not None

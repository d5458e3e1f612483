"""The team database: who holds which role in which workspace, and the audit log of what each
user did. Two backends behind one interface: SQLite (`team.db` under the workspaces root, the
embedded default) and PostgreSQL (SENSEMAKER_DATABASE_URL=postgresql://..., through psycopg 3),
chosen by `open_team`. The app only opens it when a login is configured (core.store.access). All of
its SQL is here, written once: the two backends differ in their placeholder, the audit table's key
and how a connection is made."""
from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import threading
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

ROLES = ("viewer", "editor", "owner")  # each may do what the ones before it may
TEAM_FILE = "team.db"

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS members (workspace TEXT NOT NULL, user_id TEXT NOT NULL, role TEXT NOT NULL, "
    "granted_by TEXT, granted_at TEXT NOT NULL, PRIMARY KEY (workspace, user_id))",
    "CREATE TABLE IF NOT EXISTS audit (id {key}, at TEXT NOT NULL, user_id TEXT NOT NULL, workspace TEXT, "
    "action TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX IF NOT EXISTS audit_by_workspace ON audit (workspace, id)",
    # API tokens for the command line: only their SHA-256 is kept
    "CREATE TABLE IF NOT EXISTS tokens (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, email TEXT, "
    "name TEXT NOT NULL, created_at TEXT NOT NULL, last_used_at TEXT)",
]
TOKEN_PREFIX = "smk_"


def _digest(token: str) -> str:
    return hashlib.sha256(token.strip().encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TeamStore:
    """The SQLite backend, and the SQL both backends share (`?` placeholders; the PostgreSQL
    backend turns them into `%s`)."""
    KEY = "INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, root: str | Path):
        self.path = Path(root) / TEAM_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._create()

    def _create(self) -> None:
        for sql in _SCHEMA:
            self._write(sql.format(key=self.KEY), ())

    def _read(self, sql: str, params: tuple) -> list[dict[str, Any]]:
        with closing(self._connect()) as db:
            return [dict(r) for r in db.execute(sql, params)]

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=30)
        db.row_factory = sqlite3.Row
        return db

    def _write(self, sql: str, params: tuple) -> None:
        with self._lock, closing(self._connect()) as db, db:
            db.execute(sql, params)

    def role(self, workspace: str, user_id: str) -> str | None:
        rows = self._read("SELECT role FROM members WHERE workspace = ? AND user_id = ?", (workspace, user_id))
        return rows[0]["role"] if rows else None

    def roles_of(self, user_id: str) -> dict[str, str]:
        """workspace -> role, for every workspace this user holds a role in."""
        return {r["workspace"]: r["role"] for r in
                self._read("SELECT workspace, role FROM members WHERE user_id = ?", (user_id,))}

    def members(self, workspace: str) -> list[dict]:
        return self._read("SELECT user_id, role, granted_by, granted_at FROM members WHERE workspace = ? "
                          "ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, user_id",
                          (workspace,))

    def grant(self, workspace: str, user_id: str, role: str, by: str) -> None:
        if role not in ROLES:
            raise ValueError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
        self._write("INSERT INTO members (workspace, user_id, role, granted_by, granted_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (workspace, user_id) DO UPDATE SET role = excluded.role, "
                    "granted_by = excluded.granted_by, granted_at = excluded.granted_at",
                    (workspace, user_id, role, by, _now()))

    def revoke(self, workspace: str, user_id: str) -> None:
        self._write("DELETE FROM members WHERE workspace = ? AND user_id = ?", (workspace, user_id))

    def renamed(self, old: str, new: str) -> None:
        self._write("UPDATE members SET workspace = ? WHERE workspace = ?", (new, old))
        self._write("UPDATE audit SET workspace = ? WHERE workspace = ?", (new, old))

    def deleted(self, workspace: str) -> None:
        self._write("DELETE FROM members WHERE workspace = ?", (workspace,))

    def log(self, user_id: str, workspace: str | None, action: str, detail: str = "") -> None:
        self._write("INSERT INTO audit (at, user_id, workspace, action, detail) VALUES (?, ?, ?, ?, ?)",
                    (_now(), user_id, workspace, action, detail[:500]))

    def add_token(self, user_id: str, name: str, email: str | None = None) -> str:
        """A new API token acting as user_id (and their e-mail address, which roles may be granted
        to); returned once, only its digest is kept."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._write("INSERT INTO tokens (id, user_id, email, name, created_at) VALUES (?, ?, ?, ?, ?)",
                    (_digest(token), user_id, email, (name or "token")[:80], _now()))
        return token

    def token_user(self, token: str) -> tuple[str, str | None] | None:
        """(user id, e-mail) a token acts as (None: unknown or revoked); notes its use."""
        rows = self._read("SELECT user_id, email FROM tokens WHERE id = ?", (_digest(token),))
        if not rows:
            return None
        self._write("UPDATE tokens SET last_used_at = ? WHERE id = ?", (_now(), _digest(token)))
        return rows[0]["user_id"], rows[0]["email"]

    def tokens_of(self, user_id: str) -> list[dict]:
        """The user's tokens: a short handle (the digest's start), name, created, last used."""
        return [{**r, "id": r["id"][:12]} for r in self._read(
            "SELECT id, name, created_at, last_used_at FROM tokens WHERE user_id = ? ORDER BY created_at, id",
            (user_id,))]

    def revoke_token(self, user_id: str, handle: str) -> bool:
        """Revoke one of the user's tokens by its handle (tokens_of); True when one went."""
        found = [r for r in self._read("SELECT id FROM tokens WHERE user_id = ?", (user_id,))
                 if handle and r["id"].startswith(handle)]
        if len(found) != 1:
            return False
        self._write("DELETE FROM tokens WHERE id = ?", (found[0]["id"],))
        return True

    def audit(self, workspace: str, limit: int = 200) -> list[dict]:
        """The newest entries first."""
        return self._read("SELECT at, user_id, action, detail FROM audit WHERE workspace = ? ORDER BY id DESC LIMIT ?",
                          (workspace, limit))


class PostgresTeam(TeamStore):
    """The PostgreSQL backend (psycopg 3): the same tables and SQL, in the database the URL names
    (its `options` may set a search_path: tests give each a schema of its own)."""
    KEY = "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"

    def __init__(self, url: str):
        import psycopg  # noqa: F401 - a clear ImportError here when the PostgreSQL driver is missing
        self.url = url
        self._lock = threading.Lock()
        self._create()

    def _read(self, sql: str, params: tuple) -> list[dict[str, Any]]:
        from psycopg.rows import dict_row
        from core.store.postgres import pg_sql, pool_for
        with pool_for(self.url, purpose="team").connection() as db, db.cursor(row_factory=dict_row) as cur:
            return [dict(r) for r in cur.execute(pg_sql(sql), params).fetchall()]

    def _write(self, sql: str, params: tuple) -> None:
        from core.store.postgres import pg_sql, pool_for
        with self._lock, pool_for(self.url, purpose="team").connection() as db:
            db.execute(pg_sql(sql), params)


def open_team(root: str | Path, env: Mapping[str, str] = os.environ) -> TeamStore:
    """The team database: PostgreSQL when SENSEMAKER_DATABASE_URL names one, else SQLite under
    the workspaces root."""
    url = (env.get("SENSEMAKER_DATABASE_URL") or "").strip()
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresTeam(url)
    return TeamStore(root)


"""The team database: who holds which role in which workspace, and the audit log of what each
user did. Embedded mode keeps it in `team.db` under the workspaces root (SQLite); the app only
opens it when a login is configured (core.access). All of its SQL is here."""
from __future__ import annotations

import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

ROLES = ("viewer", "editor", "owner")  # each may do what the ones before it may
TEAM_FILE = "team.db"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS members (
  workspace TEXT NOT NULL, user_id TEXT NOT NULL, role TEXT NOT NULL,
  granted_by TEXT, granted_at TEXT NOT NULL, PRIMARY KEY (workspace, user_id));
CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, user_id TEXT NOT NULL,
  workspace TEXT, action TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS audit_by_workspace ON audit (workspace, id);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TeamStore:
    def __init__(self, root: str | Path):
        self.path = Path(root) / TEAM_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as db:
            db.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=30)
        db.row_factory = sqlite3.Row
        return db

    def _write(self, sql: str, params: tuple) -> None:
        with self._lock, self._connect() as db:
            db.execute(sql, params)

    def role(self, workspace: str, user_id: str) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT role FROM members WHERE workspace = ? AND user_id = ?",
                             (workspace, user_id)).fetchone()
        return row["role"] if row else None

    def roles_of(self, user_id: str) -> dict[str, str]:
        """workspace -> role, for every workspace this user holds a role in."""
        with self._connect() as db:
            return {r["workspace"]: r["role"] for r in
                    db.execute("SELECT workspace, role FROM members WHERE user_id = ?", (user_id,))}

    def members(self, workspace: str) -> list[dict]:
        with self._connect() as db:
            return [dict(r) for r in db.execute(
                "SELECT user_id, role, granted_by, granted_at FROM members WHERE workspace = ? "
                "ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, user_id", (workspace,))]

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
        with self._lock, self._connect() as db:
            db.execute("UPDATE members SET workspace = ? WHERE workspace = ?", (new, old))
            db.execute("UPDATE audit SET workspace = ? WHERE workspace = ?", (new, old))

    def deleted(self, workspace: str) -> None:
        self._write("DELETE FROM members WHERE workspace = ?", (workspace,))

    def log(self, user_id: str, workspace: str | None, action: str, detail: str = "") -> None:
        self._write("INSERT INTO audit (at, user_id, workspace, action, detail) VALUES (?, ?, ?, ?, ?)",
                    (_now(), user_id, workspace, action, detail[:500]))

    def audit(self, workspace: str, limit: int = 200) -> list[dict]:
        """The newest entries first."""
        with self._connect() as db:
            return [dict(r) for r in db.execute(
                "SELECT at, user_id, action, detail FROM audit WHERE workspace = ? ORDER BY id DESC LIMIT ?",
                (workspace, limit))]

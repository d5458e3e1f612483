"""Which backend holds a workspace's tables, and opening it.

A workspace is a folder under the workspaces root (its settings, its name). Its tables are in
the folder's `sensemaker.db` (SQLite, the embedded default) or, when the folder holds
`postgresql.json`, in that file's schema of the PostgreSQL database SENSEMAKER_DATABASE_URL
names (the file never holds the URL: no password is written into a workspace). A new workspace
goes to PostgreSQL when SENSEMAKER_DATABASE_URL names one, else to SQLite.
"""
from __future__ import annotations

import json
import os
import re
import unicodedata
import uuid
from pathlib import Path
from typing import Mapping

from core.store.db import DB_FILE, Store, StoreError

PG_FILE = "postgresql.json"


def database_url(env: Mapping[str, str] = os.environ) -> str | None:
    """The team database's URL when SENSEMAKER_DATABASE_URL names a PostgreSQL one."""
    url = (env.get("SENSEMAKER_DATABASE_URL") or "").strip()
    return url if url.startswith(("postgresql://", "postgres://")) else None


def has_store(folder: str | Path) -> bool:
    """Does this folder hold a workspace (its tables here, or in PostgreSQL)?"""
    folder = Path(folder)
    return (folder / DB_FILE).is_file() or (folder / PG_FILE).is_file()


def backend_of(folder: str | Path) -> str:
    return "postgresql" if (Path(folder) / PG_FILE).is_file() else "sqlite"


def schema_name(workspace: str) -> str:
    """A PostgreSQL schema for a new workspace: its name in ASCII letters, digits and '_', and a
    random suffix (a workspace deleted and made again gets a new schema)."""
    ascii_name = unicodedata.normalize("NFKD", workspace).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "_", ascii_name).strip("_")[:40] or "workspace"
    return f"ws_{slug}_{uuid.uuid4().hex[:8]}"


def _marker(folder: Path) -> dict:
    try:
        data = json.loads((folder / PG_FILE).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not re.fullmatch(r"\w{1,63}", str(data.get("schema", ""))):
            raise ValueError("no schema")
        return data
    except (OSError, ValueError) as exc:
        raise StoreError(f"{folder / PG_FILE} is damaged ({exc}): it should name the workspace's "
                         "PostgreSQL schema") from exc


def store_at(folder: str | Path, env: Mapping[str, str] = os.environ) -> Store:
    """Open (or create) the workspace in this folder, on its backend."""
    folder = Path(folder)
    if folder.suffix == ".db" or (folder / DB_FILE).is_file():
        return Store(folder)
    url = database_url(env)
    if (folder / PG_FILE).is_file():
        if not url:
            raise StoreError(f"the tables of workspace {folder.name!r} are in PostgreSQL: set "
                             "SENSEMAKER_DATABASE_URL=postgresql://... to the team database to open it")
        from core.store.postgres import PostgresStore
        return PostgresStore(url, _marker(folder)["schema"], folder)
    if url:
        return new_postgres(folder, url)
    return Store(folder)


def new_postgres(folder: Path, url: str, schema: str | None = None) -> Store:
    """A new workspace in this folder whose tables are a new schema of the PostgreSQL database."""
    from core.store.postgres import PostgresStore
    folder.mkdir(parents=True, exist_ok=True)
    schema = schema or schema_name(folder.name)
    store = PostgresStore(url, schema, folder)
    write_marker(folder, schema)
    return store


def write_marker(folder: Path, schema: str) -> None:
    """Switch the workspace in this folder to the PostgreSQL schema."""
    (folder / PG_FILE).write_text(json.dumps({"backend": "postgresql", "schema": schema}) + "\n",
                                  encoding="utf-8")


def drop_tables(folder: str | Path, env: Mapping[str, str] = os.environ) -> None:
    """Before a workspace's folder is deleted: drop its PostgreSQL schema (a SQLite workspace's
    tables go with the folder)."""
    folder = Path(folder)
    url = database_url(env)
    if (folder / PG_FILE).is_file() and url:
        from core.store.postgres import drop_schema
        drop_schema(url, _marker(folder)["schema"])

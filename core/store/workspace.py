"""Workspaces: named directories under one root, each holding one Sensemaker database.

Names come from users (a text box in the app, --workspace in the CLI), so they are reduced to
letters, digits, '-' and '_' and the resolved path is checked to lie inside the root: no name,
symlink or '..' can reach outside it.
"""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Mapping

from core.errors import UserError
from core.store.db import DB_FILE, Store

MAX_NAME = 64


class WorkspaceError(UserError):
    """A workspace name that cannot be used, or a path outside the workspaces root."""


def workspaces_root(env: Mapping[str, str] = os.environ) -> Path:
    """$SENSEMAKER_HOME, or ./workspaces under the current directory."""
    home = (env.get("SENSEMAKER_HOME") or "").strip()
    root = Path(home).expanduser() if home else Path.cwd() / "workspaces"
    return root.resolve()


def sanitize_name(name: str) -> str:
    """Letters, digits, '-' and '_' only (other characters become '-'), at most 64 characters."""
    text = unicodedata.normalize("NFKC", str(name or ""))
    text = "".join(c if (c.isalnum() or c in "-_") else "-" for c in text)
    text = re.sub(r"-{2,}", "-", text).strip("-_")[:MAX_NAME].strip("-_")
    if not text:
        raise WorkspaceError(
            f"{str(name)[:80]!r} cannot be a workspace name: use letters, digits, '-' or '_'")
    return text


def workspace_path(name: str, root: str | Path | None = None) -> Path:
    """The resolved directory of a workspace, guaranteed to be inside the root."""
    base = Path(root).resolve() if root is not None else workspaces_root()
    path = (base / sanitize_name(name)).resolve()
    if path.parent != base:
        raise WorkspaceError(f"workspace {sanitize_name(name)!r} points outside {base}; "
                             "choose another name")
    return path


def list_workspaces(root: str | Path | None = None) -> list[str]:
    """Names of the directories under the root that hold a Sensemaker database, sorted."""
    base = Path(root).resolve() if root is not None else workspaces_root()
    if not base.is_dir():
        return []
    names = []
    for child in base.iterdir():
        try:
            if not child.is_symlink() and child.is_dir() and (child / DB_FILE).is_file():
                names.append(child.name)
        except OSError:
            continue
    return sorted(names, key=str.lower)


def create_workspace(name: str, root: str | Path | None = None) -> Path:
    """Create (or open) a workspace: its directory and the database schema. Returns its path."""
    path = workspace_path(name, root)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(f"cannot create workspace {path.name!r}: {exc.strerror or exc}") from exc
    store = Store(path)
    store.close()
    return path

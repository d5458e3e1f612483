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
from core.store.backends import drop_tables, has_store, store_at
from core.store.db import Store

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
            f"{str(name)[:80]!r} cannot be a workspace name: use letters, digits, '-' or '_' "
            "(it needs at least one letter or digit)")
    return text


def name_note(name: str) -> str | None:
    """What sanitize_name did to a name, in words, or None when it kept it as typed."""
    typed = str(name or "").strip()
    saved = sanitize_name(typed)
    if saved == typed:
        return None
    return (f"{typed[:80]!r} was saved as {saved!r}: a workspace name keeps letters, digits, "
            "'-' and '_'; spaces and other characters become '-', and '-' or '_' at either end "
            "are dropped")


def app_workspace(path: str | Path) -> Path | None:
    """The app's workspace (under SENSEMAKER_HOME) named `path`, when `path` is no workspace
    folder itself and the app has one of that name: the command line's --workspace takes the name
    the app shows too."""
    if has_store(path):
        return None
    try:
        there = workspace_path(str(path))
    except UserError:
        return None
    return there if Path(path).resolve() != there and has_store(there) else None


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
            if not child.is_symlink() and child.is_dir() and has_store(child):
                names.append(child.name)
        except OSError:
            continue
    return sorted(names, key=str.lower)


def create_workspace(name: str, root: str | Path | None = None, exist_ok: bool = True) -> Path:
    """Create (or open) a workspace: its directory and the database schema. Returns its path.
    exist_ok=False: a workspace of that name is an error that says so (the app's New button)."""
    path = workspace_path(name, root)
    if not exist_ok and has_store(path):
        raise WorkspaceError(f"a workspace named {path.name!r} already exists: pick it in the "
                             "Workspace list, or choose another name")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(f"cannot create workspace {path.name!r}: {exc.strerror or exc}") from exc
    store = store_at(path)
    store.close()
    return path


def _existing(name: str, root: str | Path | None) -> Path:
    path = workspace_path(name, root)
    if path.is_symlink() or not has_store(path):
        raise WorkspaceError(f"there is no workspace named {path.name!r}")
    return path


def _running(store: Store) -> bool:
    """A run marked going whose process is alive (core.index.background keeps the marks true)."""
    for row in store.rows("runs", "status in ('starting', 'running', 'cancelling')", select="pid"):
        pid = row.get("pid")
        if not pid:
            return True  # starting: the process is being spawned
        try:
            os.kill(int(pid), 0)
            return True
        except ProcessLookupError:
            continue
        except OSError:
            return True
    return False


def _refuse_while_running(path: Path, doing: str) -> None:
    store = store_at(path)
    try:
        if _running(store):
            raise WorkspaceError(f"an index run is going on in {path.name!r}: wait for it or cancel "
                                 f"it before you {doing} the workspace")
    finally:
        store.close()


def rename_workspace(old: str, new: str, root: str | Path | None = None) -> Path:
    """Rename a workspace's directory. Refused when the new name is taken or a run is going."""
    src = _existing(old, root)
    dst = workspace_path(new, root)
    if dst == src:
        raise WorkspaceError(f"the workspace is already called {src.name!r}")
    if dst.exists():
        raise WorkspaceError(f"a workspace (or folder) named {dst.name!r} already exists: choose another name")
    _refuse_while_running(src, "rename")
    try:
        src.rename(dst)
    except OSError as exc:
        raise WorkspaceError(f"cannot rename {src.name!r}: {exc.strerror or exc}") from exc
    return dst


def delete_workspace(name: str, root: str | Path | None = None) -> None:
    """Delete a workspace's directory and everything in it (documents, index, past questions)."""
    import shutil
    path = _existing(name, root)
    _refuse_while_running(path, "delete")
    drop_tables(path)
    try:
        shutil.rmtree(path)
    except OSError as exc:
        raise WorkspaceError(f"cannot delete {path.name!r}: {exc.strerror or exc}") from exc

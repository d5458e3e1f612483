"""Open a Microsoft GraphRAG index in the app: a sidebar action that reads graphrag's output
tables (a folder on the server, or parquet files uploaded from the browser) into a new workspace
and switches to it. The corpus page then shows what the import said (imported_panel)."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import streamlit as st

from core.errors import UserError
from core.interop.columns import EXTENSIONS, FILES, REQUIRED
from core.interop.graphrag_import import ENGINE, META_KEY, check_source, find_tables, import_graphrag
from core.store.backends import store_at
from core.store.db import Store
from pages.components import state as ui

POPOVER = "import_pop"
UPLOADED = "uploaded files: "  # prefix of the recorded source of an upload


def is_imported(store: Store) -> bool:
    return bool(store.get_meta(META_KEY))


def save_uploads(files: list[tuple[str, bytes]], folder: Path) -> list[str]:
    """Write uploaded tables into folder under their own base names; returns the names kept.
    Anything that is not a .parquet/.jsonl file is refused with its name."""
    kept = []
    for name, data in files:
        base = Path(str(name).replace("\\", "/")).name
        if not base.lower().endswith(EXTENSIONS) or base.startswith("."):
            raise UserError(f"{base or name!r} is not a GraphRAG table: upload the .parquet files "
                            "of graphrag's output folder (entities.parquet, communities.parquet, ...)")
        (folder / base).write_bytes(data)
        kept.append(base)
    return kept


def check_uploads(folder: Path, names: list[str]) -> None:
    """A clear message naming the required tables that the uploaded files lack."""
    found = find_tables(folder)
    missing = [f"{FILES[t][0]}.parquet" for t in REQUIRED if t not in found]
    if missing:
        raise UserError(f"The uploaded files ({', '.join(names)}) are not a whole GraphRAG index: "
                        f"add {', '.join(missing)} from the same output folder.")


def new_workspace(name: str) -> Path:
    """The path of a workspace that does not exist yet (an import never mixes indexes)."""
    from core.store.workspace import list_workspaces, sanitize_name, workspace_path
    if not str(name or "").strip():
        raise UserError("Name the new workspace the index goes into.")
    path = workspace_path(name)
    if sanitize_name(name) in list_workspaces() or path.exists():
        raise UserError(f"A workspace called {path.name!r} exists already: choose a new name "
                        "(an import goes into a workspace of its own).")
    return path


def run_import(name: str, folder: str, files: list[tuple[str, bytes]], on_progress=None) -> dict[str, Any]:
    """Import a graphrag index from a server folder or uploaded files into a new workspace.
    Nothing is created unless the source is a readable index. Returns the report as a dict."""
    from core.store.workspace import create_workspace
    folder = (folder or "").strip()
    if bool(folder) == bool(files):
        raise UserError("Give either the folder of a GraphRAG index on the server or its "
                        "uploaded parquet files (one of the two).")
    path = new_workspace(name)
    tmp = Path(tempfile.mkdtemp(prefix="sensemaker-graphrag-")) if files else None
    try:
        if tmp is not None:
            names = save_uploads(files, tmp)
            check_uploads(tmp, names)
            source: Path = tmp
        else:
            source = Path(folder).expanduser()
            check_source(source)
        create_workspace(path.name)
        if ui.access() is not None:  # its creator owns it
            ui.access().created(ui.principal(), path.name)
        store = store_at(path)
        try:
            report = import_graphrag(source, store, on_progress=on_progress)
            if tmp is not None:  # the temporary folder is gone after this; record what came in
                store.set_meta(META_KEY, UPLOADED + ", ".join(sorted(names)))
        except BaseException as exc:
            store.close()
            shutil.rmtree(path, ignore_errors=True)  # created above, by this import: no half index
            if isinstance(exc, Exception) and not isinstance(exc, UserError):
                raise UserError(f"The GraphRAG index could not be read: {exc.__class__.__name__}: "
                                f"{exc}. Nothing was imported.") from exc
            raise
        store.close()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return {"workspace": path.name, "counts": report.counts, "messages": report.messages,
            "warnings": report.warnings}


def import_popover() -> None:
    """The sidebar action: folder or upload, a new workspace name, Import."""
    pop = st.popover("Open a GraphRAG index", icon=":material/input:", width="stretch",
                     key=POPOVER, on_change="rerun")
    with pop:
        st.caption("Open the output of Microsoft GraphRAG (graphrag 1.x to 3.x: entities, "
                   "relationships, communities, community_reports, text_units; documents and "
                   "covariates if present) in a new workspace.")
        n = st.session_state.setdefault("import_round", 0)
        with st.form(f"import_form_{n}", border=False):
            name = st.text_input("New workspace", placeholder="e.g. carol-graphrag")
            folder = st.text_input("GraphRAG output folder on the server",
                                   placeholder="/data/graphrag/output")
            files = st.file_uploader("or upload its parquet files", type=["parquet", "jsonl"],
                                     accept_multiple_files=True, key=f"import_files_{n}")
            go = st.form_submit_button("Import", type="primary", icon=":material/input:")
        if go:
            with ui.guard():
                bar = st.progress(0.0, text="Reading the index...")

                def progress(stage: str, done: int, total: int, message: str) -> None:
                    bar.progress(min(1.0, done / total) if total else 1.0,
                                 text=f"{stage}: {ui.md(message)}")

                result = run_import(name, folder, [(f.name, f.getvalue()) for f in files or []],
                                    on_progress=progress)
                st.session_state["import_done"] = result
                st.session_state["import_round"] = n + 1  # a fresh, empty form next time
                st.session_state["_close_popover"] = POPOVER
                ui.select_workspace(result["workspace"])
                st.session_state["_goto_corpus"] = True
                st.rerun()


def imported_panel(store: Store) -> None:
    """What the corpus page shows instead of upload and index for an imported workspace."""
    source = store.get_meta(META_KEY) or ""
    st.markdown("#### Imported GraphRAG index")
    where = source[len(UPLOADED):] if source.startswith(UPLOADED) else source
    st.info(ui.md(f"This workspace holds a Microsoft GraphRAG index, imported from "
                  f"{'the uploaded files ' if source.startswith(UPLOADED) else ''}{where}.")
            + " Browse it on the Communities page and ask it questions on the Ask page. "
              "**Indexing is off here**: indexing again would replace GraphRAG's graph. "
              "To index documents, create a new workspace.", icon=":material/input:")
    runs = store.rows("runs", "engine = ?", [ENGINE], order_by="started_at desc", limit=1)
    said = (runs[0].get("progress") or {}) if runs else {}
    done = st.session_state.get("import_done") or {}
    if done.get("workspace") == ui.workspace_name():
        st.success(ui.md("Imported " + ", ".join(f"{n:,} {_noun(t, n)}"
                                                  for t, n in done["counts"].items())),
                   icon=":material/check:")
    for w in said.get("warnings") or []:
        st.warning(ui.md(w), icon=":material/warning:")
    messages = said.get("messages") or []
    if messages:
        with st.expander(f"What the import read ({len(messages)})", icon=":material/list:"):
            st.markdown("\n".join(f"- {ui.md(m)}" for m in messages))



def _noun(table: str, n: int) -> str:
    words = table.replace("_", " ")
    if n == 1:
        return words[:-3] + "y" if words.endswith("ies") else words.rstrip("s")
    return words

"""Corpus: add documents, see what is in the workspace, index it and watch the run."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.index.background import current_run
from core.ingest.documents import ingest_files
from core.ingest.loaders import SUPPORTED
from core.store.db import Store
from pages.components import documents as ui_docs
from pages.components import downloads as ui_downloads, import_panel as ui_import
from pages.components import quality as ui_quality, run_outcome as ui_outcome, runs as ui_runs
from pages.components import members as ui_members
from pages.components import navigation
from pages.components import state as ui

MIME_NAMES = {"text/plain": "text", "text/markdown": "markdown", "application/pdf": "PDF",
              "text/html": "HTML", "text/csv": "CSV row", "application/jsonl": "JSONL row",
              "application/x-ndjson": "JSONL row",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Word"}


def counts_row(store: Store) -> None:
    c = store.counts()
    cols = st.container(key="sm-counts").columns(6)  # three to a row on a narrow screen (style.css)
    for col, (label, table) in zip(cols, [("Documents", "documents"), ("Text units", "text_units"),
                                          ("Entities", "entities"), ("Relationships", "relationships"),
                                          ("Communities", "communities"), ("Reports", "community_reports")]):
        col.metric(label, f"{c.get(table, 0):,}")


def upload_panel(store: Store) -> None:
    st.markdown("#### Add documents")
    n = st.session_state.setdefault("upload_round", 0)
    cfg = ui.settings()
    files = st.file_uploader(
        "Drop files here", accept_multiple_files=True, key=f"uploader_{n}",
        help=f"Sensemaker reads {SUPPORTED}; up to {cfg.max_file_mb:g} MB per file. "
             "A .csv or .jsonl file becomes one document per row.")
    if files:
        with st.spinner(f"Reading {len(files)} file{'s' if len(files) != 1 else ''}..."):
            report = ingest_files(store, [(f.name, f.getvalue()) for f in files],
                                  max_bytes=int(cfg.max_file_mb * 1e6),
                                  near_duplicate=cfg.near_duplicate_threshold)
        st.session_state["last_ingest"] = report
        ui.audit("upload", ", ".join(d["title"] for d in report.added)[:400])
        st.session_state["upload_round"] = n + 1  # a fresh uploader: the files are in the store
        st.rerun()
    report = st.session_state.get("last_ingest")
    if report is None:
        return
    if report.added:
        st.success(ui.md(f"Added {len(report.added)} document{'s' if len(report.added) != 1 else ''}: "
                         + ", ".join(d["title"] for d in report.added[:8])
                         + (" ..." if len(report.added) > 8 else "")), icon=":material/check:")
    if report.duplicates:
        st.info(ui.md("Already in the corpus, skipped: " + ", ".join(report.duplicates[:8])
                      + (" ..." if len(report.duplicates) > 8 else "")))
    for r in report.rejected:
        reason = r.reason if r.reason.startswith(r.source_name) else f"{r.source_name}: {r.reason}"
        st.error(ui.md(f"Not added: {reason}"), icon=":material/block:")


def documents_table(store: Store, running: bool, imported: bool = False, queued: bool = False) -> None:
    rows = store.document_progress()
    st.markdown(f"#### Documents ({len(rows)})")
    if not rows:
        st.caption("No documents yet. Drop some files above.")
        return
    has_reports = store.count("community_reports") > 0
    data = []
    for r in rows:
        hrid, title, mime, n_tokens, created = r["human_readable_id"], r["title"], r["mime"], r["n_tokens"], r["created_at"]
        replaced, chunks, extracted, failed = r["replaced"], r["chunks"], r["extracted"], r["failed"]
        if imported:
            state = "imported from GraphRAG"
        elif failed:
            state = f"{failed} chunk{'s' if failed != 1 else ''} failed"
        elif chunks and extracted >= chunks and has_reports:
            state = "indexed"
        elif running:
            state = "queued for a worker" if queued else "indexing"
        elif not chunks:
            state = "waiting to be indexed"
        else:
            state = f"{extracted}/{chunks} chunks extracted"
        data.append({"#": hrid, "title": title, "type": MIME_NAMES.get(mime, mime),
                     "tokens": n_tokens, "chunks": chunks, "status": state,
                     "added": _added(created, replaced)})
    st.dataframe(pd.DataFrame(data), hide_index=True, width="stretch",
                 height=min(38 + 35 * len(data), 420),
                 column_config={"tokens": st.column_config.NumberColumn(format="%d"),
                                "#": st.column_config.NumberColumn(width="small"),
                                "added": st.column_config.TextColumn(width="medium")})


def _added(created: str | None, replaced: str | None) -> str:
    """"2026-12-02 05:57", and "(replaced 06:03)" after it: the time alone on the same day, so
    the cell still fits at 1,024 px."""
    when = (created or "").replace("T", " ")[:16]
    if not replaced:
        return when
    again = str(replaced).replace("T", " ")[:16]
    return f"{when} (replaced {again[11:] if again[:10] == when[:10] else again})"


def main() -> None:
    store = ui.require_store()
    workspace = ui.workspace_dir()
    head, side = st.columns([4, 1.2], vertical_alignment="bottom")
    head.title("Corpus")
    head.caption(ui.md(f"Workspace {ui.workspace_name()} \u00b7 {ui.engine_label()}"))
    if store.count("entities"):
        with side:
            ui_downloads.workspace_exports(store, ui.workspace_name() or "workspace")
    run = current_run(store)
    running = run is not None
    if store.count("documents"):
        counts_row(store)
        ui_outcome.ended_panel(store)
    else:
        ui_outcome.first_steps()
    ui_members.members_panel()
    if ui_import.is_imported(store):
        ui_import.imported_panel(store)
        documents_table(store, running, imported=True)
        ui_runs.history_panel(store)
        return
    if not ui.may("upload"):  # a viewer: reads and asks; core refuses the rest too
        st.info(ui.md(f"Your role in this workspace is {store.role}: you can read its documents and "
                      "communities and ask questions. An owner can make you an editor to add documents "
                      "and index."), icon=":material/visibility:")
        documents_table(store, running)
        ui_runs.history_panel(store)
        return
    left, right = st.columns([1, 1.25], gap="large")
    with left:
        upload_panel(store)
        ui_docs.replace_panel(store, workspace, running)
    with right:
        ui_runs.estimate_panel(store, workspace, running)
        ui_runs.live_panel(store, workspace)
        ui_runs.failed_panel(store, workspace, running)
    documents_table(store, running, queued=bool(run) and run.get("stage") == "queued")
    ui_docs.remove_panel(store, workspace, running)
    ui_runs.history_panel(store)
    ui_quality.quality_panel(store, workspace, running)


navigation.ensure_routed()
with ui.guard():
    main()

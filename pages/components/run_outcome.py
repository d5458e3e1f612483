"""The corpus page's guidance around an index run: what to do first in an empty workspace, what
a finished run built (with the way on to Communities and Ask), what a cancelled or failed run
left, and re-indexing a workspace with the current engine and settings."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from core.index.background import start_index
from core.index.changes import plain as plain_changes
from core.index.pipeline import last_runs
from core.index.reindex import last_engine, reindex_estimate, reset_for_reindex
from core.settings import Settings
from core.store.db import Store
from pages.components import links
from pages.components import state as ui

ENDED = "_run_ended"


def first_steps() -> None:
    st.info("**Start here.** 1. Drop your documents in the box below (text, Markdown, reStructuredText, PDF, Word, "
            "HTML, CSV or JSONL). 2. Press **Index the corpus**: Sensemaker finds the entities, "
            "their relationships and communities, and writes a report on each. 3. Read the "
            "reports on **Communities**, or ask questions on **Ask**.", icon=":material/flag:")


def mark_ended() -> None:
    """Called when the live panel sees the watched run end."""
    st.session_state[ENDED] = True


def ended_panel(store: Store) -> None:
    """The outcome of the run this session watched, once it has ended."""
    if not st.session_state.get(ENDED):
        return
    runs = last_runs(store, 1)
    if not runs:
        return
    run = runs[0]
    status, counts = run.get("status") or "", run.get("counts") or {}
    if status.startswith("finished"):
        levels = counts.get("levels")
        docs = counts.get("documents", 0)
        what = {"remove": "The removal", "replace": "The replacement"}.get(run.get("operation") or "", "Indexing")
        graph = (f"{counts.get('entities', 0):,} entities, {counts.get('relationships', 0):,} relationships and "
                 f"{counts.get('communities', 0):,} communities"
                 + (f" on {levels} level{'s' if levels != 1 else ''}" if isinstance(levels, int) else "")
                 + f", with {counts.get('community_reports', 0):,} reports.")
        plural = "s" if docs != 1 else ""
        built = (f"{docs:,} document{plural} became {graph}" if what == "Indexing"
                 else f"The corpus now holds {docs:,} document{plural}: {graph}")
        with st.container(border=True):
            st.success((f"{what} finished with failures (listed below). " if "failures" in status
                        else f"{what} finished. ") + built, icon=":material/check_circle:")
            if isinstance(run.get("changes"), dict):
                st.caption(ui.md(plain_changes(run["changes"])))
            if run.get("error"):
                st.caption(ui.md(run["error"]))
            with st.container(horizontal=True):  # side by side, each as wide as its label (columns cut them at 1,024 px)
                st.page_link(links.page("communities"), label="Read the communities", icon=":material/hub:")
                st.page_link(links.page("ask"), label="Ask a question", icon=":material/forum:")
    elif status == "cancelled":
        st.warning("Indexing was cancelled. What was finished is kept: press Index to resume "
                   "from there.", icon=":material/cancel:")
    elif status in ("failed", "interrupted"):
        st.error(ui.md(f"Indexing {status}: {run.get('error') or 'no reason recorded'}"),
                 icon=":material/error:")


def indexed_panel(store: Store, workspace: Path, cfg: Settings) -> None:
    """Everything is indexed: say with what, and offer to index it again."""
    before = last_engine(store)
    now = "offline" if cfg.resolved_engine == "offline" else f"llm: {cfg.chat_model}"
    with_what = ("the offline engine" if before == "offline" else
                 f"the LLM {before.split(': ', 1)[1]}" if before and ": " in before else "")
    st.success("Everything is indexed" + (f" with {with_what}" if with_what else "")
               + ". Add documents to index more.", icon=":material/check_circle:")
    changed = before is not None and before != now
    with st.expander("Index everything again" + (" with the engine now selected" if changed else ""),
                     icon=":material/restart_alt:", expanded=changed):
        est = reindex_estimate(store, cfg)
        st.caption(ui.md(
            f"Runs chunking, extraction and everything after it again on all "
            f"{store.count('documents'):,} documents with the settings in the sidebar "
            f"({ui.engine_label()}, chunks of {cfg.chunk_size} tokens). The documents are kept; "
            "the graph, communities and reports are replaced."))
        c = st.columns(3)
        c[0].metric("Chunks", f"{est['chunks']:,}")
        c[1].metric("LLM calls", f"~{est['llm_calls']:,}")
        c[2].metric("Cost", "free" if est["engine"] == "offline" else f"~${est['cost']:.2f}",
                    help="At most: calls whose prompt is in the workspace's LLM cache (same model, "
                         "same chunk) cost nothing.")
        sure = st.checkbox("Replace the current index", key=ui.ws_key("reindex_sure"))
        if st.button("Index again", icon=":material/restart_alt:", disabled=not sure,
                     key=ui.ws_key("reindex_go")):
            with ui.guard():
                ui.check_engine(cfg)
                reset_for_reindex(store)
                start_index(workspace, cfg, api_key=ui.api_key(), store=ui.store())
                st.session_state["watching_run"] = True
                st.rerun()

"""Download buttons: an answer or a report as Markdown with its evidence, a community's graph as
GraphML, the whole workspace as the CLI's exports. Files are built when the button is clicked
(a callable `data`), not on every run of the page."""
from __future__ import annotations

import re
from typing import Any

import streamlit as st

from core.interop.takeaway import answer_markdown, community_graphml, report_markdown, workspace_zip
from core.query.types import SearchResult
from core.store.db import Store


def file_stem(text: str, fallback: str) -> str:
    """A file name from a question or title: letters, digits and '-', at most 60 characters."""
    stem = re.sub(r"[^\w]+", "-", str(text or "").lower(), flags=re.UNICODE).strip("-")[:60].strip("-")
    return stem or fallback


def answer_button(store: Store, result: SearchResult) -> None:
    st.download_button(
        "Download the answer", lambda: answer_markdown(store, result).encode("utf-8"),
        file_name=f"{file_stem(result.question, 'answer')}.md", mime="text/markdown",
        icon=":material/download:", on_click="ignore", key=f"dl_answer_{result.trace_id}",
        help="Markdown: the answer, then each cited sentence with its references resolved to the "
             "quoted source sentence and the support check's verdict.")


def report_button(store: Store, report: dict[str, Any]) -> None:
    st.download_button(
        "Download the report", lambda: report_markdown(store, report).encode("utf-8"),
        file_name=f"community-{report.get('community')}-{file_stem(report.get('title'), 'report')}.md",
        mime="text/markdown", icon=":material/download:", on_click="ignore",
        key=f"dl_report_{report.get('community')}",
        help="Markdown: the report and its findings, each citation resolved to the quoted source "
             "sentence with its verdict.")


def graph_button(store: Store, community: dict[str, Any]) -> None:
    st.download_button(
        "Download the graph (GraphML)", lambda: community_graphml(store, community),
        file_name=f"community-{community['community']}.graphml", mime="application/graphml+xml",
        icon=":material/download:", on_click="ignore", key=f"dl_graph_{community['community']}",
        help="This community's entities and relationships, for Gephi or networkx.")


EXPORTS = {"graphml": ("GraphML", "the whole graph with community attributes (Gephi)"),
           "parquet": ("Parquet", "GraphRAG's tables (its query code, graphrag-visualizer)"),
           "csv": ("CSV", "one file per table")}


def workspace_exports(store: Store, name: str) -> None:
    with st.popover("Export", icon=":material/download:", help="Download the whole workspace"):
        st.caption("The same files as `sensemaker export`, zipped.")
        asked = store.count("query_traces")
        questions = st.checkbox(
            f"Include the {asked} question{'' if asked == 1 else 's'} asked here and their answers"
            if asked else "Include the questions asked here and their answers (none yet)",
            value=False, key="dl_ws_questions",
            help="CSV only: query_traces.csv (every question, answer and trace) and llm_cache.csv (the "
                 "model calls, which carry the questions). Leave them out of a download meant for someone else.")
        for fmt, (label, what) in EXPORTS.items():
            st.download_button(
                f"{label}: {what}", lambda fmt=fmt, q=questions: _exported(f"workspace ({fmt})", workspace_zip(store, fmt, questions=q)),
                file_name=f"{name}-{fmt}.zip", mime="application/zip", on_click="ignore",
                key=f"dl_ws_{fmt}", width="stretch")


def _exported(what: str, data: bytes) -> bytes:
    from pages.components import state as ui
    try:
        ui.audit("export", what)  # for the owners' audit log (a login configured)
    except Exception:  # noqa: BLE001 - a file built outside a script run: the download still works
        ui.log.warning("the export of %s was not logged", what)
    return data

"""The corpus page's document changes: remove documents (with a confirmation that says what
goes and what stays), and replace a document by an uploaded file of the same title. The first
step (lifecycle) runs here, in one transaction; the index run that updates the graph, communities
and reports runs in the background like any other (core.index.background)."""
from __future__ import annotations

import html
from pathlib import Path

import streamlit as st

from core.index.background import start_index
from core.index.lifecycle import remove_documents, removal_preview, replace_document
from core.index.replace_preview import ParagraphChange, preview_replacement, word_diff
from core.store.db import Store
from pages.components import state as ui


def preview_text(p: dict) -> str:
    """The confirmation: what a removal takes away and what stays."""
    names = ", ".join(p["entity_titles"][:10]) + (" ..." if len(p["entity_titles"]) > 10 else "")
    return (f"Removing {p['documents']} document{'s' if p['documents'] != 1 else ''} deletes "
            f"{p['text_units']} text units, {p['entities']} entities and {p['relationships']} relationships "
            f"that only they support, and {p['claims']} claims"
            + (f" (entities: {names})" if names else "") +
            f". {p['entities_kept']} entities they mention are supported by other documents and stay. "
            "Communities and reports are recomputed where they change; answers saved before that cite "
            "removed text say \"source removed\".")


def _start(workspace: Path) -> None:
    ui.check_engine(ui.settings())
    run_id = start_index(workspace, ui.settings(), api_key=ui.api_key(), store=ui.store())
    ui.audit("index", run_id)
    st.session_state["watching_run"] = True


def remove_panel(store: Store, workspace: Path, running: bool) -> None:
    docs = store.rows("documents", select="id, human_readable_id, title", order_by="human_readable_id")
    if not docs:
        return
    labels = {f"{d['human_readable_id']}: {d['title']}": d["id"] for d in docs}
    with st.expander("Remove documents", icon=":material/delete:"):
        picked = st.multiselect("Documents to remove", list(labels), key="remove_pick",
                                placeholder="Pick the documents to remove")
        if not picked:
            return
        ids = [labels[p] for p in picked]
        st.warning(ui.md(preview_text(removal_preview(store, ids))), icon=":material/warning:")
        if st.button(f"Remove {len(ids)} document{'s' if len(ids) != 1 else ''}", type="primary",
                     disabled=running, key="remove_confirm", icon=":material/delete_forever:"):
            with ui.guard():
                remove_documents(store, ids)
                ui.audit("remove", ", ".join(picked)[:400])
                st.session_state.pop("remove_pick", None)
                st.session_state.pop("last_ingest", None)  # "Added ..." of an earlier upload: stale now
                _start(workspace)
                st.rerun()
        if running:
            st.caption("An index run is in progress: remove when it has finished.")


def replace_panel(store: Store, workspace: Path, running: bool) -> None:
    """Uploaded files whose title matches an indexed document: replace it?"""
    report = st.session_state.get("last_ingest")
    waiting = [d for d in (getattr(report, "same_title", None) or []) if store.get("documents", d["old_id"])]
    for k, new in enumerate(waiting):
        with st.container(border=True):
            st.markdown(f"**{ui.md(new['title'])}** is already in the corpus with other text. "
                        "Replace it with the new version? Only the passages that changed are "
                        "extracted again.")
            preview = preview_replacement(store, new["old_id"], new["text"], ui.settings())
            st.caption(ui.md(preview.summary()))
            if preview.changes:
                with st.expander(f"What changed ({len(preview.changes)} paragraph"
                                 f"{'s' if len(preview.changes) != 1 else ''})", icon=":material/difference:"):
                    st.html(diff_html(preview.changes))
            c = st.columns(2)
            if c[0].button("Replace it", key=f"replace_{k}", type="primary", disabled=running,
                           icon=":material/swap_horiz:"):
                with ui.guard():
                    replace_document(store, new["old_id"], new, ui.settings())
                    report.same_title.remove(new)
                    _start(workspace)
                    st.rerun()
            if c[1].button("Keep the indexed one", key=f"keep_{k}"):
                report.same_title.remove(new)
                st.rerun()


MAX_SHOWN = 20  # paragraphs of a diff shown; the rest counted


def diff_html(changes: list[ParagraphChange]) -> str:
    """The changed paragraphs, words removed struck through and words added underlined; every
    piece of document text escaped (it is untrusted)."""
    items = []
    for c in changes[:MAX_SHOWN]:
        if c.kind == "edited":
            body = " ".join(f"<del>{html.escape(w)}</del>" if op == "-" else f"<ins>{html.escape(w)}</ins>"
                            if op == "+" else html.escape(_trim(w)) for op, w in word_diff(c.old, c.new))
        elif c.kind == "added":
            body = f"<ins>{html.escape(c.new)}</ins>"
        else:
            body = f"<del>{html.escape(c.old)}</del>"
        items.append(f'<li class="sm-diff {c.kind}"><b>{c.kind}</b>: {body}</li>')
    more = len(changes) - MAX_SHOWN
    tail = f"<p>... and {more} more paragraph{'s' if more != 1 else ''}.</p>" if more > 0 else ""
    return ('<style>.sm-diff del{background:#fde2e1;color:#8a1c1c}.sm-diff ins{background:#def5e0;'
            'color:#1b5e20;text-decoration:none}.sm-diff{margin-bottom:.5em;line-height:1.5}</style>'
            f'<ul style="padding-left:1.2em">{"".join(items)}</ul>{tail}')


def _trim(words: str, keep: int = 12) -> str:
    """Unchanged words around an edit: the first and last few of a long run."""
    w = words.split()
    return words if len(w) <= 2 * keep else " ".join(w[:keep] + ["\u2026"] + w[-keep:])

"""Extraction quality on the corpus page: what grounding rejected (names a model invented or
copied from the prompt, relationships with an ungrounded end) and which names entity resolution
merged, each merge with its reason and an undo that rebuilds the graph in the background."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from core.index.background import start_index
from core.index.entity_resolution import undo_merge
from core.store.db import Store
from pages.components import state as ui


def rejected_rows(store: Store, limit: int = 2000) -> list[dict]:
    units = {u["id"]: u["human_readable_id"] for u in store.rows("text_units", select="id, human_readable_id")}
    out = []
    for row in store.rows("extractions", "rejected is not null and rejected != '[]'",
                          select="text_unit_id, rejected", order_by=None):
        for r in row["rejected"] or []:
            if r.get("kind") == "note":
                continue
            out.append({"text unit": units.get(row["text_unit_id"]), "kind": r.get("kind"),
                        "name": r.get("name"), "reason": r.get("reason")})
            if len(out) >= limit:
                return out
    return out


def quality_panel(store: Store, workspace: Path, running: bool) -> None:
    merges = store.rows("entity_merges", order_by="status, merged")
    rejected = rejected_rows(store)
    if not merges and not rejected:
        return
    label = f"Extraction quality: {len(merges)} merges, {len(rejected)} rejected"
    with st.expander(label, icon=":material/fact_check:"):
        if merges:
            st.markdown("**Merged names** (entity resolution: a name rule plus evidence in the graph)")
            st.dataframe(pd.DataFrame([{"merged": m["merged"], "into": m["into"], "status": m["status"],
                                        "reason": m["reason"]} for m in merges]),
                         hide_index=True, width="stretch", height=min(38 + 35 * len(merges), 280))
            active = [m for m in merges if m["status"] == "merged"]
            if active:
                left, right = st.columns([3, 1], vertical_alignment="bottom")
                choice = left.selectbox("Undo a merge", [m["id"] for m in active], key="undo_merge_pick",
                                        format_func=lambda i: next(f"{m['merged']} \u2192 {m['into']}"
                                                                   for m in active if m["id"] == i))
                if right.button("Undo and rebuild", icon=":material/undo:", disabled=running, key="undo_merge"):
                    with ui.guard():
                        undo_merge(store, choice)
                        start_index(workspace, ui.settings(), api_key=ui.api_key(), store=ui.store())
                        st.session_state["watching_run"] = True
                        st.rerun()
        if rejected:
            st.markdown("**Rejected during extraction** (each with its reason: a name not found in its text, a common word, ...)")
            st.dataframe(pd.DataFrame(rejected), hide_index=True, width="stretch",
                         height=min(38 + 35 * len(rejected), 280))

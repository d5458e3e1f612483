"""Compare: one question answered by 2-4 methods side by side, each pair judged in both orders;
saved comparisons as a win-rate heatmap and the cost per method."""
from __future__ import annotations

import streamlit as st

from pages.components import compare_view as view
from pages.components import drilldown as drill
from pages.components import navigation
from pages.components import state as ui


def main() -> None:
    store = ui.require_store()
    st.title("Compare")
    st.caption(ui.md(f"Workspace {ui.workspace_name()} \u00b7 {ui.engine_label()} \u00b7 which method answers "
                     "your question best, and at what cost"))
    if not store.count("text_units"):
        st.info("There is nothing to compare yet: index a corpus on the Corpus page first.", icon=":material/info:")
        return
    with ui.guard():
        ask = view.form(store)
        if ask is not None:
            st.session_state["cmp_run"] = str(view.run(store, ask))
            st.session_state.pop("cmp_saved", None)
    with ui.guard():
        folder = view.saved_runs(store)
        if folder is not None:
            view.show_run(store, folder)
    drill.show(store)


navigation.ensure_routed()
with ui.guard():
    main()

"""The sidebar: workspace picker, new workspace, GraphRAG import and the engine panel."""
from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from core.settings import save_settings
from pages.components import auth, links
from pages.components import state as ui
from pages.components import workspace_admin as ws_admin
from pages.components.import_panel import import_popover
from pages.components.tokens import tokens_panel


def sidebar() -> None:
    from core.store.workspace import create_workspace, list_workspaces, name_note

    with st.sidebar:
        st.markdown("### :material/hub: Sensemaker")
        auth.sidebar_line()
        tokens_panel()
        base = ui.root()
        if not st.session_state.get("_sample_checked") and os.environ.get("SENSEMAKER_NO_SAMPLE") != "1":
            with st.spinner("Preparing the sample workspace (first start)..."):
                try:
                    ui._sample_workspace(str(base))
                except Exception as exc:  # noqa: BLE001 - the app works without the sample
                    ui.log.exception("sample workspace failed")
                    st.warning(f"The sample workspace could not be prepared: {exc}")
            st.session_state["_sample_checked"] = True
        names = ui.visible_workspaces()  # with a login: those the signed-in user holds a role in
        if "workspace" not in st.session_state and "_ws_unknown" not in st.session_state:
            wanted = st.query_params.get("ws")
            if wanted and wanted not in names:  # a link to a workspace not here: say so, open none
                st.session_state["_ws_unknown"] = wanted
                if wanted in list_workspaces():  # here, but not this user's to see
                    st.session_state["_ws_forbidden"] = True
            else:
                first = wanted if wanted in names else ("sample" if "sample" in names else
                                                        (names[0] if names else None))
                if first:
                    ui.select_workspace(first)
        current = ui.workspace_name()
        if names:
            idx = names.index(current) if current in names else None
            picked = st.selectbox("Workspace", names, index=idx, key=f"ws_pick_{current}",
                                  placeholder="Choose a workspace")
            if picked is not None and picked != current:
                st.session_state.pop("_ws_forbidden", None)
                if st.session_state.pop("_ws_unknown", None) is not None:
                    links.forget_page_params()  # the link's community or question was of another workspace
                ui.select_workspace(picked)
                st.rerun()
        closing = st.session_state.pop("_close_popover", None)
        if closing:  # an action in a popover finished: show it closed (before it is drawn)
            st.session_state[closing] = False
        with st.popover("New workspace", icon=":material/add:", width="stretch",
                        key="new_ws_pop", on_change="rerun"):
            with st.form("new_ws", clear_on_submit=True, border=False):
                new_name = st.text_input("Name", placeholder="e.g. harbour-inquiry")
                if st.form_submit_button("Create", type="primary"):
                    with ui.guard():
                        path = create_workspace(new_name, exist_ok=False)
                        if ui.access() is not None:  # its creator owns it
                            ui.access().created(ui.principal(), path.name)
                        ui.select_workspace(path.name)
                        ws_admin.say(name_note(new_name) or f"Created workspace {path.name!r}.")
                        st.session_state["_close_popover"] = "new_ws_pop"
                        st.rerun()
        ws_admin.manage_popover()
        import_popover()
        ws_admin.show_note()
        _engine_panel(ui.workspace_dir())


_ENGINE_FIELDS = ("engine", "llm_base_url", "chat_model", "embedding_model", "api_key_typed")


def _engine_panel(path: Path | None) -> None:
    ui._load_engine_fields(path)
    for k in _ENGINE_FIELDS:  # keep the values of fields hidden while the engine is offline
        if k in st.session_state:
            st.session_state[k] = st.session_state[k]
    st.divider()
    st.markdown("**Engine**")
    st.radio("Engine", list(ui.ENGINES), format_func=ui.ENGINES.get, key="engine",
             label_visibility="collapsed")
    if st.session_state.get("engine") == "offline":
        st.caption("Offline: no model at all. Extraction, summaries and answers are "
                   "extractive, built from the documents' own sentences.")
        return
    st.text_input("Base URL", key="llm_base_url", placeholder="https://api.openai.com/v1",
                  help="Any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, llama.cpp, LM Studio).")
    st.text_input("Chat model", key="chat_model")
    st.text_input("Embedding model", key="embedding_model", placeholder="none",
                  help="Leave empty to find entities by full-text search instead of embeddings.")
    env_key = os.environ.get("OPENAI_API_KEY")
    st.text_input("API key", type="password", key="api_key_typed",
                  placeholder="using OPENAI_API_KEY" if env_key else "",
                  help="Kept in this browser session only; never saved to the workspace.")
    if not st.session_state.get("api_key_typed"):
        st.caption("Key: from the environment (OPENAI_API_KEY)." if env_key else
                   "No key: fine for local servers that do not ask for one.")
    c1, c2 = st.columns(2)
    if c1.button("Test connection", icon=":material/network_check:", width="stretch"):
        with ui.guard():
            from core.llm.connection import check_connection
            with st.spinner("Connecting..."):
                ok, message = check_connection(ui.settings())
            st.session_state["_conn"] = (ok, message)
    if c2.button("Save to workspace", width="stretch", disabled=path is None or not ui.may("index"),
                 help="Save engine, URL and models (never the key) as this workspace's defaults "
                      "(an editor's or owner's to do, in team mode)."):
        with ui.guard():
            save_settings(path, ui.settings())
            st.toast("Saved (without the key).")
    conn = st.session_state.get("_conn")
    if conn:
        (st.success if conn[0] else st.error)(ui.md(conn[1]))

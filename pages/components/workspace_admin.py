"""Workspace housekeeping in the sidebar: rename and delete (with a confirmation), and the note
that says how a typed name was saved."""
from __future__ import annotations

import streamlit as st

from pages.components import state as ui

NOTE = "_ws_note"


def say(message: str) -> None:
    """Show message in the sidebar on the next run (after st.rerun)."""
    st.session_state[NOTE] = message


def show_note() -> None:
    note = st.session_state.pop(NOTE, None)
    if note:
        st.info(ui.md(note), icon=":material/info:")


def _owner_check(action: str) -> None:
    """Forbidden unless the signed-in user owns the selected workspace (core.store.access)."""
    acc, name = ui.access(), ui.workspace_name()
    if acc is not None and name:
        acc.require(ui.principal(), name, action)


def manage_popover() -> None:
    from core.store.workspace import delete_workspace, name_note, rename_workspace
    current = ui.workspace_name()
    if not current or not ui.may("rename"):  # owners only (core.store.access)
        return
    with st.popover("Rename or delete", icon=":material/edit:", width="stretch",
                    key="ws_admin_pop", on_change="rerun"):
        with st.form("ws_rename", border=False, clear_on_submit=True):
            new = st.text_input("New name", placeholder=current, key=ui.ws_key("ws_new_name"))
            if st.form_submit_button("Rename", icon=":material/drive_file_rename_outline:"):
                with ui.guard():
                    _owner_check("rename")
                    path = rename_workspace(current, new)
                    if ui.access() is not None:
                        ui.access().team.renamed(current, path.name)
                    ui.select_workspace(path.name)
                    say(f"Renamed {current!r} to {path.name!r}."
                        + (f" {name_note(new)}" if name_note(new) else ""))
                    st.session_state["_close_popover"] = "ws_admin_pop"
                    st.rerun()
        st.divider()
        st.caption(ui.md(f"Delete {current}: its documents, index and past questions are removed "
                         "from disk. Type its name to confirm."))
        typed = st.text_input("Type the workspace name to delete it", key=ui.ws_key("ws_confirm"),
                              label_visibility="collapsed", placeholder=current)
        if st.button("Delete the workspace", type="primary", icon=":material/delete:",
                     disabled=typed.strip() != current, key=ui.ws_key("ws_delete")):
            with ui.guard():
                _owner_check("delete")
                store = st.session_state.pop("_store", None)
                if store is not None:
                    store.close()
                delete_workspace(current)
                if ui.access() is not None:
                    ui.access().team.deleted(current)
                rest = ui.visible_workspaces()
                st.session_state.pop("workspace", None)
                if rest:
                    ui.select_workspace(rest[0])
                say(f"Deleted workspace {current!r}.")
                st.session_state["_close_popover"] = "ws_admin_pop"
                st.rerun()

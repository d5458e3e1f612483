"""Who may use a workspace, and what they did: its owners share it (a role per user) and read its
audit log. Only with a login configured (core.store.access); the roles are enforced in core."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.store.team import ROLES
from pages.components import state as ui

NO_ROLE = "no role (remove)"


def members_panel() -> None:
    acc, name = ui.access(), ui.workspace_name()
    if acc is None or not name or not ui.may("share"):
        return
    with st.expander("Members and audit log", icon=":material/group:"):
        members = acc.team.members(name)
        st.caption("Owners share the workspace and read this log; editors add documents and index; "
                   "viewers read and ask. Administrators (SENSEMAKER_ADMINS) own every workspace.")
        if members:
            st.dataframe(pd.DataFrame(members).rename(columns={"user_id": "user", "granted_by": "by",
                                                                "granted_at": "when"}),
                         hide_index=True, width="stretch")
        with st.form(ui.ws_key("share"), clear_on_submit=True, border=False):
            who, role = st.columns([3, 2])
            user = who.text_input("User (the e-mail address or subject their sign-in gives)")
            picked = role.selectbox("Role", [*ROLES, NO_ROLE], index=0)
            if st.form_submit_button("Share", icon=":material/person_add:"):
                with ui.guard():
                    acc.share(ui.principal(), name, user, None if picked == NO_ROLE else picked)
                    st.success(ui.md(f"{user.strip()}: {picked}."), icon=":material/check:")
        cfg = ui.settings()
        shared = st.toggle("Members see each other's questions (otherwise each sees their own; owners see all)",
                           value=cfg.share_questions, key=ui.ws_key("share_questions"))
        if shared != cfg.share_questions:
            with ui.guard():
                from core.settings import save_settings
                save_settings(ui.workspace_dir() or ui.root() / name, cfg.with_changes(share_questions=shared))
                acc.log(ui.principal(), name, "share", f"questions shared: {shared}")
                st.rerun()
        log = acc.audit(ui.principal(), name)
        st.markdown("##### Audit log")
        if log:
            st.dataframe(pd.DataFrame(log), hide_index=True, width="stretch")
        else:
            st.caption("Nothing done here by a signed-in user yet.")

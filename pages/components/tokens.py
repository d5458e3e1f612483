"""The signed-in user's API tokens for the command line (SENSEMAKER_TOKEN): make one (shown once),
see when each was last used, revoke one. Kept in the team database (core.store.team)."""
from __future__ import annotations

import streamlit as st

from pages.components import state as ui
from pages.components.markup import md


def tokens_panel() -> None:
    acc = ui.access()
    who = ui.principal()
    if acc is None or who.local:
        return
    team = acc.team
    with st.expander("Command-line token", icon=":material/key:"):
        st.caption("The command line acts as you with `SENSEMAKER_TOKEN=... sensemaker COMMAND`: "
                   "your roles, and your name in the audit log.")
        name = st.text_input("What it is for", value="laptop", key="token_name", max_chars=80)
        if st.button("Make a token", key="token_make", icon=":material/add:"):
            st.session_state["token_made"] = team.add_token(who.id, name, who.email)
        made = st.session_state.pop("token_made", None)
        if made:
            st.code(made, language=None)
            st.caption("Shown this once: copy it now. Anyone holding it acts as you.")
        for t in team.tokens_of(who.id):
            left, right = st.columns([3, 1], vertical_alignment="center")
            left.caption(md(f"{t['name']} · made {t['created_at'][:10]} · used {(t['last_used_at'] or 'never')[:16]}"))
            if right.button("Revoke", key=f"token_revoke_{t['id']}"):
                team.revoke_token(who.id, t["id"])
                st.rerun()

"""Login with OpenID Connect through Streamlit's own st.login / st.user (Authlib). Configured by an
[auth] section in .streamlit/secrets.toml, or by SENSEMAKER_OIDC_* variables that `sensemaker app`
writes into one (core/cli/auth_config.py). Without it the app runs as before, as the one local
user, and the sidebar says so. With it, nothing of any workspace is drawn until the user has
signed in: `gate` shows only the sign-in screen."""
from __future__ import annotations

import streamlit as st

from core.access import LOCAL, Principal, from_claims
from pages.components.markup import md


def configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file at all: no login configured
        return False


def principal() -> Principal | None:
    """Who is using the app: the local user without login, the signed-in user with it, None
    before signing in."""
    if not configured():
        return LOCAL
    claims = dict(st.user)  # (a session Streamlit knows nothing of has no is_logged_in at all)
    if not claims.get("is_logged_in"):
        return None
    return from_claims(claims)


def gate() -> bool:
    """True when the app may draw the workspace pages; otherwise draws the sign-in screen."""
    if principal() is not None:
        return True
    st.title(":material/hub: Sensemaker")
    st.markdown("This server keeps its workspaces for signed-in users. Sign in with your "
                "organisation's account to see the workspaces you may use.")
    if st.button("Sign in", icon=":material/login:", type="primary"):
        st.login()
    return False


def sidebar_line() -> None:
    """Who is signed in, with a way out; or that this app has no login."""
    who = principal()
    if who is None:
        return
    if who.local:
        st.caption("Local user: no login is configured, so everyone who can reach this server "
                   "sees every workspace (README: team mode).")
        return
    st.caption(f"Signed in as {md(who.label)}")  # the provider's name: shown as text, never markup
    if st.button("Sign out", icon=":material/logout:", key="sign_out"):
        st.logout()

"""Deep links: the view in the address bar (st.query_params), so a reload or a link pasted to a
colleague on the same server opens the same view.

    ?ws=NAME   the workspace (every page)
    ?c=N       the selected community (Communities)
    ?q=ID      the open question's trace (Ask)

The page itself is the URL's path (st.navigation). Streamlit drops the query string when the
top navigation switches pages, so every run writes the workspace back. A page's own parameter is
applied once per value: when the address holds a value this session did not write (a fresh
session after a reload, a pasted link), the page opens it; afterwards the page's widgets lead and
write their value back.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

WORKSPACE, COMMUNITY, QUESTION = "ws", "c", "q"
PAGES_DIR = Path(__file__).resolve().parents[1]


def page(name: str) -> str:
    """A page's file for st.page_link and st.switch_page ("corpus" -> .../pages/corpus.py), as an
    absolute path: it names the same page whichever entry file runs the app."""
    return str(PAGES_DIR / f"{name}.py")
PAGE_PARAMS = (COMMUNITY, QUESTION)


def keep_workspace(name: str | None) -> None:
    """Write the session's workspace into the address when it is missing or different."""
    if name and st.query_params.get(WORKSPACE) != name:
        st.query_params[WORKSPACE] = name


def forget_page_params() -> None:
    """A new workspace: the community and question of the old one mean nothing in it."""
    for key in PAGE_PARAMS:
        if key in st.query_params:
            del st.query_params[key]
        st.session_state.pop(f"_link_{key}", None)


def incoming(key: str) -> str | None:
    """The address's value for key when this session has not applied or written it yet."""
    value = st.query_params.get(key)
    if value is None or st.session_state.get(f"_link_{key}") == value:
        return None
    st.session_state[f"_link_{key}"] = value
    return value


def write(key: str, value: object | None) -> None:
    """Put the page's current value in the address (None removes it)."""
    if value is None:
        if key in st.query_params:
            del st.query_params[key]
        st.session_state.pop(f"_link_{key}", None)
        return
    text = str(value)
    st.session_state[f"_link_{key}"] = text
    if st.query_params.get(key) != text:
        st.query_params[key] = text


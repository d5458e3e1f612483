"""The app frame: page config, style, sidebar (workspace, engine) and the st.navigation router
over the pages in pages/ (registered explicitly). app.py calls run(); each page file calls
ensure_routed() first.

Streamlit runs a folder named pages/ beside the entry file in its older pages-folder mode until
st.navigation has been called: on a fresh server a deep link such as /communities would run
pages/communities.py alone, with no sidebar and no workspace. So the first run of every session
only registers the pages with st.navigation (which ends that mode, as Streamlit documents) and
reruns; from the second run on, app.py routes every page and draws the frame around it, and a
widget keeps one identity across runs."""
from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from pages.components import links, sidebar
from pages.components import state as ui

PAGES = (
    ("pages/corpus.py", "Corpus", ":material/library_books:", "corpus"),
    ("pages/communities.py", "Communities", ":material/hub:", "communities"),
    ("pages/ask.py", "Ask", ":material/forum:", "ask"),
    ("pages/compare.py", "Compare", ":material/balance:", "compare"),
)
ROOT = Path(__file__).resolve().parents[2]
_ROUTED = "_nav_routed"
_framed = threading.local()  # set while the frame runs a page (one script thread per session run)


def _pages() -> list:
    return [st.Page(ROOT / path, title=title, icon=icon, url_path=url, default=i == 0)
            for i, (path, title, icon, url) in enumerate(PAGES)]


def run() -> None:
    """Render the frame and run the current page."""
    if not st.session_state.get(_ROUTED):
        st.session_state[_ROUTED] = True
        st.navigation(_pages(), position="hidden")
        st.rerun()
    st.set_page_config(page_title="Sensemaker", page_icon=ui.page_icon(), layout="wide",
                       initial_sidebar_state="expanded")
    ui.load_css()
    with ui.guard():
        sidebar.sidebar()
    links.keep_workspace(ui.workspace_name())  # the top navigation drops it from the address
    pages = _pages()
    page = st.navigation(pages, position="top")
    missing = st.session_state.get("_ws_unknown")
    if missing and not ui.workspace_name():
        st.error(ui.md(f"This link opens workspace \"{missing}\", and there is no workspace of that name "
                       "here: it may have been renamed or deleted, or the link comes from another server. "
                       "Choose a workspace in the sidebar."), icon=":material/link_off:")
        return
    if st.session_state.pop("_goto_corpus", False) and page.title != pages[0].title:
        st.switch_page(pages[0])  # after an import: the corpus page says what came in
    _framed.on = True
    try:
        page.run()
    finally:
        _framed.on = False


def ensure_routed() -> None:
    """Called first by every page file: a page run outside the frame (the pages-folder mode of
    a session's first run) runs the frame instead, which routes back to this page."""
    if not getattr(_framed, "on", False):
        run()
        st.stop()

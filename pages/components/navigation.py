"""The app frame: page config, style, sidebar (workspace, engine) and the st.navigation router
over the pages in pages/ (registered explicitly). app.py calls run(); each page file calls
ensure_routed() first.

Streamlit runs a folder named pages/ beside the entry file in its older pages-folder mode until
st.navigation has been called: on a fresh server a deep link such as /communities runs
pages/communities.py alone, with no sidebar and no workspace, and runs app.py itself as a page of
that mode, so the frame's widgets would change identity at the next run and a user's first click
would be lost. So the first run on this server only registers the pages with st.navigation (which
ends that mode for the whole server, as Streamlit documents) and reruns; a page file run outside
the frame does the same (ensure_routed). Every later session is routed from its first run."""
from __future__ import annotations

import threading

import streamlit as st

from pages.components import auth, links, sidebar
from pages.components import state as ui

PAGES = (
    ("Corpus", ":material/library_books:", "corpus"),
    ("Communities", ":material/hub:", "communities"),
    ("Ask", ":material/forum:", "ask"),
    ("Compare", ":material/balance:", "compare"),
)
_framed = threading.local()  # set while the frame runs a page (one script thread per session run)


def _pages() -> list:
    return [st.Page(links.page(url), title=title, icon=icon, url_path=url, default=i == 0)
            for i, (title, icon, url) in enumerate(PAGES)]


def _end_pages_folder_mode() -> None:
    """Register the pages with st.navigation, which ends Streamlit's pages-folder mode for the
    server, and run the script again, now routed."""
    st.navigation(_pages(), position="hidden")
    st.rerun()


_server_routed = False  # st.navigation has been called in this server process


def run() -> None:
    """Render the frame and run the current page."""
    global _server_routed
    if not _server_routed:
        _server_routed = True
        _end_pages_folder_mode()
    st.set_page_config(page_title="Sensemaker", page_icon=ui.page_icon(), layout="wide",
                       initial_sidebar_state="expanded")
    ui.load_css()
    if not auth.gate():  # a login is configured and nobody has signed in: nothing else is drawn
        return
    with ui.guard():
        sidebar.sidebar()
    links.keep_workspace(ui.workspace_name())  # the top navigation drops it from the address
    pages = _pages()
    page = st.navigation(pages, position="top")
    missing = st.session_state.get("_ws_unknown")
    if missing and not ui.workspace_name():
        if st.session_state.get("_ws_forbidden"):
            st.error(ui.md(f"This link opens workspace \"{missing}\", which you may not see: ask one of its "
                           "owners to share it with you. Choose a workspace in the sidebar."), icon=":material/lock:")
            return
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
    """Called first by every page file: a page run outside the frame (Streamlit's pages-folder
    mode, before any st.navigation call on this server) ends that mode and reruns, and the
    rerun routes this page through the frame."""
    if not getattr(_framed, "on", False):
        _end_pages_folder_mode()

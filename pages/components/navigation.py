"""The app frame: page config, style, sidebar (workspace, engine) and the st.navigation router
over the pages in pages/ (registered explicitly). app.py calls run()."""
from __future__ import annotations

from contextlib import nullcontext

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from pages.components import links, sidebar
from pages.components import state as ui

PAGES = (
    ("pages/corpus.py", "Corpus", ":material/library_books:", "corpus"),
    ("pages/communities.py", "Communities", ":material/hub:", "communities"),
    ("pages/ask.py", "Ask", ":material/forum:", "ask"),
    ("pages/compare.py", "Compare", ":material/balance:", "compare"),
)


def run(legacy: bool = False) -> None:
    """Render the frame and run the current page.

    legacy: this run was started by Streamlit's old pages/-folder mode (the first run on a fresh
    server, or any AppTest run), which runs app.py or a page file as a page of its own. The
    frame is then rendered as the main script, so its widgets get the same ids as in every
    later run and the user's first click is not lost."""
    legacy = legacy or bool(PagesManager.uses_pages_directory)
    PagesManager.uses_pages_directory = False
    ctx = get_script_run_ctx()
    scope = (ctx.run_with_active_hash(ctx.pages_manager.main_script_hash)
             if legacy and ctx is not None else nullcontext())
    with scope:
        st.set_page_config(page_title="Sensemaker", page_icon=ui.page_icon(), layout="wide",
                           initial_sidebar_state="expanded")
        ui.load_css()
        with ui.guard():
            sidebar.sidebar()
        links.keep_workspace(ui.workspace_name())  # the top navigation drops it from the address
        pages = [st.Page(path, title=title, icon=icon, url_path=url, default=i == 0)
                 for i, (path, title, icon, url) in enumerate(PAGES)]
        page = st.navigation(pages, position="top")
        missing = st.session_state.get("_ws_unknown")
        if missing and not ui.workspace_name():
            st.error(ui.md(f"This link opens workspace \"{missing}\", and there is no workspace of that name "
                           "here: it may have been renamed or deleted, or the link comes from another server. "
                           "Choose a workspace in the sidebar."), icon=":material/link_off:")
            return
        if st.session_state.pop("_goto_corpus", False) and page.title != pages[0].title:
            st.switch_page(pages[0])  # after an import: the corpus page says what came in
        page.run()


# -- routing ------------------------------------------------------------------------------
def ensure_routed() -> None:
    """Make sure the app frame (app.py's st.navigation) routes this run.

    While no run has called st.navigation yet (a fresh server; every AppTest run), Streamlit's
    legacy multipage mode sees the pages/ folder and runs a deep link such as /communities as
    pages/communities.py alone: no sidebar, no workspace. Then switch that mode off, run the
    frame (which runs this page through st.navigation, with the widget values of this run),
    and stop."""
    from streamlit.runtime.pages_manager import PagesManager
    if PagesManager.uses_pages_directory:
        run(legacy=True)
        st.stop()

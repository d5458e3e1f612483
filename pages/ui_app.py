"""The app frame: page config, style, sidebar (workspace, engine) and the st.navigation router
over the pages in pages/ (registered explicitly). app.py calls run()."""
from __future__ import annotations

import streamlit as st

from pages import ui_state as ui

PAGES = (
    ("pages/corpus.py", "Corpus", ":material/library_books:", "corpus"),
    ("pages/communities.py", "Communities", ":material/hub:", "communities"),
    ("pages/ask.py", "Ask", ":material/forum:", "ask"),
)


def run() -> None:
    st.set_page_config(page_title="Sensemaker", page_icon=ui.page_icon(), layout="wide",
                       initial_sidebar_state="expanded")
    ui.load_css()
    with ui.guard():
        ui.sidebar()
    page = st.navigation([st.Page(path, title=title, icon=icon, url_path=url, default=i == 0)
                          for i, (path, title, icon, url) in enumerate(PAGES)], position="top")
    page.run()

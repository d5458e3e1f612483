"""Sensemaker, the analyst app: `streamlit run app.py` (or `sensemaker app`).

st.navigation routes over the pages in pages/ (registered explicitly in pages/components/navigation.py); the
sidebar holds the workspace and the engine, set up before the page runs so every page sees the
same state.
"""
from pages.components import navigation

navigation.run()

"""Sensemaker core: the GraphRAG engine. Never imports streamlit."""

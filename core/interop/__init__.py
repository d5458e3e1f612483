"""Interoperability with Microsoft GraphRAG: import its output tables, export ours as GraphML,
graphrag-compatible parquet and CSV."""

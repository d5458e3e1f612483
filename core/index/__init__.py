"""Indexing pipeline: one module per stage (chunk, extract, graph, communities, reports,
embeddings) and pipeline.py that runs them with progress, per-item state and resume."""

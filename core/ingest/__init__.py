"""Ingestion: files become rows of the documents table.

documents  validation, de-duplication and adding documents to a workspace
loaders    file loaders (txt, md, pdf, docx, html, csv, jsonl): bytes in, plain text out
neardup    near-duplicate documents (another edition, encoding or typography of the same text)
"""

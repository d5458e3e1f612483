"""Interoperability with Microsoft GraphRAG.

graphrag_import  open graphrag 1.x-3.x output tables as a workspace
export           GraphML, graphrag-compatible parquet and CSV
columns          the graphrag table and column names, defined once
takeaway         downloads: answer/report Markdown with evidence, community GraphML, workspace zip
"""

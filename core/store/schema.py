"""Column names and types of every workspace table, defined once.

Every table has `id` (stable, content-derived text, the join key) and `human_readable_id`
(integer, unique per table, assigned in order: what citations use). JSON columns hold lists or
objects serialised as text.
"""
from __future__ import annotations

import json
from typing import Any

from core.errors import UserError

SCHEMA_VERSION = 2

TABLES: dict[str, dict[str, type]] = {
    "documents": {
        "id": str, "human_readable_id": int, "title": str, "source_name": str, "mime": str,
        "sha256": str, "n_tokens": int, "text": str, "metadata": str, "created_at": str,
        "status": str, "sketch": str,
    },
    "text_units": {
        "id": str, "human_readable_id": int, "document_id": str, "ordinal": int, "text": str,
        "n_tokens": int, "char_start": int, "char_end": int,
        # the titles of the headings above the unit, outermost first (structured documents), and
        # where in the unit's text its headings, code and bold terms are ({"headings": [[s, e]], ...})
        "headings": str, "structure": str,
    },
    # raw per-chunk extraction results: the per-item state that lets a run resume
    "extractions": {
        "id": str, "human_readable_id": int, "text_unit_id": str, "engine": str, "status": str,
        "entities": str, "relationships": str, "claims": str, "rejected": str, "error": str,
        "llm_calls": int,
    },
    "entities": {
        "id": str, "human_readable_id": int, "title": str, "type": str, "description": str,
        "text_unit_ids": str, "frequency": int, "degree": int, "aliases": str,
        "description_key": str,  # hash of the descriptions summarised: unchanged, not asked again
    },
    "relationships": {
        "id": str, "human_readable_id": int, "source": str, "target": str, "description": str,
        "weight": float, "combined_degree": int, "text_unit_ids": str, "description_key": str,
        "inferred": int,  # 1: from co-occurrence in a sentence, not stated by the model
    },
    "claims": {
        "id": str, "human_readable_id": int, "subject": str, "object": str, "type": str,
        "status": str, "description": str, "source_text": str, "text_unit_id": str,
        "start_date": str, "end_date": str,
    },
    "communities": {
        "id": str, "human_readable_id": int, "community": int, "level": int, "parent": int,
        "children": str, "title": str, "entity_ids": str, "relationship_ids": str,
        "text_unit_ids": str, "size": int,
    },
    "community_reports": {
        "id": str, "human_readable_id": int, "community": int, "level": int, "title": str,
        "summary": str, "rating": float, "rating_explanation": str, "findings": str,
        "full_content": str, "rank": float, "engine": str,
        "input_key": str,  # hash of what the report was written from: unchanged, the row is kept
    },
    "embeddings": {
        "id": str, "human_readable_id": int, "owner_table": str, "owner_id": str, "model": str,
        "vector": bytes,
    },
    "runs": {
        "id": str, "human_readable_id": int, "started_at": str, "finished_at": str,
        "status": str, "engine": str, "settings": str, "stage": str, "counts": str,
        "llm_calls": int, "prompt_tokens": int, "completion_tokens": int, "cache_hits": int,
        "cost": float, "error": str, "heartbeat_at": str, "progress": str, "pid": int,
        "operation": str, "changes": str,  # index / remove / replace / reindex; the change summary
        "job": int,  # team mode: the run's job on the queue (core.index.jobs)
        "prompts": str,  # team mode: the workspace's prompt overrides when the run was queued
    },
    "run_steps": {
        "id": str, "human_readable_id": int, "run_id": str, "stage": str, "item": str,
        "status": str, "error": str, "attempts": int, "updated_at": str,
    },
    "llm_cache": {
        "id": str, "human_readable_id": int, "model": str, "request": str, "response": str,
        "prompt_tokens": int, "completion_tokens": int, "created_at": str,
    },
    "query_traces": {
        "id": str, "human_readable_id": int, "created_at": str, "question": str, "method": str,
        "params": str, "answer": str, "trace": str,
        "author": str,  # the signed-in user who asked (None: the local user), as trace["author"]
    },
    # entity resolution: which names were merged into which, why, and whether a user undid it
    "entity_merges": {
        "id": str, "human_readable_id": int, "merged": str, "into": str, "reason": str,
        "status": str, "updated_at": str,
    },
    "meta": {"id": str, "human_readable_id": int, "value": str},
    # rows removed with their documents (remove, replace), so a stored citation of one says
    # "source removed" instead of failing; id = "<table>|<human_readable_id>"
    "removed": {
        "id": str, "human_readable_id": int, "owner_table": str, "owner_hrid": int, "owner_id": str,
        "document_title": str, "run_id": str, "removed_at": str,
    },
    # a community whose number went when documents changed -> the new community of its level
    # that took most of its entities (a stored answer citing its report is led there);
    # human_readable_id = the old community number
    "community_successors": {
        "id": str, "human_readable_id": int, "successor": int, "level": int, "shared": int,
        "old_size": int, "new_size": int, "at": str,
    },
}

# Columns that hold JSON (decoded by Store.rows / Store.get).
JSON_COLUMNS: dict[str, tuple[str, ...]] = {
    "documents": ("metadata", "sketch"),
    "text_units": ("headings", "structure"),
    "extractions": ("entities", "relationships", "claims", "rejected"),
    "entities": ("text_unit_ids", "aliases"),
    "relationships": ("text_unit_ids",),
    "communities": ("children", "entity_ids", "relationship_ids", "text_unit_ids"),
    "community_reports": ("findings",),
    "runs": ("settings", "counts", "progress", "changes", "prompts"),
    "query_traces": ("params", "trace"),
}

# Full-text search: table -> columns.
FTS: dict[str, tuple[str, ...]] = {
    "text_units": ("text",),
    "entities": ("title", "description"),
    "community_reports": ("title", "summary"),
}

# Indexes on join columns.
INDEXES: dict[str, list[tuple[str, ...]]] = {
    "text_units": [("document_id",), ("document_id", "ordinal")],
    "extractions": [("text_unit_id",)],
    "entities": [("title",)],
    "relationships": [("source",), ("target",)],
    "claims": [("text_unit_id",), ("subject",)],
    "communities": [("level",), ("community",), ("parent",),
                    # covering: the communities page reads labels and levels of many communities
                    # without reading their (large) member lists
                    ("level", "community", "parent", "size", "title")],
    "community_reports": [("community",), ("level",),
                          ("level", "community", "rating", "title")],
    "embeddings": [("owner_table", "owner_id")],
    "run_steps": [("run_id", "stage")],
}

# Tables whose human_readable_id is unique and used in citations.
CITABLE = {
    "Reports": "community_reports",
    "Entities": "entities",
    "Relationships": "relationships",
    "Claims": "claims",
    "Sources": "text_units",
}


# a row's JSON columns: serialised on the way in, read back on the way out --------------------
def encode(table: str, row: dict[str, Any]) -> dict[str, Any]:
    cols = JSON_COLUMNS.get(table, ())
    out = dict(row)
    for c in cols:
        if c in out and out[c] is not None and not isinstance(out[c], str):
            out[c] = json.dumps(out[c], ensure_ascii=False)
    return out


def decode(table: str, row: dict[str, Any]) -> dict[str, Any]:
    for c in JSON_COLUMNS.get(table, ()):
        v = row.get(c)
        if isinstance(v, str) and v:
            try:
                row[c] = json.loads(v)
            except json.JSONDecodeError:
                pass
    return row


class StoreError(UserError):
    """The workspace database cannot be opened or is from a newer version."""


def check_table(table: str) -> None:
    """A table name, which SQL is built from, must be one of TABLES."""
    if table not in TABLES:
        raise KeyError(f"no table named {table!r}")

"""Index a workspace again with the current engine and settings (a model instead of the offline
engine, another chunk size or entity types), keeping its documents.

Everything built from the documents goes (text units, extractions, the graph, communities,
reports, embeddings, failed steps, merges) in one transaction, and the documents are marked
new, so the next run chunks, extracts and builds everything again. The LLM cache stays: a call
whose prompt was answered before (same model, same chunk, same prompt) costs nothing. Past
questions (query traces) stay in the list; their citations name records of the old index.
"""
from __future__ import annotations

from typing import Any

from core.errors import UserError
from core.settings import Settings
from core.store.db import Store

DERIVED = ("text_units", "extractions", "entities", "relationships", "claims", "communities",
           "community_reports", "embeddings", "run_steps", "entity_merges")


def reindex_estimate(store: Store, settings: Settings) -> dict[str, Any]:
    """What indexing every document again will cost at most (estimate_run's figures as if no
    document had been chunked; cached calls are free and not counted twice)."""
    from core.index.background import estimate_run
    return estimate_run(store, settings, everything=True)


def last_engine(store: Store) -> str | None:
    """The engine (and model) of the last finished run: "offline" or "llm: MODEL"."""
    rows = store.rows("runs", "status like 'finished%'", order_by="human_readable_id desc", limit=1,
                      select="engine, settings")
    if not rows:
        return None
    engine = rows[0].get("engine") or ""
    model = (rows[0].get("settings") or {}).get("chat_model")
    return "offline" if engine == "offline" else f"llm: {model}" if model else engine


def reset_for_reindex(store: Store) -> dict[str, int]:
    """Drop what was built from the documents and mark the documents new. Returns the counts
    dropped. Refused while a run is going or for an imported GraphRAG index."""
    from core.index.background import current_run
    if store.get_meta("imported_from"):
        raise UserError("this workspace holds an imported Microsoft GraphRAG index: indexing it "
                        "again would replace that graph. Index its documents into a new workspace.")
    if current_run(store) is not None:
        raise UserError("an index run is going on in this workspace: wait for it or cancel it first")
    if not store.count("documents"):
        raise UserError("the workspace has no documents to index")
    dropped = {t: store.count(t) for t in DERIVED}
    from core.index.lifecycle import begin_change
    titles = [r["title"] for r in store.rows("documents", select="title", order_by="human_readable_id")]
    with store.atomic():
        begin_change(store, "reindex", titles)  # the change summary compares with the index as it was
        store.clear(*DERIVED)
        store.update_all("documents", status=None)
    return dropped

"""A document that shares no entity with the others does not reshape their communities: adding
or removing it leaves their communities and reports as they were (each connected component of
the graph is clustered on its own). Clustered as one graph, removing an earnings call from a
workspace with A Christmas Carol rewrote 8 of Carol's 15 reports (bench/community_stability.py)."""
from __future__ import annotations

from core.index.lifecycle import remove_documents
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.settings import load_settings, save_settings
from core.store.db import Store
from core.store.workspace import create_workspace
from tests.conftest import sample_files

# written for the project (as in tests/test_app_links.py): no name in common with the harbour
LIGHTHOUSE = ("Lighthouse log.\n"
              "Keeper Ingrid Solberg lit the Skerry Lighthouse at dusk on Friday.\n"
              "Ingrid Solberg wrote to the Northern Lights Board that the Skerry Lighthouse lens was cracked.\n"
              "The Northern Lights Board sent Engineer Pavel Novak to the Skerry Lighthouse.\n"
              "Pavel Novak and Ingrid Solberg replaced the lens for the Northern Lights Board.\n"
              "Pavel Novak told Ingrid Solberg that the Skerry Lighthouse would need a new lamp by winter.\n")


def _communities(store: Store) -> set[frozenset[str]]:
    titles = {e["id"]: e["title"] for e in store.rows("entities", select="id, title")}
    return {frozenset(titles[i] for i in c["entity_ids"]) for c in store.rows("communities", select="entity_ids")}


def _reports(store: Store) -> dict[str, str]:
    return {r["id"]: r["full_content"] for r in store.rows("community_reports", select="id, full_content")}


def test_a_document_with_no_shared_entity_leaves_the_others_communities_and_reports(tmp_path):
    path = create_workspace("two", tmp_path)
    store = Store(path)
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    ingest_files(store, sample_files(6), max_bytes=10_000_000)
    run_index(store, settings)
    harbour, reports = _communities(store), _reports(store)
    assert len(harbour) >= 5

    ingest_files(store, [("lighthouse_log.txt", LIGHTHOUSE.encode())], max_bytes=10_000_000)
    added = run_index(store, settings)
    light = {t for (t,) in store.db.conn.execute("select title from entities") if "SOLBERG" in t.upper()}
    assert light, "the lighthouse's keeper is an entity"
    assert harbour <= _communities(store)  # every harbour community is still there, unchanged
    assert set(reports.items()) <= set(_reports(store).items())
    assert added["changes"]["reports"]["kept"] == len(reports)

    remove_documents(store, ["lighthouse_log.txt"])
    removed = run_index(store, settings, operation="remove")
    assert _communities(store) == harbour and _reports(store) == reports
    assert removed["changes"]["reports"]["rewritten"] == 0

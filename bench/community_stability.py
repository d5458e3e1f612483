"""How much of the community structure of documents that did not change survives removing another
document (issue 22: "a community whose members did not change keeps its report"). The offline
engine indexes two documents of different corpora together, then one is removed; of the
communities whose members all come from the kept document, how many come back with the same
members, and how many reports are rewritten. Also the connected components of the graph before
the removal (how separate the two documents' entities are).

    .venv/bin/python bench/community_stability.py
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import CORPORA, write_result  # noqa: E402

from core.index.lifecycle import remove_documents  # noqa: E402
from core.index.pipeline import run_index  # noqa: E402
from core.ingest.documents import ingest_paths  # noqa: E402
from core.settings import load_settings, save_settings  # noqa: E402
from core.store.db import Store  # noqa: E402
from core.store.workspace import create_workspace  # noqa: E402

PAIRS = [
    ("christmas_carol/a_christmas_carol_pg24022.txt", "msft_earnings_calls/TranscriptFY24Q4.txt"),
    ("operation_dulce/dulce.txt", "graphrag_articles_zh/article_2.txt"),
    ("msft_earnings_calls/TranscriptFY24Q4.txt", "operation_dulce/dulce.txt"),
    ("graphrag_articles_zh/article_1.txt", "graphrag_articles_zh/article_3.txt"),
]


def communities(store: Store) -> dict[frozenset[str], int]:
    titles = {e["id"]: e["title"] for e in store.rows("entities", select="id, title")}
    return {frozenset(titles[i] for i in c["entity_ids"] if i in titles): c["level"]
            for c in store.rows("communities", select="entity_ids, level")}


def components(store: Store) -> list[int]:
    import networkx as nx
    g = nx.Graph()
    g.add_edges_from((r["source"], r["target"]) for r in store.rows("relationships", select="source, target"))
    return sorted((len(c) for c in nx.connected_components(g)), reverse=True)


def one(keep: Path, drop: Path, tmp: Path) -> dict:
    path = create_workspace("stab", tmp)
    store = Store(path)
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    ingest_paths(store, [keep], max_bytes=10 ** 8)
    run_index(store, settings)
    alone = {k for k in communities(store)}
    ingest_paths(store, [drop], max_bytes=10 ** 8)
    run_index(store, settings)
    comps = components(store)
    kept_units = {t["id"] for t in store.rows("text_units", "document_id = (select id from documents where source_name = ?)",
                                              [keep.name], select="id")}
    keep_titles = {e["title"] for e in store.rows("entities", select="title, text_unit_ids")
                   if set(e["text_unit_ids"] or []) <= kept_units}
    before = communities(store)
    theirs = {k for k in before if k and k <= keep_titles}
    t0 = time.perf_counter()
    remove_documents(store, [drop.name])
    summary = run_index(store, settings, operation="remove")
    seconds = time.perf_counter() - t0
    after = communities(store)
    ch = summary["changes"]
    out = {"keep": keep.name, "drop": drop.name, "components_top5": comps[:5], "components": len(comps),
           "kept_doc_communities_before": len(theirs), "survived": len(theirs & set(after)),
           "same_as_kept_doc_alone": len(set(after) & alone), "communities_alone": len(alone),
           "communities_after": len(after), "reports": ch["reports"], "remove_seconds": round(seconds, 2)}
    store.close()
    return out


def main() -> int:
    rows = []
    for keep, drop in PAIRS:
        with tempfile.TemporaryDirectory() as tmp:
            r = one(CORPORA / keep, CORPORA / drop, Path(tmp))
        rows.append(r)
        print(f"{r['keep']} + {r['drop']}: graph in {r['components']} components (largest {r['components_top5']}); "
              f"of {r['kept_doc_communities_before']} communities of the kept document, {r['survived']} survive the "
              f"removal ({r['survived'] / max(1, r['kept_doc_communities_before']):.0%}); after it "
              f"{r['same_as_kept_doc_alone']} of {r['communities_alone']} communities equal those of the kept "
              f"document indexed alone; reports {r['reports']}; removal {r['remove_seconds']} s")
    print(f"  -> {write_result('community_stability', {'pairs': rows})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

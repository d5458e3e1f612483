"""Stage 6: embeddings of entity descriptions and report summaries through the configured
OpenAI-compatible embeddings endpoint, stored as float32 blobs. Offline there is no model and
FTS5 ranking stands in (local search falls back to it). Vectors whose text is unchanged are kept."""
from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from core.index.progress import Progress, ProgressFn, check, noop
from core.llm.client import LLM
from core.store.db import Store

BATCH = 32


def embedding_id(owner_table: str, owner_id: str, model: str, text: str) -> str:
    return "emb-" + hashlib.sha256(f"{owner_table}|{owner_id}|{model}|{text}".encode("utf-8")).hexdigest()[:20]


def texts_to_embed(store: Store, table: str) -> list[tuple[str, str, str]]:
    if table == "entities":
        return [("entities", e["id"], f"{e['title']}: {e['description'] or ''}")
                for e in store.rows("entities", select="id, title, description")]
    return [("community_reports", r["id"], f"{r['title']}: {r['summary'] or ''}")
            for r in store.rows("community_reports", select="id, title, summary")]


def run_embeddings(store: Store, llm: LLM | None, on_progress: ProgressFn = noop, cancel=None,
                   table: str = "entities", workers: int = 4) -> int:
    """Embed one table's rows (entities or community_reports); batches go out in parallel."""
    if llm is None or llm.embedder is None:
        on_progress(Progress("embeddings", 0, 0, "no embedding model: full-text search stands in"))
        return 0
    model = llm.embedder.model
    wanted = {embedding_id(t, o, model, x): (t, o, x) for t, o, x in texts_to_embed(store, table)}
    have = {r["id"] for r in store.rows("embeddings", "model = ? and owner_table = ?", [model, table], select="id")}
    todo = [(k, v) for k, v in wanted.items() if k not in have]
    batches = [todo[i:i + BATCH] for i in range(0, len(todo), BATCH)]
    done = 0

    def embed(part):
        check(cancel)
        return part, llm.embed([x for _, (_, _, x) in part])

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for part, vectors in pool.map(embed, batches):
            store.upsert("embeddings", [{"id": k, "owner_table": t, "owner_id": o, "model": model,
                                         "vector": np.asarray(v, dtype=np.float32).tobytes()}
                                        for (k, (t, o, _)), v in zip(part, vectors)])
            done += len(part)
            on_progress(Progress("embeddings", done, len(todo), f"{table}"))
    stale = [r["id"] for r in store.rows("embeddings", "model = ? and owner_table = ?", [model, table], select="id")
             if r["id"] not in wanted]
    for i in range(0, len(stale), 500):
        part = stale[i:i + 500]
        store.delete_where("embeddings", f"id in ({','.join('?' * len(part))})", part)
    return len(todo)

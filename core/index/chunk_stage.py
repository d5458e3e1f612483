"""Stage 1: documents -> text units (content-defined chunks with their character spans).

A unit's id comes from its document and its text (not its position), so a document edited in one
paragraph keeps the ids, and so the extractions, of every unit whose text did not change. A
document chunked again (replaced) keeps its unchanged units (their human_readable_ids too);
the units that vanished go with everything only they supported (lifecycle.prune_units), in the
same transaction as the new units.
"""
from __future__ import annotations

import hashlib

from core.index.chunking import content_chunks
from core.index.prune import prune_units, revive_hrids
from core.index.progress import Progress, ProgressFn, check, noop
from core.settings import Settings
from core.store.db import Store


def text_unit_id(document_id: str, text: str, occurrence: int, size: int, overlap: int) -> str:
    """Content-derived: the document, the unit's text and which occurrence of that text in the
    document it is (a paragraph repeated word for word makes two units)."""
    key = f"{document_id}|{occurrence}|{size}|{overlap}|{text}"
    return "tu-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def unit_rows(document_id: str, text: str, settings: Settings) -> list[dict]:
    seen: dict[str, int] = {}
    rows = []
    for c in content_chunks(text or "", settings.chunk_size, settings.chunk_overlap, settings.encoding):
        k = seen.get(c.text, 0)
        seen[c.text] = k + 1
        rows.append({"id": text_unit_id(document_id, c.text, k, settings.chunk_size, settings.chunk_overlap),
                     "document_id": document_id, "ordinal": c.ordinal, "text": c.text, "n_tokens": c.n_tokens,
                     "char_start": c.char_start, "char_end": c.char_end})
    return rows


def write_units(store: Store, doc_ids: list[str], rows: list[dict], run_id: str | None = None) -> int:
    """Inside a transaction: make these documents' units exactly `rows`. Units that stay keep
    their row (human_readable_id, extractions); vanished ones are pruned. Returns units added."""
    marks = ",".join("?" * len(doc_ids))
    with store.atomic() as db:
        old = {r[0] for r in db.conn.execute(f"select id from text_units where document_id in ({marks})", doc_ids)}
        new_ids = {r["id"] for r in rows}
        prune_units(store, sorted(old - new_ids), run_id=run_id)
        keep = [r for r in rows if r["id"] in old]
        db.conn.executemany("update text_units set ordinal = ?, char_start = ?, char_end = ? where id = ?",
                            [(r["ordinal"], r["char_start"], r["char_end"], r["id"]) for r in keep])
        added = revive_hrids(store, "text_units", [r for r in rows if r["id"] not in old])
        store.insert("text_units", added)
        db.conn.execute(f"update documents set status = 'chunked' where id in ({marks})", doc_ids)
    return len(added)


def run_chunk(store: Store, settings: Settings, on_progress: ProgressFn = noop, cancel=None,
              batch: int = 100, run_id: str | None = None) -> int:
    """Chunk every document not yet chunked. Returns units written. Documents are written in
    batches of `batch` per transaction (one transaction per document cost 7 ms each on a
    1,669-document corpus, most of the stage)."""
    docs = store.rows("documents", "status is null or status != ?", ["chunked"], select="id, human_readable_id")
    written = 0
    for start in range(0, len(docs), batch):
        check(cancel)
        part = docs[start:start + batch]
        texts = {r["id"]: r["text"] for r in store.rows(
            "documents", f"id in ({','.join('?' * len(part))})", [d["id"] for d in part], select="id, text")}
        rows = []
        for doc in part:
            rows += unit_rows(doc["id"], texts.get(doc["id"]) or "", settings)
        written += write_units(store, [d["id"] for d in part], rows, run_id)  # the batch lands whole
        on_progress(Progress("chunk", start + len(part), len(docs), f"{written} chunks so far"))
    if not docs:
        on_progress(Progress("chunk", 0, 0, "no new documents"))
    return written

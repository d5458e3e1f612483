"""Stage 1: documents -> text units (token windows with their character spans)."""
from __future__ import annotations

import hashlib

from core.chunking import chunk_text
from core.index.progress import Progress, ProgressFn, check, noop
from core.settings import Settings
from core.store import Store


def text_unit_id(document_id: str, char_start: int, char_end: int, size: int, overlap: int) -> str:
    key = f"{document_id}|{char_start}|{char_end}|{size}|{overlap}"
    return "tu-" + hashlib.sha256(key.encode()).hexdigest()[:20]


def run_chunk(store: Store, settings: Settings, on_progress: ProgressFn = noop, cancel=None) -> int:
    """Chunk every document not yet chunked with the current settings. Returns units written."""
    docs = store.rows("documents", "status is null or status != ?", ["chunked"],
                      select="id, human_readable_id, text, status")
    written = 0
    for i, doc in enumerate(docs):
        check(cancel)
        chunks = chunk_text(doc["text"] or "", settings.chunk_size, settings.chunk_overlap, settings.encoding)
        rows = [{"id": text_unit_id(doc["id"], c.char_start, c.char_end, settings.chunk_size, settings.chunk_overlap),
                 "document_id": doc["id"], "ordinal": c.ordinal, "text": c.text, "n_tokens": c.n_tokens,
                 "char_start": c.char_start, "char_end": c.char_end} for c in chunks]
        with store.atomic() as db:
            db.execute("delete from text_units where document_id = ?", [doc["id"]])
        store.insert("text_units", rows)
        store.update("documents", doc["id"], status="chunked")
        written += len(rows)
        on_progress(Progress("chunk", i + 1, len(docs), f"{len(rows)} chunks from document {doc['human_readable_id']}"))
    if not docs:
        on_progress(Progress("chunk", 0, 0, "no new documents"))
    return written

"""Stage 1: documents -> text units (content-defined chunks with their character spans).

A unit's id comes from its document and its text (not its position), so a document edited in one
paragraph keeps the ids, and so the extractions, of every unit whose text did not change. A
document chunked again (replaced) keeps its unchanged units (their human_readable_ids too);
the units that vanished go with everything only they supported (lifecycle.prune_units), in the
same transaction as the new units.
"""
from __future__ import annotations

import hashlib
import json

from core.index.chunking import Chunk, content_chunks
from core.ingest.structure import Structure, heading_titles
from core.index.prune import prune_units, revive_hrids
from core.index.progress import Progress, ProgressFn, check, noop
from core.settings import Settings
from core.store.db import Store


def text_unit_id(document_id: str, text: str, occurrence: int, size: int, overlap: int) -> str:
    """Content-derived: the document, the unit's text and which occurrence of that text in the
    document it is (a paragraph repeated word for word makes two units)."""
    key = f"{document_id}|{occurrence}|{size}|{overlap}|{text}"
    return "tu-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def _structure(metadata) -> Structure | None:
    if isinstance(metadata, str):
        metadata = json.loads(metadata or "{}")
    return Structure.from_dict(metadata["structure"]) \
        if isinstance(metadata, dict) and metadata.get("structure") else None


def document_chunks(text: str, settings: Settings, metadata=None) -> list[Chunk]:
    """The chunks a document makes, cut before its headings where it has them (its metadata's
    structure)."""
    return _chunks(text, settings, _structure(metadata))


def _chunks(text: str, settings: Settings, structure: Structure | None) -> list[Chunk]:
    return content_chunks(text or "", settings.chunk_size, settings.chunk_overlap, settings.encoding,
                          [h[0] for h in structure.headings] if structure is not None else ())


def unit_rows(document_id: str, text: str, settings: Settings, metadata: dict | str | None = None) -> list[dict]:
    """The units of a document; with its metadata's structure (a Markdown or HTML document's
    headings, code and bold terms), each unit carries its heading path and where those are in
    its text."""
    structure = _structure(metadata)
    seen: dict[str, int] = {}
    rows = []
    for c in _chunks(text, settings, structure):
        k = seen.get(c.text, 0)
        seen[c.text] = k + 1
        row = {"id": text_unit_id(document_id, c.text, k, settings.chunk_size, settings.chunk_overlap),
               "document_id": document_id, "ordinal": c.ordinal, "text": c.text, "n_tokens": c.n_tokens,
               "char_start": c.char_start, "char_end": c.char_end}
        if structure is not None:
            row["headings"] = heading_titles(text, structure, c.char_start)
            row["structure"] = structure.within(c.char_start, c.char_end)
        rows.append(row)
    return rows


def write_units(store: Store, doc_ids: list[str], rows: list[dict], run_id: str | None = None) -> int:
    """Inside a transaction: make these documents' units exactly `rows`. Units that stay keep
    their row (human_readable_id, extractions); vanished ones are pruned. Returns units added."""
    with store.atomic():
        old = {r["id"] for r in store.rows_in("text_units", "document_id", doc_ids, select="id")}
        new_ids = {r["id"] for r in rows}
        prune_units(store, sorted(old - new_ids), run_id=run_id)
        store.update_rows("text_units", [
            {"id": r["id"], "ordinal": r["ordinal"], "char_start": r["char_start"], "char_end": r["char_end"],
             "headings": r.get("headings"), "structure": r.get("structure")} for r in rows if r["id"] in old])
        added = revive_hrids(store, "text_units", [r for r in rows if r["id"] not in old])
        store.insert("text_units", added)
        store.update_rows("documents", [{"id": d, "status": "chunked"} for d in doc_ids])
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
        texts = {r["id"]: r for r in store.rows_in("documents", "id", [d["id"] for d in part],
                                                   select="id, text, metadata")}
        rows = []
        for doc in part:
            got = texts.get(doc["id"]) or {}
            rows += unit_rows(doc["id"], got.get("text") or "", settings, got.get("metadata"))
        written += write_units(store, [d["id"] for d in part], rows, run_id)  # the batch lands whole
        on_progress(Progress("chunk", start + len(part), len(docs), f"{written} chunks so far"))
    if not docs:
        on_progress(Progress("chunk", 0, 0, "no new documents"))
    return written

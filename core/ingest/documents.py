"""Ingest: files become rows of the documents table.

load_bytes turns one file into documents (one per file, or one per row of a .csv/.jsonl) or
raises IngestError with a message a user can act on. ingest_files / ingest_paths run a batch:
duplicates (by the SHA-256 of the normalised text) are reported, not written; a bad file is
rejected with its reason and never aborts the rest; each file's rows are written in one
transaction, so the workspace holds whole files only.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from core.ingest.rst import rst_to_text
from core.ingest.structure import locate_headings, markdown_to_text
from core.ingest.loaders import (ARCHIVE_EXT, ARCHIVE_MSG, DOCX_MIME, HTML_EXT, JSONL_EXT, SUPPORTED,
                          TABLE_EXT, TEXT_COLUMNS, TEXT_EXT, IngestError, LoadedDocument, _Bad,
                          _short, _size, clean_text, decode_text, html_read, make_document,
                          read_docx, read_pdf, sniff, strip_gutenberg)
from core.store.db import now
from core.ingest.neardup import NearDupIndex, sketch
from core.tokens import count_tokens
from core.store.access import require

__all__ = ["IngestError", "LoadedDocument", "Rejected", "IngestReport", "load_bytes",
           "ingest_files", "ingest_paths", "safe_name"]

Progress = Callable[[str, int, int, str], None]


@dataclass
class Rejected:
    source_name: str
    reason: str


@dataclass
class IngestReport:
    added: list[dict[str, Any]] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    # new text under the title of a document already in the workspace: not added; the caller
    # asks whether to replace it (rows as for documents, with old_id: the document it would replace)
    same_title: list[dict[str, Any]] = field(default_factory=list)


# names -------------------------------------------------------------------------------------
_UNSAFE = re.compile(r'[<>:"|?*\x00-\x1f\x7f]')


def safe_name(name: str, max_len: int = 200) -> str:
    """A file name reduced to a harmless basename: no directories, no control or format
    characters (RTL overrides), no characters that are special in paths or markup."""
    name = unicodedata.normalize("NFC", str(name or ""))
    name = re.split(r"[\\/]", name)[-1]
    name = "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co"))
    name = _UNSAFE.sub("_", name)
    name = re.sub(r"\s+", " ", name).strip(" .")
    if len(name) > max_len:
        stem, dot, ext = name.rpartition(".")
        name = (stem[:max_len - len(ext) - 1] + "." + ext) if dot and len(ext) <= 10 else name[:max_len]
    return name or "unnamed"


def extension(name: str) -> str:
    base = name.lower()
    if base.endswith((".tar.gz", ".tar.bz2", ".tar.xz")):
        return ".tar"
    dot = base.rfind(".")
    return base[dot:] if dot > 0 else ""


def too_big(size: int, limit: int) -> str:
    have, cap = _size(size), _size(limit)
    if have == cap:
        have, cap = f"{size:,} bytes", f"{limit:,} bytes"
    return (f"the file is {have}, over the upload limit of {cap} (setting max_file_mb); "
            "split it or raise the limit")


# tables: one document per row --------------------------------------------------------------
def _pick_column(keys: list[str], wanted: str | None, what: str) -> str:
    lower = {k.strip().lower(): k for k in keys if isinstance(k, str)}
    if wanted:
        if wanted.strip().lower() in lower:
            return lower[wanted.strip().lower()]
        raise _Bad(f'there is no {what} "{wanted}"; the {what}s are: {_listing(keys)}')
    for candidate in TEXT_COLUMNS:
        if candidate in lower:
            return lower[candidate]
    raise _Bad(f"no text {what} found (looked for {', '.join(TEXT_COLUMNS)}); the {what}s are: "
               f"{_listing(keys)}. Choose the {what} that holds the text")


def _listing(keys: list[str]) -> str:
    if not keys:
        return "(none)"
    more = f" and {len(keys) - 20} more" if len(keys) > 20 else ""
    return ", ".join(safe_name(str(k), 40) for k in keys[:20]) + more


def _row_metadata(record: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in list(record.items())[:50]:
        if k in skip or v is None or isinstance(v, (dict, list)):
            continue
        out[str(k)[:100]] = v[:1000] if isinstance(v, str) else v
    return out


def rows_to_documents(records: list[tuple[int, dict[str, Any]]], keys: list[str], source: str,
                      mime: str, text_column: str | None, what: str, base: dict[str, Any]) -> list[LoadedDocument]:
    column = _pick_column(keys, text_column, what)
    title_col = next((k for k in keys if isinstance(k, str) and k.strip().lower() == "title"), None)
    docs: list[LoadedDocument] = []
    for number, record in records:
        value = record.get(column)
        if isinstance(value, (dict, list)):
            raise _Bad(f'{what} "{column}" of row {number} holds {type(value).__name__} data, not text')
        text = clean_text("" if value is None else str(value))
        if not text:
            continue
        title = str(record.get(title_col) or "").strip() if title_col else ""
        title = re.sub(r"\s+", " ", title)[:200] or f"{source} #{number}"
        meta = dict(base, row=number, text_column=column, fields=_row_metadata(record, {column}))
        docs.append(make_document(title, source, mime, text, meta))
    if not docs:
        raise _Bad(f'no row has text in the {what} "{column}"')
    return docs


def read_table(text: str, delimiter: str, max_bytes: int) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    csv.field_size_limit(max(csv.field_size_limit(), min(max_bytes + 1, 2**31 - 1)))
    first = text.split("\n", 1)[0]
    if delimiter == "," and "," not in first:
        delimiter = next((d for d in ";\t|" if d in first), ",")
    try:
        reader = csv.reader(io.StringIO(text), delimiter=delimiter)
        header = next(reader, None)
        if not header or not any(h.strip() for h in header):
            raise _Bad("the table has no header row; the first line must name the columns")
        header = [h.strip() for h in header]
        records = [(n, dict(zip(header, row))) for n, row in enumerate(reader, start=1) if any(row)]
    except csv.Error as exc:
        raise _Bad(f"line {reader.line_num} cannot be read as CSV ({_short(exc)})") from None
    return header, records


def read_jsonl(text: str) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    keys: dict[str, None] = {}
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            detail = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise _Bad(f"line {number} is not valid JSON ({detail}); fix or remove that line and "
                       "upload the file again") from None
        if not isinstance(record, dict):
            raise _Bad(f"line {number} is not a JSON object; each line must be an object such as "
                       '{"title": "...", "text": "..."}')
        keys.update(dict.fromkeys(k for k in record if k not in keys))
        records.append((number, record))
    return list(keys), records


# one file ------------------------------------------------------------------------------------
def load_bytes(name: str, data: bytes, *, max_bytes: int,
               text_column: str | None = None) -> list[LoadedDocument]:
    """The documents in one file. Raises IngestError("<name>: <what is wrong and what to do>")."""
    source = safe_name(name)
    try:
        return _load(source, data, max_bytes, text_column)
    except _Bad as exc:
        raise IngestError(f"{source}: {exc}") from None
    except RecursionError:
        raise IngestError(f"{source}: the file is nested too deeply to be read") from None


def _load(source: str, data: bytes, max_bytes: int, text_column: str | None) -> list[LoadedDocument]:
    if len(data) > max_bytes:
        raise _Bad(too_big(len(data), max_bytes))
    if not data.strip():
        raise _Bad("the file is empty" if not data else "the file is empty (only whitespace)")
    ext = extension(source)
    kind = sniff(data)
    if ext in ARCHIVE_EXT or kind.startswith("archive:") or (kind == "zip" and ext != ".docx"):
        raise _Bad(ARCHIVE_MSG)
    if ext == ".pdf":
        if b"%PDF-" not in data[:1024]:  # readers allow a little junk before the header
            raise _Bad("this is not a PDF file (it does not start with %PDF); check the file "
                       "or its extension")
        text, meta = read_pdf(data)
        return [make_document(source, source, "application/pdf", text, meta)]
    if ext == ".docx":
        if kind == "ole":
            raise _Bad("this is an old Word (.doc) file renamed to .docx; open it in Word and "
                       "save it as .docx")
        if kind not in ("docx", "zip"):
            raise _Bad("this .docx file is damaged or is not a Word document (not a valid zip "
                       "package); open it in Word and save it again")
        text, meta = read_docx(data, max_bytes)
        return [make_document(source, source, DOCX_MIME, text, meta)]
    if ext in (".doc", ".xls", ".ppt", ".rtf", ".odt", ".xlsx", ".pptx", ".epub", ".json"):
        hint = {".doc": "save it as .docx", ".rtf": "save it as .docx", ".odt": "save it as .docx",
                ".xls": "save the sheet as .csv", ".xlsx": "save the sheet as .csv",
                ".ppt": "export it as PDF", ".pptx": "export it as PDF",
                ".epub": "convert it to .txt or PDF",
                ".json": "use .jsonl with one JSON object per line"}[ext]
        raise _Bad(f"{ext} files are not supported; {hint}")
    if ext not in TEXT_EXT and ext not in HTML_EXT and ext not in TABLE_EXT and ext not in JSONL_EXT:
        what = f"{ext} files are" if ext else "a file without an extension is"
        raise _Bad(f"{what} not supported; Sensemaker reads {SUPPORTED}")
    # a text format: refuse binaries under a text name, with the name of what they really are
    if kind == "pdf":
        raise _Bad(f"the content is a PDF but the name ends in {ext}; rename it to .pdf")
    if kind == "docx":
        raise _Bad(f"the content is a Word document but the name ends in {ext}; rename it to .docx")
    if kind == "ole":
        raise _Bad(f"the content is an old Word/Excel file, not {ext} text; save it as .docx or .csv")
    if kind.startswith(("image:", "binary:", "zipdoc:")):
        what = kind.split(":", 1)[1].split(";")[0]
        raise _Bad(f"the name ends in {ext} but the content is {what}; Sensemaker reads text "
                   "documents only")
    raw, encoding = decode_text(data)
    text = clean_text(raw, check_binary=True)
    if not text:
        raise _Bad("the file has no text")
    base: dict[str, Any] = {"encoding": encoding}
    if ext in TABLE_EXT:
        keys, records = read_table(text, TABLE_EXT[ext], max_bytes)
        mime = "text/csv" if ext == ".csv" else "text/tab-separated-values"
        return rows_to_documents(records, keys, source, mime, text_column, "column", base)
    if ext in JSONL_EXT:
        keys, records = read_jsonl(text)
        if not records:
            raise _Bad("the file has no JSON lines")
        return rows_to_documents(records, keys, source, "application/jsonl", text_column, "field", base)
    mime = TEXT_EXT.get(ext, "text/html")
    html_headings: list[tuple[int, str]] = []
    if ext in HTML_EXT:
        text, page_title, headings = html_read(text)
        text = clean_text(text)
        if page_title:
            base["html_title"] = page_title[:200]
        if not text:
            raise _Bad("this HTML page has no visible text")
        html_headings = headings
    text, gutenberg = strip_gutenberg(text)
    if html_headings:
        base["structure"] = locate_headings(text, html_headings).to_dict()
    if mime in ("text/markdown", "text/x-rst"):
        text, structure = markdown_to_text(text) if mime == "text/markdown" else rst_to_text(text)
        if not text:
            raise _Bad(f"this {'Markdown' if mime == 'text/markdown' else 'reStructuredText'} file has no text")
        base["structure"] = structure.to_dict()
    return [make_document(source, source, mime, text, {**base, **gutenberg})]


# a batch -------------------------------------------------------------------------------------
def ingest_files(store, files: Iterable[tuple[str, bytes]], *, max_bytes: int,
                 text_column: str | None = None, on_progress: Progress | None = None,
                 near_duplicate: float = 0.9) -> IngestReport:
    """Load every (name, bytes) and write the new documents. Never raises for a bad file."""
    require(store, 'upload')
    if not isinstance(files, (list, tuple)):
        files = list(files)
    return _ingest(store, iter(files), len(files), max_bytes, text_column, on_progress, near_duplicate)


def ingest_paths(store, paths: Iterable[str | Path], *, max_bytes: int,
                 text_column: str | None = None, on_progress: Progress | None = None,
                 near_duplicate: float = 0.9) -> IngestReport:
    """Ingest files and directories (walked recursively in sorted order, hidden entries and
    symlinked directories skipped). Files are read one at a time; files over the limit are not
    read at all."""
    require(store, 'upload')
    found: list[tuple[str, Path | None, str | None]] = []  # (name, path, rejection)
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found += [(f.name, f, None) for f in _walk(p)]
        elif p.is_file():
            found.append((p.name, p, None))
        else:
            found.append((p.name, None, f"{p}: no such file or directory"))

    def entries() -> Iterator[tuple[str, bytes | Exception]]:
        for name, path, problem in found:
            if path is None:
                yield name, IngestError(problem)
                continue
            try:
                size = path.stat().st_size
                if size > max_bytes:
                    yield name, IngestError(f"{safe_name(name)}: {too_big(size, max_bytes)}")
                    continue
                yield name, path.read_bytes()
            except OSError as exc:
                yield name, IngestError(f"{safe_name(name)}: the file cannot be read "
                                        f"({exc.strerror or exc})")

    return _ingest(store, entries(), len(found), max_bytes, text_column, on_progress, near_duplicate)


def _walk(root: Path) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            path = Path(folder) / f
            if not f.startswith(".") and path.is_file():
                out.append(path)
    return out


def _ingest(store, entries: Iterator[tuple[str, bytes | Exception]], total: int, max_bytes: int,
            text_column: str | None, on_progress: Progress | None, near_duplicate: float = 0.9) -> IngestReport:
    report = IngestReport()
    known = set(store.column("documents", "sha256"))
    near = NearDupIndex()
    for r in store.rows("documents", "sketch is not null", select="title, sketch", order_by=None):
        near.add(r["title"], r["sketch"])
    titled = {r["title"]: r["id"] for r in store.rows("documents", select="id, title", order_by=None)}
    for done, (name, data) in enumerate(entries, start=1):
        source = safe_name(name)
        try:
            if isinstance(data, Exception):
                raise data
            docs = load_bytes(name, data, max_bytes=max_bytes, text_column=text_column)
        except IngestError as exc:
            report.rejected.append(Rejected(source, str(exc)))
            docs = []
        except Exception as exc:  # a loader bug must not cost the user the rest of the batch
            report.rejected.append(Rejected(
                source, f"{source}: the file could not be read ({exc.__class__.__name__}: {exc})"))
            docs = []
        rows = []
        for doc in docs:
            if doc.sha256 in known:
                report.duplicates.append(doc.title)
                continue
            row = _row(doc)
            if doc.title in titled:  # a new version of a document: replace it? (the caller asks)
                report.same_title.append({**row, "old_id": titled[doc.title]})
                continue
            twin = near.find(row["sketch"], near_duplicate)
            if twin is not None:
                report.rejected.append(Rejected(source, (
                    f"{source}: nearly the same text as '{twin[0]}' (about {twin[1]:.0%} of its passages "
                    f"are the same), so it was not added as a second copy")))
                continue
            known.add(doc.sha256)
            near.add(doc.title, row["sketch"])
            rows.append(row)
        if rows:
            report.added += _write(store, rows, report)
        if on_progress:
            status = "rejected" if not docs else f"{len(rows)} added"
            on_progress("ingest", done, max(total, done), f"{source}: {status}")
    return report


def _row(doc: LoadedDocument) -> dict[str, Any]:
    return {"id": "doc-" + doc.sha256[:16], "title": doc.title, "source_name": doc.source_name,
            "mime": doc.mime, "sha256": doc.sha256, "n_tokens": count_tokens(doc.text),
            "text": doc.text, "metadata": doc.metadata, "created_at": now(), "status": "new",
            "sketch": sketch(doc.text)}


def _write(store, rows: list[dict[str, Any]], report: IngestReport) -> list[dict[str, Any]]:
    """One transaction per file. Another session may have added the same text meanwhile: those
    rows become duplicates."""
    try:
        store.insert("documents", rows)
    except sqlite3.IntegrityError:
        fresh = []
        for row in rows:
            try:
                store.insert("documents", [row])
                fresh.append(row)
            except sqlite3.IntegrityError:
                report.duplicates.append(row["title"])
        rows = fresh
    return store.by_ids("documents", [r["id"] for r in rows])


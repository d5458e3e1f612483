"""File loaders: bytes in, plain-text documents out, or a rejection a user can act on.

load_bytes(name, data) sniffs the content (archives, images, executables, PDFs under the wrong
name), decodes text (BOMs, UTF-8, UTF-16, legacy CJK encodings, cp1252 and UTF-8/cp1252 mixes),
and reads .txt/.md/.rst, .html, .csv/.tsv, .jsonl, .pdf and .docx. Every failure is an IngestError
whose message starts with the (sanitised) file name and says what to do.
"""
from __future__ import annotations

import codecs
import hashlib
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from core.errors import UserError

TEXT_EXT = {".txt": "text/plain", ".text": "text/plain", ".md": "text/markdown",
            ".markdown": "text/markdown", ".rst": "text/x-rst", ".rest": "text/x-rst"}
HTML_EXT = {".html", ".htm", ".xhtml"}
TABLE_EXT = {".csv": ",", ".tsv": "\t"}
JSONL_EXT = {".jsonl", ".ndjson"}
ARCHIVE_EXT = {".zip", ".gz", ".tgz", ".tar", ".bz2", ".tbz2", ".xz", ".txz", ".7z", ".rar",
               ".zst", ".lz", ".lzma", ".z", ".cab", ".iso", ".jar"}
SUPPORTED = ".txt, .md, .rst, .pdf, .docx, .html, .csv and .jsonl"
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
TEXT_COLUMNS = ("text", "content", "body")
ARCHIVE_MSG = "archives are not accepted; unpack them first and upload the files inside"


class IngestError(UserError):
    """A file that cannot become a document; the message names the file and the fix."""


class _Bad(Exception):
    """A rejection reason, prefixed with the file name by load_bytes."""


@dataclass
class LoadedDocument:
    title: str
    source_name: str
    mime: str
    text: str
    sha256: str
    metadata: dict[str, Any] = field(default_factory=dict)


def _size(n: int) -> str:
    if n >= 1024 ** 3:
        return f"{n / 1024 ** 3:.1f} GB"
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"


# content sniffing ----------------------------------------------------------------------------
_MAGIC: list[tuple[bytes, str]] = [
    (b"\x1f\x8b", "archive:a gzip archive"), (b"\xfd7zXZ\x00", "archive:an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "archive:a 7-Zip archive"), (b"Rar!\x1a\x07", "archive:a RAR archive"),
    (b"\x28\xb5\x2f\xfd", "archive:a zstd archive"), (b"MSCF\x00\x00", "archive:a CAB archive"),
    (b"%PDF-", "pdf"), (b"\x89PNG\r\n\x1a\n", "image:a PNG image"), (b"\xff\xd8\xff", "image:a JPEG image"),
    (b"GIF87a", "image:a GIF image"), (b"GIF89a", "image:a GIF image"),
    (b"II*\x00", "image:a TIFF image"), (b"MM\x00*", "image:a TIFF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"), (b"\x7fELF", "binary:an executable program"),
    (b"SQLite format 3\x00", "binary:an SQLite database"), (b"\x00asm", "binary:a WebAssembly module"),
]
_ZIP_KINDS = [("word/document.xml", "docx"), ("xl/", "zipdoc:an Excel workbook; save the sheet as .csv"),
              ("ppt/", "zipdoc:a PowerPoint file; export it as PDF"),
              ("content.xml", "zipdoc:an OpenDocument file; save it as .docx or PDF"),
              ("META-INF/container.xml", "zipdoc:an EPUB e-book; convert it to .txt or PDF")]


def sniff(data: bytes) -> str:
    """The kind of content: 'pdf', 'docx', 'zip', 'ole', 'archive:...', 'image:...',
    'binary:...', 'zipdoc:...' or 'unknown' (possibly text)."""
    head = data[:16]
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        try:
            names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            return "zip"
        for marker, kind in _ZIP_KINDS:
            if any(n == marker or (marker.endswith("/") and n.startswith(marker)) for n in names):
                return kind
        return "zip"
    if head.startswith(b"BZh") and data[4:10] == b"\x31\x41\x59\x26\x53\x59":
        return "archive:a bzip2 archive"
    if data[257:262] == b"ustar" and b"\x00" in data[:257]:
        return "archive:a tar archive"
    if head[:4] == b"RIFF" and data[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return "image:a WebP image" if data[8:12] == b"WEBP" else "binary:a media file"
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return "unknown"


# text decoding -------------------------------------------------------------------------------
_CP1252_UNDEFINED = {0x81, 0x8D, 0x8F, 0x90, 0x9D}


def _cp1252_fallback(exc: UnicodeError) -> tuple[str, int]:
    bad = exc.object[exc.start:exc.end]
    return "".join(chr(b) if b in _CP1252_UNDEFINED else bytes([b]).decode("cp1252") for b in bad), exc.end


codecs.register_error("sensemaker_cp1252", _cp1252_fallback)

_BOMS = [(codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
         (codecs.BOM_UTF8, "utf-8", "utf-8 (BOM)"), (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16")]
_CJK = {"gb18030", "gbk", "gb2312", "hz", "big5", "big5hkscs", "cp950", "shift_jis", "cp932",
        "shift_jis_2004", "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213",
        "iso2022_jp", "euc_kr", "cp949", "johab", "iso2022_kr"}
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")
BINARY_MSG = "this looks like a binary file, not text"


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:8192]
    half = max(len(sample) // 2, 1)
    even = sample[0::2].count(0) / half
    odd = sample[1::2].count(0) / half
    if len(data) % 2 == 0 and odd > 0.3 and even < 0.02:
        return "utf-16-le"
    if len(data) % 2 == 0 and even > 0.3 and odd < 0.02:
        return "utf-16-be"
    return None


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding label). Raises _Bad for content that is not text."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec), label
            except UnicodeDecodeError as exc:
                raise _Bad(f"the file starts with a {label} byte-order mark but is not valid "
                           f"{label} (byte {exc.start + len(bom)}); re-save it as UTF-8") from None
    if b"\x00" in data:
        codec = _utf16_without_bom(data)
        try:
            if codec:
                return data.decode(codec), codec.replace("-le", "").replace("-be", "") + " (no BOM)"
        except UnicodeDecodeError:
            pass
        raise _Bad(f"{BINARY_MSG} (it contains NUL bytes)")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    runs = _HIGH_RUN.findall(data[:1_000_000])
    utf8_runs = sum(1 for r in runs if _is_utf8(r))
    single = sum(1 for r in runs if len(r) == 1)
    high_share = sum(map(len, runs)) / max(min(len(data), 1_000_000), 1)
    isolated = single * 10 >= len(runs) * 3
    if runs and utf8_runs * 2 < len(runs) and (not isolated or high_share > 0.2):
        # dense or long runs of high bytes: a multi-byte legacy encoding (GB18030, Big5,
        # Shift-JIS, EUC-KR) or a Cyrillic/Greek code page, rather than accents in Western text
        if sum(map(len, runs)) < 24 and _plausible_chinese(data):
            return data.decode("gb18030"), "gb18030"  # too short for statistics: the common case
        import charset_normalizer

        best = charset_normalizer.from_bytes(data[:1_000_000]).best()
        enc = best.encoding if best is not None else None
        if enc and not enc.startswith(("utf_16", "utf_32")) and (not isolated or enc in _CJK):
            try:
                return data.decode(enc), enc.replace("_", "-")
            except (UnicodeDecodeError, LookupError):
                pass
    if not utf8_runs:
        return data.decode("cp1252", errors="sensemaker_cp1252"), "cp1252"
    return data.decode("utf-8", errors="sensemaker_cp1252"), "mixed utf-8/cp1252"


def _plausible_chinese(data: bytes) -> bool:
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return False
    return all(c < "\x80" or "\u3000" <= c <= "\u303f" or "\u4e00" <= c <= "\u9fff"
               or "\uff00" <= c <= "\uffef" for c in text)


def _is_utf8(run: bytes) -> bool:
    try:
        run.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def clean_text(text: str, *, check_binary: bool = False) -> str:
    """Newlines normalised to \\n, control characters removed, NFC, outer blank lines stripped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\v", "\n")
    text = text.lstrip("\ufeff")
    cleaned, n_bad = _CONTROL.subn("", text)
    if check_binary and n_bad > len(text) * 0.05:
        raise _Bad(f"{BINARY_MSG} ({n_bad / len(text):.0%} of its characters are control codes)")
    if not unicodedata.is_normalized("NFC", cleaned):
        cleaned = unicodedata.normalize("NFC", cleaned)
    return cleaned.strip("\n ").rstrip()


# Project Gutenberg ---------------------------------------------------------------------------
_PG_START = re.compile(r"^\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK[^\n]*$", re.I | re.M)
_PG_END = re.compile(r"^\*{3}\s*END OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK[^\n]*$", re.I | re.M)
_PG_TAIL = re.compile(r"\n\s*End of (?:the )?Project Gutenberg[^\n]*\s*$", re.I)


def strip_gutenberg(text: str) -> tuple[str, dict[str, Any]]:
    """Drop the Project Gutenberg header and licence so they cannot dominate the graph."""
    start = _PG_START.search(text)
    if not start:
        return text, {}
    end = _PG_END.search(text, start.end())
    body = text[start.end(): end.start() if end else len(text)]
    body = _PG_TAIL.sub("", body).strip()
    if not body:
        return text, {}
    meta: dict[str, Any] = {"stripped": "project gutenberg boilerplate"}
    for key in ("Title", "Author", "Language"):
        m = re.search(rf"^{key}:\s*(.+)$", text[:start.start()], re.M)
        if m:
            meta[f"gutenberg_{key.lower()}"] = m.group(1).strip()[:200]
    return body, meta


# HTML ----------------------------------------------------------------------------------------
_SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "head", "iframe", "object"}
_BLOCK_TAGS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header",
               "footer", "table", "ul", "ol", "dl", "blockquote", "pre", "hr", "main", "nav",
               "aside", "figure", "figcaption", "form"}
_LINE_TAGS = {"br", "li", "tr", "dd", "dt", "option"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.skip = 0
        self.in_title = False
        self.pre = 0
        self.headings: list[tuple[int, str]] = []  # (level, text) of each h1-h6, in order
        self.heading: tuple[int, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in _HEADINGS:
            self.heading = (int(tag[1]), [])
        if tag == "title":
            self.in_title = True
        elif tag in _SKIP_TAGS:
            self.skip += 1
        if tag == "pre":
            self.pre += 1
        if tag in _BLOCK_TAGS:
            self.parts.append("\n\n")
        elif tag in _LINE_TAGS:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        if tag in _BLOCK_TAGS or tag in _LINE_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in _HEADINGS and self.heading is not None:
            text = re.sub(r"\s+", " ", "".join(self.heading[1])).strip()
            if text:
                self.headings.append((self.heading[0], text))
            self.heading = None
        if tag == "title":
            self.in_title = False
        elif tag in _SKIP_TAGS:
            self.skip = max(self.skip - 1, 0)
        if tag == "pre":
            self.pre = max(self.pre - 1, 0)
        if tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_data(self, data):
        if self.in_title:
            self.title.append(data)
        elif not self.skip:
            self.parts.append(data if self.pre else re.sub(r"\s+", " ", data))
            if self.heading is not None:
                self.heading[1].append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """(visible text, <title>) of an HTML page; scripts, styles and tags are dropped."""
    text, title, _ = html_read(html)
    return text, title


def html_read(html: str) -> tuple[str, str, list[tuple[int, str]]]:
    """(visible text, <title>, (level, text) of each h1-h6 heading in order) of an HTML page."""
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts)
    text = re.sub(r"[ \t]*\n[ \t]*", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip(), re.sub(r"\s+", " ", "".join(parser.title)).strip(), parser.headings


# documents -----------------------------------------------------------------------------------
_GIANT_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]{10000}")


def make_document(title: str, source_name: str, mime: str, text: str,
                  metadata: dict[str, Any]) -> LoadedDocument:
    giant = _GIANT_WORD.search(text)
    if giant:
        line = text.count("\n", 0, giant.start()) + 1
        where = f" in {title}" if title != source_name else ""
        raise _Bad(f"line {line}{where} has a run of more than 10,000 letters with no space, digit "
                   "or punctuation; that is not prose (an encoded blob?), so it was not indexed")
    return LoadedDocument(title=title, source_name=source_name, mime=mime, text=text,
                          sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), metadata=metadata)


def read_pdf(data: bytes) -> tuple[str, dict[str, Any]]:
    import logging

    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError):
                opened = 0
            if not opened:
                raise _Bad("this PDF is encrypted (password-protected); save an unencrypted copy "
                           "and upload that")
        pages = list(reader.pages)
    except _Bad:
        raise
    except Exception as exc:  # pypdf raises many types for damaged files
        raise _Bad(f"this PDF is damaged and cannot be read ({_short(exc)})") from None
    texts, failed = [], 0
    for page in pages:
        try:
            texts.append(page.extract_text() or "")
        except FileNotDecryptedError:
            raise _Bad("this PDF is encrypted (password-protected); save an unencrypted copy "
                       "and upload that") from None
        except Exception:
            failed += 1
    text = clean_text("\n\n".join(t.strip() for t in texts if t.strip()))
    if not text:
        if failed and failed == len(pages):
            raise _Bad("this PDF is damaged: no page could be read")
        raise _Bad("this PDF has no text layer (scanned images?); run OCR first")
    meta: dict[str, Any] = {"pages": len(pages)}
    if failed:
        meta["unreadable_pages"] = failed
    try:
        info = reader.metadata
        if info and info.title and str(info.title).strip():
            meta["pdf_title"] = str(info.title).strip()[:200]
    except Exception:
        pass
    return text, meta


def read_docx(data: bytes, max_bytes: int) -> tuple[str, dict[str, Any]]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise _Bad("this .docx file is damaged or is not a Word document (not a valid zip "
                   "package); open it in Word and save it again") from None
    if not any(i.filename == "word/document.xml" for i in infos):
        raise _Bad("this .docx file is not a Word document (it has no word/document.xml)")
    unpacked = sum(i.file_size for i in infos)
    if unpacked > max(4 * max_bytes, 1024 * 1024) or any(
            i.file_size > 10 * 1024 * 1024 and i.file_size > 100 * max(i.compress_size, 1) for i in infos):
        raise _Bad(f"this .docx expands to {_size(unpacked)} when unpacked; that looks like a "
                   "zip bomb, so it was not opened")
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
        blocks = []
        for item in document.iter_inner_content():
            if hasattr(item, "rows"):  # a table: one line per row, cells separated by " | "
                for row in item.rows:
                    cells: list[str] = []
                    for cell in row.cells:
                        t = cell.text.strip()
                        if t and (not cells or cells[-1] != t):
                            cells.append(t)
                    if cells:
                        blocks.append(" | ".join(cells))
            else:
                blocks.append(item.text)
        props = document.core_properties
        title, author = props.title, props.author
    except _Bad:
        raise
    except Exception as exc:
        raise _Bad(f"this .docx file is damaged and cannot be read ({_short(exc)}); open it in "
                   "Word and save it again") from None
    text = clean_text("\n".join(blocks))
    if not text:
        raise _Bad("this Word document has no text")
    meta: dict[str, Any] = {}
    if title and title.strip():
        meta["docx_title"] = title.strip()[:200]
    if author and author.strip():
        meta["docx_author"] = author.strip()[:200]
    return text, meta


def _short(exc: BaseException) -> str:
    msg = re.sub(r"\s+", " ", str(exc)).strip()
    return (msg[:160] + "...") if len(msg) > 160 else (msg or exc.__class__.__name__)

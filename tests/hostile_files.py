"""Builders for test documents and a corpus of hostile files, all generated at test time.

No binaries are committed: PDFs are written by hand (a few objects and an xref table), .docx
files by python-docx, archives by zipfile/gzip/tarfile. hostile_cases() returns each case with
what a user must read about it (a fragment of the rejection message) or, for files that must be
accepted, a fragment of the text that must reach the store.
"""
from __future__ import annotations

import gzip
import io
import random
import tarfile
import zipfile
from dataclasses import dataclass

LIMIT = 11_000_000  # max_bytes for the hostile batch: the 10 MB line fits, the 11 MB file does not


def make_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF with one Helvetica text line per line of each page (Latin-1 text)."""
    streams = []
    for text in pages:
        lines = [ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                 for ln in text.split("\n")] if text else []
        ops = " ".join(f"({ln}) Tj T*" for ln in lines)
        streams.append(f"BT /F1 12 Tf 14 TL 72 720 Td {ops} ET".encode("latin-1"))
    page_ids = [4 + 2 * i for i in range(len(pages))]
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        (f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] "
         f"/Count {len(pages)} >>").encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for pid, stream in zip(page_ids, streams):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                       f"<< /Font << /F1 3 0 R >> >> /Contents {pid + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    buf = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(buf))
        buf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(buf)
    buf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    buf += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    buf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(buf)


def make_scanned_pdf() -> bytes:
    """A PDF whose page only paints a rectangle: no text layer, like a scan."""
    pdf = make_pdf(["placeholder"])
    old = b"BT /F1 12 Tf 14 TL 72 720 Td (placeholder) Tj T* ET"
    new = b"0.5 g 72 72 400 600 re f".ljust(len(old))
    return pdf.replace(old, new)


def encrypt_pdf(pdf: bytes, user_password: str, owner_password: str = "owner") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password, owner_password=owner_password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def make_docx(paragraphs: list[str], table: list[list[str]] | None = None, title: str = "") -> bytes:
    import docx

    document = docx.Document()
    for p in paragraphs:
        document.add_paragraph(p)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    if title:
        document.core_properties.title = title
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def make_tar(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return out.getvalue()


PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
       b"\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x9a\xa0\xa0"
       b"\x00\x00\x00\x00IEND\xaeB`\x82")


@dataclass
class Case:
    name: str          # the name as uploaded (may be hostile)
    data: bytes
    reject: str | None = None  # fragment of the message the user reads, when rejected
    keep: str | None = None    # fragment of the stored text, when accepted
    note: str = ""
    duplicate: bool = False    # same text as an earlier case: reported as a duplicate


def hostile_cases() -> list[Case]:
    rng = random.Random(7)
    noise = bytes(b for b in rng.randbytes(20_000) if b)
    good_docx = make_docx(["The harbour authority met on Monday."])
    good_pdf = make_pdf(["Quarterly audit of the Northgate depot"])
    zip_bomb_docx = make_zip({"[Content_Types].xml": b"<Types/>",
                              "word/document.xml": b" " * (64 * 1024 * 1024)})
    return [
        Case("empty.txt", b"", reject="the file is empty"),
        Case("blank.md", b" \r\n\t \n", reject="the file is empty (only whitespace)"),
        Case("empty.pdf", b"", reject="the file is empty"),
        Case("binary.txt", bytes(range(256)) * 8, reject="looks like a binary file, not text (it contains NUL bytes)"),
        Case("nul_bytes.txt", b"hello\x00world, this is text with a NUL", reject="it contains NUL bytes"),
        Case("noise.txt", noise, reject="looks like a binary file, not text ("),
        Case("too_big.txt", b"abc " * (LIMIT // 4 + 1), reject="the file is 11,000,004 bytes, over the upload limit of 11,000,000 bytes"),
        Case("papers.zip", make_zip({"a.txt": b"inside"}), reject="archives are not accepted; unpack them first"),
        Case("bomb.zip", make_zip({"zeros.txt": b"\0" * (20 * 1024 * 1024)}), reject="archives are not accepted"),
        Case("notes.txt.gz", gzip.compress(b"compressed notes"), reject="archives are not accepted"),
        Case("disguised.txt", make_zip({"a.txt": b"inside"}), reject="archives are not accepted",
             note="a zip archive under a .txt name"),
        Case("bundle.tar", make_tar({"a.txt": b"inside"}), reject="archives are not accepted"),
        Case("gz_as.md", gzip.compress(b"hidden"), reject="archives are not accepted"),
        Case("scanned.pdf", make_scanned_pdf(), reject="this PDF has no text layer (scanned images?); run OCR first"),
        Case("locked.pdf", encrypt_pdf(good_pdf, "secret"), reject="this PDF is encrypted (password-protected)"),
        Case("owner_only.pdf", encrypt_pdf(make_pdf(["Owner locked minutes of the board"]), ""),
             keep="Owner locked minutes", note="encrypted with an empty user password: readable"),
        Case("truncated.pdf", good_pdf[: len(good_pdf) // 2], reject="this PDF is damaged and cannot be read"),
        Case("fake.pdf", b"just some text pretending", reject="this is not a PDF file (it does not start with %PDF)"),
        Case("broken.docx", good_docx[:500], reject="this .docx file is damaged or is not a Word document"),
        Case("not_word.docx", make_zip({"readme.txt": b"hi"}), reject="this .docx file is not a Word document (it has no word/document.xml)"),
        Case("bad_xml.docx", make_zip({"[Content_Types].xml": b"<Types", "word/document.xml": b"<w:document"}),
             reject="this .docx file is damaged and cannot be read"),
        Case("bomb.docx", zip_bomb_docx, reject="that looks like a zip bomb"),
        Case("old_word.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512, reject="old Word (.doc) file renamed to .docx"),
        Case("photo.txt", PNG, reject="the name ends in .txt but the content is a PNG image"),
        Case("report.txt", good_pdf, reject="the content is a PDF but the name ends in .txt; rename it to .pdf"),
        Case("letter.md", good_docx, reject="the content is a Word document but the name ends in .md; rename it to .docx"),
        Case("program.exe", b"MZ\x90\x00\x03", reject=".exe files are not supported; Sensemaker reads .txt, .md, .rst, .pdf, .docx, .html, .csv and .jsonl"),
        Case("README", b"plain words", reject="a file without an extension is not supported"),
        Case("sheet.xlsx", make_zip({"xl/workbook.xml": b"<x/>"}), reject=".xlsx files are not supported; save the sheet as .csv"),
        Case("giant_word.txt", b"A" * 200_000, reject="has a run of more than 10,000 letters"),
        Case("bad_line.jsonl", b'{"text": "fine"}\n{"text": broken\n', reject="line 2 is not valid JSON"),
        Case("deep.jsonl", b"[" * 100_000 + b"\n", reject="line 1 is not valid JSON"),
        Case("no_text.csv", b"id,amount\n1,30\n2,45\n", reject="no text column found (looked for text, content, body); the columns are: id, amount"),
        Case("empty_rows.csv", b"id,text\n1,\n2,  \n", reject='no row has text in the column "text"'),
        Case("only_script.html", b"<html><script>alert(1)</script><style>p{}</style></html>", reject="this HTML page has no visible text"),
        Case("bad_bom.txt", b"\xff\xfe" + "ok".encode("utf-16-le") + b"\x00\xd8", reject="byte-order mark but is not valid utf-16"),
        Case("../../etc/passwd.txt", b"traversal attempt text", keep="traversal attempt text",
             note="stored as passwd.txt, never a path"),
        Case("<img src=x onerror=alert(1)>.txt", b"name with markup", keep="name with markup"),
        Case("evil\u202etxt.md", b"right-to-left override in the name", keep="right-to-left override"),
        Case("script_content.txt", b"<script>alert('x')</script> <img src=x onerror=alert(1)> kept as text",
             keep="<script>alert('x')</script> <img src=x onerror=alert(1)> kept as text"),
        Case("page.html", b"<html><head><title>Brief</title><script>alert(1)</script></head><body>"
             b"<h1>Harbour brief</h1><p onclick='x()'>Visible &amp; escaped <b>text</b>.</p>"
             b"<img src=x onerror=alert(1)><style>body{}</style></body></html>",
             keep="Harbour brief\n\nVisible & escaped text."),
        Case("invalid_utf8.txt", b"Caf\xc3\x28 invalid sequence, still text", keep="Caf\u00c3( invalid sequence"),
        Case("mixed.txt", "Café in UTF-8; ".encode() + "café in Latin-1".encode("latin-1"),
             keep="Café in UTF-8; café in Latin-1"),
        Case("one_line_10mb.txt", b"word " * 2_000_000, keep="word word word"),
        Case("control_codes.txt", b"bell\x07 and escape\x1b[1m bold\x1b[0m text in a log line that is "
             b"otherwise ordinary prose about the harbour", keep="bell and escape[1m bold[0m text"),
        Case("pdf_talk.txt", b"Every PDF file begins with %PDF-1.7 and ends with %%EOF.",
             keep="begins with %PDF-1.7", note="mentions the PDF header: still text"),
        Case("junk_before_header.pdf", b"garbage line\n" + good_pdf.replace(b"Northgate", b"Southgate"),
             keep="Quarterly audit of the Southgate depot", note="readers skip junk before %PDF"),
        Case("good.docx", good_docx, keep="The harbour authority met on Monday."),
        Case("good.pdf", good_pdf, keep="Quarterly audit of the Northgate depot"),
        Case("copy_of_markup.txt", b"name with markup\r\n", duplicate=True,
             note="same text as the <img> case once CRLF and trailing space are normalised"),
    ]

"""Ingest: every format becomes the document a user expects; every bad file is rejected with a
message the user can act on; the store holds exactly the good documents afterwards."""
from __future__ import annotations

import codecs
import hashlib
import time
from pathlib import Path

import pytest

from core.ingest.documents import (IngestError, IngestReport, Rejected, ingest_files, ingest_paths,
                         load_bytes, safe_name)
from core.store.db import Store
from core.tokens import count_tokens
from tests.hostile_files import (LIMIT, encrypt_pdf, hostile_cases, make_docx, make_pdf,
                                 make_scanned_pdf)

MB = 1024 * 1024
CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "ws")
    yield s
    s.close()


def one(name: str, data: bytes, **kw):
    docs = load_bytes(name, data, max_bytes=kw.pop("max_bytes", 50 * MB), **kw)
    assert len(docs) == 1
    return docs[0]


def rejection(name: str, data: bytes, **kw) -> str:
    with pytest.raises(IngestError) as info:
        load_bytes(name, data, max_bytes=kw.pop("max_bytes", 50 * MB), **kw)
    return str(info.value)


# formats -------------------------------------------------------------------------------------
def test_txt_and_md_keep_their_text_and_mime():
    txt = one("minutes.txt", b"The council met.\nMayor Ruiz spoke.\n")
    assert (txt.title, txt.source_name, txt.mime) == ("minutes.txt", "minutes.txt", "text/plain")
    assert txt.text == "The council met.\nMayor Ruiz spoke."
    assert txt.sha256 == hashlib.sha256(txt.text.encode()).hexdigest()
    md = one("notes.md", b"# Heading\n\n* item with **bold**\n")
    assert md.mime == "text/markdown" and md.text == "Heading\n\nitem with bold"  # structure, not markup
    assert md.metadata["structure"]["headings"] == [[0, 7, 1]]


def test_pdf_round_trip_joins_pages():
    doc = one("audit.pdf", make_pdf(["Audit of the depot (2024)", "Second page: Marley & Co"]))
    assert doc.mime == "application/pdf"
    assert doc.text == "Audit of the depot (2024)\n\nSecond page: Marley & Co"
    assert doc.metadata["pages"] == 2


def test_docx_round_trip_keeps_paragraphs_and_tables_in_order():
    data = make_docx(["Memo to the harbour board.", "Budget follows."],
                     table=[["Item", "Cost"], ["Cranes", "4,000"]], title="Harbour memo")
    doc = one("memo.docx", data)
    assert doc.text == "Memo to the harbour board.\nBudget follows.\nItem | Cost\nCranes | 4,000"
    assert doc.mime.endswith("wordprocessingml.document")
    assert doc.metadata["docx_title"] == "Harbour memo"


def test_html_keeps_visible_text_only_and_decodes_entities():
    html = (b"<!doctype html><html><head><title>City news</title><style>h1{color:red}</style>"
            b"<script>var secret = 'hidden';</script></head><body><h1>Flood warning</h1>"
            b"<p>Residents of <b>Eastbank</b> &amp; Northgate should&nbsp;leave.</p>"
            b"<!-- a comment --><noscript>enable js</noscript><ul><li>one</li><li>two</li></ul>"
            b"<pre>  keep   spacing</pre></body></html>")
    doc = one("news.htm", html)
    assert doc.text == ("Flood warning\n\nResidents of Eastbank & Northgate should leave.\n\n"
                        "one\ntwo\n\nkeep   spacing")
    assert "secret" not in doc.text and "color" not in doc.text and "comment" not in doc.text
    assert doc.metadata["html_title"] == "City news" and doc.mime == "text/html"


def test_csv_one_document_per_row_with_titles():
    data = b'id,title,text,author\n1,Budget,"The budget, revised.\nTwice.",Ruiz\n2,,Second row,Lee\n3,Empty,,X\n'
    docs = load_bytes("news.csv", data, max_bytes=MB)
    assert [(d.title, d.text) for d in docs] == [("Budget", "The budget, revised.\nTwice."),
                                                 ("news.csv #2", "Second row")]
    assert docs[0].metadata["fields"] == {"id": "1", "title": "Budget", "author": "Ruiz"}
    assert all(d.source_name == "news.csv" and d.mime == "text/csv" for d in docs)


def test_csv_semicolons_tsv_and_a_chosen_text_column():
    docs = load_bytes("eu.csv", b"titel;Content\nA;erste Zeile\n", max_bytes=MB)
    assert [d.text for d in docs] == ["erste Zeile"]
    docs = load_bytes("t.tsv", b"title\tnotes\tbody\nX\tthe notes\tthe body\n", max_bytes=MB,
                      text_column="Notes")
    assert [(d.title, d.text) for d in docs] == [("X", "the notes")]
    msg = rejection("t.tsv", b"title\tnotes\nX\ty\n", text_column="summary")
    assert msg == 't.tsv: there is no column "summary"; the columns are: title, notes'


def test_jsonl_one_document_per_line():
    data = (b'{"title": "First", "content": "alpha", "year": 2024}\n\n'
            b'{"content": "beta", "tags": ["x"]}\n{"content": null}\n')
    docs = load_bytes("rows.jsonl", data, max_bytes=MB)
    assert [(d.title, d.text) for d in docs] == [("First", "alpha"), ("rows.jsonl #3", "beta")]
    assert docs[0].metadata["fields"] == {"title": "First", "year": 2024}
    assert rejection("rows.jsonl", b'"just a string"\n') == (
        'rows.jsonl: line 1 is not a JSON object; each line must be an object such as '
        '{"title": "...", "text": "..."}')
    assert "holds list data, not text" in rejection("r.jsonl", b'{"text": ["a"]}\n')


# encodings -----------------------------------------------------------------------------------
@pytest.mark.parametrize("data, text, encoding", [
    (codecs.BOM_UTF8 + b"caf\xc3\xa9\r\nline two\r\n", "café\nline two", "utf-8 (BOM)"),
    (b"old mac\rline\r", "old mac\nline", "utf-8"),
    ("café ½\r\n".encode("latin-1"), "café ½", "cp1252"),
    ("“smart” quotes — and…".encode("cp1252"), "“smart” quotes — and…", "cp1252"),
    ("Grüße aus München".encode("cp1252"), "Grüße aus München", "cp1252"),
    ("café UTF-16 中文".encode("utf-16"), "café UTF-16 中文", "utf-16"),
    (codecs.BOM_UTF16_BE + "big endian".encode("utf-16-be"), "big endian", "utf-16"),
    ("no bom here at all".encode("utf-16-le"), "no bom here at all", "utf-16 (no BOM)"),
    (codecs.BOM_UTF32_LE + "utf-32 text".encode("utf-32-le"), "utf-32 text", "utf-32"),
    ("中文文本：知识图谱与社区摘要。".encode("utf-8"), "中文文本：知识图谱与社区摘要。", "utf-8"),
    ("中文文本：知识图谱与社区摘要。".encode("gb18030"), "中文文本：知识图谱与社区摘要。", "gb18030"),
    ("中文".encode("gb18030"), "中文", "gb18030"),
    (("繁體中文的文字測試，這是一個簡單的句子。" * 3).encode("big5"), "繁體中文的文字測試", "big5"),
    ("Привет, это простой текст на русском языке.".encode("cp1251"), "Привет, это простой", "cp1251"),
    ("café in UTF-8, ".encode() + "café in Latin-1".encode("latin-1"),
     "café in UTF-8, café in Latin-1", "mixed utf-8/cp1252"),
])
def test_encodings_are_detected(data, text, encoding):
    doc = one("t.txt", data)
    assert doc.text.startswith(text)
    assert doc.metadata["encoding"] == encoding


def test_chinese_article_reads_the_same_from_utf8_and_gb18030():
    path = CORPORA / "graphrag_articles_zh" / "article_1.txt"
    if not path.exists():
        pytest.skip(f"external corpus not present: {path}")
    utf8 = one("a.txt", path.read_bytes())
    gb = one("a.txt", utf8.text.encode("gb18030"))
    assert gb.text == utf8.text and gb.metadata["encoding"] == "gb18030"
    assert "社区" in gb.text


def test_gutenberg_boilerplate_is_stripped_from_a_christmas_carol():
    path = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    if not path.exists():
        pytest.skip(f"external corpus not present: {path}")
    doc = one(path.name, path.read_bytes())
    assert "Project Gutenberg-tm" not in doc.text and "PROJECT GUTENBERG" not in doc.text
    assert doc.text.count("Scrooge") > 300
    assert doc.metadata["stripped"] == "project gutenberg boilerplate"
    assert doc.metadata["gutenberg_title"] == "A Christmas Carol"
    assert doc.metadata["encoding"] == "utf-8 (BOM)" and "\r" not in doc.text
    plain = load_bytes("x.txt", b"No markers: the Project Gutenberg licence stays.", max_bytes=MB)
    assert "Project Gutenberg" in plain[0].text and "stripped" not in plain[0].metadata


# names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, safe", [
    ("../../x.txt", "x.txt"),
    ("..\\..\\windows\\evil.md", "evil.md"),
    ("/etc/passwd", "passwd"),
    ("<img src=x onerror=alert(1)>.txt", "_img src=x onerror=alert(1)_.txt"),
    ("invoice\u202etxt.exe", "invoicetxt.exe"),
    ("a\x00b\nc.txt", "abc.txt"),
    ("..", "unnamed"),
    ("  .hidden.txt  ", "hidden.txt"),
    ("x" * 300 + ".txt", "x" * 196 + ".txt"),
])
def test_names_become_safe_basenames(raw, safe):
    assert safe_name(raw) == safe


# writing a batch -----------------------------------------------------------------------------
def test_ingest_files_writes_document_rows(store):
    report = ingest_files(store, [("a.txt", b"Alpha text.\r\n"), ("b.md", b"Beta text.")],
                          max_bytes=MB)
    assert isinstance(report, IngestReport) and not report.rejected and not report.duplicates
    rows = store.rows("documents")
    assert [r["title"] for r in rows] == ["a.txt", "b.md"]
    assert [r["human_readable_id"] for r in rows] == [0, 1]
    first = rows[0]
    assert first["text"] == "Alpha text."
    assert first["sha256"] == hashlib.sha256(b"Alpha text.").hexdigest()
    assert first["id"] == "doc-" + first["sha256"][:16]
    assert first["n_tokens"] == count_tokens("Alpha text.")
    assert first["status"] == "new" and first["created_at"].startswith("20")
    assert first["metadata"] == {"encoding": "utf-8"}
    assert [r["id"] for r in report.added] == [r["id"] for r in rows]


def test_duplicates_are_reported_not_written(store):
    ingest_files(store, [("first.txt", b"Same words.")], max_bytes=MB)
    report = ingest_files(store, [("again.txt", b"Same words.\r\n"),          # already stored
                                  ("new.txt", b"Fresh words."),
                                  ("new_copy.md", b"\xef\xbb\xbfFresh words.")],  # twice in batch
                          max_bytes=MB)
    assert report.duplicates == ["again.txt", "new_copy.md"]
    assert [r["title"] for r in report.added] == ["new.txt"]
    assert store.count("documents") == 2


def test_duplicate_written_meanwhile_by_another_session(store, tmp_path):
    other = Store(store.path)

    def meanwhile(stage, done, total, message):
        if done == 1:  # another session stores b.txt's text before this batch reaches it
            other.insert("documents", [{"id": "doc-" + hashlib.sha256(b"bbb").hexdigest()[:16],
                                        "sha256": hashlib.sha256(b"bbb").hexdigest(), "text": "bbb",
                                        "title": "elsewhere.txt"}])

    report = ingest_files(store, [("a.txt", b"aaa"), ("b.txt", b"bbb"), ("c.txt", b"ccc")],
                          max_bytes=MB, on_progress=meanwhile)
    other.close()
    assert report.duplicates == ["b.txt"]
    assert sorted(r["title"] for r in store.rows("documents")) == ["a.txt", "c.txt", "elsewhere.txt"]


def test_progress_reports_every_file(store):
    seen = []
    ingest_files(store, [("a.txt", b"one"), ("b.exe", b"two"), ("c.txt", b"three")],
                 max_bytes=MB, on_progress=lambda *a: seen.append(a))
    assert seen == [("ingest", 1, 3, "a.txt: 1 added"), ("ingest", 2, 3, "b.exe: rejected"),
                    ("ingest", 3, 3, "c.txt: 1 added")]


def test_an_unexpected_loader_failure_rejects_only_that_file(store, monkeypatch):
    def explode(data):
        raise RuntimeError("parser bug")

    monkeypatch.setattr("core.ingest.documents.read_pdf", explode)
    report = ingest_files(store, [("a.txt", b"fine"), ("x.pdf", make_pdf(["text"])),
                                  ("b.txt", b"also fine")], max_bytes=MB)
    assert report.rejected == [Rejected("x.pdf", "x.pdf: the file could not be read "
                                                 "(RuntimeError: parser bug)")]
    assert [r["title"] for r in store.rows("documents")] == ["a.txt", "b.txt"]


def test_csv_rows_are_written_in_one_transaction(store):
    report = ingest_files(store, [("rows.csv", b"title,text\nA,first\nB,second\nC,first\n")],
                          max_bytes=MB)
    assert [r["title"] for r in report.added] == ["A", "B"]
    assert report.duplicates == ["C"]
    assert [r["metadata"]["row"] for r in store.rows("documents")] == [1, 2]


# hostile input -------------------------------------------------------------------------------
def test_hostile_batch_gives_each_file_a_clear_message_and_keeps_only_good_documents(store):
    cases = hostile_cases()
    assert len(cases) >= 30
    started = time.perf_counter()
    report = ingest_files(store, [(c.name, c.data) for c in cases], max_bytes=LIMIT)
    elapsed = time.perf_counter() - started
    reasons = {r.source_name: r.reason for r in report.rejected}
    for case in cases:
        name = safe_name(case.name)
        if case.reject:
            assert name in reasons, f"{case.name} should be rejected"
            assert reasons[name].startswith(f"{name}: ") and case.reject in reasons[name], reasons[name]
        else:
            assert name not in reasons, f"{case.name} rejected: {reasons.get(name)}"
    assert report.duplicates == [safe_name(c.name) for c in cases if c.duplicate]
    stored = {r["source_name"]: r["text"] for r in store.rows("documents")}
    good = {safe_name(c.name): c.keep for c in cases if c.keep}
    assert set(stored) == set(good)
    for name, fragment in good.items():
        assert fragment in stored[name], name
    assert all("/" not in n and "<" not in n and ".." not in n for n in stored)
    assert store.count("documents") == len(good) == len(report.added)
    assert elapsed < 20, f"hostile batch took {elapsed:.1f} s"


def test_ten_megabyte_single_line_is_fast():
    data = b"word " * 2_000_000
    started = time.perf_counter()
    doc = one("line.txt", data)
    assert time.perf_counter() - started < 3
    assert len(doc.text) == len(data) - 1


def test_limits_use_the_setting_and_say_so():
    msg = rejection("big.txt", b"x" * 2048, max_bytes=1000)
    assert msg == ("big.txt: the file is 2 KB, over the upload limit of 1000 bytes "
                   "(setting max_file_mb); split it or raise the limit")


def test_pdf_messages_a_user_reads():
    assert rejection("scan.pdf", make_scanned_pdf()) == (
        "scan.pdf: this PDF has no text layer (scanned images?); run OCR first")
    assert rejection("locked.pdf", encrypt_pdf(make_pdf(["x"]), "pw")) == (
        "locked.pdf: this PDF is encrypted (password-protected); save an unencrypted copy "
        "and upload that")


def test_script_in_a_text_file_is_kept_as_plain_text(store):
    payload = b"<script>alert(1)</script><img src=x onerror=alert(1)>"
    ingest_files(store, [("x.txt", payload)], max_bytes=MB)
    assert store.rows("documents")[0]["text"] == payload.decode()


# paths ---------------------------------------------------------------------------------------
def test_ingest_paths_walks_directories_sorted_and_skips_hidden(store, tmp_path):
    root = tmp_path / "corpus"
    (root / "b_dir").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "a.txt").write_text("first file")
    (root / "b_dir" / "c.md").write_text("nested file")
    (root / "b_dir" / "bad.exe").write_bytes(b"MZ")
    (root / ".hidden.txt").write_text("hidden file")
    (root / ".git" / "config.txt").write_text("git internals")
    single = tmp_path / "single.txt"
    single.write_text("given directly")
    report = ingest_paths(store, [root, single, tmp_path / "missing.txt"], max_bytes=MB)
    assert [r["title"] for r in report.added] == ["a.txt", "c.md", "single.txt"]
    assert [r.reason for r in report.rejected] == [
        "bad.exe: .exe files are not supported; Sensemaker reads .txt, .md, .rst, .pdf, .docx, .html, "
        ".csv and .jsonl",
        f"{tmp_path / 'missing.txt'}: no such file or directory"]


def test_ingest_paths_rejects_an_oversized_file_without_reading_it(store, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    with open(folder / "huge.txt", "wb") as f:
        f.truncate(3 * 1024 ** 3)  # sparse: 3 GB on paper, nothing on disk
    (folder / "small.txt").write_text("small")
    started = time.perf_counter()
    report = ingest_paths(store, [folder], max_bytes=50 * MB)
    assert time.perf_counter() - started < 2
    assert report.rejected == [Rejected("huge.txt", "huge.txt: the file is 3.0 GB, over the "
                                        "upload limit of 50.0 MB (setting max_file_mb); split it "
                                        "or raise the limit")]
    assert [r["title"] for r in report.added] == ["small.txt"]


def test_hostile_files_on_disk(store, tmp_path):
    folder = tmp_path / "drop"
    folder.mkdir()
    cases = [c for c in hostile_cases() if "/" not in c.name and "\\" not in c.name]
    for i, case in enumerate(cases):
        (folder / f"{i:02d}_{safe_name(case.name)}").write_bytes(case.data)
    report = ingest_paths(store, [folder], max_bytes=LIMIT)
    assert len(report.rejected) == sum(1 for c in cases if c.reject)
    kept = [f"{i:02d}_{safe_name(c.name)}" for i, c in enumerate(cases) if c.keep]
    assert [r["source_name"] for r in store.rows("documents")] == kept


def test_a_restructuredtext_document_is_read_as_text(tmp_path):
    """A PEP (.rst) was refused ("not supported"); reStructuredText is plain text with markup."""
    from core.ingest.documents import ingest_files
    from core.store.db import Store
    rst = ("PEP: 9999\nTitle: A Made-Up Proposal\n\nAbstract\n========\n\n"
           "This PEP proposes that Guido van Rossum reads every ``pyproject.toml`` file.\n").encode()
    report = ingest_files(Store(tmp_path / "ws"), [("pep-9999.rst", rst)], max_bytes=1_000_000)
    assert [d for d in report.added] and not report.rejected
    doc = Store(tmp_path / "ws").rows("documents")[0]
    assert doc["mime"] == "text/x-rst" and "Guido van Rossum" in doc["text"]

"""The sample corpus the app indexes on first start: the right size, readable, with people,
organisations and places that recur across documents (so communities and global questions
mean something), and every file accepted by the ingest step."""
import re
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "sample_corpus"

# Written exactly like this in the documents (full name; later mentions may use the surname).
RECURRING = {
    "person": ["Helen Varga", "Maria Okafor", "Daniel Reyes", "Priya Nandakumar",
               "Thomas Whitlock", "Rosa Delgado", "Samuel Achebe", "Ingrid Halvorsen",
               "Margaret Liu", "Victor Brannigan", "Owen Pike"],
    "organization": ["Aldermere Port Authority", "Calloway Chemicals", "Aldermere Gazette",
                     "Harbour Workers Union", "Aldermere General Hospital",
                     "Clearwater Coalition", "Waterfront Committee", "Brannigan Estates",
                     "City Council", "Marlow Fittings"],
    "geo": ["Port Aldermere", "Tanner Quay", "Kestrel Creek", "Gull Island", "Eastgate",
            "Lantern Wharf", "Harbour Road"],
}


def corpus_files() -> list[Path]:
    """The documents: every .md/.txt file except the README that describes them."""
    return sorted(p for p in CORPUS.iterdir()
                  if p.suffix in {".md", ".txt"} and p.name != "README.md")


def texts() -> dict[str, str]:
    return {p.name: p.read_bytes().decode("utf-8") for p in corpus_files()}


def test_corpus_has_between_10_and_20_documents():
    assert 10 <= len(corpus_files()) <= 20


def test_every_file_is_non_empty_utf8():
    for path in corpus_files():
        data = path.read_bytes()
        text = data.decode("utf-8")  # raises on invalid UTF-8
        assert text.strip(), f"{path.name} is empty"
        assert not data.startswith(b"\xef\xbb\xbf"), f"{path.name} starts with a BOM"


def test_english_documents_are_short_documents():
    for name, text in texts().items():
        if name.endswith("_zh.md"):
            continue
        words = len(text.split())
        assert 250 <= words <= 650, f"{name} has {words} words"


def test_corpus_is_mixed_language_with_the_same_names():
    chinese = [t for t in texts().values()
               if sum("\u4e00" <= ch <= "\u9fff" for ch in t) > 200]
    assert len(chinese) == 1
    assert "港务局局长 Maria Okafor" in chinese[0]
    assert "Calloway Chemicals" in chinese[0]


@pytest.mark.parametrize("kind", sorted(RECURRING))
def test_main_names_recur_in_at_least_three_documents(kind):
    docs = texts()
    for name in RECURRING[kind]:
        found = [n for n, t in docs.items() if name in t]
        assert len(found) >= 3, f"{kind} {name!r} appears only in {found}"


def test_at_least_eight_people_six_organisations_five_places():
    assert len(RECURRING["person"]) >= 8
    assert len(RECURRING["organization"]) >= 6
    assert len(RECURRING["geo"]) >= 5


TITLES = {"Mayor", "Councillor", "Councillors", "Dr."}


def test_people_are_named_consistently():
    """An extractor merges entities by normalised name, so a person must be written one way:
    the full name on first mention in each document, later the surname, and the only
    capitalised word ever written right before the surname is the first name or a title."""
    for doc, text in texts().items():
        for full in RECURRING["person"]:
            first, last = full.split()
            person = re.search(r"\b" + last + r"\b(?! Estates)", text)  # not the company
            if person is None:
                continue
            assert text.find(full) + len(first) + 1 == person.start(), \
                f"{doc}: {last!r} appears before {full!r}"
            before = set(re.findall(r"([A-Z][A-Za-z]*\.?) " + last + r"\b", text))
            assert before <= {first} | TITLES, f"{doc}: {last!r} preceded by {before}"


def test_every_file_loads_through_ingest(tmp_path):
    from core.ingest.documents import ingest_paths
    from core.store.db import Store

    store = Store(tmp_path / "ws")
    files = corpus_files()
    report = ingest_paths(store, files, max_bytes=50 * 1024 * 1024)
    assert [r.reason for r in report.rejected] == []
    assert report.duplicates == []
    assert len(report.added) == len(files)
    assert store.count("documents") == len(files)
    stored = {d["source_name"]: d for d in store.rows("documents")}
    for path in files:
        doc = stored[path.name]
        assert doc["n_tokens"] > 200, f"{path.name}: {doc['n_tokens']} tokens"
        assert "Port Aldermere" in doc["text"] or "Aldermere" in doc["text"]
    zh = next(d for n, d in stored.items() if n.endswith("_zh.md"))
    assert "港务局局长 Maria Okafor" in zh["text"]

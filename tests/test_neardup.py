"""Near-duplicate documents (another edition or typography of the same text) are not added twice."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from core.ingest.documents import ingest_files, ingest_paths
from core.ingest.neardup import sketch, similarity
from core.store.db import Store

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def test_two_editions_of_a_book_are_one_document(tmp_path):
    folder = CORPORA / "christmas_carol"
    if not folder.exists():
        pytest.skip("shared corpora not present")
    rep = ingest_paths(Store(tmp_path), [folder], max_bytes=10**8)
    assert len(rep.added) == 1
    (reason,) = [r.reason for r in rep.rejected]
    assert "nearly the same text as 'a_christmas_carol_pg24022.txt'" in reason


def test_typography_changes_do_not_make_a_new_document(tmp_path):
    text = (SAMPLE / "2024-03-19_gazette_leaked_memo.md").read_text(encoding="utf-8")
    curly = text.replace('"', "\u201c").replace("'", "\u2019").replace(" - ", " \u2014 ").replace("\n", "\r\n")
    rep = ingest_files(Store(tmp_path), [("memo.md", text.encode()), ("memo-copy.txt", curly.encode("utf-8"))],
                       max_bytes=10**7)
    assert len(rep.added) == 1 and "nearly the same text as" in rep.rejected[0].reason


def test_different_documents_about_the_same_story_are_kept(tmp_path):
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("2024-*"))]
    rep = ingest_files(Store(tmp_path), files, max_bytes=10**7)
    assert len(rep.added) == len(files) and not rep.rejected


def test_podcast_parts_are_not_flagged(tmp_path):
    src = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
    if not src.exists():
        pytest.skip("shared corpora not present")
    with zipfile.ZipFile(src) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".txt"))[:150]
        files = [(Path(n).name, z.read(n)) for n in names]
    rep = ingest_files(Store(tmp_path), files, max_bytes=10**7)
    assert not [r for r in rep.rejected if "nearly the same" in r.reason]


def test_the_check_can_be_switched_off_and_short_texts_are_exempt(tmp_path):
    text = (SAMPLE / "2024-03-19_gazette_leaked_memo.md").read_text(encoding="utf-8")
    rep = ingest_files(Store(tmp_path), [("a.md", text.encode()), ("b.md", (text + " Extra line.").encode())],
                       max_bytes=10**7, near_duplicate=1.01)
    assert len(rep.added) == 2
    assert sketch("A short note. " * 3) is None
    a, b = sketch(text), sketch(text + " Extra line.")
    assert similarity(a, b) > 0.9 and similarity(a, sketch(text[: len(text) // 3] * 3)) < 0.9

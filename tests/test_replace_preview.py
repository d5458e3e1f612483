"""The replacement preview (core.index.replace_preview): which paragraphs of a new version differ
and how many text units it re-chunks into are new, on Operation Dulce; the diff the Corpus page
shows keeps document text inert."""
from __future__ import annotations

import pytest

from core.index.replace_preview import paragraph_changes, preview_replacement, word_diff
from core.settings import Settings
from pages.components.documents import diff_html


def test_paragraph_changes_pairs_edits_and_counts_added_and_removed():
    old = "Alpha one.\n\nBravo two.\n\nCharlie three.\n\nDelta four."
    new = "Alpha one.\n\nBravo 2, amended.\n\nCharlie three.\n\nEcho five.\n\nFoxtrot six."
    got = [(c.kind, c.old, c.new) for c in paragraph_changes(old, new)]
    assert got == [("edited", "Bravo two.", "Bravo 2, amended."), ("edited", "Delta four.", "Echo five."),
                   ("added", "", "Foxtrot six.")]
    assert [(c.kind, c.old) for c in paragraph_changes(new, "Alpha one.")] == [
        ("removed", "Bravo 2, amended."), ("removed", "Charlie three."), ("removed", "Echo five."),
        ("removed", "Foxtrot six.")]
    # spacing alone is no change
    assert paragraph_changes(old, old.replace("Bravo two.", "Bravo   two.")) == []
    assert word_diff("the water was safe", "the water was not safe") == [("=", "the water was"), ("+", "not"), ("=", "safe")]


def test_preview_counts_units_as_the_replacement_makes_them(tmp_path):
    from core.ingest.documents import ingest_paths
    from core.index.lifecycle import replace_document
    from core.store.db import Store
    from tests.verify_corpus import CORPORA
    path = CORPORA / "operation_dulce" / "dulce.txt"
    if not path.is_file():
        pytest.skip(f"corpus absent: {path}")
    store = Store(tmp_path / "w")
    ingest_paths(store, [path], max_bytes=10_000_000)
    settings = Settings()
    from core.index.chunk_stage import unit_rows, write_units
    doc = store.rows("documents")[0]
    with store.atomic():
        write_units(store, [doc["id"]], unit_rows(doc["id"], doc["text"], settings))
    n = store.count("text_units")
    assert n >= 3
    text = doc["text"]
    k = text.index("\n\n", len(text) // 2)
    edited = text[:k] + " One sentence added at the end of this paragraph." + text[k:]
    p = preview_replacement(store, doc["id"], edited, settings)
    assert p.units_before == n and p.counts == {"edited": 1, "added": 0, "removed": 0}
    assert 1 <= p.units_new <= 2 and p.units_kept == n - p.units_gone
    assert "1 paragraph differs (1 edited)" in p.summary()
    res = replace_document(store, doc["id"], {"text": edited}, settings)
    assert (res["units_kept"], res["units_added"], res["units_removed"]) == (p.units_kept, p.units_new, p.units_gone)


def test_the_diff_shown_escapes_document_text():
    changes = paragraph_changes("Safe text.", "<script>alert(1)</script> <b>bold</b> text.")
    shown = diff_html(changes)
    assert "<script>" not in shown and "&lt;script&gt;" in shown and "&lt;b&gt;bold" in shown
    assert "<ins>" in shown and "<del>" in shown

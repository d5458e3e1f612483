"""The corpus page removes a document after a confirmation that says what goes, and replaces a
document by an uploaded file of the same title (issue 22); the run history shows the change."""
from __future__ import annotations

import os
import re
import time

from core.index.background import current_run
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.settings import load_settings, save_settings
from core.store.check import check_workspace
from core.store.db import Store, now
from core.store.workspace import create_workspace

from conftest import sample_files
from test_app_pages import _app, _open, _plain


def _indexed(tmp_path):
    path = create_workspace("docs", tmp_path)
    store = Store(path)
    ingest_files(store, sample_files(3), max_bytes=10_000_000)
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    run_index(store, settings)
    return path, store


def _wait(store: Store) -> None:
    deadline = time.time() + 60
    while current_run(store) is not None and time.time() < deadline:
        time.sleep(0.3)


def test_remove_a_document_from_the_corpus_page(tmp_path, monkeypatch):
    path, store = _indexed(tmp_path)
    title = store.rows("documents", order_by="human_readable_id")[1]["title"]
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    pick = next(m for m in at.multiselect if m.key == "remove_pick")
    pick.select(next(o for o in pick.options if o.endswith(title))).run()
    warning = _plain(next(w.value for w in at.warning if "Removing 1 document" in w.value))
    assert "text units" in warning and "stay" in warning and "source removed" in warning
    assert store.count("documents") == 3  # nothing goes before the confirmation
    next(b for b in at.button if b.key == "remove_confirm").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    _wait(store)
    at.run()
    assert store.count("documents") == 2 and check_workspace(store).ok
    history = next(d.value for d in at.dataframe if "changes" in d.value.columns)
    assert history.iloc[0]["operation"] == "remove" and history.iloc[0]["status"] == "finished"
    assert history.iloc[0]["documents"] == title
    assert "documents +0 -1" in history.iloc[0]["summary"]
    assert history.iloc[0]["changes"].startswith("text units +0 -")  # in words, next to the status
    done = [_plain(x.value) for x in at.success]
    assert any(m.startswith("The removal finished. The corpus now holds 2 documents:") for m in done), done
    said = [_plain(c.value) for c in at.caption if "What changed:" in _plain(c.value)]
    assert said and re.search(r"text units \+0 -[1-9]\d*, 0 units extracted", said[0]), said


def test_upload_of_an_indexed_title_asks_to_replace_it(tmp_path, monkeypatch):
    path, store = _indexed(tmp_path)
    name, data = sample_files(1)[0]
    edited = data.replace(b" the ", b" the amended ", 1)
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    at.get("file_uploader")[0].set_value([(name, edited, "text/plain")]).run()
    assert not at.exception
    asked = next(m.value for m in at.markdown if "already in the corpus with other text" in _plain(m.value))
    # the title in bold (its own punctuation escaped), not the asterisks shown as text
    assert asked.startswith("**") and not asked.startswith("\\*"), asked
    assert store.count("documents") == 3
    # before the choice, what the new version changes: one paragraph edited, its units counted,
    # and the edit itself, the removed and added words marked
    preview = next(_plain(c.value) for c in at.caption if "paragraph" in _plain(c.value) and "differ" in _plain(c.value))
    m = re.search(r"1 paragraph differs \(1 edited\); (\d) of the new version's (\d+) text units (?:is|are) new", preview)
    assert m and 1 <= int(m.group(1)) <= 2, preview
    shown = next(h.proto.body for h in at.get("html") if "sm-diff" in h.proto.body)
    assert "<ins>amended</ins>" in shown and "<b>edited</b>" in shown, shown
    next(b for b in at.button if b.label == "Replace it").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    _wait(store)
    at.run()
    doc = store.rows("documents", "title = ?", [name])[0]
    assert "the amended" in doc["text"] and store.count("documents") == 3 and check_workspace(store).ok
    history = next(d.value for d in at.dataframe if "changes" in d.value.columns)
    assert history.iloc[0]["operation"] == "replace"
    assert history.iloc[0]["documents"] == name  # which document, not only counts
    # the outcome says what was recomputed: one paragraph edited -> one or two units extracted
    # again, the rest of the index kept
    said = [_plain(c.value) for c in at.caption if "What changed:" in _plain(c.value)]
    assert said, [c.value for c in at.caption]
    m = re.search(r"text units \+(\d+) -(\d+), (\d+) units? extracted", said[0])
    assert m and 1 <= int(m.group(3)) <= 2 and m.group(1) == m.group(3), said[0]
    assert "kept as they were" in said[0] and "0 LLM calls" in said[0], said[0]
    # the documents table says when the replaced document's text changed
    table = next(d.value for d in at.dataframe if "tokens" in d.value.columns)
    row = table[table["title"] == name].iloc[0]
    assert re.search(r"\(replaced (?:\d{4}-\d\d-\d\d )?\d\d:\d\d\)$", row["added"]), row["added"]


def test_the_live_panel_says_a_removal_is_running(tmp_path, monkeypatch):
    """While a removal's run works, its panel says "Removing documents", not "Indexing"."""
    path, store = _indexed(tmp_path)
    store.insert("runs", [{"id": "run-live", "started_at": now(), "status": "running", "engine": "offline",
                           "operation": "remove", "stage": "graph", "progress": {}, "heartbeat_at": now(),
                           "pid": os.getpid(), "llm_calls": 0}])
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    heads = [_plain(m.value) for m in at.markdown if "running for" in _plain(m.value)]
    assert heads and heads[0].startswith("**Removing documents** ·"), heads
    store.update("runs", "run-live", status="finished")

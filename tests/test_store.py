"""The workspace store on both backends (SQLite, PostgreSQL): schema, stable ids, full-text
search (Latin and CJK), concurrent readers, versions."""
from __future__ import annotations

import sqlite3
import threading

import psycopg

import pytest

from core.store.backends import store_at
from core.store.schema import SCHEMA_VERSION, TABLES
from core.store.db import Store, StoreError


def test_every_table_has_id_and_human_readable_id(tmp_path, backend):
    store = store_at(tmp_path)
    for table in TABLES:
        cols = {c[0] for c in store.db.conn.execute(f"select * from [{table}] limit 0").description}
        assert "id" in cols and "human_readable_id" in cols, table
    if backend == "sqlite":
        assert store.db.conn.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert store.schema_version() == SCHEMA_VERSION


def test_human_readable_ids_are_assigned_in_order_and_kept_on_replace(tmp_path, backend):
    store = store_at(tmp_path)
    store.insert("entities", [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}])
    assert [r["human_readable_id"] for r in store.rows("entities")] == [0, 1]
    store.replace_table("entities", [{"id": "c", "title": "C"}, {"id": "b", "title": "B2"}])
    rows = {r["id"]: r["human_readable_id"] for r in store.rows("entities")}
    assert rows == {"b": 1, "c": 2}  # b kept its id; the new row did not reuse a's
    store.upsert("entities", [{"id": "b", "description": "kept"}])
    b = store.get("entities", "b")
    assert b["human_readable_id"] == 1 and b["title"] == "B2" and b["description"] == "kept"


def test_json_columns_round_trip(tmp_path, backend):
    store = store_at(tmp_path)
    store.insert("communities", [{"id": "c", "community": 3, "children": [4, 5], "entity_ids": ["x"]}])
    row = store.get("communities", "c")
    assert row["children"] == [4, 5] and row["entity_ids"] == ["x"]


def test_full_text_search_follows_updates_and_ignores_fts_syntax(tmp_path, backend):
    store = store_at(tmp_path)
    store.insert("entities", [{"id": "a", "title": "SCROOGE", "description": "a miserly old man"},
                              {"id": "b", "title": "FRED", "description": "Scrooge's cheerful nephew"}])
    assert [r["id"] for r in store.search("entities", "miserly")] == ["a"]
    store.update("entities", "a", description="a generous old man")
    assert store.search("entities", "miserly") == []
    assert {r["id"] for r in store.search("entities", 'scrooge AND "NEAR(')} == {"a", "b"}


def test_search_ranks_the_same_rows_in_the_same_order_on_either_backend(tmp_path, backend):
    # one scorer (BM25 over core.text's terms) whatever index found the rows: a short passage naming
    # Copilot once outranks a long one naming it three times, equal texts rank by their ids, a
    # plural finds the singular, and the question's stop words find nothing by themselves
    filler = " ".join(["the guests talked about music, childhood and the future of computing"] * 12)
    store = store_at(tmp_path)
    store.insert("text_units", [
        {"id": "long", "text": f"{filler} Copilot came up, then Copilot again, and Copilot once more. {filler}"},
        {"id": "same1", "text": "Thank you for being on the podcast today."},
        {"id": "short", "text": "GitHub Copilot writes code."},
        {"id": "same2", "text": "Thank you for being on the podcast today."},
        {"id": "companies", "text": "Two companies and a company."},
    ])
    assert [r["id"] for r in store.search("text_units", "What does it say about Copilot?")] == ["short", "long"]
    assert [r["id"] for r in store.search("text_units", "podcast")] == ["same1", "same2"]
    assert [r["id"] for r in store.search("text_units", "which company")] == ["companies"]
    assert store.search("text_units", "what is the") == []


def test_a_bulk_insert_is_found_by_both_full_text_indexes(tmp_path, backend):
    # a batch this large indexes once for the batch instead of by a trigger per row; the word and
    # the trigram index must still find every new row, old rows must stay findable, the triggers
    # must be back for later writes, and `sensemaker check` must find the indexes in step
    from core.store.check import check_workspace
    from core.store.db import FTS_BATCH

    store = store_at(tmp_path)
    store.insert("documents", [{"id": "d", "title": "d.txt", "text": "..."}])
    n = FTS_BATCH * 3
    # into an empty table (the indexes are rebuilt), one row (its triggers), into a full table
    # (the rows above the old largest rowid are added)
    store.insert("text_units", [{"id": f"u{i}", "document_id": "d",
                                 "text": f"Unit number zz{i}qq mentions 狄更斯{i}号 and Scrooge."} for i in range(n)])
    store.insert("text_units", [{"id": "old", "document_id": "d", "text": "Marley was dead, to begin with."}])
    store.insert("text_units", [{"id": f"v{i}", "document_id": "d",
                                 "text": f"Later unit yy{i}ww about 圣诞颂歌{i}章."} for i in range(n)])

    def trigram(text: str) -> list[str]:  # the substring index (SQLite's trigram table, pg_trgm)
        texts = set(store.unit_texts_with(text, substring=True))
        return [r["id"] for r in store.rows("text_units", select="id, text") if r["text"] in texts]

    for i in (0, n - 1):
        assert [r["id"] for r in store.search("text_units", f"zz{i}qq")] == [f"u{i}"]
        assert [r["id"] for r in store.search("text_units", f"yy{i}ww")] == [f"v{i}"]
        assert trigram(f"狄更斯{i}号") == [f"u{i}"] and trigram(f"圣诞颂歌{i}章") == [f"v{i}"]
    assert [r["id"] for r in store.search("text_units", "Marley")] == ["old"]
    store.update("text_units", "v0", text="rewritten by hand")  # the per-row triggers are back
    assert store.search("text_units", "yy0ww") == [] and store.search("text_units", "rewritten")[0]["id"] == "v0"
    assert trigram("圣诞颂歌0章") == []
    store.insert("text_units", [{"id": "w", "document_id": "d", "text": "one more unit about Fezziwig"}])
    assert [r["id"] for r in store.search("text_units", "Fezziwig")] == ["w"]
    res = check_workspace(store)
    assert res.ok, res.problems


def test_chinese_search_matches_inside_unspaced_text(tmp_path, backend):
    store = store_at(tmp_path)
    store.insert("text_units", [
        {"id": "t1", "text": "微软研究院提出的社区摘要方法可以回答全局问题。"},
        {"id": "t2", "text": "Scrooge was a miser."},
        {"id": "t3", "text": "Leiden 算法把图划分为社区。"}])
    assert store.search("text_units", "社区摘要")[0]["id"] == "t1"
    assert store.search("text_units", "Leiden 算法起什么作用？")[0]["id"] == "t3"
    assert [r["id"] for r in store.search("text_units", "miser")] == ["t2"]  # English keeps working


def test_a_newer_schema_is_refused(tmp_path, backend):
    store = store_at(tmp_path)
    store.set_meta("schema_version", str(SCHEMA_VERSION + 1))
    with pytest.raises(StoreError, match="newer Sensemaker"):
        store_at(tmp_path)


def test_opening_a_current_workspace_writes_nothing_and_a_commit_changes_its_stamp(tmp_path, backend):
    store_at(tmp_path).insert("documents", [{"id": "d1", "title": "a", "text": "x"}])
    first = store_at(tmp_path).data_stamp()
    assert store_at(tmp_path).data_stamp() == first  # a second session opening it changed nothing
    store_at(tmp_path).insert("documents", [{"id": "d2", "title": "b", "text": "y"}])
    assert store_at(tmp_path).data_stamp() != first


def test_an_older_workspace_gains_what_this_version_adds_on_opening(tmp_path, backend):
    store = store_at(tmp_path)
    store.db.conn.execute("drop index idx_entities_hrid")
    store.set_meta("schema_version", str(SCHEMA_VERSION - 1))
    store.close()
    again = store_at(tmp_path)
    assert again.schema_version() == SCHEMA_VERSION and again._schema_complete()
    again.insert("entities", [{"id": "a", "title": "A"}])
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):  # the unique index on citation numbers is back
        again.insert("entities", [{"id": "b", "title": "B", "human_readable_id": 0}])


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path):
    (tmp_path / "sensemaker.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a Sensemaker workspace"):
        Store(tmp_path)


def test_readers_are_not_blocked_by_a_writer(tmp_path, backend):
    store = store_at(tmp_path)
    store.insert("entities", [{"id": f"e{i}", "title": f"E{i}"} for i in range(100)])
    errors: list[BaseException] = []
    stop = threading.Event()

    def write():
        i = 100
        while not stop.is_set():
            store.insert("entities", [{"id": f"e{i}", "title": f"E{i}"}])
            i += 1

    def read():
        try:
            for _ in range(200):
                assert store.count("entities") >= 100
        except Exception as exc:
            errors.append(exc)

    w = threading.Thread(target=write)
    readers = [threading.Thread(target=read) for _ in range(3)]
    w.start()
    for r in readers:
        r.start()
    for r in readers:
        r.join()
    stop.set()
    w.join()
    assert not errors


def test_nested_writes_land_together_or_not_at_all(tmp_path, backend):
    store = store_at(tmp_path)
    with pytest.raises(RuntimeError):
        with store.atomic():
            store.insert("entities", [{"id": "a", "title": "A"}])
            store.upsert("entities", [{"id": "b", "title": "B"}])
            raise RuntimeError("crash in the middle of a batch")
    assert store.count("entities") == 0
    with store.atomic():
        store.insert("entities", [{"id": "a", "title": "A"}])
        store.insert("entities", [{"id": "b", "title": "B"}])
    assert store.count("entities") == 2

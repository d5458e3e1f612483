"""`sensemaker check` finds broken references, orphans and full-text indexes out of step."""
from __future__ import annotations

from pathlib import Path

from core.store.check import check_workspace
from core.cli.main import main
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.settings import Settings
from core.store.db import Store

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def _indexed(tmp_path) -> Store:
    store = Store(tmp_path)
    files = sorted(p for p in SAMPLE.glob("2024-0[23]*"))[:3]
    ingest_paths(store, files, max_bytes=10**7)
    run_index(store, Settings(engine="offline"))
    return store


def test_a_fresh_index_is_consistent(tmp_path, capsys):
    store = _indexed(tmp_path)
    res = check_workspace(store)
    assert res.ok, res.problems
    assert main(["check", "--workspace", str(tmp_path)]) == 0
    assert "workspace is consistent" in capsys.readouterr().out


def test_broken_references_and_orphans_are_reported(tmp_path, capsys):
    store = _indexed(tmp_path)
    doc = store.rows("documents")[0]
    store.db.conn.execute("delete from documents where id = ?", [doc["id"]])
    store.db.conn.commit()
    ent = store.rows("entities")[0]
    store.db.conn.execute("delete from entities where id = ?", [ent["id"]])
    store.db.conn.commit()
    res = check_workspace(store)
    problems = " | ".join(p["problem"] for p in res.problems)
    assert "orphan: its document" in problems
    assert "is not an entity" in problems or "an entity it lists does not exist" in problems
    assert main(["check", "--workspace", str(tmp_path)]) == 1
    assert "problems in" in capsys.readouterr().out


def test_a_full_text_index_out_of_step_is_reported(tmp_path):
    store = _indexed(tmp_path)
    store.db.conn.execute("drop trigger [entities_ai]")
    store.db.conn.execute("insert into entities (id, human_readable_id, title, description) "
                          "values ('x', 99999, 'UNINDEXED', 'not in the index')")
    store.db.conn.commit()
    res = check_workspace(store)
    assert any(p["table"] == "entities_fts" for p in res.problems)


def test_check_of_a_missing_workspace_says_so(tmp_path, capsys):
    assert main(["check", "--workspace", str(tmp_path / "nope")]) == 2
    assert "no workspace at" in capsys.readouterr().err

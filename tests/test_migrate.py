"""`sensemaker migrate`: a SQLite workspace moved into PostgreSQL keeps every row, citation
number, answer and export; the workspace then opens on PostgreSQL and its SQLite file is kept."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from core.cli.main import main
from core.interop.export import export_workspace
from core.query.methods.frame import run_method
from core.store.backends import backend_of, drop_tables, store_at
from core.store.db import Store
from core.store.references import Resolver
from core.text.citations import Ref
from tests.conftest import TEST_DATABASE_URL, build_workspace, sample_files

QUESTIONS = [("global", "What are the main themes?"), ("local", "Who is Dana Calloway?"),
             ("basic", "What went wrong with the hose?")]


def _answers(store) -> list[str]:
    return [run_method(m, store, q).answer for m, q in QUESTIONS]


def _csv(folder: Path) -> dict[str, list[list[str]]]:
    return {p.stem: list(csv.reader(p.open(encoding="utf-8"))) for p in sorted(folder.glob("*.csv"))
            if p.stem != "meta"}


@pytest.fixture()
def pg(monkeypatch):
    if not TEST_DATABASE_URL:
        pytest.skip("SENSEMAKER_TEST_DATABASE_URL is not set (.ci/run starts PostgreSQL and sets it)")
    monkeypatch.delenv("SENSEMAKER_DATABASE_URL", raising=False)
    return TEST_DATABASE_URL


def test_a_migrated_workspace_holds_the_same_rows_answers_and_exports(tmp_path, pg, monkeypatch, capsys):
    folder = build_workspace(tmp_path / "home", "memos", sample_files(4))
    store = Store(folder)
    before = store.counts()
    answers = _answers(store)
    run_method("global", store, "What did the plant manager decide?")  # a stored question
    before["query_traces"] = store.count("query_traces")
    export_workspace(store, "csv", tmp_path / "from-sqlite")
    report = store.by_hrid("community_reports", 0)
    store.close()

    assert main(["migrate", "-w", str(folder), "--to", pg]) == 0
    said = capsys.readouterr().out
    assert "into PostgreSQL" in said and "sensemaker.db.migrated" in said and "SENSEMAKER_DATABASE_URL" in said
    assert pg.split("@")[0] not in said  # the password is not printed
    assert backend_of(folder) == "postgresql" and not (folder / "sensemaker.db").exists()
    assert (folder / "sensemaker.db.migrated").is_file()
    try:
        monkeypatch.setenv("SENSEMAKER_DATABASE_URL", pg)
        moved = store_at(folder)
        assert type(moved).__name__ == "PostgresStore"
        assert moved.counts() == before
        export_workspace(moved, "csv", tmp_path / "from-postgresql")
        assert _csv(tmp_path / "from-postgresql") == _csv(tmp_path / "from-sqlite")
        assert Resolver(moved).resolve(Ref("Reports", 0)).record["title"] == report["title"]
        assert _answers(moved) == answers
        # a second migrate says what is wrong and changes nothing
        assert main(["migrate", "-w", str(folder), "--to", pg]) == 2
        assert "already in PostgreSQL" in capsys.readouterr().err
    finally:
        drop_tables(folder)


def test_a_workspace_in_postgresql_without_the_url_says_how_to_open_it(tmp_path, pg, monkeypatch, capsys):
    folder = build_workspace(tmp_path / "home", "memos", sample_files(1))
    assert main(["migrate", "-w", str(folder), "--to", pg]) == 0
    try:
        assert main(["status", "-w", str(folder)]) == 2
        assert "set SENSEMAKER_DATABASE_URL" in capsys.readouterr().err
    finally:
        monkeypatch.setenv("SENSEMAKER_DATABASE_URL", pg)
        drop_tables(folder)

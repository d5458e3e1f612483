"""Shared fixtures: small workspaces indexed by the real pipeline (offline engine), in a temporary
SENSEMAKER_HOME. Built once per test session; tests must not change them."""
from __future__ import annotations

import shutil
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Iterator

import os

import pytest

from core.engine import Extraction, ReportInput
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.offline.engine import OfflineEngine
from core.settings import load_settings, save_settings
from core.store.db import Store
from core.store.workspace import create_workspace

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpus"
HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_ORG = f"Acme {HOSTILE} Ltd"  # survives name normalisation with its tag in the middle


def build_workspace(root: Path, name: str, files: list[tuple[str, bytes]],
                    engine: Any = None) -> Path:
    """A workspace under root holding files, indexed offline (or by engine) through run_index."""
    path = create_workspace(name, root)
    store = Store(path)
    report = ingest_files(store, files, max_bytes=10_000_000)
    assert not report.rejected, report.rejected
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    summary = run_index(store, settings, engine=engine)
    assert summary["status"] == "finished", summary
    store.close()
    return path


def sample_files(n: int = 3) -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("*.*"))[:n]]


class HostileEngine(OfflineEngine):
    """The offline engine plus what a hostile document or model could put in the index: an
    entity named like an HTML tag, descriptions, report titles and findings with live-looking
    HTML, and citations of those records."""

    name = "hostile-test"

    def extract(self, unit: dict[str, Any]) -> Extraction:
        ex = super().extract(unit)
        anchor = next((e["title"] for e in ex.entities if not e.get("tentative")), None)
        for title in (HOSTILE, HOSTILE_ORG):
            ex.entities.append({"title": title, "type": "organization",
                                "description": f"{HOSTILE} appears in the harbour records"})
            if anchor:
                ex.relationships.append({"source": title, "target": anchor, "weight": 3.0,
                                         "description": f"{HOSTILE} works with {anchor}"})
        ex.relationships.append({"source": HOSTILE, "target": HOSTILE_ORG, "weight": 2.0,
                                 "description": f"{HOSTILE} is part of {HOSTILE_ORG}"})
        return ex

    def write_report(self, inp: ReportInput) -> dict[str, Any]:
        report = super().write_report(inp)
        ids = [e["human_readable_id"] for e in inp.entities if "IMG" in str(e.get("title")).upper()]
        cite = f" [Data: Entities ({', '.join(map(str, ids))})]" if ids else ""
        report["title"] = f"{HOSTILE} {report.get('title') or ''}"
        report["findings"] = [{"summary": f"{HOSTILE} in the harbour",
                               "explanation": f"The harbour records name {HOSTILE} often.{cite}"}] \
            + list(report.get("findings") or [])
        return report


HOSTILE_TEXT = (
    f"Harbour note. {HOSTILE_ORG} and the Port Authority met Maria Okafor at Berth 2.\n"
    f"Maria Okafor said {HOSTILE} had been seen at Berth 2 with Owen Pike.\n"
    "Owen Pike told the Port Authority that Calloway Chemicals had moved the tanker.\n"
    "Calloway Chemicals denied it. Maria Okafor wrote to Mayor Helen Varga.\n"
    "Mayor Helen Varga asked the Port Authority and Calloway Chemicals for the logs.\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item (rep_setup, rep_call, rep_teardown), so a
    fixture can tell at teardown that its test failed (the browser test saves a screenshot)."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def indexed_home(tmp_path_factory) -> Path:
    """A SENSEMAKER_HOME with one workspace, `test`: three sample documents indexed offline."""
    root = tmp_path_factory.mktemp("home")
    build_workspace(root, "test", sample_files(3))
    return root


@pytest.fixture()
def home(indexed_home, tmp_path) -> Path:
    """A copy of indexed_home for a test that writes to it (questions asked, traces): the session's
    workspace stays as it was for the others."""
    copy = tmp_path / "home"
    shutil.copytree(indexed_home, copy)
    return copy


@pytest.fixture(scope="session")
def hostile_home(tmp_path_factory) -> Path:
    """A SENSEMAKER_HOME with one workspace, `hostile`, indexed by HostileEngine."""
    root = tmp_path_factory.mktemp("hostile-home")
    build_workspace(root, "hostile", [("hostile.txt", HOSTILE_TEXT.encode())], engine=HostileEngine())
    return root


TEST_DATABASE_URL = os.environ.get("SENSEMAKER_TEST_DATABASE_URL", "")


@contextmanager
def pg_schema(prefix: str) -> Iterator[str]:
    """A schema of its own in the test database: yields the URL whose connections use it (its
    search_path); afterwards closes this process's pools to it and drops it. Skips the test
    without SENSEMAKER_TEST_DATABASE_URL (.ci/run starts PostgreSQL and sets it)."""
    if not TEST_DATABASE_URL:
        pytest.skip("SENSEMAKER_TEST_DATABASE_URL is not set (.ci/run starts PostgreSQL and sets it)")
    import uuid
    import psycopg
    from core.store.postgres import close_pools
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as db:
        db.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{TEST_DATABASE_URL}{'&' if '?' in TEST_DATABASE_URL else '?'}options=-c%20search_path%3D{schema}"
    try:
        yield url
    finally:
        close_pools(url)
        with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as db:
            db.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def team_store(request, tmp_path):
    """The team database on each backend: SQLite under tmp_path, and PostgreSQL in a schema of
    its own in the test database (pg_schema)."""
    from core.store.team import PostgresTeam, TeamStore
    if request.param == "sqlite":
        yield TeamStore(tmp_path)
        return
    with pg_schema("t") as url:
        team = PostgresTeam(url)
        team.database_url = team.url  # what a command line run against this team database is given
        yield team


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, monkeypatch, tmp_path):
    """Where the test's new workspaces keep their tables: SQLite, or PostgreSQL (a schema per
    workspace in SENSEMAKER_TEST_DATABASE_URL, dropped after the test; without that database
    the case is skipped, saying why). Workspaces are opened with core.store.backends.store_at."""
    if request.param == "postgresql":
        if not TEST_DATABASE_URL:
            pytest.skip("SENSEMAKER_TEST_DATABASE_URL is not set (.ci/run starts PostgreSQL and sets it)")
        monkeypatch.setenv("SENSEMAKER_DATABASE_URL", TEST_DATABASE_URL)
    else:
        monkeypatch.delenv("SENSEMAKER_DATABASE_URL", raising=False)
    yield request.param
    if request.param == "postgresql":
        from core.store.backends import drop_tables
        for marker in tmp_path.rglob("postgresql.json"):
            drop_tables(marker.parent)


@pytest.fixture(scope="session")
def fy24q3_call(tmp_path_factory):
    """The FY24 Q3 call indexed offline, beside a chapter of another book (a mixed workspace),
    once for every verifier test that reads it (tests/verify/test_corpus_*.py)."""
    from core.store.db import Store
    from tests.verify_corpus import CALLS, CORPORA, read_doc
    if not CALLS.exists():
        pytest.skip("../shared/corpora is not available")
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import Settings
    tmp = tmp_path_factory.mktemp("call")
    path = tmp / "TranscriptFY24Q3.txt"
    path.write_text(read_doc(CALLS, "TranscriptFY24Q3.txt"), encoding="utf-8")
    carol = tmp / "carol_stave_one.txt"
    carol.write_text(read_doc(CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt")[:60_000], encoding="utf-8")
    store = Store(tmp / "ws")
    ingest_paths(store, [path, carol], max_bytes=10_000_000)
    run_index(store, Settings(engine="offline"))
    return store

"""Several sessions on one workspace while it is being indexed (issue 7): a background index run
(the child process the app starts) adds two books to an indexed workspace while threads, like
browser sessions, ask global and local questions, list communities, open reports and resolve
their citations, and render the app's pages with AppTest. Nobody sees an exception, "database
is locked", or half-written data: every read snapshot is whole (each report belongs to a
community of the same version, every reference points at a row that exists)."""
from __future__ import annotations

import hashlib
import json
import threading
import time
import traceback
from pathlib import Path

import pytest

from core.index.background import current_run, start_index
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.resolve import resolve_answer
from core.query.types import GlobalParams
from core.settings import load_settings, save_settings
from core.store.db import Store
from core.store.workspace import create_workspace

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
SAMPLE = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")
BOOKS = [CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt",
         CORPORA / "operation_dulce" / "operation_dulce_v2_1_1.md",
         CORPORA / "msft_earnings_calls" / "TranscriptFY24Q4.txt"]
APP = str(ROOT / "tests" / "app_entry.py")  # AppTest: see tests/app_entry.py

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not all(p.exists() for p in BOOKS), reason="../shared/corpora is not available")]


def half_written(store: Store) -> list[str]:
    """What a reader would see as half-written in one read snapshot of the workspace."""
    con = store.db.conn
    con.execute("begin")  # one snapshot: everything below sees the same committed state
    try:
        def ids(table: str, col: str = "id") -> set:
            return {r[0] for r in con.execute(f"select [{col}] from [{table}]")}

        docs, units, titles = ids("documents"), ids("text_units"), ids("entities", "title")
        entities, rels = ids("entities"), ids("relationships")
        communities = {r[0]: r[1] for r in con.execute("select community, id from communities")}
        problems = []
        for (doc,) in con.execute("select document_id from text_units"):
            if doc not in docs:
                problems.append(f"text unit of a missing document {doc}")
        for title, tus in con.execute("select title, text_unit_ids from entities"):
            if not set(json.loads(tus or "[]")) <= units:
                problems.append(f"entity {title!r} cites missing text units")
        for src, dst, tus in con.execute("select source, target, text_unit_ids from relationships"):
            if src not in titles or dst not in titles:
                problems.append(f"relationship {src!r} -> {dst!r} has an end that is not an entity")
            if not set(json.loads(tus or "[]")) <= units:
                problems.append(f"relationship {src!r} -> {dst!r} cites missing text units")
        for subject, tu in con.execute("select subject, text_unit_id from claims"):
            if subject not in titles or (tu and tu not in units):
                problems.append(f"claim about {subject!r} points at a missing row")
        for c, ents, rs in con.execute("select community, entity_ids, relationship_ids from communities"):
            if not set(json.loads(ents or "[]")) <= entities or not set(json.loads(rs or "[]")) <= rels:
                problems.append(f"community {c} lists missing entities or relationships")
        for rid, c in con.execute("select id, community from community_reports"):
            if c not in communities:
                problems.append(f"report of a missing community {c}")
            elif rid != "rep-" + hashlib.sha256(communities[c].encode()).hexdigest()[:16]:
                problems.append(f"the report of community {c} was written for another version of it")
        return problems
    finally:
        con.execute("commit")


class Sessions:
    """Reader threads in a loop until stopped; every exception and every half-written snapshot
    is kept with the thread's name."""

    def __init__(self):
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.seen: list[str] = []
        self.kinds: set[str] = set()
        self.reads: dict[str, int] = {}
        self.started: dict[str, int] = {}   # reads begun so far, live
        self.lock = threading.Lock()

    def loop(self, name: str, step) -> threading.Thread:
        def run():
            n = 0
            while not self.stop.is_set():
                with self.lock:
                    self.started[name] = n + 1
                try:
                    step(n)
                except Exception:  # noqa: BLE001 - every failure a user would see is collected
                    with self.lock:
                        self.errors.append(f"{name}: {traceback.format_exc()}")
                n += 1
            with self.lock:
                self.reads[name] = n
        t = threading.Thread(target=run, name=name, daemon=True)
        t.start()
        return t

    def check(self, store: Store, who: str) -> None:
        problems = half_written(store)
        if problems:
            with self.lock:
                self.seen.append(f"{who}: {problems[:3]}")
                self.kinds.update(p.split(" of ")[0].split(" about ")[0][:40] for p in problems)


def _unresolved(citations: list[dict]) -> list[dict]:
    return [c for c in citations if not c["resolved"] and not c["dangling"] and not c["more"]]


def test_sessions_query_and_browse_while_a_background_run_indexes(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    path = create_workspace("shared", tmp_path)
    setup = Store(path)
    ingest_paths(setup, SAMPLE, max_bytes=10 ** 8)
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    run_index(setup, settings)
    before = setup.count("entities")
    ingest_paths(setup, BOOKS, max_bytes=10 ** 8)

    monkeypatch.setenv("SENSEMAKER_HOME", str(tmp_path))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)

    s = Sessions()
    questions = ["What happened at the harbour and who was responsible?", "What does Scrooge learn?",
                 "Who leads the Dulce mission?", "What did Microsoft say about cloud revenue?"]

    def global_step(n: int) -> None:
        store = stores["global"]
        s.check(store, "global")
        res = global_search(store, questions[n % 4], GlobalParams(seed=n))
        assert res.answer and not _unresolved(res.citations)

    def local_step(n: int) -> None:
        store = stores["local"]
        s.check(store, "local")
        res = local_search(store, ["Maria Okafor", "Scrooge", "Calloway Chemicals", "Jordan Hayes"][n % 4])
        assert res.answer and not _unresolved(res.citations)

    def browse_step(n: int) -> None:
        store = stores["browse"]
        s.check(store, "browse")
        communities = store.rows("communities", order_by="level, community")
        assert communities
        report = store.rows("community_reports", "community = ?", [communities[n % len(communities)]["community"]])
        for r in report:
            cites = resolve_answer(store, r["full_content"] or "")
            assert not _unresolved(cites)

    # one browser session, opened before the run starts (its first run imports the app and
    # prepares the sample: seconds that are no read during the run), reloading its pages in turn
    first = AppTest.from_file(APP, default_timeout=60)
    first.query_params["ws"] = "shared"
    apps: list[AppTest] = [first.run()]

    def app_step(n: int) -> None:
        at = apps[0]
        page = ["pages/corpus.py", "pages/communities.py", "pages/ask.py"][n % 3]
        at.switch_page("../" + page).run()
        if page == "pages/ask.py":
            at.text_area(key="ask_question").input(questions[n % 4])
            next(b for b in at.button if b.label == "Ask").click().run()
        shown = [e.value for e in at.error] + [str(e.value) for e in at.exception]
        assert not shown, shown
        s.check(stores["app"], "app")

    stores = {name: Store(path) for name in ("global", "local", "browse", "app")}
    run_id = start_index(path, settings)
    started = time.monotonic()
    threads = [s.loop("global", global_step), s.loop("local", local_step), s.loop("browse", browse_step),
               s.loop("app", app_step)]
    watcher = Store(path)
    while current_run(watcher) is not None and time.monotonic() - started < 120:
        s.check(watcher, "watcher")
        time.sleep(0.02)
    indexing = time.monotonic() - started
    with s.lock:
        during = dict(s.started)  # reads begun while the run was writing
    # on a quiet machine the run can end in a few seconds: let every session finish 3 reads
    while any(s.started.get(n, 0) < 3 for n in ("global", "local", "browse", "app")) and time.monotonic() - started < 150:
        time.sleep(0.05)
    s.stop.set()
    for t in threads:
        t.join(timeout=120)
    print(f"indexing {indexing:.1f} s; reads begun during the run {during}, in all {s.reads}")

    run = watcher.get("runs", run_id)
    log = (path / "index.log").read_text(errors="replace")
    assert run["status"] == "finished", (run["status"], run["error"], log[-2000:])
    assert watcher.count("entities") > before and watcher.count("documents") == len(SAMPLE) + len(BOOKS)
    assert not s.errors, s.errors[:3]
    assert not s.seen, (s.kinds, s.seen[:5])
    assert "locked" not in log.lower()
    # the sessions really ran while the index was being written, and each read several times
    assert all(during.get(n, 0) >= 1 and s.reads.get(n, 0) >= 3 for n in ("global", "local", "browse", "app")), \
        (indexing, during, s.reads)

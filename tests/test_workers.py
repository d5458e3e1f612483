"""Team mode: index runs are jobs in PostgreSQL, run by `sensemaker worker` processes (issue 36).
Two workers and the app's queue against one PostgreSQL and the simulated model endpoint: the
worker running a job is killed with SIGKILL mid-run, the job finishes on the other worker, and no
call the killed worker had finished is asked again (calls counted at the endpoint). A second run
of the workspace is refused while one goes on; a run no worker has taken is cancelled off the
queue."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.errors import UserError
from core.index.background import current_run, request_cancel, start_index
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.settings import load_settings
from core.store.backends import drop_tables, store_at
from core.store.check import check_workspace
from tests.conftest import pg_schema

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from sim_server import SimServer, chat_key  # noqa: E402

SAMPLE = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")
KEY = "sk-test-0123456789abcdef"


@pytest.fixture()
def team(tmp_path, monkeypatch):
    """A queue of its own (a schema in the test database) and a workspace in PostgreSQL."""
    with pg_schema("q") as url:
        monkeypatch.setenv("SENSEMAKER_DATABASE_URL", url)
        folder = tmp_path / "home" / "plant"
        yield url, folder
        drop_tables(folder)


def _env(url: str, endpoint: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
    env.update(SENSEMAKER_DATABASE_URL=url, OPENAI_BASE_URL=endpoint, OPENAI_API_KEY=KEY,
               SENSEMAKER_CHAT_MODEL="test-model", SENSEMAKER_EMBEDDING_MODEL="test-embedding",
               SENSEMAKER_CONCURRENCY="4")
    return env


def _worker(name: str, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "core.cli.main", "worker", "--name", name, "--stalled-after", "3"],
                            cwd=str(ROOT), env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)


def _requests(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text().splitlines() if x.strip()] if log.exists() else []


def _wait(what, seconds: float, step: float = 0.05):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(step)
    return None


@pytest.mark.slow
def test_a_job_whose_worker_is_killed_finishes_on_another_without_repeating_a_call(team, tmp_path, monkeypatch):
    url, folder = team
    requests = tmp_path / "requests.jsonl"
    with SimServer(0.05, request_log=requests, varied=True, quiet=True) as server:
        env = _env(url, server.url)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        store = store_at(folder)
        assert type(store).__name__ == "PostgresStore"
        ingest_paths(store, SAMPLE, max_bytes=10_000_000)
        settings = load_settings(folder, engine="llm")
        workers = {n: _worker(n, env, tmp_path / f"{n}.log") for n in ("w1", "w2")}
        try:
            run_id = start_index(folder, settings, store=store)
            run = store.get("runs", run_id)
            assert run["job"] and run["stage"] == "queued"
            # the run is on a worker and part way through extraction
            assert _wait(lambda: store.count("extractions", "status = 'ok'") >= 5, 90), \
                (tmp_path / "w1.log").read_text()[-2000:]
            # a second run of the workspace, from another process, is refused while this one goes on
            with pytest.raises(UserError, match="another index run is going on"):
                run_index(store, settings)
            pid = store.get("runs", run_id)["pid"]
            victim = next(n for n, p in workers.items() if p.pid == pid)
            workers[victim].send_signal(signal.SIGKILL)
            workers[victim].wait(10)
            done = store.count("extractions", "status = 'ok'")
            finished = {chat_key(r["model"], json.loads(r["request"])["messages"])
                        for r in store.rows("llm_cache", select="model, request", order_by=None)}
            seen = len(_requests(requests))
            assert 0 < done < store.count("text_units")
            # the other worker takes the job once the killed one's heartbeat is stale, and finishes it
            end = _wait(lambda: (store.get("runs", run_id) or {}).get("status", "").startswith("finished")
                        and store.get("runs", run_id), 180, 0.2)
            assert end, store.get("runs", run_id)
            survivor = next(p for n, p in workers.items() if n != victim)
            assert end["pid"] == survivor.pid and end["status"] == "finished"
            later = [r for r in _requests(requests)[seen:] if r["endpoint"] == "chat"]
            assert later and not [r for r in later if r["key"] in finished]  # no finished call asked again
            assert store.count("community_reports") > 5 and check_workspace(store).ok
            assert current_run(store) is None
        finally:
            for p in workers.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in workers.values():
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()


def test_a_run_no_worker_has_taken_waits_and_cancels_off_the_queue(team):
    url, folder = team
    store = store_at(folder)
    ingest_paths(store, SAMPLE[:1], max_bytes=10_000_000)
    run_id = start_index(folder, load_settings(folder, engine="offline"), store=store)
    waiting = current_run(store)
    assert waiting and waiting["id"] == run_id and waiting["stage"] == "queued"
    from core.index.jobs import job_status
    assert job_status(url, waiting["job"]) == "todo"
    request_cancel(store, run_id)
    assert store.get("runs", run_id)["status"] == "cancelled" and current_run(store) is None
    assert job_status(url, waiting["job"]) == "cancelled"


@pytest.mark.slow
def test_two_workers_indexing_two_workspaces_hold_the_endpoints_concurrency_together(team, tmp_path, monkeypatch):
    url, folder = team
    requests = tmp_path / "requests.jsonl"
    other = folder.with_name("harbour")
    with SimServer(0.05, request_log=requests, varied=True, quiet=True) as server:
        env = {**_env(url, server.url), "SENSEMAKER_CONCURRENCY": "2"}
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        runs = {}
        try:
            for ws, docs in ((folder, SAMPLE[:4]), (other, SAMPLE[4:8])):
                store = store_at(ws)
                ingest_paths(store, docs, max_bytes=10_000_000)
                runs[ws] = (store, start_index(ws, load_settings(ws, engine="llm"), store=store))
            workers = [_worker(n, env, tmp_path / f"{n}.log") for n in ("w1", "w2")]
            try:
                ended = _wait(lambda: all((s.get("runs", r) or {}).get("status", "").startswith("finished")
                                          for s, r in runs.values()), 240, 0.2)
                assert ended, [s.get("runs", r) for s, r in runs.values()]
            finally:
                for p in workers:
                    p.send_signal(signal.SIGTERM)
                for p in workers:
                    p.wait(30)
            # both workers ran at once (one job each), yet never more than 2 calls were in flight
            pids = {s.get("runs", r)["pid"] for s, r in runs.values()}
            assert pids == {p.pid for p in workers}
            chats = [r for r in _requests(requests) if r["endpoint"] == "chat"]
            assert len(chats) > 40 and max(r["in_flight"] for r in chats) == 2
        finally:
            drop_tables(other)


def test_the_corpus_page_shows_a_queued_run_and_cancels_it(team, monkeypatch):
    from streamlit.testing.v1 import AppTest
    url, folder = team
    store = store_at(folder)
    ingest_paths(store, SAMPLE[:2], max_bytes=10_000_000)
    run_id = start_index(folder, load_settings(folder, engine="offline"), store=store)
    monkeypatch.setenv("SENSEMAKER_HOME", str(folder.parent))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.query_params["ws"] = folder.name
    at.run()
    at.switch_page("../pages/corpus.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    shown = " ".join(m.value for m in at.markdown)
    assert "Queued for a worker" in shown, shown[:2000]
    docs = next(d.value for d in at.dataframe if "status" in d.value.columns)
    assert set(docs["status"]) == {"queued for a worker"}
    cancel = next(b for b in at.button if b.label == "Cancel")
    cancel.click().run()
    assert store.get("runs", run_id)["status"] == "cancelled"
    assert current_run(store) is None


def test_a_worker_on_another_machine_runs_the_job_with_the_settings_and_prompts_it_was_queued_with(
        team, tmp_path, monkeypatch):
    """The worker's machine has no workspaces folder: the run's settings and the workspace's prompt
    override reach it through the database, and the model it asks is the run's, not its own."""
    from core.index.worker import run_job
    from core.prompts import load_prompt
    url, folder = team
    rule = "House rule: every tenant of the plant is an organization."
    with SimServer(0.0, quiet=True) as server:
        for k, v in _env(url, server.url).items():
            monkeypatch.setenv(k, v)
        store = store_at(folder)
        ingest_paths(store, SAMPLE[:1], max_bytes=10_000_000)
        (folder / "prompts").mkdir()
        (folder / "prompts" / "extract_graph.txt").write_text(load_prompt("extract_graph") + "\n" + rule + "\n")
        run_id = start_index(folder, load_settings(folder, engine="llm"), store=store)
        elsewhere = tmp_path / "other-machine" / folder.name
        monkeypatch.setenv("SENSEMAKER_HOME", str(elsewhere.parent))
        monkeypatch.delenv("SENSEMAKER_CHAT_MODEL")
        run_job(str(elsewhere), run_id, store.schema)
    run = store.get("runs", run_id)
    assert run["status"] == "finished", run["error"]
    assert not elsewhere.parent.exists()  # nothing was made on the worker's side
    asked = store.rows("llm_cache", select="model, request", order_by=None)
    extractions = [r for r in asked if "EXAMPLE-CORP hired" in r["request"]]
    assert asked and {r["model"] for r in asked} == {"test-model"}  # the run's model: the worker's env names none
    assert extractions and all(rule in r["request"] for r in extractions)
    assert store.count("entities") > 0 and current_run(store) is None


def test_a_job_of_a_deleted_workspace_is_dropped_without_making_it_again(team):
    from core.index.worker import run_job
    from core.store.postgres import schema_exists
    url, folder = team
    store = store_at(folder)
    ingest_paths(store, SAMPLE[:1], max_bytes=10_000_000)
    run_id = start_index(folder, load_settings(folder, engine="offline"), store=store)
    schema = store.schema
    drop_tables(folder)
    run_job(str(folder), run_id, schema)
    assert not schema_exists(url, schema)

"""The API key never leaves the process's memory (issue 7): after an LLM index (library and CLI),
a global and a local question, exports in every format, background runs (their index.log) and
refused keys, no file under the workspaces or the export folder holds the key or its
distinctive middle, and neither do error messages, printed output, log records or reprs. Also
the upload limit as a setting the CLI honours."""
from __future__ import annotations

import logging
import os
import subprocess
import time
from pathlib import Path

import pytest

from core.cli.main import main
from core.index.background import current_run, start_index
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.interop.export import export_workspace
from core.llm.client import FatalLLMError
from core.llm.connection import check_connection
from core.llm.openai import make_llm
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.types import GlobalParams
from core.settings import load_settings, save_settings
from core.store.db import Store

from fake_model import respond
from openai_server import FakeOpenAIServer

KEY = "sk-test-SECRET-123456789abcdef"
WRONG = "sk-test-WRONGKEY-987654321fedcba"
SAMPLE = sorted((Path(__file__).resolve().parents[1] / "sample_corpus").glob("2024-0[23]*"))
SECRETS = [KEY, "SECRET-123456789", "123456789abcdef", WRONG, "WRONGKEY-987654321"]


def leaks(text: str | bytes) -> list[str]:
    data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
    return [s for s in SECRETS if s.encode() in data]


def files_with_secrets(*roots: Path) -> tuple[int, dict[str, list[str]]]:
    """(files searched, {file: secrets found}) over every file under roots, bytes as stored."""
    n, found = 0, {}
    for root in roots:
        for f in sorted(p for p in root.rglob("*") if p.is_file()):
            n += 1
            hit = leaks(f.read_bytes())
            if hit:
                found[str(f.relative_to(root))] = hit
    return n, found


@pytest.fixture
def env(monkeypatch):
    for var in [v for v in os.environ if v.startswith(("OPENAI_", "SENSEMAKER_"))]:
        monkeypatch.delenv(var)
    return monkeypatch


def test_the_key_is_in_no_file_message_log_or_repr(tmp_path, env, capsys, caplog):
    caplog.set_level(logging.DEBUG)  # every log record of every library, as verbose as it gets
    home, out = tmp_path / "home", tmp_path / "export"
    messages: list[str] = []
    with FakeOpenAIServer(lambda m, r: respond(m), api_key=KEY) as server:
        env.setenv("OPENAI_API_KEY", KEY)
        env.setenv("OPENAI_BASE_URL", server.url)
        env.setenv("SENSEMAKER_CHAT_MODEL", "test-model")
        env.setenv("SENSEMAKER_EMBEDDING_MODEL", "test-embedding")
        # an index through the library, and one through the CLI
        ws = home / "lib"
        store = Store(ws)
        ingest_paths(store, SAMPLE[:2], max_bytes=10 ** 7)
        settings = load_settings(ws, engine="llm")
        assert settings.api_key == KEY
        save_settings(ws, settings)
        llm = make_llm(settings, store)
        summary = run_index(store, settings, llm=llm)
        assert summary["status"] == "finished" and summary["counts"]["community_reports"] > 0
        assert main(["index", *map(str, SAMPLE[2:4]), "--workspace", str(home / "cli"), "--engine", "llm"]) == 0
        # questions (saved as traces) and exports
        g = global_search(store, "What happened at the harbour?", GlobalParams(seed=1), llm=llm)
        loc = local_search(store, "What did Calloway Chemicals do?", llm=llm)
        assert g.answer and loc.answer and store.count("query_traces") == 2
        for fmt in ("parquet", "csv", "graphml"):
            assert export_workspace(store, fmt, out / fmt)
        assert main(["export", "--workspace", str(home / "cli"), "--format", "csv", "--out", str(out / "cli")]) == 0
        assert main(["check", "--workspace", str(ws)]) == 0
        ok, said = check_connection(settings)
        assert ok
        messages += [said, repr(settings), str(settings), repr(llm.client), repr(llm.embedder),
                     repr(llm.client.openai), str(settings.to_dict()), str(summary), g.answer, loc.answer]

        # refused keys: the library, the CLI and the connection check say so without the key
        env.setenv("OPENAI_API_KEY", WRONG)
        bad = load_settings(ws, engine="llm", max_retries=0)
        ok, said = check_connection(bad)
        assert not ok and "key" in said and "401" in said
        messages.append(said)
        ws_bad = home / "refused"
        bad_store = Store(ws_bad)
        ingest_paths(bad_store, SAMPLE[:1], max_bytes=10 ** 7)
        with pytest.raises(FatalLLMError) as refused:
            run_index(bad_store, bad)
        messages.append(str(refused.value))
        assert "refused" in str(refused.value) or "401" in str(refused.value)
        assert main(["index", "--workspace", str(ws_bad), "--engine", "llm"]) != 0
        printed = capsys.readouterr()
        messages += [printed.out, printed.err]
        assert "401" in printed.err or "key" in printed.err

        searched, found = files_with_secrets(home, out)  # stores still open: -wal and -shm exist
    names = {p.name for p in home.rglob("*")}
    assert {"sensemaker.db", "sensemaker.db-wal", "sensemaker.db-shm", "settings.json"} <= names
    assert searched >= 25 and not found, found
    assert not [m for m in messages if leaks(m)], [m for m in messages if leaks(m)]
    records = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records)
    assert caplog.records and not leaks(records), leaks(records)


@pytest.mark.slow
def test_background_runs_keep_the_key_out_of_index_log_and_the_command_line(tmp_path, env):
    ws = tmp_path / "home" / "bg"
    store = Store(ws)
    ingest_paths(store, SAMPLE[:2], max_bytes=10 ** 7)
    with FakeOpenAIServer(lambda m, r: respond(m), api_key=KEY, latency=0.05) as server:
        # the key typed into the app for the session: given to the run, never in the environment
        settings = load_settings(ws, engine="llm", llm_base_url=server.url, chat_model="test-model",
                                 embedding_model="test-embedding", api_key=KEY)
        started = []
        real_popen = subprocess.Popen
        env.setattr(subprocess, "Popen", lambda args, **kw: started.append((args, kw["env"])) or real_popen(args, **kw))
        run_id = start_index(ws, settings, api_key=KEY)
        env.setattr(subprocess, "Popen", real_popen)
        (args, child_env), = started
        # the key goes to the child in its environment, never on its command line (which `ps` shows)
        assert "core.cli.main" in args and not leaks(" ".join(args)) and child_env["OPENAI_API_KEY"] == KEY
        deadline = time.time() + 60
        while current_run(store) is not None and time.time() < deadline:
            time.sleep(0.2)
        assert store.get("runs", run_id)["status"] == "finished"
        # a refused key: the run stops with a clear message in the runs row and index.log
        ingest_paths(store, SAMPLE[2:3], max_bytes=10 ** 7)
        failed = start_index(ws, settings, api_key=WRONG)
        while current_run(store) is not None and time.time() < deadline + 30:
            time.sleep(0.2)
    row = store.get("runs", failed)
    assert row["status"] == "failed" and ("refused" in row["error"] or "401" in row["error"]), row["error"]
    log = (ws / "index.log").read_text()
    assert "finished:" in log and row["error"].splitlines()[0] in log
    searched, found = files_with_secrets(ws)
    assert {"index.log", "settings.json", "sensemaker.db"} <= {p.name for p in ws.iterdir()}
    assert not found and not leaks(row["error"]), found


def test_a_lowered_upload_limit_in_settings_json_is_honoured_by_the_cli(tmp_path, env, capsys):
    """ingest's own message and limit are tested in test_ingest; here the setting reaches it."""
    ws = tmp_path / "small"
    ws.mkdir()
    (ws / "settings.json").write_text('{"max_file_mb": 0.002}')
    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    big.write_text("Maria Okafor met the Harbour Board. " * 100)  # 3,600 bytes
    small.write_text("Maria Okafor met the Harbour Board at Tanner Quay.")
    assert main(["index", str(big), str(small), "--workspace", str(ws), "--engine", "offline"]) == 0
    err = capsys.readouterr().err
    assert "rejected: big.txt: the file is 4 KB, over the upload limit of 2 KB (setting max_file_mb)" in err
    assert [d["title"] for d in Store(ws).rows("documents")] == ["small.txt"]

"""Roles per workspace (issue 36), enforced in core: a store opened for a signed-in user carries
their role, and the core entry points refuse what the role does not allow, whatever a screen
showed. The local user of an app without login owns every workspace, as before."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import build_workspace
from core.access import LOCAL, Principal
from core.index.lifecycle import remove_documents
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.interop.takeaway import workspace_zip
from core.query.methods import run_method
from core.settings import Settings
from core.store.access import Access, Forbidden
from core.store.db import Store
from core.verify.text import check_text

ALICE = Principal("alice", "Alice Analyst", "alice@example.org")
BOB = Principal("bob", "Bob", "bob@example.org")
CAROL = Principal("carol", "Carol", None)
NOTE = b"Maria Okafor, the Harbour Master, inspected Berth 2 at Tanner Quay on Monday.\n"


@pytest.fixture
def team(tmp_path, team_store):  # on SQLite and on PostgreSQL (conftest.team_store)
    path = build_workspace(tmp_path, "harbour", [("note.txt", NOTE)])
    build_workspace(tmp_path, "board", [("board.txt", b"The board met on Tuesday.\n")])
    acc = Access(team_store)
    acc.created(ALICE, "harbour")
    acc.share(ALICE, "harbour", "bob@example.org", "viewer")
    return acc, path


def test_the_local_user_owns_every_workspace(team, tmp_path):
    acc, path = team
    assert acc.role(LOCAL, "board") == "owner" and acc.visible(LOCAL, ["board", "harbour"]) == ["board", "harbour"]
    store = Store(path)  # opened without a user: the local user's, as the CLI and an app without login do
    assert ingest_files(store, [("more.txt", b"Another note about Berth 2.\n")], max_bytes=10_000).added


def test_a_viewer_reads_and_asks_but_core_refuses_writes(team):
    acc, path = team
    store = acc.open_for(BOB, "harbour", path)  # bob's sign-in gives his e-mail, the share named it
    assert store.role == "viewer"
    assert run_method("basic", store, "What did Maria Okafor inspect?").answer
    assert check_text(store, "Maria Okafor inspected Berth 2 [Data: Sources (0)].")
    assert workspace_zip(store, "csv")
    with pytest.raises(Forbidden, match="may not add documents to workspace \"harbour\": your role there is viewer"):
        ingest_files(store, [("x.txt", b"x")], max_bytes=10_000)
    with pytest.raises(Forbidden, match="may not index"):
        run_index(store, Settings(engine="offline"))
    with pytest.raises(Forbidden, match="may not remove documents"):
        remove_documents(store, ["note.txt"])
    with pytest.raises(Forbidden, match="may not share"):
        acc.share(BOB, "harbour", "carol", "owner")


def test_a_user_without_a_role_sees_nothing_of_the_workspace(team):
    acc, path = team
    assert acc.visible(CAROL, ["board", "harbour"]) == [] and acc.visible(BOB, ["board", "harbour"]) == ["harbour"]
    with pytest.raises(Forbidden, match="may not see workspace \"harbour\""):
        acc.open_for(CAROL, "harbour", path)


def test_a_role_taken_away_takes_effect_on_an_open_store(team):
    acc, path = team
    store = acc.open_for(BOB, "harbour", path)
    acc.share(ALICE, "harbour", "bob@example.org", None)
    acc.refresh(store, "harbour")
    with pytest.raises(Forbidden, match="may not see"):
        run_method("basic", store, "What did Maria Okafor inspect?")


def test_an_editor_indexes_and_owners_read_the_audit_log(team):
    acc, path = team
    acc.share(ALICE, "harbour", "carol", "editor")
    store = acc.open_for(CAROL, "harbour", path, "index")
    ingest_files(store, [("more.txt", b"Thomas Whitlock replaced the hose in January.\n")], max_bytes=10_000)
    run_index(store, Settings(engine="offline"))
    acc.log(CAROL, "harbour", "index", "run-1")
    log = acc.audit(ALICE, "harbour")
    assert [(e["user_id"], e["action"]) for e in log][:3] == [("carol", "index"), ("alice", "share"), ("alice", "share")]
    with pytest.raises(Forbidden, match="may not read the audit log"):
        acc.audit(CAROL, "harbour")


def test_administrators_own_every_workspace(tmp_path):
    acc = Access.for_root(tmp_path, env={"SENSEMAKER_ADMINS": "Root@Example.org, ops"})
    assert acc.role(Principal("x", "Root", "root@example.org"), "any") == "owner"
    assert acc.role(Principal("ops", "Ops"), "any") == "owner" and acc.role(BOB, "any") is None


def test_a_renamed_workspace_keeps_its_members(team):
    acc, _ = team
    acc.team.renamed("harbour", "harbour-2024")
    assert acc.role(BOB, "harbour-2024") == "viewer" and acc.role(BOB, "harbour") is None


def test_questions_belong_to_their_author_until_the_owners_share_them(team, tmp_path):
    from core.query.traces import TraceNotFound, list_traces, load_trace, save_trace
    from core.settings import load_settings, save_settings
    acc, path = team
    acc.share(ALICE, "harbour", "carol", "viewer")
    mine = {}
    for who in (ALICE, BOB, CAROL):
        store = acc.open_for(who, "harbour", path)
        mine[who.id] = save_trace(store, run_method("basic", store, f"What did Maria Okafor inspect, asks {who.name}?"))
    bob = acc.open_for(BOB, "harbour", path)
    assert [t["question"] for t in list_traces(bob)] == ["What did Maria Okafor inspect, asks Bob?"]
    with pytest.raises(TraceNotFound):
        load_trace(bob, mine["carol"])
    assert len(list_traces(acc.open_for(ALICE, "harbour", path))) == 3  # an owner sees all
    save_settings(path, load_settings(path).with_changes(share_questions=True))
    assert len(list_traces(bob)) == 3 and load_trace(bob, mine["carol"]).question.endswith("Carol?")



def _cli(args: list[str], user: str, root, database_url: str | None = None) -> subprocess.CompletedProcess:
    return _run(args, root, SENSEMAKER_USER=user, **({"SENSEMAKER_DATABASE_URL": database_url} if database_url else {}))


def test_the_command_line_acts_as_sensemaker_user(team, tmp_path):
    acc, path = team
    url = getattr(acc.team, "database_url", None)  # the PostgreSQL case: the commands use it too
    board = tmp_path / "board"
    asked = _cli(["query", "-w", str(path), "--method", "basic", "What did Maria Okafor inspect?"], "bob@example.org", tmp_path, url)
    assert asked.returncode == 0 and "Berth 2" in asked.stdout, asked.stderr
    note = tmp_path / "more.txt"
    note.write_text("Another note.\n")
    refused = _cli(["index", "-w", str(path), str(note)], "bob@example.org", tmp_path, url)
    assert refused.returncode != 0 and "may not index workspace \"harbour\"" in refused.stderr
    for args in (["query", "-w", str(board), "What was agreed?"], ["traces", "-w", str(board)],
                 ["export", "--workspace", str(board), "--format", "csv", "--out", str(tmp_path / "out")],
                 ["verify", "-w", str(board)], ["status", "-w", str(board)]):
        got = _cli(args, "bob@example.org", tmp_path, url)
        assert got.returncode != 0 and "may not see workspace \"board\"" in got.stderr, (args, got.stderr)
        assert "Tuesday" not in got.stdout + got.stderr
    assert not (tmp_path / "out").exists()
    assert ("bob@example.org", "ask") in {(e["user_id"], e["action"]) for e in acc.audit(ALICE, "harbour")}


def _run(args: list[str], root, **env_vars: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
    env.update(SENSEMAKER_HOME=str(root), **env_vars)
    return subprocess.run([sys.executable, "-m", "core.cli.main", *args], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[1], timeout=300)


def test_an_api_token_acts_as_its_user_on_the_command_line_until_revoked(team, tmp_path):
    acc, path = team
    url = getattr(acc.team, "database_url", None)
    db = {"SENSEMAKER_DATABASE_URL": url} if url else {}
    made = _run(["token", "create", "--user", "bob@example.org", "--name", "laptop"], tmp_path, **db)  # on the server
    token = made.stdout.strip()
    assert made.returncode == 0 and token.startswith("smk_"), made.stderr
    assert token not in str(acc.team.tokens_of("bob@example.org"))  # only its digest is kept
    asked = _run(["query", "-w", str(path), "--method", "basic", "What did Maria Okafor inspect?"], tmp_path,
                 SENSEMAKER_TOKEN=token, **db)
    assert asked.returncode == 0 and "Berth 2" in asked.stdout, asked.stderr
    note = tmp_path / "more.txt"
    note.write_text("Another note.\n")
    refused = _run(["index", "-w", str(path), str(note)], tmp_path, SENSEMAKER_TOKEN=token, **db)
    assert refused.returncode != 0 and 'may not index workspace "harbour"' in refused.stderr
    assert any(e["user_id"] == "bob@example.org" and e["action"] == "ask" for e in acc.audit(LOCAL, "harbour"))
    other = _run(["token", "create", "--user", "alice"], tmp_path, SENSEMAKER_TOKEN=token, **db)
    assert other.returncode != 0 and "only your own tokens" in other.stderr
    listed = _run(["token", "list"], tmp_path, SENSEMAKER_TOKEN=token, **db)
    handle = listed.stdout.split()[0]
    assert "laptop" in listed.stdout and "last used 20" in listed.stdout
    assert _run(["token", "revoke", handle], tmp_path, SENSEMAKER_TOKEN=token, **db).returncode == 0
    gone = _run(["status", "-w", str(path)], tmp_path, SENSEMAKER_TOKEN=token, **db)
    assert gone.returncode != 0 and "not a token of this team" in gone.stderr

"""Isolation (issue 36): as a viewer of workspace A, try every command-line command and every
page's deep link against workspace B (where the user holds no role), and the commands that write
against A; count the leaks. A leak: a command that succeeds, prints any of B's text, changes B's
or A's database, or writes an output; a page that shows any of B's text or no refusal.

    python bench/isolation.py

The app runs with sign-in against a real local OpenID provider (oidc-provider-mock) and is driven
in headless Chromium (/usr/bin/chromium)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path


from _common import ROOT, write_result

from tests.app_server import running_sign_in_app

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.query.methods import run_method
from core.query.traces import save_trace
from core.settings import Settings
from core.store.db import Store
from core.store.team import TeamStore

A, B = "harbour", "board"
SECRET = ("closed session", "Okonkwo-Reyes", "4.7 million")  # B's words: none may be seen
A_TEXT = "Maria Okafor, the Harbour Master, inspected Berth 2 at Tanner Quay on Monday.\n"
B_TEXT = ("The board met in closed session on Tuesday. Treasurer Okonkwo-Reyes proposed a budget of "
          "4.7 million for the new quay, and the board agreed it.\n")
VIEWER = "bob@example.org"


def _workspace(root: Path, name: str, text: str) -> Path:
    src = root / f"{name}-src"
    src.mkdir()
    (src / f"{name}.txt").write_text(text, encoding="utf-8")
    store = Store(root / name)
    ingest_paths(store, [src / f"{name}.txt"], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    store.close()
    return root / name


def _digest(path: Path) -> str:
    return hashlib.sha256((path / "sensemaker.db").read_bytes()).hexdigest()


def _cli(args: list[str], root: Path, user: str = VIEWER) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
    env.update(SENSEMAKER_HOME=str(root))
    if user:
        env["SENSEMAKER_USER"] = user
    return subprocess.run([sys.executable, "-m", "core.cli.main", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)


NOWHERE = "postgresql://nobody:secret@127.0.0.1:9/none"  # refused before any connection is tried


def cli_attempts(root: Path, a: Path, b: Path) -> list[dict]:
    extra = root / "extra.txt"
    extra.write_text("Another note.\n", encoding="utf-8")
    questions = root / "questions.txt"
    questions.write_text("What was agreed?\n", encoding="utf-8")
    ref = ROOT.parent / "shared" / "corpora" / "christmas_carol_graphrag_reference" / "parquet"
    against_b = [
        ["status", "-w", str(b)], ["check", "-w", str(b)], ["merges", "-w", str(b)],
        ["merges", "-w", str(b), "--undo", "1"], ["index", "-w", str(b), str(extra)],
        ["remove", "board.txt", "-w", str(b)], ["import-graphrag", str(ref), "-w", str(b)],
        ["export", "-w", str(b), "--format", "csv", "--out", str(root / "out-b")],
        ["verify", "-w", str(b)], ["verify", "-w", str(b), "--text", "The board met [Data: Sources (0)]."],
        *[["query", "-w", str(b), "--method", m, "What was agreed?"] for m in
          ("global", "local", "lazy", "basic", "drift", "ts", "auto")],
        ["traces", "-w", str(b)], ["query", "-w", str(b), "--trace", "1"],
        ["compare", "-w", str(b), "--methods", "basic,local", "--question", "What was agreed?",
         "--out", str(root / "cmp-b")],
        ["migrate", "-w", str(b), "--to", NOWHERE],
    ]
    writes_on_a = [["index", "-w", str(a), str(extra)], ["remove", "harbour.txt", "-w", str(a)],
                   ["merges", "-w", str(a), "--undo", "1"], ["import-graphrag", str(ref), "-w", str(a)],
                   ["migrate", "-w", str(a), "--to", NOWHERE]]
    out = []
    for args, refusal in [*((x, "may not see") for x in against_b), *((x, "may not") for x in writes_on_a)]:
        before = (_digest(a), _digest(b))
        got = _cli(args, root)
        said = got.stdout + got.stderr
        leaked = [w for w in SECRET if w in said]
        changed = (_digest(a), _digest(b)) != before
        wrote = any((root / d).exists() for d in ("out-b", "cmp-b"))
        ok = got.returncode != 0 and refusal in said and not leaked and not changed and not wrote
        out.append({"where": "cli", "args": " ".join(x if not x.startswith(str(root)) else Path(x).name for x in args),
                    "leak": not ok, "exit": got.returncode, "leaked_words": leaked, "changed_db": changed,
                    "wrote": wrote, "said": said.strip().splitlines()[-1][:160] if said.strip() else ""})
    return out


def page_attempts(root: Path, b_trace: str) -> list[dict]:
    from oidc_provider_mock import User, run_server_in_thread
    from playwright.sync_api import sync_playwright
    out = []
    bob = User(sub="bob", claims={"email": VIEWER, "name": "Bob Reader"})
    with run_server_in_thread(port=0, user_claims=[bob]) as server:
        provider = f"http://localhost:{server.server_port}"
        oidc = {"SENSEMAKER_OIDC_METADATA_URL": f"{provider}/.well-known/openid-configuration",
                "SENSEMAKER_OIDC_CLIENT_ID": "sensemaker", "SENSEMAKER_OIDC_CLIENT_SECRET": "bench"}
        with running_sign_in_app(root, oidc) as url:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
                page = browser.new_page()
                page.goto(url)
                page.get_by_role("button", name="Sign in").click()
                page.get_by_role("button", name="bob").click()
                page.wait_for_url(url + "/**")
                for path in ("corpus", "communities", "ask", "compare"):
                    for extra in ("", "&c=1", f"&q={b_trace}"):
                        page.goto(f"{url}/{path}?ws={B}{extra}")
                        page.wait_for_timeout(600)
                        page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=60_000)
                        body = page.content()
                        leaked = [w for w in SECRET if w in body]
                        refused = "which you may not see" in page.inner_text("body")
                        out.append({"where": "page", "args": f"/{path}?ws={B}{extra}", "leak": bool(leaked) or not refused,
                                    "leaked_words": leaked, "refused": refused})
                browser.close()
    return out


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="sensemaker-isolation-") as tmp:
        root = Path(tmp)
        a, b = _workspace(root, A, A_TEXT), _workspace(root, B, B_TEXT)
        store = Store(b)
        b_trace = save_trace(store, run_method("basic", store, "What did the board agree?"))
        store.close()
        team = TeamStore(root)
        team.grant(A, "alice", "owner", by="bench")
        team.grant(A, VIEWER, "viewer", by="alice")
        # the control: the local user's same question shows B's words, so the check does see a leak
        control = _cli(["query", "-w", str(b), "--method", "basic", "What was agreed?"], root, user="")
        seen = [w for w in SECRET if w in control.stdout]
        print(f"control: the local user's query of {B!r} shows {len(seen)} of its {len(SECRET)} marked words")
        if not seen:
            raise SystemExit("the control shows none of B's words: the leak check would see nothing")
        rows = cli_attempts(root, a, b) + page_attempts(root, b_trace)
    leaks = [r for r in rows if r["leak"]]
    for r in rows:
        print(f"  {'LEAK' if r['leak'] else 'ok  '} {r['where']:4s} {r['args'][:90]}")
    print(f"isolation: {len(rows)} attempts as a viewer of {A!r} ({sum(r['where'] == 'cli' for r in rows)} commands, "
          f"{sum(r['where'] == 'page' for r in rows)} page links), {len(leaks)} leaks")
    print(f"-> {write_result('isolation', {'attempts': len(rows), 'leaks': len(leaks), 'rows': rows})}")


if __name__ == "__main__":
    main()

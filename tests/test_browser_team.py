"""Team server in a browser (issue 36): the app on PostgreSQL with a job queue. A user creates a
workspace, uploads a note and clicks Index: the run waits, "Queued for a worker"; a `sensemaker
worker` is started and indexes it; the page follows its progress from the database to
"Everything is indexed", and a question is answered from the workspace's PostgreSQL tables.
Screenshots at 1,500 and 1,024 px wide (SENSEMAKER_SCREENSHOTS)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from core.store.backends import drop_tables
from tests.app_server import running_app
from tests.conftest import pg_schema
from tests.test_browser_e2e import ARGS, CHROMIUM, DOCUMENT, _nav, _new_workspace, _settle

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]


def _shot(page, name: str) -> None:
    folder = os.environ.get("SENSEMAKER_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"team-{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [1500, 1024])
def test_an_index_run_queues_then_a_worker_indexes_it_and_the_page_follows(tmp_path, monkeypatch, width):
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed")
    with pg_schema("q") as url:
        monkeypatch.setenv("SENSEMAKER_DATABASE_URL", url)
        _index_queue_worker_ask(tmp_path, width)


def _index_queue_worker_ask(tmp_path: Path, width: int) -> None:
    """The user's path, on the team server SENSEMAKER_DATABASE_URL names."""
    home = tmp_path / "home"
    home.mkdir()
    worker = None
    try:
        with running_app(home) as (app_url, _), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = browser.new_page(viewport={"width": width, "height": 1000})
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(app_url)
            _settle(page)
            _new_workspace(page, "harbour team")
            marker = home / "harbour-team" / "postgresql.json"  # its tables are in PostgreSQL
            end = time.monotonic() + 30  # (a loaded machine may still be creating it when the page settles)
            while not marker.is_file() and time.monotonic() < end:
                time.sleep(0.2)
            assert marker.is_file()
            page.locator('input[type="file"]').set_input_files([
                {"name": "harbour-notes.txt", "mimeType": "text/plain", "buffer": DOCUMENT.encode()}])
            _settle(page)
            expect(page.get_by_text("Added 1 document: harbour-notes.txt")).to_be_visible()
            page.get_by_role("button", name="Index the corpus").click()
            # the run panel's words (the documents table says "queued for a worker" too, in lower case)
            expect(page.get_by_text(re.compile("Queued for a worker"))).to_be_visible(timeout=30_000)
            _shot(page, f"queued-{width}")
            env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
            worker = subprocess.Popen([sys.executable, "-m", "core.cli.main", "worker", "--name", "w1"], cwd=str(ROOT),
                                      env=env, stdout=open(tmp_path / "worker.log", "wb"), stderr=subprocess.STDOUT)
            expect(page.get_by_text("Everything is indexed", exact=False)).to_be_visible(timeout=120_000)
            _settle(page)
            _shot(page, f"indexed-{width}")
            _nav(page, "Ask")
            page.get_by_placeholder("What are the main themes").fill("What did Maria Okafor find at Berth 2?")
            page.get_by_role("button", name="Ask").click()
            _settle(page)
            expect(page.get_by_text("How this answer was made")).to_be_visible(timeout=60_000)
            main = page.locator('[data-testid="stMain"]').inner_text()
            assert re.search(r"Berth 2|Okafor", main), main[:2000]
            _shot(page, f"answered-{width}")
            assert not errors, errors
            browser.close()
    finally:
        if worker is not None:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                worker.kill()
        drop_tables(home / "harbour-team")

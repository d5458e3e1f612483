"""The real app, `streamlit run app.py`, on a free port for browser tests and benches."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_app(home: Path, extra_args: list[str] | None = None,
                cwd: Path = ROOT) -> Iterator[tuple[str, subprocess.Popen]]:
    """Start the app with SENSEMAKER_HOME=home (no sample workspace, no model settings from the
    environment); yield (url, process) once it answers its health check; stop it afterwards.
    cwd: the app's folder (another version of it, for a bench that compares two)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL",
                                                            "SENSEMAKER_ENGINE")}
    env.update(SENSEMAKER_HOME=str(home), SENSEMAKER_NO_SAMPLE="1")
    with _serving([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                   "--server.headless", "true", "--server.address", "127.0.0.1", *(extra_args or [])],
                  cwd, env, home / "streamlit.log", f"http://127.0.0.1:{port}", 60) as served:
        yield served


@contextmanager
def running_sign_in_app(home: Path, oidc: dict[str, str]) -> Iterator[str]:
    """`sensemaker app` with sign-in (SENSEMAKER_OIDC_* in oidc), SENSEMAKER_HOME=home, no sample
    and nothing else of Sensemaker's or the model's from the environment; yields its URL on
    localhost (the redirect URI `sensemaker app` gives the provider). For the sign-in tests and
    bench/isolation.py."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
    env.update(SENSEMAKER_HOME=str(home), **oidc)
    with _serving([sys.executable, "-m", "core.cli.main", "app", "--port", str(port), "--no-sample"],
                  ROOT, env, home / "app.log", f"http://localhost:{port}", 90) as (url, _):
        yield url


@contextmanager
def _serving(cmd: list[str], cwd: Path, env: dict[str, str], log_path: Path, url: str,
             seconds: int) -> Iterator[tuple[str, subprocess.Popen]]:
    """Run cmd; yield (url, process) once url answers Streamlit's health check; stop it after."""
    log = open(log_path, "wb")
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + seconds
        while True:
            try:
                if httpx.get(f"{url}/_stcore/health", timeout=1).text == "ok":
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise RuntimeError("the app stopped: " + log_path.read_text()[-2000:])
            if time.time() > deadline:
                raise RuntimeError(f"the app did not start in {seconds} s")
            time.sleep(0.3)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def open_select(page, box, which: str | int):
    """Open a Streamlit select box until the option (its label, or its position) shows, and
    return it (the list can close again while the page settles: open it until the option
    shows). Used by the browser tests and bench/scale_app.py."""
    from playwright.sync_api import expect

    options = page.get_by_role("option")
    option = options.nth(which) if isinstance(which, int) else \
        options.filter(has_text=re.compile(f"^{re.escape(which)}$")).first
    box.scroll_into_view_if_needed()
    for _ in range(8):  # a loaded machine (CI) can take seconds to rerun the page after an action
        box.locator("input").click()
        try:
            expect(option).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            page.keyboard.press("Escape")
    return option


def select_option(page, box, which: str | int) -> None:
    """Open a Streamlit select box and click the option. A rerun of the page (the live panel's
    last refresh after a run ends) can close the list between the option showing and the
    click, which then waits on an option that is gone: open and click again until one lands."""
    for attempt in range(6):
        option = open_select(page, box, which)
        try:
            option.click(timeout=5_000)
            return
        except Exception:  # playwright's TimeoutError: the list closed under the click
            if attempt == 5:
                raise
            page.keyboard.press("Escape")
            page.wait_for_timeout(500)

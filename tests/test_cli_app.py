"""`sensemaker app` serves the app and stops when its pid gets SIGTERM (issue 19: it started
Streamlit as a child and left it serving the port)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from app_server import ROOT, free_port


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.3)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_the_server_stops_as_the_readme_says(tmp_path, sig):
    """The README says how to stop the app (a newcomer looked for it): Ctrl+C in the terminal
    of `make run` (SIGINT), or kill with the pid `sensemaker app` runs as (SIGTERM)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Ctrl+C" in readme and "kill PID" in readme
    port = free_port()
    env = dict(os.environ, SENSEMAKER_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "app", "--port", str(port), "--no-sample"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 90
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).text == "ok":
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.time() < deadline, "the app did not start in 90 s"
            time.sleep(0.3)
        os.kill(proc.pid, sig)
        stopped = time.time()
        while _port_open(port) and time.time() - stopped < 5:
            time.sleep(0.1)
        assert not _port_open(port), f"the port still serves 5 s after {sig.name}"
        proc.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_status_json_into_a_closed_pipe_ends_quietly(tmp_path):
    ws = tmp_path / "ws"
    doc = tmp_path / "a.txt"
    doc.write_text("Maria Okafor met Thomas Whitlock at Tanner Quay.\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "core.cli", "index", str(doc), "-w", str(ws), "--engine",
                    "offline", "--quiet"], env=env, check=True, capture_output=True)
    # `true` reads nothing and exits at once: the status output meets a closed pipe
    for reader in ("head -1", "true"):
        out = subprocess.run(f"'{sys.executable}' -m core.cli status --json -w '{ws}' | {reader}",
                             shell=True, env=env, capture_output=True, text=True, cwd=ROOT)
        assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
    assert out.stdout == ""

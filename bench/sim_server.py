"""The simulated OpenAI-compatible endpoint for benchmarks, in its own process (so its CPU does
not compete with the pipeline's for one interpreter): tests/openai_server.FakeOpenAIServer
answering with the prompt-aware fake model of tests/fake_model.py after a fixed latency.

    python bench/sim_server.py --latency 0.1 [--fail-rate 0.1]    # prints its base URL, serves until killed
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def serve() -> None:
    from tests.fake_model import respond
    from tests.openai_server import FakeOpenAIServer

    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--fail-rate", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    server = FakeOpenAIServer(lambda m, r: respond(m), latency=args.latency, fail_rate=args.fail_rate,
                              seed=args.seed, transient_faults=("500", "503", "429:0.1")).start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        server.stop()


class SimServer:
    """Start bench/sim_server.py in a child process; .url is its base URL."""

    def __init__(self, latency: float, fail_rate: float = 0.0):
        self.args = [sys.executable, str(Path(__file__)), "--latency", str(latency), "--fail-rate", str(fail_rate)]

    def __enter__(self) -> "SimServer":
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, text=True, cwd=str(ROOT))
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise RuntimeError("the simulated endpoint did not start")
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    serve()

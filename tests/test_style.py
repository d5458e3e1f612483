"""The code passes the project's linters as configured in pyproject.toml: ruff (pyflakes,
statement errors, bugbear) over the whole tree and mypy over core/, pages/ and app.py. CI runs
them through this test, so a finding fails the build like a failing test."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)


def test_ruff_finds_nothing():
    out = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_mypy_finds_nothing():
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr

"""A removal killed in each of its stages resumes to the rows of an uninterrupted removal, with
`check` clean, no finished call of the killed run asked again and no extraction call (issue 22).
The smaller version of bench/crash_removal.py: the sample corpus against the simulated endpoint."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from crash_removal import run_removal_harness  # noqa: E402

SAMPLE = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")


@pytest.mark.slow
def test_a_removal_killed_in_each_stage_resumes(tmp_path):
    doc = next(p.name for p in SAMPLE if "gazette" in p.name)
    res = run_removal_harness(SAMPLE, tmp_path, doc, latency=0.03,
                              stages=["prune", "summarize", "reports", "embeddings"])
    assert res["uninterrupted"]["status"] == "finished"
    assert res["uninterrupted"]["changes"]["documents"]["removed"] == 1
    assert res["uninterrupted"]["changes"]["llm_calls"]["extraction"] == 0
    for r in res["runs"]:
        assert r["killed"] and r["exit"] == -9 and r["died_inside"], r["stage"]
        assert r["rows_lost"] == 0 and r["rows_extra"] == 0 and r["check_ok"], r["stage"]
        assert r["repeated_calls"] == 0 and r["extraction_calls_on_resume"] == 0, r["stage"]
    assert res["survived"] == len(res["runs"]) == 4

"""A killed `sensemaker index` resumes and finishes with nothing lost and no finished call repeated
(issue 7). The smaller version of bench/crash_harness.py: the sample corpus through the LLM engine
against the simulated endpoint in its own process, one workspace killed with SIGKILL in one stage
after another (each resume killed in the next stage), then a final run. The graph and communities
stages last milliseconds on this corpus (a missed kill there would let the run finish and leave
the later stages nothing to do): the bench kills inside them on a larger corpus."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from crash_harness import run_harness  # noqa: E402

STAGES = ["chunk", "extract", "summarize", "reports", "embeddings"]
SAMPLE = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md")


@pytest.mark.slow
def test_killed_in_stage_after_stage_the_index_resumes_loses_nothing_repeats_no_call(tmp_path):
    res = run_harness(SAMPLE, tmp_path, latency=0.03, scenarios=("chain",), stages=STAGES)
    base = res["uninterrupted"]
    assert base["status"] == "finished" and base["counts"]["community_reports"] > 5
    # the harness can see a repeat: every call of the uninterrupted run is matched to its stored answer
    assert base["requests_found_stored"] == base["requests_sent"] > 50
    kills = [r for r in res["runs"] if r["stage"] != "final"]
    assert [r["stage"] for r in kills] == STAGES
    died = {r["stage"]: r for r in kills}
    # the stages that take a while are always hit in their middle: some work stored, some not
    for stage in ("chunk", "extract", "summarize", "reports"):
        assert died[stage]["killed"] and died[stage]["exit"] == -9 and died[stage]["died_inside"], died[stage]
    assert 0 < died["extract"]["rows_at_death"]["extractions"] < base["counts"]["text_units"]
    assert died["summarize"]["rows_at_death"]["entities"] == 0
    assert died["reports"]["rows_at_death"]["community_reports"] == 0
    assert died["reports"]["rows_at_death"]["llm_cache"] > died["summarize"]["rows_at_death"]["llm_cache"]
    final = res["runs"][-1]
    assert final["counts"] == base["counts"]
    assert final["rows_lost"] == 0 and final["rows_extra"] == 0 and final["check_ok"]
    assert res["repeated_calls"] == 0 and all(r["repeated_calls"] == 0 for r in kills)
    assert res["kills_survived"] == sum(r["killed"] for r in kills) >= 4

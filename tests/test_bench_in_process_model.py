"""bench/index_llm_scale.py runs the pipeline twice with the same fake model: over HTTP against
the simulated endpoint and in-process. Both must answer alike, or the two runs' figures (calls
per stage, counts) are not comparable: the in-process model once ignored the output cap that the
endpoint enforces, so short units' extraction answers kept relationships the HTTP run cut, and
the in-process run summarised 283 more descriptions on the podcast corpus (4,540 against 4,257)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from index_llm_scale import SleepingModel  # noqa: E402
from sim_server import varied  # noqa: E402

from core.index.llm_engine import LLMEngine  # noqa: E402
from core.llm.client import LLM  # noqa: E402
from core.llm.openai import make_llm  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.store.db import Store  # noqa: E402
from tests.fake_model import respond  # noqa: E402
from tests.openai_server import FakeOpenAIServer  # noqa: E402

# a short unit naming eight people: the fake model's answer for it (8 entities, 7 relationships)
# is longer than its output cap, so the last relationships are cut
NAMES = ["Alice Moreno", "Bruno Diaz", "Carla Vance", "Elena Ruiz", "Felix Grant", "Greta Holm", "Hector Lima",
         "Ingrid Sola"]
UNIT = f"In Lisbon, {', '.join(NAMES[:-1])} and {NAMES[-1]} met for dinner and talked late into the night."


def _extract(llm: LLM, settings: Settings) -> tuple[list, list]:
    out = LLMEngine(llm, settings).extract({"id": "u1", "text": UNIT})
    return out.entities, out.relationships


def test_the_in_process_model_cuts_at_the_output_cap_as_the_endpoint_does(tmp_path):
    settings = Settings(engine="llm", max_gleanings=1, extract_claims=False)
    in_process = _extract(LLM(SleepingModel(0.0, 4), store=Store(tmp_path / "a")), settings)
    with FakeOpenAIServer(lambda m, r: varied(m, respond(m)), chunk_tokens=64) as server:
        over_http = _extract(make_llm(server.settings(max_gleanings=1, extract_claims=False), Store(tmp_path / "b")),
                             settings)
    assert in_process == over_http
    # the case that differed: an answer longer than its cap, its last relationships cut
    entities, relationships = in_process
    assert [e["title"] for e in entities] == NAMES and 0 < len(relationships) < len(NAMES) - 1

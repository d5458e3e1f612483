"""The model judge's "supported" does not undo what the offline judge found missing unless the
model also confirms the missing part alone (Qwen 1.5B called every overreach and partial claim
it was asked about supported: 6 of its 9 upgrades on claims_fresh2/3 were wrong). Through a real
local HTTP server (tests/openai_server.py) with a model that says "supported" to any whole claim."""
from __future__ import annotations

import re

import pytest

from core.llm.openai import make_llm
from core.store.db import Store
from core.verify.model import judge as model_judge
from core.verify.names import Names
from core.verify.offline import judge
from tests.openai_server import FakeOpenAIServer
from tests.verify_corpus import CORPORA, read_doc, unit_around

MSFT = CORPORA / "msft_earnings_calls" / "TranscriptFY24Q4.txt"
pytestmark = pytest.mark.skipif(not MSFT.exists(), reason="../shared/corpora is not available")

WHOLE = {"LinkedIn revenue increased 10%, and LinkedIn's operating margin reached a record high",
         "LinkedIn revenue increased 10%, which shows that LinkedIn is the leading B2B advertising platform",
         "LinkedIn brought in a tenth more money than a year before"}


def _yes_to_whole_claims(messages, request):
    """Supported, quoting the first passage's first sentence, for a whole claim; unsupported for
    anything else (a part of a claim asked alone)."""
    prompt = messages[-1]["content"]
    sentence = prompt.split("---Sentence---", 1)[1].split("---Passages---", 1)[0].strip()
    passage = prompt.split("---Passages---", 1)[1].split("[1] ", 1)[1]
    first = re.split(r"(?<=[.!?])\s", passage.strip(), maxsplit=1)[0]
    if sentence.rstrip(".") in WHOLE:
        return {"verdict": "supported", "quotes": [first], "failing_fact": ""}
    return {"verdict": "unsupported", "quotes": [], "failing_fact": sentence}


@pytest.fixture
def llm(tmp_path):
    with FakeOpenAIServer(_yes_to_whole_claims) as server:
        yield make_llm(server.settings(stream=False), Store(tmp_path / "ws")), server


def _both(model, doc, claim, evidence):
    unit = unit_around(doc, evidence, 750, 750)
    sentence = f"{claim} [Data: Sources (1)]."
    offline = judge(sentence, [unit], names=Names(texts=[doc]))
    return offline, model_judge(model, sentence, [unit], names=Names(texts=[doc]))


def test_an_added_clause_the_model_does_not_confirm_alone_keeps_the_offline_verdict(llm):
    model, server = llm
    doc = read_doc(MSFT)
    offline, v = _both(model, doc, "LinkedIn revenue increased 10%, and LinkedIn's operating margin reached a "
                       "record high", "LinkedIn revenue increased 10%")
    assert offline.verdict == "partial"
    assert v.verdict == "partial" and v.judge == "offline"
    assert "did not confirm its part" in v.reason and "operating margin" in v.reason
    assert server.count("chat") == 2  # the claim, then its missing part alone


def test_an_inference_the_source_does_not_draw_is_not_undone(llm):
    model, server = llm
    doc = read_doc(MSFT)
    offline, v = _both(model, doc, "LinkedIn revenue increased 10%, which shows that LinkedIn is the leading "
                       "B2B advertising platform", "LinkedIn revenue increased 10%")
    assert offline.verdict in ("partial", "unsupported")
    assert v.verdict == offline.verdict and v.judge == "offline"
    if any(f.note == "the cited text draws no such inference" for f in offline.facts):
        assert "no such inference" in v.reason and server.count("chat") == 1  # not asked again
    else:
        assert "did not confirm its part" in v.reason and server.count("chat") == 2


def test_a_paraphrase_of_the_whole_sentence_takes_the_models_reading(llm):
    model, server = llm
    doc = read_doc(MSFT)
    offline, v = _both(model, doc, "LinkedIn brought in a tenth more money than a year before",
                       "LinkedIn revenue increased 10%")
    assert offline.verdict == "unsupported"  # no clause of it is found: the whole is in doubt
    assert v.verdict == "supported" and v.judge == "model" and server.count("chat") == 1
    assert doc[v.char_start:v.char_end] == v.best_sentence

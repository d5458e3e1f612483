"""The model judge confirms the offline verdict or lowers a supported one, never raises it nor
moves a flagged one (Qwen 1.5B's readings
above the offline verdict were wrong 17 times in 26 on four labelled sets, also when asked about
the missing clause alone): its reading is said in the reason. Through a real local HTTP server
(tests/openai_server.py) with a model that says "supported" to any whole claim and "partial" to
a verbatim one."""
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

LOWER = "LinkedIn's sales went up by ten percent"
SPURIOUS = "LinkedIn's revenue went up by 10 percent"
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
    if sentence.rstrip(".") == LOWER:
        return {"verdict": "partial", "quotes": [first], "failing_fact": "ten percent"}
    if sentence.rstrip(".") == SPURIOUS:
        return {"verdict": "unsupported", "quotes": [first], "failing_fact": "the year it compares with"}
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


def test_a_reading_above_the_offline_verdict_is_said_not_taken(llm):
    model, server = llm
    doc = read_doc(MSFT)
    for claim in ("LinkedIn revenue increased 10%, and LinkedIn's operating margin reached a record high",
                  "LinkedIn revenue increased 10%, which shows that LinkedIn is the leading B2B advertising platform",
                  "LinkedIn brought in a tenth more money than a year before"):
        offline, v = _both(model, doc, claim, "LinkedIn revenue increased 10%")
        assert offline.verdict in ("partial", "unsupported"), claim
        assert v.verdict == offline.verdict and v.judge == "offline", claim
        assert "the model reads it as supported" in v.reason, v.reason
    assert server.count("chat") == 3  # one call a sentence


def test_a_reading_below_the_offline_verdict_lowers_it(llm):
    model, server = llm
    doc = read_doc(MSFT)
    offline, v = _both(model, doc, LOWER, "LinkedIn revenue increased 10%")
    assert offline.verdict == "supported"
    assert v.verdict == "partial" and v.judge == "model" and v.reason == "ten percent"
    assert doc[v.char_start:v.char_end] == v.best_sentence


def test_a_flagged_sentence_keeps_the_offline_verdict(llm):
    """Below a flag the model lowers nothing: a partial sentence the model calls unsupported
    stays partial (its one such move on claims_fresh13 made the combined judge worse)."""
    model, server = llm
    doc = read_doc(MSFT)
    claim = "LinkedIn revenue increased 10%, and LinkedIn doubled its spending on office furniture"
    offline, v = _both(model, doc, claim, "LinkedIn revenue increased 10%")
    assert offline.verdict == "partial", offline.reason
    assert v.verdict == "partial" and v.judge == "offline", (v.verdict, v.reason)
    assert "the model reads it as unsupported; a sentence already flagged keeps the offline verdict" in v.reason


def test_a_word_for_word_quote_is_not_sent_to_the_model(llm):
    model, server = llm
    doc = read_doc(MSFT)
    sentence = "LinkedIn revenue increased 10% and 9% in constant currency"
    assert sentence in doc
    offline, v = _both(model, doc, sentence, sentence)
    assert offline.verdict == "supported" and offline.score >= 1.0
    assert v.verdict == "supported" and v.judge == "offline" and server.count("chat") == 0


def test_a_lowering_for_a_fact_the_sentence_never_states_is_said_not_taken(llm):
    """The fact that fails must be one the sentence states and the passages lack (Qwen 1.5B
    lowered a true paraphrase of Carol's party for "the number of dances", which it never gives)."""
    model, server = llm
    doc = read_doc(MSFT)
    offline, v = _both(model, doc, SPURIOUS, "LinkedIn revenue increased 10%")
    assert offline.verdict == "supported", offline.reason
    assert v.verdict == "supported" and v.judge == "offline", (v.verdict, v.reason)
    assert "the model reads it as unsupported for \u201cthe year it compares with\u201d, which is no word of the " \
           "sentence the cited text lacks" in v.reason, v.reason

"""Every verdict of the offline judge names the rule that decided it, and every fact the rule
that found it; a rule that may not alarm on its own (core/verify/rules.json) lowers its finding to
partial with its reason, unless another rule flags the sentence too."""
from __future__ import annotations

import pytest

from core.verify.rules import REGISTRY, Policy
from core.verify.offline import judge

UNIT = {"id": "u", "char_start": 0,
        "text": "Revenue grew 15% to $20 billion in the quarter. Amy Hood is the chief financial officer."}


@pytest.mark.parametrize("sentence, verdict, rule", [
    ("Revenue grew 25% to $20 billion in the quarter.", "contradicted", "numbers"),
    ("Revenue did not grow in the quarter.", "contradicted", "polarity.negation"),
    ("Revenue shrank in the quarter.", "contradicted", "polarity.antonym"),
    ("Jane Smurf approved the quarter.", "fabricated", "absent_names"),
    ("Revenue grew 15% to $20 billion in the quarter.", "supported", "quoted"),
    ("Amy Hood is the finance chief.", "supported", "meaning"),
])
def test_a_verdict_names_the_rule_that_decided_it(sentence, verdict, rule):
    v = judge(sentence, [UNIT])
    assert (v.verdict, v.rule) == (verdict, rule), (v.verdict, v.rule, v.reason)
    assert all(f.rule for f in v.facts)


def test_a_rule_not_trusted_alone_lowers_its_finding_to_partial():
    policy = Policy.default().changed({"alarm_alone": {"polarity.negation": False}})
    assert judge("Revenue did not grow in the quarter.", [UNIT]).verdict == "contradicted"
    v = judge("Revenue did not grow in the quarter.", [UNIT], policy=policy)
    assert v.verdict == "partial" and v.rule == "polarity.negation"
    assert "flagged by the polarity.negation rule, which is not trusted alone" in v.reason
    both = judge("Revenue did not grow 25% in the quarter.", [UNIT], policy=policy)  # numbers flags it too
    assert both.verdict == "contradicted" and both.rule == "numbers"


def test_every_rule_the_judge_runs_is_in_the_table():
    assert {r.id for r in REGISTRY} == set(Policy.default().alarm_alone)

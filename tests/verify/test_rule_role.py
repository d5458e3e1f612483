"""The role rule: A role the cited text gives someone else by apposition ("I'm your host, Kevin
Scott"). Not trusted alone (core/verify/rules.json: under 0.9 precision on the blind claim
sets), so its finding makes the verdict partial, with its reason. Each case: the sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds,
the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "role"
CASES = [
    ('Chris Urmson is the host of Behind the Tech.', 'podcast', 'contradicted', 'partial', 'Kevin Scott'),
    ('Interestingly, the host of Behind the Tech is Kevin Scott.', 'podcast', None, 'supported', ''),
    ('Kevin Scott is the host of Behind the Tech.', 'podcast', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_role(case):
    check(case, RULE)

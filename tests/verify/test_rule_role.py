"""The role rule: A role the cited text gives someone else by apposition ("I'm your host, Kevin
Scott"). Each case: the sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds,
the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "role"
CASES = [
    ('Chris Urmson is the host of Behind the Tech.', 'podcast', 'contradicted', 'contradicted', 'Kevin Scott'),
    ('Kevin Scott is the host of Behind the Tech.', 'podcast', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_role(case):
    check(case, RULE)

"""The polarity.expectation rule: A result against expectations, reversed. Each case: the sentence, the
fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "polarity.expectation"
CASES = [
    ('Search revenue ex TAC increased 6 percent and 7 percent in constant currency, in line with expectations.', 'call', 'contradicted', 'contradicted', 'below expectations'),
    ('Search revenue ex TAC increased 6 percent and 7 percent in constant currency, beating expectations.', 'call', 'contradicted', 'contradicted', 'below expectations'),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_polarity_expectation(case):
    check(case, RULE)

"""The polarity.comparison rule: A comparison the passage makes the other way round. Each case: the
sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of
the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "polarity.comparison"
CASES = [
    ('The drone lingered, its scan seeming more hostile than curious.', 'dulce', 'contradicted', 'contradicted', 'more curious than hostile'),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_polarity_comparison(case):
    check(case, RULE)

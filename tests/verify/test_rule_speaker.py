"""The speaker rule: A speaker the passage does not give: the transcript's label says who speaks. Each
case: the sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict,
a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "speaker"
CASES = [
    ('Satya Nadella said that in Q3 revenue was $35 billion, up 15 percent.', 'call', 'contradicted', 'contradicted', 'Amy Hood'),
    ("Amy Hood said they have seen two years' worth of digital transformation in two months.", 'call', 'contradicted', 'contradicted', 'Satya Nadella'),
    ('Amy Hood said that in Q3 revenue was $35 billion, up 15 percent.', 'call', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_speaker(case):
    check(case, RULE)

"""The numbers rule: Each figure, with its kind and unit, against the passage its clause is about. Each
case: the sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict,
a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "numbers"
CASES = [
    ('Office 365 now has 285 million paid seats.', 'call', 'contradicted', 'contradicted', '258 million'),
    ('In Q3, revenue was $35 billion, up 51 percent.', 'call', 'contradicted', 'contradicted', '15 percent'),
    ("They have seen two years' worth of digital transformation in three months.", 'call', 'contradicted', 'contradicted', 'two months'),
    ('Scrooge and Marley were partners for seven years.', 'carol', 'not found', 'partial', 'seven years'),
    ('In Q3, revenue was $35 billion, up 15 percent.', 'call', 'found', 'supported', ''),
    # a figure the passage gives for another subject (a newcomer's Check a text: it came back supported)
    ('LinkedIn revenue rose 7 percent.', 'call_fy23q1', 'contradicted', 'contradicted', '17 percent'),
    ('LinkedIn revenue rose 17 percent.', 'call_fy23q1', 'found', 'supported', ''),
    ('Office commercial revenue grew 7 percent.', 'call_fy23q1', 'found', 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_numbers(case):
    check(case, RULE)

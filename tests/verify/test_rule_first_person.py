"""The first_person rule: A first-person passage under another speaker's transcript label. Not
trusted alone (2 of 3 alarms right on the blind claim sets): its finding makes the verdict partial,
with its reason. Each case:
the sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word
of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "first_person"
CASES = [
    ('Kevin Scott bought a Tandy x86 clone in 9th or 10th grade with money from his paper route.', 'podcast', 'contradicted', 'partial', 'Chris Urmson'),
    ('Chris Urmson bought a Tandy x86 clone in 9th or 10th grade with money from his paper route.', 'podcast', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_first_person(case):
    check(case, RULE)

"""The polarity.feeling rule: A word of clear feeling met by one of the opposite feeling: never trusted
alone (it measured 1 right of 3 on the blind-written sets), so it asks for a reading. Each case: the
sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of
the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "polarity.feeling"
CASES = [
    ('Jordan nodded, resenting the leadership that Alex displayed in the face of the unknown.', 'dulce', 'contradicted', 'partial', 'appreciating'),
    ('Alex Mercer watched, posture tense but eyes sharp.', 'dulce', 'contradicted', 'partial', 'relaxed'),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_polarity_feeling(case):
    check(case, RULE)

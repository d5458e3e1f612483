"""The reversal rule: Two names of the sentence trading places in the matched sentence. Each case: the
sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of
the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "reversal"
CASES = [
    ('Alex nodded, appreciating the leadership that Jordan displayed in the face of the unknown.', 'dulce', 'contradicted', 'contradicted', 'Jordan'),
    ('Jordan nodded, appreciating the leadership that Alex displayed in the face of the unknown.', 'dulce', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_reversal(case):
    check(case, RULE)

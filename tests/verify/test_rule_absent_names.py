"""The absent_names rule: A name that no document of the workspace holds: fabricated. Each case: the
sentence, the fixture (tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of
the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "absent_names"
CASES = [
    ("Ebenezer Blatherwick signed the register of Marley's burial.", 'carol', 'absent', 'fabricated', 'Ebenezer Blatherwick'),
    ('Fezziwig was his sole executor and his sole friend.', 'carol', 'absent', 'fabricated', 'Fezziwig'),
    ("Satya Nadella said they have seen two years' worth of digital transformation in two months.", 'call', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_absent_names(case):
    check(case, RULE)

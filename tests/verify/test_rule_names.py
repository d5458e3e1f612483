"""The names rule: Each name in the cited text; another name in its place, or another one doing what
the sentence says, contradicts. Each case: the sentence, the fixture (tests/verify/fixtures) it
cites, what the rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "names"
CASES = [
    ('Jordan and Alex worked through the encoded messages side by side.', 'dulce', 'contradicted', 'contradicted', 'Sam'),
    ('Peter kissed him, and Mrs. Cratchit and himself shook hands.', 'carol', 'contradicted', 'contradicted', 'Mrs. Cratchit'),
    ('Jordan and Sam worked through the encoded messages in the command center.', 'dulce', 'found', 'supported', ''),
    ("Scrooge signed the register of Marley's burial.", 'carol', 'found', 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_names(case):
    check(case, RULE)

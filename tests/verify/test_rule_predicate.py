"""The predicate rule: what a sentence says a name is ("X is the commanding general of ...") must be
in the passage it is compared with, or the sentence is partial with those words as the reason (a
newcomer's "Alex Mercer is the commanding general" came back supported from a passage that calls
him an agent). Each case: the sentence, the fixture (tests/verify/fixtures) it cites, what the
rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "predicate"
CASES = [
    ("Alex Mercer is the commanding general of Paranormal Military Squad.", "dulce", "not found", "partial", "commanding general"),
    ("Alex Mercer is an agent of Paranormal Military Squad.", "dulce", None, "supported", ""),
    ("Kevin Scott is the host of Behind the Tech.", "podcast", None, "supported", ""),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_predicate(case):
    check(case, RULE)

"""The edited_copy rule: A close copy of the passage (most of its terms, or four plain words in a
row of its matched sentence) with plain words the passage does not hold: partial, naming the
words to check. Each case: the sentence, the fixture (tests/verify/fixtures) it
cites, what the rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "edited_copy"
CASES = [
    ('Jordan and Sam decoded the messages alone in the command center.', 'dulce', 'not found', 'partial', 'decoded'),
    ('Usage of Windows Virtual Desktop tripled this quarter as firms rushed virtual desktops and apps onto Azure for secure remote work.', 'call', 'not found', 'partial', 'rushed'),
    # four plain words in a row copied from the passage's sentence, the rest added to them
    ('Mrs. Cratchit kissed him warmly and tearfully, his daughters kissed him joyfully and proudly.', 'carol', 'not found', 'partial', 'tearfully'),
    # every plain word in the passage: supported
    ('Jordan and Sam worked through the encoded messages in the command center.', 'dulce', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_edited_copy(case):
    check(case, RULE)

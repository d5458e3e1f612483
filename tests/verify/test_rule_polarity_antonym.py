"""The polarity.antonym rule: A word of the sentence met by its opposite in the passage; trusted alone
only in a close copy. Each case: the sentence, the fixture (tests/verify/fixtures) it cites, what
the rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "polarity.antonym"
CASES = [
    # "Old" of "Old Marley" is a name's word, no opposite of "people new to the business"
    ("Scrooge never painted out Old Marley's name, which stood above the warehouse door years afterwards.", 'carol', None, 'supported', ''),
    ('Operating income decreased 25 percent and 28 percent in constant currency.', 'call', 'contradicted', 'contradicted', 'increased'),
    ('Usage of Windows Virtual Desktop halved this quarter as organizations deploy virtual desktops and apps on Azure.', 'call', 'contradicted', 'contradicted', 'tripled'),
    ('Scrooge entered boldly, and hung his head before this Spirit.', 'carol', 'contradicted', 'contradicted', 'timidly'),
    ('Usage of Windows Virtual Desktop tripled this quarter as organizations deploy virtual desktops and apps on Azure for secure remote work.', 'call', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_polarity_antonym(case):
    check(case, RULE)

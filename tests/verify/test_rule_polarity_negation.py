"""The polarity.negation rule: A negation one side has and the other lacks, for the same fact; trusted
alone only in a close copy of the passage. Each case: the sentence, the fixture
(tests/verify/fixtures) it cites, what the rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "polarity.negation"
CASES = [
    # the sentence word for word but for the source's "not" before a stop word ("had not been done")
    ('Maria Okafor confirmed that the annual inspection due in October 2023 had been done.', 'council', 'contradicted', 'contradicted', 'not'),
    ('Okafor confirmed the annual inspection due in October 2023 had been done.', 'council', 'contradicted', 'contradicted', 'not'),
    ('Okafor said the Aldermere Port Authority had received a report from Calloway Chemicals.', 'council', 'contradicted', 'contradicted', 'no'),
    ('The Aldermere Port Authority had not received such a report from Calloway Chemicals.', 'council', None, 'supported', ''),
    ('Operating income did not increase in Q3.', 'call', 'contradicted', 'contradicted', 'the source says it without the negation'),
    ('The drone lingered, its scan seeming hostile rather than curious.', 'dulce', 'contradicted', 'contradicted', 'rather than'),
    # "with no further comments" against "amid further heated comments": found, but the sentence is
    # no close copy of the passage, where the rule is not trusted alone: check this
    ('The meeting adjourned amid further heated comments.', 'dulce', 'contradicted', 'partial', 'no'),
    # a hedge ("I don't know how many years") negates none of what follows it
    ('Scrooge and Marley were partners for many years.', 'carol', None, 'supported', ''),
    # the same preference said two ways is no negation
    ('The drone lingered, its scan seeming curious rather than hostile.', 'dulce', None, 'supported', ''),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_polarity_negation(case):
    check(case, RULE)

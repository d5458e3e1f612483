"""The doer rule: what a sentence says a name does, said in the passage of another name (the nearest
name before the predicate's words in their sentence). Not trusted alone: it makes "check this"
(partial) with the other name as the reason, never contradicted on its own and never a false
"supported". Each case: the sentence, the fixture (tests/verify/fixtures) it cites, what the rule
finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from tests.verify.cases import check

RULE = "doer"
CASES = [
    # two agents' tasks traded inside one sentence
    ("Sam Rivera was setting up a makeshift lab station while Jordan Hayes checked the restored communication relays.",
     "dulce_lab", "contradicted", "partial", "Jordan Hayes"),
    ("Jordan Hayes was setting up a makeshift lab station while Sam Rivera checked the restored communication relays.",
     "dulce_lab", None, "supported", ""),
    # a company put in another's place, the passage naming both
    ("Smartsheet plans to use Microsoft Graph to enhance its line-of-business applications such as Sales Cloud.",
     "call_graph", "contradicted", "partial", "Oracle"),
    ("Oracle plans to use Microsoft Graph to enhance its line-of-business applications such as Oracle Sales Cloud.",
     "call_graph", None, "supported", ""),
    # a name that is no subject ("watching his companions") is not read
    ("Alex Mercer watched his companions with a furrowed brow.", "dulce_lab", None, "supported", ""),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_doer(case):
    check(case, RULE)

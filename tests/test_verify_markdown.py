"""An answer's Markdown is not what its sentences assert: the list numbers and emphasis of a
global answer ("1. **Ebenezer Scrooge**: ...") were read as numbers of the claim, so exact quotes
came out partial ("number “1. **Ebenezer”: not in the cited text") or contradicted ("number
“8. **Arc”: the source says 36,000 Arc"; a point's label "increased, decreased, grew" read as the
sentence's polarity), and half of an answer's chips turned orange."""
from __future__ import annotations

import re

from core.query.citations import sentences_with_citations
from core.query.global_search import global_search
from core.query.resolve import Resolver
from core.query.types import GlobalParams
from core.store.db import Store
from core.store.workspace import workspace_path
from core.verify.names import Names
from core.verify.offline import judge
from core.verify.reports import judge_sentence

_LIST_NUMBER = re.compile(r"^\d{1,3}[.)]|\*\*|^#")


def test_a_quoted_list_item_is_supported_and_its_number_and_bold_are_no_facts():
    unit = {"id": "u1", "char_start": 0, "text": "Sales grew 5X in a year; 36,000 Arc users joined."}
    names = Names(texts=[unit["text"]])
    for item in ("8. **Arc users**: 36,000 Arc users joined [Data: Sources (1)].",
                 "5. **Growth**: Sales grew 5X in a year [Data: Sources (1)].",
                 "- *Arc*: 36,000 Arc users joined [Data: Sources (1)].",
                 "### 36,000 Arc users joined [Data: Sources (1)]"):
        v = judge(item, [unit], names=names)
        assert v.verdict == "supported", (item, [f.describe() for f in v.facts])
        assert not [f.text for f in v.facts if _LIST_NUMBER.search(f.text)]
    # an offline point's bold label is its heading, not part of the quoted sentence: its words
    # ("decreased" among "increased, decreased, grew") are no polarity of the claim
    unit2 = {"id": "u2", "char_start": 0, "text": "In our largest quarter, revenue increased 10% and costs rose."}
    v = judge("5. **revenue and margin: increased, decreased, grew** \u2014 In our largest quarter, revenue "
              "increased 10% [Data: Sources (1)].", [unit2], names=Names(texts=[unit2["text"]]))
    assert v.verdict == "supported", [f.describe() for f in v.facts]
    # a number of the claim is still a number: another amount is still contradicted
    v = judge("2. **Arc users**: 46,000 Arc users joined [Data: Sources (1)].", [unit], names=names)
    assert v.verdict == "contradicted" and v.failing.text.startswith("46,000")


def test_no_chip_of_an_offline_global_answer_judges_its_list_numbers(indexed_home):
    store = Store(workspace_path("test", indexed_home))
    res = global_search(store, "What happened at the harbour and who was responsible?", GlobalParams(seed=1),
                        record=False)
    sents = sentences_with_citations(res.answer)
    listed = [s for s, _, cites in sents if cites and re.match(r"\s*\d+\.\s", s)]
    assert listed, res.answer[:500]  # the answer is a numbered list
    resolver, names = Resolver(store), Names(store)
    facts = [f.text for s, _, cites in sents if cites
             for f in judge_sentence(resolver, s, cites, judge, names).facts]
    assert facts and not [t for t in facts if _LIST_NUMBER.search(t)], facts

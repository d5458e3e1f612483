"""An answer's Markdown is not what its sentences assert: the list numbers and emphasis of a
global answer ("1. **Ebenezer Scrooge**: ...") were read as numbers of the claim, so exact quotes
came out partial ("number “1. **Ebenezer”: not in the cited text") or contradicted ("number
“8. **Arc”: the source says 36,000 Arc"; a point's label "increased, decreased, grew" read as the
sentence's polarity), and half of an answer's chips turned orange."""
from __future__ import annotations

import re

from core.text.citations import sentences_with_citations
from core.query.global_search import global_search
from core.store.references import Resolver
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


def test_an_offline_themes_answer_on_carol_quotes_verbatim_and_is_supported():
    """Two points of a real offline answer on A Christmas Carol that were flagged in the newcomer's
    walk: a sentence quoted word for word is supported, whatever its neighbours say ("people who
    were not to be trifled with" is no polarity of the Fezziwig caption) and whatever names it
    repeats in parallel ("Mrs. Cratchit kissed him, ... the two young Cratchits kissed him" is no
    role reversal)."""
    import pytest
    from tests.verify_corpus import CORPORA, assert_exact_highlights, read_doc, unit_around
    path = CORPORA / "christmas_carol" / "a_christmas_carol_pg24022.txt"
    if not path.exists():
        pytest.skip("../shared/corpora is not available")
    doc = read_doc(path)
    names = Names(texts=[doc])
    for label, quote, evidence in (
            ("6. **Mrs. Fezziwig and Fezziwig: cleared, dance, partner** (community report 20) \u2014 ",
             "Then old Fezziwig stood out to dance with Mrs. Fezziwig", "[Illustration: _Then old Fezziwig stood out"),
            ("3. **Mrs. Cratchit and Peter Cratchit: collars, potatoes, wife** (community report 66) \u2014 ",
             "Mrs. Cratchit kissed him, his daughters kissed him, the two young Cratchits kissed him, and Peter "
             "and himself shook hands", "Mrs. Cratchit kissed him")):
        v = judge(f"{label}{quote} [Data: Sources (1)].", [unit_around(doc, evidence, 900, 600)], names=names)
        assert v.verdict == "supported", (quote, [f.describe() for f in v.facts])
        assert_exact_highlights(doc, v)


def test_a_bold_title_with_underscores_is_a_label_not_part_of_the_claim():
    from core.text.support import claim_text, is_heading
    line = "2. **embed_text** (config_yaml.md) \u2014 By default, the indexer exports embeddings [Data: Sources (12)]."
    assert claim_text(line) == "By default, the indexer exports embeddings."
    assert is_heading("**embed_text** (config_yaml.md)")

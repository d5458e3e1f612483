"""The offline judge's session-12 rule (issue 16), on a real corpus sentence; the test fails on the
judge of 4e5382b:

- a negation of the claim's that governs nothing the window says ("neither good-looking nor
  smartly turned out", a paraphrase of "not a handsome family; they were not well dressed")
  leaves the two sides' negations unpaired, so the source's "not" alone is no reversal: the
  paraphrase was "contradicted"; the plain reversal of the same sentence still is."""
from __future__ import annotations

from tests.verify_corpus import CORPORA, check_claim as _check, fact_of as _fact, read_doc as _doc

CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
EVIDENCE = ("They were not a handsome family;\nthey were not well dressed; their shoes were far from being "
            "waterproof;\ntheir clothes were scanty;")


def test_an_unpaired_negation_of_the_claim_is_no_reversal():
    carol = _doc(CAROL)
    ev = carol[carol.index(EVIDENCE):carol.index(EVIDENCE) + len(EVIDENCE)]
    v = _check(carol, "Peter's family was neither good-looking nor smartly turned out, their footwear "
                      "let in the wet and their garments were thin, yet they were cheerful, thankful, fond "
                      "of each other and satisfied with the season.", ev)
    assert v.verdict != "contradicted", v.facts
    assert _fact(v, "polarity", "contradicted") is None
    v = _check(carol, "They were a handsome family and they were well dressed.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "polarity", "contradicted") is not None

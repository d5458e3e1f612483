"""The polarity.opposite rule: a word of the sentence met, in the same slot, by its dictionary
opposite in the passage (WordNet's antonyms, a negative prefix). Not trusted alone: "check this"
(partial) with both words as the reason. Each case: the sentence, the fixture it cites, what the
rule finds, the verdict, a word of the finding."""
from __future__ import annotations

import pytest

from core.verify.opposites import reversed_word
from tests.verify.cases import check

RULE = "polarity.opposite"
CASES = [
    ("Bent over her work, she recalled that the boy had been a heavy load to carry, though his father's love made it no trouble.",
     "carol_cratchits", "contradicted", "partial", "light"),
    ("Intent upon her work, she said he had been very light to carry.",
     "carol_cratchits", None, "supported", ""),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0][:40] for c in CASES])
def test_opposite(case):
    check(case, RULE)


@pytest.mark.parametrize("claim, passage, word", [
    ("He left the body watched and mourned.", "There lay the body, unwatched and unwept.", "watched"),
    ("He was a patient teacher of the boys.", "He was an impatient teacher of the boys.", "patient"),
    ("He described the signals as harsh and unmusical.", "Their signals resonate almost musically.", "unmusical"),
])
def test_opposites_found(claim, passage, word):
    hit = reversed_word(claim, passage)
    assert hit is not None and hit[0] == word


@pytest.mark.parametrize("claim, passage", [
    ("The boy was not heavy to carry.", "He was very light to carry."),        # a negated opposite says the same
    ("He first coded in a small school room.", "He went to a high school in Beirut."),  # a two-word lemma's word
    ("Over twelve months the base doubled.", "It was the first quarter of growth."),     # number words are the numbers rule's
    ("Guided by the pointing finger, he found the stone.", "Following the finger, he found the stone."),  # a verb's opposite: one act
])
def test_opposites_not_found(claim, passage):
    assert reversed_word(claim, passage) is None

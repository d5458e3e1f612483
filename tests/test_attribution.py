"""Answers from small models copy their sources and drop the references: sentences that copy a
source (8+ words in a row) get its reference back, and nothing is attributed on a guess."""
from __future__ import annotations

from core.query.attribution import attribute_sentences
from core.text.citations import sentences_with_citations

MERCER = ("The squad is a group of agents who operate in the heart of uncertainty. Alex Mercer stands at "
          "the center of this secretive operation, leading the team and guiding Sam Rivera.")
HAYES = ("The squad, led by Dr. Jordan Hayes, embarked on their mission to unmask Dulce base. The duo met "
         "at Dulce, where they were introduced to the complex and fascinating facility.")
SOURCES = [(MERCER, {"Reports": [1]}), (HAYES, {"Reports": [0]})]


def _cited(answer: str) -> list[tuple[str, list[str]]]:
    return [(s, [c.marker for c in cs]) for s, _, cs in sentences_with_citations(answer)]


def test_the_real_model_answer_citing_one_report_for_two_gets_the_other_where_it_copies_it():
    """The chunk-600 real-model answer: sentences copying report 1, then report 0, and one marker
    at the end citing report 1. The unmarked Hayes sentence gets report 0, and then the Mercer
    sentences, no longer followed by a marker citing their report, get report 1. The last
    sentence keeps the marker the model gave it (the support check judges that one)."""
    hayes, duo = HAYES.split("base. ", 1)
    hayes += "base"
    answer = f"{MERCER} {hayes}. {duo} [Data: Reports (1)]"
    out, added = attribute_sentences(answer, SOURCES)
    assert out == f"{MERCER} [Data: Reports (1)] {hayes}. [Data: Reports (0)] {duo} [Data: Reports (1)]"
    assert added == 2
    cited = dict(_cited(out))
    assert cited[f"{hayes}. [Data: Reports (0)]"] == ["[Data: Reports (0)]"]


def test_a_sentence_already_covered_by_the_next_marker_gets_nothing():
    answer = MERCER + " [Data: Reports (1)]"
    assert attribute_sentences(answer, SOURCES) == (answer, 0)


def test_sentences_copying_nothing_or_too_short_stay_as_they_are():
    answer = "The agents work together. They are brave and careful people in a strange place."
    assert attribute_sentences(answer, SOURCES) == (answer, 0)


def test_a_sentence_copying_more_than_five_sources_equally_is_a_guess():
    common = "the agents of the squad went down into the base at night"
    sources = [(f"{common} {i}", {"Entities": [i]}) for i in range(6)]
    answer = f"In the end {common}."
    assert attribute_sentences(answer, sources) == (answer, 0)
    out, added = attribute_sentences(answer, sources[:2])
    assert out == f"In the end {common}. [Data: Entities (0, 1)]" and added == 1


def test_each_paragraph_is_attributed_on_its_own():
    answer = f"{HAYES}\n\nNothing else is known.\n\n{MERCER}"
    out, added = attribute_sentences(answer, SOURCES)
    assert out == f"{HAYES} [Data: Reports (0)]\n\nNothing else is known.\n\n{MERCER} [Data: Reports (1)]"
    assert added == 2

"""Citation markers as real models write them: parsing, stripping, sentences, formatting."""
from __future__ import annotations

import pytest

from core.text.citations import (Ref, format_citation, parse_citations, sentences_with_citations,
                                  strip_citations)

R, E, L, C, S = "Reports", "Entities", "Relationships", "Claims", "Sources"
MORE = None


def refs_of(text: str) -> list[tuple[str, int | None]]:
    return [(r.kind, r.id) for c in parse_citations(text) for r in c.refs]


VARIANTS = [
    # (what a model wrote, references a user expects to be able to click)
    ("Scrooge is mean [Data: Reports (1, 3); Entities (5, 7, +more)].",
     [(R, 1), (R, 3), (E, 5), (E, 7), (E, MORE)]),
    ("[Data: Reports (2, 7, 34, +more)]", [(R, 2), (R, 7), (R, 34), (R, MORE)]),
    ("[data:reports(1,3)]", [(R, 1), (R, 3)]),
    ("[DATA: REPORTS (1, 3)]", [(R, 1), (R, 3)]),
    ("[Data :  Reports  ( 1 ,3 ) ]", [(R, 1), (R, 3)]),
    ("[Reports (1, 2)]", [(R, 1), (R, 2)]),
    ("[Data: Report (1); Entity (2); Relationship (3); Claim (4); Source (5)]",
     [(R, 1), (E, 2), (L, 3), (C, 4), (S, 5)]),
    ("[Data: Sources (12); Reports (3)]", [(S, 12), (R, 3)]),
    ("He left (Data: Entities 5, 7).", [(E, 5), (E, 7)]),
    ("社区报告很重要【Data: Reports (1，2)】。", [(R, 1), (R, 2)]),
    ("[数据：报告（1、2）；实体（3）]", [(R, 1), (R, 2), (E, 3)]),
    ("[Data: Reports (#1, #12)]", [(R, 1), (R, 12)]),
    ("[Data: Reports (1, 2, + more)]", [(R, 1), (R, 2), (R, MORE)]),
    ("[Data: Reports (1, 2 more)]", [(R, 1), (R, 2), (R, MORE)]),
    ("[Data: Reports (1), Entities (2)]", [(R, 1), (E, 2)]),
    ("[Data: Reports (1); Data: Entities (2)]", [(R, 1), (E, 2)]),
    ("[Data: Reports (3-5)]", [(R, 3), (R, 4), (R, 5)]),
    ("[Data: Reports (3–5)]", [(R, 3), (R, 4), (R, 5)]),
    ("[Data: Reports (1-500)]", [(R, 1), (R, 500), (R, MORE)]),
    ("[Data: Text Units (4); Covariates (2); Relations (8)]", [(S, 4), (C, 2), (L, 8)]),
    ("[Data: Entities (5, 5, 6)]", [(E, 5), (E, 6)]),
    ("[Data: Reports (1, 2]", [(R, 1), (R, 2)]),  # unclosed parenthesis
    ("as noted Data: Reports (4, 9). Next", [(R, 4), (R, 9)]),  # no bracket at all
    ("[Data: Entities 5, 7; Reports 3]", [(E, 5), (E, 7), (R, 3)]),
    ("a [Data: Reports (1)] b [Data: Entities (2)] c", [(R, 1), (E, 2)]),
    ("[Data: Reports (1, 2, etc.)]", [(R, 1), (R, 2), (R, MORE)]),
]


@pytest.mark.parametrize("text,expected", VARIANTS, ids=[v[0][:40] for v in VARIANTS])
def test_real_world_markers_parse(text, expected):
    assert refs_of(text) == expected


@pytest.mark.parametrize("text", [
    "[see Reports (1)]", "(1, 2)", "[1]", "the data: it is clear", "[Data: Entities (SCROOGE)]",
    "A report (annual) was filed.", "Entities are nouns.", "(Reports were filed in 2020)",
    "See [Reports](reports.md) and [Entities].", "[Data: Reports ()]",
])
def test_prose_and_malformed_markers_are_not_citations(text):
    assert parse_citations(text) == []


def test_reference_followed_by_words_is_kept():
    # the bracket is not a clean marker, but "Data: Reports (1)" is still a reference to check
    (c,) = parse_citations("[Data: Reports (1) and some words]")
    assert c.refs == [Ref("Reports", 1)] and c.marker == "[Data: Reports (1)"


def test_marker_text_and_span_are_exact():
    text = "Scrooge was a miser 【Data: Reports (1，2)】 and Marley was dead (Data: Entities 5, 7)."
    cites = parse_citations(text)
    assert [c.marker for c in cites] == ["【Data: Reports (1，2)】", "(Data: Entities 5, 7)"]
    for c in cites:
        assert text[c.start:c.end] == c.marker
    assert cites[0].ids("Reports") == [1, 2]
    assert cites[1].refs == [Ref("Entities", 5), Ref("Entities", 7)]


def test_unclosed_bracket_marker_includes_the_bracket():
    text = "Marley was dead (Data: Reports (1, 2) and buried."
    (c,) = parse_citations(text)
    assert c.marker == "(Data: Reports (1, 2)"


def test_strip_citations_leaves_clean_prose():
    assert strip_citations("Scrooge is mean [Data: Reports (1, 3)].") == "Scrooge is mean."
    assert strip_citations("a [Data: Reports (1)] b") == "a b"
    assert strip_citations("First. [Data: Reports (1)] Second.") == "First. Second."
    assert strip_citations("社区很重要【Data: Reports (1，2)】。") == "社区很重要。"
    assert strip_citations("No markers [here].") == "No markers [here]."


def test_sentences_carry_their_markers():
    text = ("Mr. Scrooge was mean [Data: Reports (1)]. Bob was poor. "
            "Marley was dead. [Data: Entities (3, etc.)] Fred laughed [Data: Sources (2)]")
    got = [(s, [c.marker for c in cs]) for s, _, cs in sentences_with_citations(text)]
    assert got == [
        ("Mr. Scrooge was mean [Data: Reports (1)].", ["[Data: Reports (1)]"]),
        ("Marley was dead. [Data: Entities (3, etc.)]", ["[Data: Entities (3, etc.)]"]),
        ("Fred laughed [Data: Sources (2)]", ["[Data: Sources (2)]"]),
    ]
    for s, (a, b), _ in sentences_with_citations(text):
        assert text[a:b] == s


def test_chinese_sentences_carry_their_markers():
    text = "GraphRAG 先抽取实体。社区报告由模型生成【Data: Reports (1，2)】。然后回答问题【数据：实体（3）】。"
    got = [(s, [r.id for c in cs for r in c.refs]) for s, _, cs in sentences_with_citations(text)]
    assert got == [("社区报告由模型生成【Data: Reports (1，2)】。", [1, 2]),
                   ("然后回答问题【数据：实体（3）】。", [3])]


def test_marker_starting_a_paragraph_stays_there():
    text = "Intro sentence.\n\n[Data: Reports (4)] The next paragraph starts."
    ((s, _, cs),) = sentences_with_citations(text)
    assert s.startswith("[Data: Reports (4)]") and cs[0].refs == [Ref("Reports", 4)]


def test_format_citation_graphrag_style():
    assert format_citation({"Reports": [1, 3], "Entities": [5, 7, 8, 9, 10, 11]}) == \
        "[Data: Reports (1, 3); Entities (5, 7, 8, 9, 10, +more)]"
    # canonical order, aliases, duplicates dropped
    assert format_citation({"sources": [2], "report": [4, 4], "relationship": [23]}) == \
        "[Data: Reports (4); Relationships (23); Sources (2)]"
    assert format_citation({"Reports": []}) == ""
    assert format_citation({"Claims": [1]}, more=True) == "[Data: Claims (1, +more)]"
    with pytest.raises(ValueError):
        format_citation({"Documents": [1]})


def test_format_then_parse_round_trips():
    marker = format_citation({"Reports": [1, 2, 3, 4, 5, 6], "Sources": [9]})
    assert refs_of(marker) == [(R, 1), (R, 2), (R, 3), (R, 4), (R, 5), (R, MORE), (S, 9)]


def test_a_marker_followed_by_a_dash_ends_a_claim_of_its_own():
    """An offline theme reads "heading [Data: Reports (12)] — sentence [Data: Sources (15)].": the
    heading and the sentence are two claims, each judged against what it cites (joined, the
    heading's words and the report's units made a quoted sentence look contradicted)."""
    from core.text.citations import sentences_with_citations
    t = ("4. LinkedIn and noted earlier: driven, skills, continues [Data: Reports (12)] \u2014 LinkedIn revenue "
         "increased 17 percent. [Data: Sources (15)] For LinkedIn, we expect growth. [Data: Sources (93)]")
    got = [(s, [r.id for c in cs for r in c.refs]) for s, _, cs in sentences_with_citations(t)]
    assert got == [("LinkedIn and noted earlier: driven, skills, continues [Data: Reports (12)]", [12]),
                   ("LinkedIn revenue increased 17 percent. [Data: Sources (15)]", [15]),
                   ("For LinkedIn, we expect growth. [Data: Sources (93)]", [93])]
    # a dash inside a sentence, before its marker, cuts nothing
    got = [s for s, _, _ in sentences_with_citations("Revenue grew \u2014 a lot [Data: Sources (1)].")]
    assert got == ["Revenue grew \u2014 a lot [Data: Sources (1)]."]

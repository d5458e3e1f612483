"""Support verdicts on crafted sentences: supported vs unsupported, the highlighted span is the
document's own text, Chinese, record text, graphrag's "title:" lead line."""
from __future__ import annotations

from core.text.support import judge, stem, terms

DOC = ("It was a cold, bleak, biting weather. Scrooge refused to give money to the charity "
       "collectors. The gentlemen withdrew into the fog. Mr. Fezziwig laughed all the way through "
       "the dance.")
OFFSET = 12  # the unit starts 12 characters into its document
UNIT = {"id": "u1", "text": DOC[OFFSET:], "char_start": OFFSET, "char_end": len(DOC)}


def test_paraphrase_is_supported_and_highlights_the_source_sentence():
    s = judge("Scrooge refused to donate to the collectors [Data: Sources (1)].", [UNIT])
    assert s.verdict == "supported" and s.score >= 0.5
    assert s.best_sentence == "Scrooge refused to give money to the charity collectors."
    assert DOC[s.char_start:s.char_end] == s.best_sentence
    assert UNIT["text"][s.unit_start:s.unit_end] == s.best_sentence
    assert s.text_unit_id == "u1" and "donat" in s.missing


def test_invented_fact_is_unsupported():
    s = judge("Scrooge founded a bank in Paris [Data: Sources (1)].", [UNIT])
    assert s.verdict == "unsupported" and s.score < 0.3
    assert {"bank", "paris"} <= set(s.missing)


def test_partial_overlap_is_weak():
    s = judge("The gentlemen withdrew because Scrooge threatened the police.", [UNIT])
    assert s.verdict == "weak", s


def test_markers_are_not_counted_as_claim_words():
    plain = judge("Scrooge refused the collectors.", [UNIT])
    marked = judge("Scrooge refused the collectors [Data: Reports (12, 13); Entities (4, +more)].", [UNIT])
    assert (plain.score, plain.verdict, plain.best_sentence) == \
        (marked.score, marked.verdict, marked.best_sentence)


def test_abbreviation_does_not_split_the_highlight():
    s = judge("Fezziwig laughed through the dance.", [UNIT])
    assert s.best_sentence == "Mr. Fezziwig laughed all the way through the dance."
    assert DOC[s.char_start:s.char_end] == s.best_sentence


def test_best_sentence_across_several_units():
    other = {"id": "u2", "text": "Bob Cratchit was a clerk. He warmed his hands.",
             "char_start": None, "char_end": None}
    s = judge("Bob Cratchit was Scrooge's clerk.", [UNIT, other])
    assert s.text_unit_id == "u2" and s.best_sentence == "Bob Cratchit was a clerk."
    assert s.char_start is None and s.unit_start == 0  # no document span known for u2


def test_record_description_lifts_to_weak_never_supported():
    claim = "Scrooge is a covetous old sinner."
    without = judge(claim, [UNIT])
    with_record = judge(claim, [UNIT], ["SCROOGE. A covetous old sinner, hard and sharp as flint."])
    assert without.verdict == "unsupported"
    assert with_record.verdict == "weak" and with_record.record_score >= 0.5
    assert with_record.best_sentence in DOC  # the highlight is still the source text


def test_nothing_to_judge_against():
    s = judge("Scrooge refused the collectors.", [])
    assert s.verdict == "unsupported" and s.best_sentence == "" and s.char_start is None
    assert judge("And so it is [Data: Reports (1)].", [UNIT]).verdict == "weak"  # claims nothing


def test_chinese_sentences():
    zh = "GraphRAG 先从文本中抽取实体和关系。然后用 Leiden 算法把图划分为层次化的社区。每个社区都会生成一份社区报告。"
    unit = {"id": "z", "text": zh, "char_start": 0, "char_end": len(zh)}
    ok = judge("GraphRAG 用 Leiden 算法划分社区【Data: Sources (3)】。", [unit])
    assert ok.verdict == "supported"
    assert ok.best_sentence == "然后用 Leiden 算法把图划分为层次化的社区。"
    assert zh[ok.char_start:ok.char_end] == ok.best_sentence
    bad = judge("该方法在北京获得了诺贝尔奖。", [unit])
    assert bad.verdict == "unsupported"


def test_graphrag_title_line_is_skipped_and_offsets_stay_exact():
    body = "Scrooge refused to give money to the charity collectors. The gentlemen withdrew."
    doc = "Preface text. " + body
    unit = {"id": "g", "text": "title: a-christmas-carol.txt.\n" + body,
            "char_start": len("Preface text. "), "char_end": len(doc)}
    s = judge("The Christmas Carol text says Scrooge refused the charity collectors.", [unit])
    assert s.best_sentence == "Scrooge refused to give money to the charity collectors."
    assert doc[s.char_start:s.char_end] == s.best_sentence


def test_light_stemming_matches_inflections():
    assert stem("refused") == stem("refuse") == stem("refuses") == stem("refusing")
    assert stem("charities") == stem("charity")
    assert stem("collectors") == stem("collector")
    assert terms("The Scrooge's") == {"scroog"}


def test_verdicts_are_deterministic():
    runs = {judge("Scrooge gave the collectors nothing.", [UNIT]).to_dict().__repr__() for _ in range(3)}
    assert len(runs) == 1

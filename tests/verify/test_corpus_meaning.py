"""The offline judge on real corpus sentences: meaning: clauses, reasons and inferences, paraphrases
through synonyms. The tests skip where ../shared/corpora is absent; tests/verify/test_rule_*.py hold
each rule's cases on excerpts that are always here."""
from __future__ import annotations

from conftest import build_workspace
from core.store.db import Store
from core.text import wordnet
from core.text.citations import sentence_spans, sentences_with_citations
from core.verify.text import check_text
from tests.verify_corpus import (CALLS, CAROL, DULCE_TXT, NOVELLA, PODCASTS, ZH2, ZH3, ZH4,
                                 check_claim as _check, fact_of as _fact, flagged, held,
                                 needs_wordnet, read_doc as _doc)


def test_polarity_is_read_in_the_claims_item_of_a_list():
    zh = _doc(ZH3)
    ev = "重要性分和影响分都是 LLM 打的,校准没有保证"
    v = _check(zh, "重要性分和影响分都是 LLM 打的,而且校准有保证。", ev)
    assert v.verdict == "contradicted" and "没" in _fact(v, "polarity", "contradicted").note
    # another item's "不" (散不散) or "没" is about another fact
    v = _check(zh, "global search 的调用次数等于社区数,而且每次调用的结果都会写入缓存。", "global search 的调用次数 = 社区数")
    assert v.verdict == "partial"


def test_an_appended_participle_or_also_clause_is_a_fact_of_its_own():
    carol = _doc(CAROL)
    ev = "Joe went down on his knees for the greater convenience of opening it"
    v = _check(carol, "Joe went down on his knees for the greater convenience of opening it, humming a hymn as he worked.", ev)
    assert v.verdict == "partial" and "humming a hymn" in v.failing.text  # the clause, not the copy's words
    podcast = _doc(PODCASTS, "Randall_Munroe-part3.txt")
    ev = "I know my dad had some engineering; he did some engineering work."
    v = _check(podcast, "His dad did some engineering work and also taught him to build radios.", ev)
    assert v.verdict == "partial" and "radios" in v.failing.text


def test_a_clause_away_from_the_claims_sentence_needs_more_than_two_common_words():
    carol = _doc(CAROL)
    ev = "He looked at the work upon the table, and praised the industry and speed of Mrs. Cratchit and the girls."
    v = _check(carol, "Bob praised the industry and speed of Mrs. Cratchit and the girls, and promised to buy them new cloth for dresses.", ev)
    assert v.verdict == "partial" and "cloth" in _fact(v, "meaning", "not found").text
    call = _doc(CALLS, "TranscriptFY22Q4.txt")
    ev = "And LinkedIn Marketing Solutions surpassed 5 billion dollars in annual revenue for the first time."
    v = _check(call, "LinkedIn Marketing Solutions surpassed 5 billion dollars in annual revenue for the first time, "
                     "with video ads making up half of it.", ev)
    assert v.verdict == "partial"


def test_an_appended_consequence_or_inference_makes_the_claim_unsupported():
    call = _doc(CALLS, "TranscriptFY22Q4.txt")
    v = _check(call, "Cosmos DB transactions and data volume increased over 100 percent year-over-year for the fourth "
                     "quarter in a row, making it the largest driver of Azure growth.",
               "Transactions and data volume increased over 100 percent year-over-year for the fourth quarter in a row.",
               before=500, after=500)
    assert v.verdict == "unsupported"
    novella = _doc(NOVELLA)
    v = _check(novella, "Sam found a repeating motif in the signal, which proved that the senders meant to invade Earth.",
               "\"There's a pattern, a repeating motif. It's structured, intentional,\" they muttered")
    assert v.verdict == "unsupported"
    zh = _doc(ZH4)
    v = _check(zh, "GraphRAG 把大图拆成多个社区，因此它的回答总是比普通 RAG 更准确。", "于是 GraphRAG 把大图拆成多个社区，再在社区内部做摘要")
    assert v.verdict == "unsupported"


@needs_wordnet
def test_the_sentence_compared_holds_most_words_in_any_of_their_relatives():
    novella = _doc(NOVELLA)
    v = _check(novella, "Though worn out, Sam Rivera kept working with firm determination at an intricate set of sound consoles.",
               "Sam Rivera, dulled by fatigue yet driven by unshakeable resolve, manipulated a complex array of audio interfaces.")
    assert v.verdict == "supported" and v.best_sentence.startswith("Sam Rivera, dulled by fatigue")


def test_a_purpose_the_text_does_not_give_is_unsupported():
    zh = _doc(ZH2)
    ev = "Map 阶段：LLM 对每块独立生成"
    # (a unit that also holds "块越大，LLM 调用次数越少（成本低）" holds the purpose's words: not this one)
    v = _check(zh, "Map 阶段给每块的部分答案打一个 0~100 的帮助度分数，目的是降低 LLM 的调用成本。", ev, before=200, after=300)
    assert v.verdict == "unsupported" and _fact(v, "meaning", "not found").text.startswith("目的是")


def test_as_companies_opens_a_reason_clause():
    call = _doc(CALLS, "TranscriptFY23Q3.txt")
    ev = "Teams Rooms revenue more than doubled year-over-year."
    v = _check(call, "Teams Rooms revenue more than doubled year-over-year as companies rebuilt their offices for hybrid work.", ev)
    assert v.verdict == "unsupported" and "offices" in v.failing.text
    assert _check(call, "Teams Rooms revenue more than doubled year-over-year.", ev).verdict == "supported"
    # a short participle keeps its complement: no cut inside ", matching expectations as customers ..."
    q2 = _doc(CALLS, "TranscriptFY22Q2.txt")
    v = _check(q2, "Office commercial licensing fell 17%, matching expectations as customers kept moving to the cloud.",
               "Office commercial licensing decreased 17%, in line with expectations and consistent with the ongoing customer shift to the cloud.")
    assert held(v), v.facts


def test_much_of_it_opens_a_clause_of_its_own():
    call = _doc(CALLS, "TranscriptFY23Q3.txt")
    ev = "Capital expenditures including finance leases were $7.8 billion to support cloud demand."
    v = _check(call, "Capital expenditures including finance leases were $7.8 billion to support cloud demand, "
                     "much of it for new AI training capacity.", ev)
    assert v.verdict == "partial" and "training" in _fact(v, "meaning", "not found").text


def test_a_consequence_said_with_a_participle_or_a_relative_is_a_reason():
    call = _doc(CALLS, "TranscriptFY19Q2.txt")
    ev = "Office consumer revenue grew 1% and 2% in constant currency, below our expectation."
    base = "Office consumer revenue grew 1% and 2% in constant currency, below expectations"
    assert _check(call, base + ".", ev).verdict == "supported"
    v = _check(call, base + ", prompting Microsoft to cut Office 365 consumer prices.", ev)
    assert v.verdict == "unsupported" and "prompting" in _fact(v, "meaning", "not found").text
    part = _doc(PODCASTS, "Mae-Jemison-part3.txt")
    ev = "my brother and sister had science projects, so I got to hang around with their science projects all the time."
    v = _check(part, "Her brother and sister had science projects, so she got to hang around with them all the time, "
                     "which is what led her to become an astronaut.", ev)
    assert v.verdict == "unsupported", v.facts


def test_an_added_reason_needs_most_of_its_words():
    call = _doc(CALLS, "TranscriptFY22Q1.txt")
    ev = "Cloud gaming is now available in 26 countries, including as of this quarter, in Australia, Brazil, Mexico, and Japan."
    v = _check(call, "Cloud gaming is now available in 26 countries, with Australia, Brazil, Mexico and Japan "
                     "added this quarter because Microsoft judged them its fastest-growing gaming markets.", ev)
    assert v.verdict == "unsupported", v.facts
    assert any(f.kind == "meaning" and f.text.startswith("Microsoft judged them") for f in v.facts), v.facts
    v = _check(call, "Cloud gaming is now available in 26 countries, with Australia, Brazil, Mexico and Japan "
                     "added this quarter.", ev)
    assert v.verdict == "supported", v.facts


def test_a_consequence_opened_by_which_makes_is_a_reason_clause():
    fy24 = _doc(CALLS, "FY24Q1")
    ev = ("When it comes to Teams, usage continues to grow, with more than 320 million monthly active users "
          "making Teams the place to work across chat, collaboration, meetings, and calling.")
    v = _check(fy24, "Teams has more than 320 million monthly active users, which makes it the world's most used "
                     "workplace chat app.", ev, before=0, after=0)
    assert v.verdict == "unsupported", v.facts
    v = _check(fy24, "Teams has more than 320 million monthly active users, which makes it the place to work "
                     "across chat, collaboration, meetings and calling.", ev, before=0, after=0)
    assert v.verdict == "supported", v.facts


def test_an_english_sentence_before_a_chinese_one_is_a_sentence_of_its_own():
    text = ("Azure revenue grew 29% [Data: Sources (3)]. 微软云的收入超过了 350 亿美元 [Data: Sources (4)]。"
            " Dr. 陈 wrote it down [Data: Sources (5)].")
    said = [s for s, _, _ in sentences_with_citations(text)]
    assert said == ["Azure revenue grew 29% [Data: Sources (3)].", "微软云的收入超过了 350 亿美元 [Data: Sources (4)]。",
                    "Dr. 陈 wrote it down [Data: Sources (5)]."], said
    plain = "GraphRAG builds communities. 社区摘要在查询时使用。"
    assert [plain[a:b] for a, b in sentence_spans(plain)] == ["GraphRAG builds communities.", "社区摘要在查询时使用。"]


def test_a_mixed_memo_gets_a_verdict_per_sentence(tmp_path):
    """Before, the two sentences were one claim citing both sources, and the Chinese half's
    changed figure hid behind the English half's support."""
    en = "The harbour board approved the new quay in March after a long debate."
    zh = "港务局在三月批准了新码头的建设，预算为 1200 万元。"
    path = build_workspace(tmp_path, "mixed", [("board.txt", (en + "\n\nThe mayor attended.").encode()),
                                               ("zh.txt", (zh + "\n\n会议持续了两个小时。").encode())])
    store = Store(path)
    en_unit = next(u for u in store.rows("text_units") if "new quay" in u["text"])
    zh_unit = next(u for u in store.rows("text_units") if "新码头" in u["text"])
    memo = (f"The harbour board approved the new quay in March after a long debate "
            f"[Data: Sources ({en_unit['human_readable_id']})]. 港务局在三月批准了新码头的建设，预算为 1500 万元 "
            f"[Data: Sources ({zh_unit['human_readable_id']})]。")
    results = check_text(store, memo)
    assert [r["verdict"] for r in results] == ["supported", "contradicted"], results
    assert "1500" in results[1]["sentence"] and "1200" in results[1]["failing"], results[1]


@needs_wordnet
def test_wordnet_gives_synonyms_and_two_word_lemmas():
    assert "sequestered" in wordnet.related("secluded", links=False)
    assert {"fell", "sink"} <= wordnet.related("dropped", links=False)  # morphy: dropped -> drop
    assert "adjourn" in wordnet.related("broke", links=False, then="up")  # broke -> break_up
    assert not wordnet.related("qwzxv", links=False)


def test_without_the_wordnet_files_there_are_no_synonyms(tmp_path, monkeypatch):
    monkeypatch.setenv("SENSEMAKER_WORDNET", str(tmp_path))
    wordnet._wordnet.cache_clear()
    wordnet.related.cache_clear()
    try:
        assert not wordnet.available() and not wordnet.related("secluded")
    finally:
        monkeypatch.delenv("SENSEMAKER_WORDNET")
        wordnet._wordnet.cache_clear()
        wordnet.related.cache_clear()


@needs_wordnet
def test_a_podcast_paraphrase_in_synonyms_is_supported():
    doc = _doc(PODCASTS, "Neil_deGrasse_Tyson_V2-part3.txt")
    ev = "So I got this handwritten note from some middle schoolers in a small town in Canada"
    v = _check(doc, "Pupils in a tiny community in Canada wrote to him by hand", ev, 750, 750)
    assert held(v), v.reason  # before: unsupported
    v = _check(doc, "Pupils in a tiny community in Ohio wrote to him by hand", ev, 750, 750)
    assert v.verdict == "fabricated" and v.failing.text == "Ohio"


@needs_wordnet
def test_a_two_word_verb_aligns_and_its_polarity_is_compared():
    doc = _doc(DULCE_TXT)
    ev = "The meeting adjourned with no further comments"
    v = _check(doc, "The meeting broke up with no further remarks", ev, 750, 750)
    assert v.verdict == "supported", v.reason  # before: unsupported
    v = _check(doc, "The meeting broke up amid further heated remarks", ev, 750, 750)
    assert flagged(v, "polarity.negation") and v.failing.kind == "polarity"  # before: unsupported

"""The offline judge on real corpus sentences: sentences the cited text holds word for word (elided
quotes too), and highlights that are exactly a sentence of the source. The tests skip where
../shared/corpora is absent; tests/verify/test_rule_*.py hold each rule's cases on excerpts that are
always here."""
from __future__ import annotations

from core.verify.names import Names
from core.verify.offline import judge
from tests.verify_corpus import judge_holding as _say
from tests.verify_corpus import (CALLS, CAROL, NOVELLA, ZH3, check_claim as _check, unit_around,
                                 read_doc as _doc)


def test_a_quote_keeps_its_own_negation():
    zh = _doc(ZH3)
    ev = "自动判断在第 06 章的 agent 框架里,本章没有接上"
    assert _check(zh, "自动判断在第 06 章的 agent 框架里,本章没有接上。", ev).verdict == "supported"


def test_a_quoted_sentence_is_not_contradicted_by_the_next_one():
    call = _doc(CALLS, "TranscriptFY23Q3.txt")
    ev = "Operating expenses declined 5% and 3% in constant currency, even with 3 points of growth from the Xandr acquisition."
    assert _check(call, ev, ev).verdict == "supported"
    v = _check(call, "Operating expenses fell 5% and 3% in constant currency, even with 3 points of growth from the "
                     "Xandr acquisition.", ev)
    assert v.verdict == "supported", v.facts


def test_a_sentence_quoted_word_for_word_is_supported_where_it_stands():
    call = _doc(CALLS, "TranscriptFY20Q4.txt")
    quote = ("More than 4,500 organizations now use Dynamics 365 Commerce, Finance, and Supply Chain "
             "Management, making it one of the fastest growing SaaS solutions in its category.")
    # a unit ending with the sentence (as a content-defined chunk may): its "making it ..." clause
    # was held to be a reason the text does not give
    v = _check(call, quote, "More than 4,500 organizations now use Dynamics 365", before=600,
               after=len(quote) - len("More than 4,500 organizations now use Dynamics 365"))
    assert v.verdict == "supported" and v.reason == "the cited text says it word for word", (v.reason, v.facts)
    assert " ".join(v.best_sentence.split()) == quote
    assert not any(f.kind == "meaning" for f in v.facts)


def test_a_name_found_is_highlighted_whole():
    """A two-word name the passage writes in a row is highlighted whole, not by its last word
    ("Cloud" alone for "Microsoft Cloud" read as a partial match)."""
    call = _doc(CALLS, "TranscriptFY23Q4.txt")
    ev = "The Microsoft Cloud surpassed $110 billion in annual revenue, up 27% in constant currency"
    v = _check(call, "The Microsoft Cloud passed $110 billion in annual revenue.", ev)
    assert v.verdict == "supported", v.facts
    f = next(f for f in v.facts if f.kind == "name" and f.text == "Microsoft Cloud")
    assert f.status == "found" and f.evidence.text == "Microsoft Cloud"


def test_a_quote_with_words_left_out_is_word_for_word():
    doc = _doc(CAROL)
    ev = ("If we were not perfectly convinced that Hamlet's father died\nbefore the play began, "
          "there would be nothing more remarkable in his\ntaking a stroll at night")
    finding = ("If we were not perfectly convinced that Hamlet's father died before the play began, "
               "there would be nothing more remarkable in\u2026 \u2026Hamlet's father died before the play "
               "began, there would be nothing more remarkable in his taking a stroll at night\u2026")
    v = _check(doc, finding, ev)
    assert v.verdict == "supported" and v.reason == "the cited text says it word for word", (v.verdict, v.facts)
    assert v.best_sentence.startswith("If we were not perfectly convinced")
    # a piece the text does not hold is no quote: the "not" left out is read as a reversal again
    v = _check(doc, "If we were perfectly convinced that Hamlet's father died before the play began\u2026 "
                    "\u2026there would be nothing more remarkable in his taking a stroll at night.", ev)
    assert v.verdict == "contradicted", (v.verdict, v.facts)


def test_pieces_of_a_quote_may_come_from_two_cited_units():
    """A finding of the offline index of two calls quotes both ("...the highest it’s ever been
    ... All up, over 330,000 organizations"); its "Fortune 100" was read against "Office 365"."""
    q4, q3 = _doc(CALLS, "FY23Q4"), _doc(CALLS, "FY24Q3")
    a = unit_around(q4, "the average annualized value for our large, long-term Azure contracts", 300, 300)
    b = unit_around(q3, "All up, over 330,000 organizations", 300, 300)
    b["id"], b["human_readable_id"] = "u2", 2
    finding = ("And, the average annualized value for our large, long-term Azure contracts was the highest "
               "it’s ever been… All up, over 330,000 organizations—including over half of the "
               "Fortune 100—have used AI-powered capabilities in Power Platform [Data: Sources (1, 2)].")
    v = judge(finding, [a, b], names=Names(texts=[q4, q3]))
    assert v.verdict == "supported" and v.reason == "the cited text says it word for word", (v.verdict, v.facts)
    assert q4[v.char_start:v.char_end] == v.best_sentence and v.best_sentence.startswith("And, the average")


def test_a_themes_bold_title_is_a_heading_not_a_claim():
    """An offline global answer's theme title ("4. **Business Processes and Intelligent Cloud:
    billion, grow, decrease** (community report 28)") was judged as a claim, and its "decrease"
    against the report's "grow" marked it contradicted; a heading's names are what it says."""
    text = ("In Productivity and Business Processes, we expect revenue to grow between 9 and 11%. "
            "Intelligent Cloud revenue grew 15%.")
    unit = {"id": "u1", "human_readable_id": 1, "text": text, "char_start": 0, "char_end": len(text)}
    names = Names(texts=[text, "Business Processes and Intelligent Cloud"])
    v = judge("4. **Business Processes and Intelligent Cloud: billion, grow, decrease** [Data: Sources (1)]", [unit], names=names)
    assert v.verdict == "supported" and v.reason.startswith("a heading"), (v.verdict, v.facts)
    # a name of the title the cited text lacks is said (a title's capitals are no proof of a name,
    # so it is not called fabricated)
    v = judge("4. **Intelligent Cloud and Contoso: grow** [Data: Sources (1)]", [unit], names=names)
    assert v.verdict == "partial" and v.reason == "name \u201cContoso\u201d: not in the cited text", (v.verdict, v.reason)
    # a bold label before its sentence is no heading: the sentence is judged
    v = judge("4. **Outlook**: we expect revenue to decrease between 9 and 11% [Data: Sources (1)].", [unit], names=names)
    assert v.verdict == "contradicted", (v.verdict, v.facts)


def test_a_quote_is_highlighted_where_it_stands_not_at_a_sentence_opening_the_same_way():
    """The call has four sentences opening "Excluding the impact of the change in accounting
    estimate,": the chip of a quote of the third highlighted the second."""
    doc = _doc(CALLS, "FY24Q3")
    quote = ("Excluding the impact of the change in accounting estimate, gross margin percentage increased "
             "slightly driven by improvement in Office 365.")
    v = _check(doc, quote, quote, before=2200, after=300)
    assert "operating margins increased roughly" in unit_around(doc, quote, 2200, 300)["text"]
    assert v.verdict == "supported" and v.best_sentence == quote, v.best_sentence


def test_a_word_after_a_left_out_part_opens_a_sentence():
    """"…Excluding the impact ..." in an offline report's finding: the capital follows words left out,
    like a sentence's first, and says nothing (the finding came out partial: name "Excluding")."""
    text = "Revenue grew 10% this quarter. Margins rose slightly, leaving aside the impact of the change in estimate."
    unit = {"id": "u1", "human_readable_id": 1, "text": text, "char_start": 0, "char_end": len(text)}
    v = judge("Revenue grew 10%\u2026 \u2026Excluding the impact of the change in estimate, margins rose slightly "
              "[Data: Sources (1)].", [unit], names=Names(texts=[text]))
    assert not [f for f in v.facts if f.kind == "name" and f.status != "found"], v.facts
    assert v.verdict == "supported", (v.verdict, v.facts)


def test_a_short_quote_without_content_words_is_word_for_word():
    """'"This is it," he said.' has no content word: it came out "partial: the sentence asserts
    nothing to check" (0% of its terms) though the unit holds it word for word."""
    doc = _doc(NOVELLA)
    v = _check(doc, '"This is it," he said.', '"This is it," he said.')
    assert v.verdict == "supported" and v.reason == "the cited text says it word for word", (v.verdict, v.reason)
    assert v.best_sentence.startswith('"This is it,"')
    assert _check(doc, '"This was it," she said.', '"This is it," he said.').verdict != "supported"


def test_a_sentence_the_documents_say_word_for_word_is_not_contradicted_by_another_source(tmp_path):
    """A chip judges one source alone: an offline finding quotes one unit and cites the
    relationships around it, and a relationship's unit with a nearby sentence of the other
    polarity made the chip "contradicted" (34 of a newcomer's workspace's chips, 19 of the sample
    corpus's). The documents cannot contradict what they say: unsupported by that source, and the
    verdict names the one that says it."""
    from conftest import build_workspace
    from core.text.citations import parse_citations
    from core.store.references import Resolver
    from core.store.db import Store
    from core.verify.reports import judge_sentence
    said = ("Harbour Master Maria Okafor told the Gazette that losing two berths would leave the port "
            "with no spare capacity at all this winter.")
    other = ("Harbour Master Maria Okafor told the Gazette that losing two berths would leave the port "
             "with spare capacity this winter, once the new quay opens.")
    path = build_workspace(tmp_path, "port", [("gazette.txt", (said + "\n\nThe council meets in March.").encode()),
                                              ("letter.txt", (other + "\n\nThe letter was signed by the mayor.").encode())])
    store = Store(path)
    letter = next(u for u in store.rows("text_units") if "once the new quay" in u["text"])
    gazette = next(u for u in store.rows("text_units") if "no spare capacity" in u["text"])
    sentence = f"{said[:-1]} [Data: Sources ({letter['human_readable_id']})]."
    v = judge(sentence, [letter], names=Names(store))
    assert v.verdict == "contradicted", (v.verdict, v.facts)  # the letter's sentence alone
    v = judge_sentence(Resolver(store), sentence, parse_citations(sentence), judge, Names(store))
    assert v.verdict == "unsupported", (v.verdict, v.facts)
    assert v.reason == (f"the cited text does not say it; Source {gazette['human_readable_id']} of the "
                        "documents says it word for word"), v.reason
    # a sentence no document says is still contradicted by the cited one
    wrong = ("Harbour Master Maria Okafor told the Gazette that losing two berths would leave the port "
             f"with no capacity left this winter [Data: Sources ({letter['human_readable_id']})].")
    assert judge_sentence(Resolver(store), wrong, parse_citations(wrong), judge, Names(store)).verdict == "contradicted"


def test_a_figure_is_highlighted_where_the_passage_gives_it(fy24q3_call):
    """"Azure grew 31%" was supported beside "server products and cloud services revenue grew 24%"."""
    v, _ = _say(fy24q3_call, "Azure grew 31%", "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "supported" and "31%" in v.best_sentence, v.best_sentence

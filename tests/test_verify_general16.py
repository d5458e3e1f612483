"""The offline judge's session-16 fixes (issue 16), on the findings the offline engine writes for
A Christmas Carol and the MSFT calls; both verdicts were "contradicted" before:

- a quote with words left out ("... there would be in\u2026 \u2026Hamlet's father died ...") is word
  for word when every piece of it is: the offline reports quote their sources this way, and a
  newcomer found every one of the nine findings `verify` called contradicted to be such a quote;
- another name doing what the sentence says its name does is no swap where the passage says it
  of that name too ("Mrs. Cratchit kissed him, ..., the two young Cratchits kissed him")."""
from __future__ import annotations

from core.verify.names import Names
from core.verify.offline import judge
from tests.verify_corpus import CORPORA, check_claim as _check, read_doc as _doc, unit_around

CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
CALLS = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"


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


def test_others_doing_it_too_is_no_swap():
    doc = _doc(CAROL)
    ev = ("Mrs. Cratchit kissed him, his daughters kissed him, the two young\n"
          "Cratchits kissed him, and Peter and himself shook hands.")
    v = _check(doc, "Mrs. Cratchit and Peter Cratchit appear together: Mrs. Cratchit kissed him, his daughters "
                    "kissed him, the two young Cratchits kissed him, and Peter and himself shook hands.", ev)
    assert v.verdict == "supported", (v.verdict, v.facts)
    # the swap is still one where the passage does not say it of the sentence's name
    v = _check(doc, "Tiny Tim kissed him, and Peter and himself shook hands.", ev)
    assert v.verdict == "contradicted", (v.verdict, v.facts)

"""The offline judge's session-14 rules (issue 16), each on a real corpus sentence; every test but the
"intoned" guard (a speaker verb added must not contradict the speaker it names) fails on the judge
of c8bf35c:

- two full names that share a first name but not a last one are two people ("Kevin Scott said"
  against the label "KEVIN ROOSE:");
- a speaker named before an aside ("Sam Rivera, surrounded by a cascade of screens, added"), by a
  voice with an adjective ("Taylor Cruz's sharp voice") or by a verb such as "mused" or "intoned";
- a name's slot read through a short aside ("Mercedes-Benz, for example, is bringing") and through
  base forms and synonyms ("AT&T chose Azure" is the slot of "Telstra picked Azure");
- a reason the sentence adds ("because ...", "which is why ...") holds only where the text has
  most of its words (0.6 of them, against 0.4 for any other clause)."""
from __future__ import annotations

from tests.verify_corpus import CORPORA, check_claim as _check, fact_of as _fact, needs_wordnet, read_doc as _doc

DULCE = CORPORA / "operation_dulce" / "operation_dulce_v2_1_1.md"
DULCE_TXT = CORPORA / "operation_dulce" / "dulce.txt"
CALLS = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"
PODCASTS = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"


def test_two_full_names_with_one_first_name_are_two_speakers():
    part = _doc(PODCASTS, "Kevin_Roose-part5.txt")
    ev = "KEVIN ROOSE: Not so much. My dad was a lawyer, my mom was a college administrator,"
    v = _check(part, "Kevin Scott said his dad was a lawyer and his mom a college administrator.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Kevin Roose" in _fact(v, "name", "contradicted").note
    v = _check(part, "Kevin Roose said his dad was a lawyer and his mom a college administrator.", ev)
    assert v.verdict == "supported", v.facts


def test_a_speaker_named_before_an_aside():
    dulce = _doc(DULCE)
    ev = "Sam Rivera, surrounded by a cascade of screens and interfaces, added,"
    v = _check(dulce, "Surrounded by a cascade of screens, Jordan Hayes said the code was almost organic in "
                      "its complexity and that they might have a way in any minute now.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Jordan Hayes" and "Sam Rivera" in f.note
    assert f.evidence.text == "Sam Rivera"


def test_a_speaker_who_mused():
    dulce = _doc(DULCE_TXT)
    ev = "\"Trust,\" Cruz mused, \"or the illusion thereof, is just as potent.\""
    v = _check(dulce, "Jordan mused that trust, or the illusion of it, is just as potent, and Taylor gave a "
                      "curt nod.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Cruz" in _fact(v, "name", "contradicted").note


def test_a_speaker_who_intoned_is_the_speaker():
    dulce = _doc(DULCE)
    ev = "\"As horizonless as our prospects may seem,\" Taylor intoned, \"remain diligent."
    v = _check(dulce, "Taylor Cruz warned that complacency before alien cognition could spell catastrophe.", ev)
    assert v.verdict != "contradicted", v.facts


def test_a_slot_read_through_a_short_aside():
    call = _doc(CALLS, "TranscriptFY23Q4.txt")
    ev = "Mercedes-Benz, for example, is bringing ChatGPT via Azure OpenAI to more than 900,000 vehicles"
    v = _check(call, "Volvo Group is bringing ChatGPT via Azure OpenAI to more than 900,000 vehicles in the "
                     "United States to make its in-car voice assistant more intuitive.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Volvo Group" and f.evidence.text == "Mercedes-Benz"


@needs_wordnet
def test_a_slot_read_through_synonyms_and_base_forms():
    call = _doc(CALLS, "TranscriptFY21Q4.txt")
    ev = "AT&T chose Azure to power its 5G core network"
    v = _check(call, "Telstra picked Azure to run its 5G core network, becoming the first Tier 1 operator to "
                     "shift existing customer traffic to the public cloud.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "name", "contradicted").evidence.text == "AT&T"
    v = _check(call, "AT&T picked Azure to run its 5G core network.", ev)
    assert v.verdict == "supported", v.facts


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


# the second batch, after the claims_fresh13 set was measured: the speaker, label and expectation
# tests fail on 5ab4602; the cleft and the scales are guards (the cleft is caught there by
# another check in this unit, not in the bench's)

def test_a_speaker_after_said_old():
    carol = _doc(CAROL)
    ev = "'You couldn't have met in a better place,' said old Joe, removing his\npipe from his mouth."
    v = _check(carol, "Taking the pipe from his mouth, Scrooge told the visitors they could not have met in a "
                      "better place and invited them into the parlour.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Joe" in _fact(v, "name", "contradicted").note


def test_the_who_of_a_cleft_stands_in_the_slot():
    dulce = _doc(DULCE)
    ev = "Alex stepped back, his profile etched by the chamber's artificial day."
    v = _check(dulce, "It was Jordan Hayes who stepped back and declared that humanity's contribution to the "
                      "symphony must harmonize with theirs.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "name", "contradicted").evidence.text == "Alex"


def test_a_pronoun_speaker_is_who_the_sentence_before_opens_with():
    dulce = _doc(DULCE)
    ev = "Alex Mercer approached with his characteristic stride, a signal of reliability in the chaos."
    v = _check(dulce, "Taylor Cruz walked over and quietly asked Dr. Hayes for a status report.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Taylor Cruz" and f.evidence.text == "Alex Mercer"
    ev = "In his eyes flashed the foreboding excitement of change."
    v = _check(dulce, "Jordan Hayes asked Sam what the patterns in the signals revealed about the nature of "
                      "their guest.", ev)
    assert v.verdict == "contradicted" and "Alex Mercer" in _fact(v, "name", "contradicted").note, v.facts
    v = _check(dulce, "Alex Mercer asked Sam what the patterns in the signals revealed about the nature of "
                      "their guest.", ev)
    assert v.verdict != "contradicted", v.facts


def test_a_label_inside_a_run_on_sentence_is_not_its_speaker():
    part = _doc(PODCASTS, "Sam-Altman-part4.txt")
    ev = "So, I got lucky to be an 11-year-old like right when the personal computing boom was taking off,"
    v = _check(part, "Sam Altman recalled how lucky he was to be 11 years old right when the personal "
                     "computing boom was taking off.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Kevin Scott" in _fact(v, "name", "contradicted").note


def test_a_result_against_expectations_reversed():
    call = _doc(CALLS, "TranscriptFY17Q3.txt")
    ev = "This quarter our Surface results fell short of expectations"
    v = _check(call, "Surface results beat expectations this quarter, helped by easing price competition.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "polarity", "contradicted")
    assert f.text == "beat expectations" and "short of expectations" in f.note
    v = _check(call, "This quarter Surface results fell short of expectations.", ev)
    assert v.verdict == "supported", v.facts
    call = _doc(CALLS, "TranscriptFY24Q3.txt")
    ev = "PC market demand was slightly better than we expected, benefiting Windows OEM"
    v = _check(call, "On the consumer side, PC market demand came in slightly weaker than Microsoft had "
                     "expected, weighing on Windows OEM.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "better than we expected" in _fact(v, "polarity", "contradicted").note
    v = _check(call, "PC market demand was a little stronger than Microsoft had expected, which benefited "
                     "Windows OEM.", ev)
    assert _fact(v, "polarity", "contradicted") is None, v.facts


def test_expectation_scales_keep_a_paraphrase():
    from core.verify.expectations import reversed_result
    assert reversed_result("Costs came in lower than expected.", "Costs were better than we expected.") is None
    assert reversed_result("Revenue did not meet expectations.", "Revenue was in line with expectations.")
    assert reversed_result("Revenue was in line with expectations.", "Revenue came in as we expected.") is None


def test_as_many_negations_on_either_side_are_no_reversal():
    carol = _doc(CAROL)
    ev = "His face had not the harsh and rigid lines of later years; but it had begun to wear the signs of care and avarice."
    v = _check(carol, "Now at the height of his adult years, he did not yet show the hard, severe features of "
                      "his old age, though worry and greed were starting to mark his face.", ev)
    assert v.verdict != "contradicted", v.facts
    v = _check(carol, "His face had the harsh and rigid lines of later years.", ev)
    assert v.verdict == "contradicted", v.facts


def test_a_changed_figure_names_the_rival_in_its_place():
    """Of several figures of its kind, the one the passage says where the claim says its own (a
    newcomer's memo was told "the source says 27%", the growth rate, for Azure's share)."""
    call = _doc(CALLS, "TranscriptFY23Q4.txt")
    ev = "The Microsoft Cloud surpassed $110 billion in annual revenue, up 27% in constant currency"
    v = _check(call, "Azure now accounts for more than 70% of Microsoft Cloud revenue for the first time.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "number", "contradicted")
    assert f.text == "70%" and f.note == "the source says 50%" and f.evidence.text == "50%"


def test_a_name_found_is_highlighted_whole():
    """A two-word name the passage writes in a row is highlighted whole, not by its last word
    ("Cloud" alone for "Microsoft Cloud" read as a partial match)."""
    call = _doc(CALLS, "TranscriptFY23Q4.txt")
    ev = "The Microsoft Cloud surpassed $110 billion in annual revenue, up 27% in constant currency"
    v = _check(call, "The Microsoft Cloud passed $110 billion in annual revenue.", ev)
    assert v.verdict == "supported", v.facts
    f = next(f for f in v.facts if f.kind == "name" and f.text == "Microsoft Cloud")
    assert f.status == "found" and f.evidence.text == "Microsoft Cloud"


def test_not_a_but_b_reverses_a_rather_than_b():
    """"not one of confrontation or conquest, but of connection" prefers connection: a claim
    preferring confrontation to connection is contradicted; "not only ... but" is no preference."""
    dulce = _doc(DULCE)
    ev = "The path forward would not be one of confrontation or conquest, but of connection and comprehension."
    v = _check(dulce, "Alex concluded that the way ahead had to be one of confrontation and conquest rather "
                      "than connection.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "rather than connection" in _fact(v, "polarity", "contradicted").text
    v = _check(dulce, "Alex concluded that the way ahead had to be one of connection rather than confrontation.", ev)
    assert _fact(v, "polarity", "contradicted") is None, v.facts
    from core.verify.polarity import _comparisons
    assert _comparisons("It is not only fast but cheap.") == []


def test_a_figure_whose_subject_follows_it_is_that_subjects():
    """The figure's own subject may follow it ("91 of the Fortune 100 use Teams", "nearly 225
    million Windows 10 and Windows 11 PCs"): it is not given to the next figure's subject."""
    call = _doc(CALLS, "TranscriptFY24Q3.txt")
    ev = "Copilot in Windows is now available on nearly 225 million Windows 10 and Windows 11 PCs, up 2X quarter-over-quarter."
    v = _check(call, "The number of Windows 10 and Windows 11 machines that can run Copilot in Windows has doubled "
                     "since the previous quarter to almost 225 million.", ev)
    assert _fact(v, "number", "contradicted") is None, v.facts
    assert v.verdict == "supported", v.facts


def test_as_many_negations_across_the_sentences_compared_are_no_reversal():
    carol = _doc(CAROL)
    ev = "'Why, it isn't possible,' said Scrooge, 'that I can have slept through a whole day"
    v = _check(carol, "Scrooge told himself it could not be that he had slept through an entire day and deep "
                      "into the next night, nor that something had befallen the sun so that this was twelve noon.", ev)
    assert _fact(v, "polarity", "contradicted") is None, v.facts
    v = _check(carol, "Scrooge said it was possible that anything had happened to the sun.", ev)
    assert v.verdict == "contradicted", v.facts

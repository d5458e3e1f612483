"""The offline judge on real corpus sentences: who says it: transcript labels, verbs of saying,
quotations and the voice a pronoun stands for. The tests skip where ../shared/corpora is absent;
tests/verify/test_rule_*.py hold each rule's cases on excerpts that are always here."""
from __future__ import annotations

from tests.verify_corpus import judge_holding as _say
from tests.verify_corpus import (CALLS, CAROL, DULCE_TXT, NOVELLA, PODCASTS, check_claim as _check,
                                 fact_of as _fact, read_doc as _doc, read_doc)


def test_an_inverted_speaker_after_a_quotation_is_the_claims_speaker():
    carol = _doc(CAROL)
    ev = "'What do you call this?' said Joe. 'Bed-curtains?'"
    v = _check(carol, "'What do you call this?' said Mrs. Dilber. 'Bed-curtains?'", ev)
    f = _fact(v, "name", "contradicted")
    assert v.verdict == "contradicted" and f.text == "Mrs. Dilber" and "Joe" in f.note
    assert _check(carol, "'What do you call this?' said Joe. 'Bed-curtains?'", ev).verdict == "supported"


def test_a_pronoun_speaker_before_the_match_is_not_replaced_by_the_next_ones():
    carol = _doc(CAROL)
    ev = "'I have known him walk with--I have known him walk with Tiny Tim upon his shoulder very fast indeed.'"
    v = _check(carol, "Mrs. Cratchit said Bob used to walk very fast with Tiny Tim upon his shoulder.", ev)
    assert not _fact(v, "name", "contradicted"), v.facts  # "'And so have I,' cried Peter" is the next line


def test_a_name_only_in_the_speaker_label_stands_in_no_slot():
    part = _doc(PODCASTS, "Simone-Giertz-part2.txt")
    ev = "KEVIN SCOTT: Simone Giertz is a Swedish inventor maker, robotics enthusiast, TV host, professional YouTuber, and most recently, entrepreneur."
    v = _check(part, "Kevin Scott is a Swedish inventor maker, robotics enthusiast, TV host and professional YouTuber.", ev)
    f = _fact(v, "name", "contradicted")
    assert v.verdict == "contradicted" and f.text == "Kevin Scott" and "Simone Giertz" in f.note
    assert _check(part, "Simone Giertz is a Swedish inventor maker, robotics enthusiast, TV host and professional YouTuber.",
                  ev).verdict == "supported"


def test_a_first_person_sentence_is_its_speakers():
    part = _doc(PODCASTS, "ChrisUrmson-part3.txt")
    ev = "And so, I bought some kind of Tandy x86 clone or whatever back when I was in probably 9th or 10th grade"
    v = _check(part, "Kevin Scott bought a Tandy x86 clone in 9th or 10th grade with money from his paper route.", ev,
               before=3000, after=600)
    f = _fact(v, "name", "contradicted")
    # the first_person rule is not trusted alone (2 of 3 alarms right on the blind claim sets): it
    # asks for a reading, naming the label
    assert v.verdict == "partial" and f.text == "Kevin Scott" and f.evidence.text == "CHRIS URMSON"
    assert "not trusted alone" in v.reason, v.reason
    v = _check(part, "Chris Urmson bought a Tandy x86 clone in 9th or 10th grade with money from his paper route.", ev,
               before=3000, after=600)
    assert v.verdict == "supported", v.facts


def test_two_full_names_with_one_first_name_are_two_speakers():
    part = _doc(PODCASTS, "Kevin_Roose-part5.txt")
    ev = "KEVIN ROOSE: Not so much. My dad was a lawyer, my mom was a college administrator,"
    v = _check(part, "Kevin Scott said his dad was a lawyer and his mom a college administrator.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Kevin Roose" in _fact(v, "name", "contradicted").note
    v = _check(part, "Kevin Roose said his dad was a lawyer and his mom a college administrator.", ev)
    assert v.verdict == "supported", v.facts


def test_a_speaker_named_before_an_aside():
    dulce = _doc(NOVELLA)
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
    dulce = _doc(NOVELLA)
    ev = "\"As horizonless as our prospects may seem,\" Taylor intoned, \"remain diligent."
    v = _check(dulce, "Taylor Cruz warned that complacency before alien cognition could spell catastrophe.", ev)
    assert v.verdict != "contradicted", v.facts


def test_a_speaker_after_said_old():
    carol = _doc(CAROL)
    ev = "'You couldn't have met in a better place,' said old Joe, removing his\npipe from his mouth."
    v = _check(carol, "Taking the pipe from his mouth, Scrooge told the visitors they could not have met in a "
                      "better place and invited them into the parlour.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Joe" in _fact(v, "name", "contradicted").note


def test_the_who_of_a_cleft_stands_in_the_slot():
    dulce = _doc(NOVELLA)
    ev = "Alex stepped back, his profile etched by the chamber's artificial day."
    v = _check(dulce, "It was Jordan Hayes who stepped back and declared that humanity's contribution to the "
                      "symphony must harmonize with theirs.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "name", "contradicted").evidence.text == "Alex"


def test_a_pronoun_speaker_is_who_the_sentence_before_opens_with():
    dulce = _doc(NOVELLA)
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


def test_the_speaker_of_a_quotation_is_who_leads_into_it():
    dulce = _doc(NOVELLA)
    ev = ("Alex pivoted on his heel, facing Taylor squarely, and his voice found its edge of steel. "
          "\"This isn't mysticism, Cruz. It's a hypothesis based on observed phenomena")
    v = _check(dulce, "Sam Rivera turned on Cruz and insisted that the idea was no mysticism but a hypothesis "
                      "grounded in observed phenomena.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Sam Rivera" and "Alex" in f.note and f.evidence.text == "Alex"
    v = _check(dulce, "Alex turned on Cruz and insisted that the idea was no mysticism but a hypothesis "
                      "grounded in observed phenomena.", ev)
    assert v.verdict != "contradicted", v.facts


def test_the_one_who_broke_the_silence_to_announce_is_the_speaker():
    dulce = _doc(NOVELLA)
    ev = ("Jordan Hayes broke the stillness with a delicate fusion of disbelief and resolve. \"The signal...\" "
          "they began, their tone deliberate, \"it’s evolving.")
    v = _check(dulce, "Taylor Cruz was the one who broke the silence to announce that the signal was evolving "
                      "and had begun responding to the team.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Jordan Hayes" in _fact(v, "name", "contradicted").note


def test_a_pronoun_speaker_is_the_voice_before_it():
    dulce = _doc(NOVELLA)
    ev = ("From across the room, Taylor Cruz's sharp voice cut through the hum. \"Then it's learning or, "
          "possibly worse, baiting us. Proceed with extreme caution,\" they commanded,")
    v = _check(dulce, "\"Proceed with extreme caution,\" Sam Rivera called out from across the room, warning that "
                      "the code was learning or, worse, baiting them.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Taylor Cruz" in _fact(v, "name", "contradicted").note
    v = _check(dulce, "\"Proceed with extreme caution,\" Taylor Cruz called out from across the room, warning "
                      "that the code was learning or, worse, baiting them.", ev)
    assert v.verdict != "contradicted", v.facts


def test_a_speaker_who_directed_and_one_crying_out():
    dulce = _doc(NOVELLA)
    ev = ("Alex materialized behind them, his presence a stable beacon amidst the technological whirlwind. "
          "\"Look for patterns, anomalies. Anything that might resemble a handshake protocol in their "
          "communications,\" he directed")
    v = _check(dulce, "Sam Rivera directed Jordan to look for anything that might resemble a handshake protocol "
                      "in the communications.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Alex" in _fact(v, "name", "contradicted").note
    carol = _doc(CAROL)
    ev = "'Hilli-ho!' cried old Fezziwig, skipping down from the high desk with\nwonderful agility."
    v = _check(carol, "It was Dick who skipped nimbly down from the high desk crying 'Hilli-ho!' and told the "
                      "lads to clear away and make plenty of room.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Fezziwig" in _fact(v, "name", "contradicted").note


def test_the_one_person_named_before_a_quotation_speaks_it():
    dulce = _doc(NOVELLA)
    ev = ("A hint of a smile touched Jordan's face, a small acknowledgment of the monumental task at hand. "
          "\"Understood. I'm balancing the signal's syntax with our algorithms.")
    v = _check(dulce, "Alex Mercer said he was balancing the signal's syntax with their algorithms and that it "
                      "could be an invitation.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Jordan" in _fact(v, "name", "contradicted").note
    v = _check(dulce, "Jordan said they were balancing the signal's syntax with their algorithms and that it "
                      "could be an invitation.", ev)
    assert v.verdict != "contradicted", v.facts


def test_the_sentence_leading_into_a_quotation_names_its_speaker():
    dulce = _doc(NOVELLA)
    ev = ("It was Taylor Cruz’s voice, laced with an edge that demanded attention.\n\nAlex flickered a strained "
          "smile, still thumbing his folder's corner. \"Of course not, Agent Cruz. Just trying to soak in all "
          "the details.\"")
    v = _check(dulce, "With a forced, tight smile, fiddling with the corner of his file, Alex told Cruz 'of course "
                      "not' and said he was just absorbing the particulars.", ev)
    assert v.verdict != "contradicted", v.facts
    v = _check(dulce, "With a forced, tight smile, fiddling with the corner of his file, Jordan told Cruz 'of course "
                      "not' and said they were just absorbing the particulars.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Alex" in _fact(v, "name", "contradicted").note


def test_offered_tags_a_quotation_but_not_a_gift():
    dulce = _doc(NOVELLA)
    ev = ("\"It's like it's learning to communicate,\" offered Sam Rivera from a nearby interface, their youthful "
          "energy boding a mix of awe and anxiety. \"This gives ‘talking to strangers’ a whole new meaning.\"")
    v = _check(dulce, "Taylor Cruz joked that the signal seemed to be learning to communicate and gave 'talking to "
                      "strangers' a whole new meaning.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Sam Rivera" in _fact(v, "name", "contradicted").note
    part = _doc(PODCASTS, "PercyLiang-part4.txt")
    v = _check(part, "Liang stayed at MIT for a master's in machine learning and natural language processing, a "
                     "choice he made because MIT offered him more funding than other schools.",
               "And then I stayed at MIT for my Master’s, which was on machine learning and natural language processing.")
    assert not any(f.status == "contradicted" for f in v.facts), v.facts


def test_the_one_who_did_it_by_a_cleft_and_a_relative_clause():
    part = _doc(PODCASTS, "Surya_Ganguli-part7.txt")
    ev = ("It was a fascinating course taught by great professors at Berkeley, Yang Dan and Frederick Tunison,  "
          "Bruno Olshausen, who discovered sparse coding, which is, you know, foundational in machine learning now.")
    v = _check(part, "Yang Dan, one of the Berkeley professors who taught his computational neuroscience course, is "
                     "the one who discovered sparse coding.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Yang Dan" and "Bruno Olshausen" in f.note and f.evidence.text == "Bruno Olshausen"
    v = _check(part, "Bruno Olshausen, one of the Berkeley professors who taught his computational neuroscience "
                     "course, is the one who discovered sparse coding.", ev)
    assert v.verdict != "contradicted", v.facts


def test_the_transcripts_speaker_is_named_not_another_name_of_the_passage():
    """The reason names who said it (it named "Copilot", the next sentence's first name)."""
    doc = _doc(CALLS, "FY24Q3")
    ev = ("It was a record third quarter, powered by the continued strength of the Microsoft Cloud, which "
          "surpassed $35 billion in revenue, up 23%.")
    v = _check(doc, "Amy Hood said Microsoft Cloud surpassed $35 billion in revenue, up 23%.", ev)
    assert v.verdict == "contradicted"
    assert v.reason == "name \u201cAmy Hood\u201d: the source gives Satya Nadella as the speaker", v.reason


def test_the_next_turns_label_is_not_the_speaker():
    """A part of a transcript opening mid-answer: the guest's sentence is followed by "KEVIN SCOTT:",
    which opens the next turn; it was read as the sentence's speaker (a newcomer's memo)."""
    part = _doc(PODCASTS, "Judy Estrin-part9.txt")
    ev = "I ended up, when I left Stanford, my first job was at Zilog."
    v = _check(part, "Judy Estrin says that when she left Stanford, her first job was at Zilog.", ev, before=600, after=200)
    assert v.verdict != "contradicted", (v.verdict, v.facts)


def test_the_company_in_the_place_of_its_speakers_we_is_found(fy24q3_call):
    """"Microsoft also expects ..." for "we expect ...": was contradicted, "the source names AI
    here" (AI, a thing, read as who expects)."""
    v, _ = _say(fy24q3_call, "Microsoft also expects FY25 capital expenditures to be higher than FY24",
                "we expect FY25 capital expenditures to be higher than FY24")
    assert v.verdict == "supported", (v.reason, v.facts)
    f = next(f for f in v.facts if f.text == "Microsoft")
    assert f.status == "found" and "the company its speakers speak for" in f.note and f.evidence.text == "we"
    # and the reversal is still caught, headed by what it reverses (flagged for a reading: the
    # antonym rule alone contradicts only a closer copy)
    v, _ = _say(fy24q3_call, "Microsoft also expects FY25 capital expenditures to be lower than FY24",
                "we expect FY25 capital expenditures to be higher than FY24")
    assert v.verdict in ("contradicted", "partial") and v.failing.kind == "polarity", v.reason
    assert "“higher”" in v.reason, v.reason


def test_the_speaker_of_a_turn_that_began_in_an_earlier_unit(fy24q3_call):
    """A unit that opens mid-turn: the turn's label is in a unit before it. "Satya Nadella said
    ..." of Amy Hood's words was partial ("not in the cited text"); now contradicted, with the
    label as its evidence, exact in the document; Amy Hood's own sentence is supported."""
    doc = read_doc(CALLS, "TranscriptFY24Q3.txt")
    holding = "Capital expenditures including finance leases were $14 billion"
    v, unit = _say(fy24q3_call, "Satya Nadella said capital expenditures including finance leases were $14 billion", holding)
    assert "AMY HOOD:" not in unit["text"][:unit["text"].find(holding)]  # the label is in an earlier unit
    assert v.verdict == "contradicted" and v.reason == "name \u201cSatya Nadella\u201d: the source gives Amy Hood as the speaker"
    ev = v.failing.evidence
    assert ev.text == "AMY HOOD" and doc[ev.char_start:ev.char_end] == "AMY HOOD" and ev.text_unit_id != unit["id"]
    v, _ = _say(fy24q3_call, "Amy Hood said capital expenditures including finance leases were $14 billion", holding)
    assert v.verdict == "supported", (v.reason, v.facts)
    # a company or a customer a speaker names is what he speaks of, not a rival speaker
    v, _ = _say(fy24q3_call, "Satya Nadella said more than 65% of the Fortune 500 now use Azure OpenAI Service",
                "More than 65% of the Fortune 500 now use Azure OpenAI Service")
    assert not any(f.status == "contradicted" for f in v.facts if f.kind == "name"), (v.verdict, v.reason)

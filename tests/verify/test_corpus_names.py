"""The offline judge on real corpus sentences: names: found in the cited text, in another's slot, made
up, or what the documents are about. The tests skip where ../shared/corpora is absent;
tests/verify/test_rule_*.py hold each rule's cases on excerpts that are always here."""
from __future__ import annotations

from core.verify.names import Names
from core.verify.offline import judge
from core.verify.rules import Policy
import pytest
import zipfile
from tests.verify_corpus import judge_holding as _say
from tests.verify_corpus import (CALLS, CAROL, DULCE_TXT, PODCASTS, ZH2, ZH3, check_claim as _check,
                                 fact_of as _fact, held, needs_wordnet, read_doc as _doc)

INTRO = ("On the call with me are Satya Nadella, chairman and chief executive officer, Amy Hood, "
         "chief financial officer, Alice Jolla, chief accounting officer")


def test_a_made_up_name_opening_the_sentence_is_fabricated():
    call = _doc(CALLS, "TranscriptFY22Q4.txt")
    v = _check(call, "Citadel, for example, will use Microsoft Security Experts to supplement its own security operations.",
               "Bridgewater Associates, for example, will use the service to supplement its own security operations.")
    assert v.verdict == "fabricated" and _fact(v, "name", "absent").text == "Citadel"
    # the role check ("Peet's Coffee is modernizing") no longer turns it into another holder
    v = _check(call, "Starbucks is modernizing its supply chain with Microsoft's business applications.",
               "Peet’s Coffee is modernizing its supply chain with our business applications.")
    assert v.verdict == "fabricated" and _fact(v, "name", "absent").text == "Starbucks"
    # a common word opening a sentence is no name
    v = _check(call, "Cash flow from operations was $24.6 billion, increasing 8% driven by strong cloud billings and collections.",
               "Cash flow from operations was $24.6 billion, increasing 8% driven by strong cloud billings and collections.")
    assert v.verdict == "supported"


def test_a_slot_swap_in_chinese_text():
    zh = _doc(ZH3)
    v = _check(zh, "Orestes 是 Taphians 人的首领。", "Mentes 是 Taphians 人的首领")
    f = _fact(v, "name", "contradicted")
    assert v.verdict == "contradicted" and f.text == "Orestes" and "Mentes" in f.note
    assert _check(zh, "Mentes 是 Taphians 人的首领。", "Mentes 是 Taphians 人的首领").verdict == "supported"


def test_a_name_most_units_hold_is_the_documents_subject(tmp_path):
    """"Microsoft" in its own earnings call, cited to a passage that says "we": no missing name;
    a name few units hold still is one."""
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_files
    from core.settings import Settings
    from core.store.db import Store
    if not CALLS.is_file():
        pytest.skip("corpus absent")
    with zipfile.ZipFile(CALLS) as z:
        raw = z.read("txt/TranscriptFY24Q4.txt")
    store = Store(tmp_path / "ws")
    ingest_files(store, [("TranscriptFY24Q4.txt", raw)], max_bytes=50_000_000)
    run_index(store, Settings(engine="offline"))
    names = Names(store)
    ev = "it’s no different than leases that we would have done in the past."
    unit = next(u for u in store.query("SELECT id, text, char_start, char_end FROM text_units") if ev in u["text"])
    BACKGROUND = Policy.default().t("background")
    assert names.share("microsoft") >= BACKGROUND and names.share("nadella") < BACKGROUND
    v = judge("Satya Nadella said that, in his view, these arrangements are just like the leases Microsoft "
              "entered into previously [Data: Sources (1)].", [unit], names=names)
    assert v.verdict == "supported", v.reason
    v = judge("Satya Nadella said that, in his view, these arrangements are just like the leases Oracle "
              "entered into previously [Data: Sources (1)].", [unit], names=names)
    assert v.verdict != "supported"
    store.close()


def test_a_latin_capital_before_chinese_text_is_a_name():
    zh = _doc(ZH2)
    ev = "Gao 等人在综述《Retrieval-Augmented Generation for Large Language Models: A Survey》中，把 RAG 范式划分为三个阶段"
    v = _check(zh, "Lewis 等人在综述《Retrieval-Augmented Generation for Large Language Models: A Survey》中，把 RAG 范式划分为三个阶段。", ev)
    assert v.verdict == "fabricated" and _fact(v, "name", "absent").text == "Lewis"
    assert _check(zh, "Gao 等人在综述中把 RAG 范式划分为三个阶段。", ev).verdict == "supported"


def test_a_sentence_opening_word_the_documents_write_as_a_name_is_a_name():
    call = _doc(CALLS, "TranscriptFY23Q3.txt")
    ev = "Just last week, Epic Systems shared that it was using Azure OpenAI Service to integrate the next generation of AI with its industry-leading EHR software."
    claim = "Siemens shared last week that it was using Azure OpenAI Service to integrate the next generation of AI with its industry-leading EHR software."
    # the unit cited holds the evidence only; the call writes ", Siemens shared how it will use" elsewhere
    v = _check(call, claim, ev, before=300, after=300, names_doc=call)
    f = _fact(v, "name", "contradicted")
    assert v.verdict == "contradicted" and f.text == "Siemens" and "Epic Systems" in f.note
    v = _check(call, claim.replace("Siemens", "Epic Systems"), ev, before=300, after=300, names_doc=call)
    assert v.verdict == "supported"


@needs_wordnet
def test_the_compared_sentence_says_something_of_the_names():
    part = _doc(PODCASTS, "Murati-part3.txt")
    ev = "I’ve got a 12- and a 14-year-old."
    v = _check(part, "Kevin Scott has two children, a 12-year-old and a 16-year-old.", ev, before=2000, after=2000)
    f = _fact(v, "number", "contradicted")
    assert v.verdict == "contradicted" and f.text.startswith("16") and f.evidence.text.startswith("14")
    assert "KEVIN SCOTT: Yeah" not in v.best_sentence


def test_a_common_noun_acronym_is_part_of_the_clause():
    part = _doc(PODCASTS, "William_A_Adams-part5.txt")
    ev = "I mean, 8k of RAM, and – you know, not very – not even one megahertz CPU, I mean, pretty slow."
    v = _check(part, "The machine had 64k of RAM and a CPU slower than one megahertz.", ev)
    f = _fact(v, "number", "contradicted")
    assert v.verdict == "contradicted" and f.text == "64k" and f.evidence.text == "8k"


def test_a_word_mostly_written_in_lower_case_is_no_name():
    call = _doc(CALLS, "TranscriptFY24Q1.txt")
    ev = ("In our on-premises server business, revenue increased 2%, ahead of expectations driven primarily by "
          "demand in advance of Windows Server 2012 end of support.")
    v = _check(call, "Sales of on-premises server software rose 2%, ahead of expectations, driven by demand in "
                     "advance of Windows Server 2012 end of support.", ev)
    assert held(v), v.facts


def test_a_known_name_opening_the_passage_sentence_stands_in_the_slot():
    dulce = _doc(DULCE_TXT)
    ev = "Taylor had looped back upon hearing the commotion."
    v = _check(dulce, "As a drone whirred toward them, Sam Rivera had looped back on hearing the commotion.", ev)
    f = _fact(v, "name", "contradicted")
    assert v.verdict == "contradicted" and f.text == "Sam Rivera" and f.evidence.text == "Taylor"
    assert _check(dulce, "As a drone whirred toward them, Taylor had looped back on hearing the commotion.",
                  ev).verdict == "supported"


def test_a_curly_apostrophe_names_the_same_name():
    call = _doc(CALLS, "TranscriptFY23Q1.txt")
    ev = "Leaders in every industry, from Fannie Mae and Land O’Lakes to Rabobank"
    v = _check(call, "Leaders from Fannie Mae and Land O'Lakes to Rabobank turn to the premium E5 offerings.", ev)
    assert v.verdict != "fabricated" and not _fact(v, "name", "absent"), v.facts
    v = _check(call, "Leaders from Fannie Mae and Land O’Lakes to Rabobank turn to the premium E5 offerings.", ev)
    assert v.verdict != "fabricated" and not _fact(v, "name", "absent"), v.facts


def test_a_sentence_opening_word_no_document_or_dictionary_holds_is_made_up():
    call = _doc(CALLS, "TranscriptFY22Q1.txt")
    ev = "chose Teams to bring two-way communication to more than 120,000 frontline employees"
    v = _check(call, "Woolworths, a big Australian retailer, chose Teams to bring two-way communication to "
                     "more than 120,000 frontline employees.", ev)
    assert v.verdict == "fabricated" and _fact(v, "name", "absent").text == "Woolworths", v.facts
    # "Australian" is the adjective of a place the call names ("Australia's"): no made-up name
    assert [f.text for f in v.facts if f.status == "absent"] == ["Woolworths"], v.facts
    v = _check(call, "Notably, a big Australian retailer chose Teams to bring two-way communication to "
                     "more than 120,000 frontline employees.", ev)
    assert v.verdict != "fabricated", v.facts  # an English word opening the sentence is no name


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


def test_a_clause_that_only_names_its_subject_is_the_claims():
    part = _doc(PODCASTS, "Adrian_Tchaikovsky-part3.txt")
    ev = "it was – I was about 17 before I really put pen to paper."
    v = _check(part, "Adrian Tchaikovsky said he was about 12 before he really put pen to paper.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text == "17"
    v = _check(part, "Adrian Tchaikovsky said he was about 17 before he really put pen to paper.", ev)
    assert v.verdict == "supported", v.facts


def test_another_name_doing_what_the_sentence_says_its_name_does():
    import zipfile
    calls = _doc(CALLS, "FY17Q4")
    with zipfile.ZipFile(CALLS) as z:  # the workspace: every call (one writes "Box" mid-sentence)
        every = "\n".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".txt"))
    ev = "And Baidu will use Azure to take its autonomous driving platform worldwide."
    swapped = ("Box will use Azure to take its autonomous driving platform worldwide, while Baidu plans to bring "
               "its content and collaboration services to Azure.")
    v = _check(calls, swapped, ev, names_doc=every)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "name", "contradicted")
    assert f.text == "Box" and "Baidu" in f.note and f.evidence.text == "Baidu"
    right = ("Baidu will use Azure to take its autonomous driving platform worldwide, while Box plans to bring "
             "its content and collaboration services to Azure.")
    v = _check(calls, right, ev, names_doc=every)
    assert v.verdict == "supported", v.facts
    # one of a list does what the list does: the list is not read as the one name
    v = _check(calls, "Box and Baidu will use Azure to take an autonomous driving platform worldwide.", ev, names_doc=every)
    assert not any("does it" in f.note for f in v.facts), v.facts


def test_mrs_cratchit_is_not_bob_cratchit():
    carol = _doc(CAROL)
    ev = "changed by Miss Belinda, Mrs. Cratchit left the room alone--too nervous\nto bear witnesses--to take the pudding up, and bring it in."
    v = _check(carol, "After Miss Belinda changed the plates, Bob Cratchit went out of the room alone, too nervous "
                      "to have anyone watching, to take up the pudding and bring it in.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Mrs. Cratchit" in _fact(v, "name", "contradicted").note
    v = _check(carol, "After Miss Belinda changed the plates, Mrs. Cratchit went out of the room alone, too nervous "
                      "to have anyone watching, to take up the pudding and bring it in.", ev)
    assert v.verdict != "contradicted", v.facts
    ev = "Bob's voice was tremulous when he told them this, and trembled more when\nhe said that Tiny Tim was growing strong and hearty."
    v = _check(carol, "Mrs. Cratchit's voice shook as she passed this on, and shook still more when she said that "
                      "Tiny Tim was growing strong and hearty.", ev)
    assert v.verdict == "contradicted", v.facts
    assert "Bob" in _fact(v, "name", "contradicted").note


def test_a_guest_named_in_the_documents_title_is_found(tmp_path):
    """A transcript's guest says "I"; the passage never writes her name, the document's title does."""
    import zipfile
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_files
    from core.settings import Settings
    from core.store.db import Store
    from core.verify.names import Names
    from core.verify.offline import judge
    if not PODCASTS.is_file():
        import pytest
        pytest.skip("corpus absent")
    with zipfile.ZipFile(PODCASTS) as z:
        member = next(n for n in z.namelist() if "KimberlyBryant_Transcript-part3" in n)
        raw = z.read(member)
    store = Store(tmp_path / "ws")
    ingest_files(store, [(member.split("/")[-1], raw)], max_bytes=50_000_000)
    run_index(store, Settings(engine="offline"))
    ev = "I ended up at Vanderbilt University, right up the road in Nashville"
    unit = next(u for u in store.query("SELECT id, document_id, text, char_start, char_end FROM text_units")
                if ev in u["text"])
    v = judge("Kimberly Bryant ended up at Vanderbilt University, right up the road in Nashville "
              "[Data: Sources (1)].", [unit], names=Names(store))
    f = next(f for f in v.facts if f.text == "Kimberly Bryant")
    assert f.status == "found" and "KimberlyBryant" in f.note
    assert v.verdict == "supported", v.facts
    store.close()


def test_others_doing_it_too_is_no_swap():
    doc = _doc(CAROL)
    ev = ("Mrs. Cratchit kissed him, his daughters kissed him, the two young\n"
          "Cratchits kissed him, and Peter and himself shook hands.")
    v = _check(doc, "Mrs. Cratchit and Peter Cratchit appear together: Mrs. Cratchit kissed him, his daughters "
                    "kissed him, the two young Cratchits kissed him, and Peter and himself shook hands.", ev)
    assert held(v), (v.verdict, v.facts)
    # the swap is still one where the passage does not say it of the sentence's name
    v = _check(doc, "Tiny Tim kissed him, and Peter and himself shook hands.", ev)
    assert v.verdict == "contradicted", (v.verdict, v.facts)


def test_a_name_that_mixes_two_peoples_is_fabricated():
    """"Amy Nadella" is in no document, though both its words are: it was "supported" by the call's
    introduction of Amy Hood and Satya Nadella."""
    doc = _doc(CALLS, "FY24Q3")
    v = _check(doc, "Amy Nadella, chief financial officer, joined the call.", INTRO)
    assert v.verdict == "fabricated", (v.verdict, v.facts)
    assert v.reason == "name \u201cAmy Nadella\u201d: nowhere in the documents (they name Amy Hood and Satya Nadella)"
    # the people the call names are no blend, nor a first name the documents give alone
    assert _check(doc, "Amy Hood, chief financial officer, joined the call.", INTRO).verdict == "supported"
    carol = _doc(CAROL)
    v = _check(carol, "Martha Cratchit dusted the hot plates.", "Martha dusted the hot plates")
    assert v.verdict != "fabricated", v.facts


def test_a_role_given_by_a_bare_apposition():
    """"Name, role, Name, role" (a call's introduction) gives each person a role: the chief
    financial officer is Amy Hood, not Satya Nadella (it was "supported"). The role rule is not
    trusted alone (under 0.9 on the blind claim sets), so it asks for a check with its reason."""
    doc = _doc(CALLS, "FY24Q3")
    v = _check(doc, "Satya Nadella is the chief financial officer.", INTRO)
    assert v.verdict == "partial" and v.rule == "role", (v.verdict, v.facts)
    assert v.reason.startswith("name \u201cSatya Nadella\u201d: the source gives Amy Hood as the chief financial officer")
    assert "not trusted alone" in v.reason
    assert _check(doc, "Amy Hood is the chief financial officer.", INTRO).verdict == "supported"


def test_a_name_in_anothers_place_that_no_document_holds_is_fabricated():
    """"Delta Air Lines" where the call names Alaska Airlines: each of its words is in the call, the
    name is not, so it is made up, not only misplaced (it came out contradicted)."""
    doc = _doc(CALLS, "FY16Q1")
    ev = ("It\u2019s great to see our customers like Walmart, Jet.com, and Alaska Airlines seize the benefits "
          "of the cloud to transform and push for growth.")
    import zipfile
    with zipfile.ZipFile(CALLS) as z:  # the workspace: every call (they hold "Delta", "Air" and "Lines")
        calls = "\n".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".txt"))
    v = _check(doc, "Our customers like Walmart, Jet.com and Delta Air Lines seize the benefits of the cloud "
                    "to transform and grow.", ev, names_doc=calls)
    assert v.verdict == "fabricated", (v.verdict, v.facts)
    assert v.reason == "name \u201cDelta Air Lines\u201d: nowhere in the documents (the source names Alaska Airlines here)"


def test_a_name_before_a_sentence_end_stands_in_no_slot_of_the_next():
    """The sample minutes' heading, "PORT ALDERMERE CITY COUNCIL", quoted with the line after it:
    "... Councillor Ben Harrow.\\nAlso present:" put Ben Harrow in the heading's place across the
    full stop (the one mark a newcomer found, on the sample corpus, was this false contradicted)."""
    from pathlib import Path
    doc = next(p for p in (Path(__file__).resolve().parents[2] / "sample_corpus").iterdir()
               if "Also present: Maria Okafor" in p.read_text(encoding="utf-8", errors="ignore")).read_text(encoding="utf-8")
    v = _check(doc, "PORT ALDERMERE CITY COUNCIL Also present: Maria Okafor, Harbour Master (Aldermere Port "
                    "Authority); Dr. Priya Nandakumar (Aldermere General Hospital).", "Also present: Maria Okafor",
               before=400, after=200)
    assert v.verdict != "contradicted", (v.verdict, v.facts)


def test_a_possessive_ends_a_name(fy24q3_call):
    """"Microsoft's AI services": was fabricated, 'name "Microsoft's AI": nowhere in the documents'."""
    v, _ = _say(fy24q3_call, "Microsoft's AI services contributed 7 points of Azure growth in the quarter",
                "our AI services contributed 7 points of growth")
    assert v.verdict == "supported", (v.reason, v.facts)
    assert not v.fabricated


def test_a_role_the_text_gives_another_person_is_flagged():
    doc = _doc(PODCASTS, "Kevin Scott_Podcast_with_Andrew Ng-part1.txt")
    if "I'm your host, Kevin Scott" not in doc and "I\u2019m your host, Kevin Scott" not in doc:
        pytest.skip("the greeting is in another part")
    ev = "your host, Kevin Scott"
    v = _check(doc, "Christina Warren is the host of Behind the Tech", ev, 750, 750)
    assert v.verdict == "partial" and v.rule == "role", v.reason  # before: supported
    f = v.failing
    assert f.text == "Christina Warren" and "Kevin Scott" in f.note
    assert "host" in f.evidence.text and "Kevin Scott" in f.evidence.text
    assert _check(doc, "Kevin Scott is the host of Behind the Tech", ev, 750, 750).verdict != "contradicted"

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
from tests.verify_corpus import CORPORA, check_claim as _check, read_doc as _doc, unit_around, held

CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
DULCE = CORPORA / "operation_dulce" / "operation_dulce_v2_1_1.md"
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
    assert held(v), (v.verdict, v.facts)
    # the swap is still one where the passage does not say it of the sentence's name
    v = _check(doc, "Tiny Tim kissed him, and Peter and himself shook hands.", ev)
    assert v.verdict == "contradicted", (v.verdict, v.facts)


INTRO = ("On the call with me are Satya Nadella, chairman and chief executive officer, Amy Hood, "
         "chief financial officer, Alice Jolla, chief accounting officer")


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
    financial officer is Amy Hood, not Satya Nadella (it was "supported")."""
    doc = _doc(CALLS, "FY24Q3")
    v = _check(doc, "Satya Nadella is the chief financial officer.", INTRO)
    assert v.verdict == "contradicted", (v.verdict, v.facts)
    assert v.reason == "name \u201cSatya Nadella\u201d: the source gives Amy Hood as the chief financial officer"
    assert _check(doc, "Amy Hood is the chief financial officer.", INTRO).verdict == "supported"


def test_the_transcripts_speaker_is_named_not_another_name_of_the_passage():
    """The reason names who said it (it named "Copilot", the next sentence's first name)."""
    doc = _doc(CALLS, "FY24Q3")
    ev = ("It was a record third quarter, powered by the continued strength of the Microsoft Cloud, which "
          "surpassed $35 billion in revenue, up 23%.")
    v = _check(doc, "Amy Hood said Microsoft Cloud surpassed $35 billion in revenue, up 23%.", ev)
    assert v.verdict == "contradicted"
    assert v.reason == "name \u201cAmy Hood\u201d: the source gives Satya Nadella as the speaker", v.reason


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


ZH = CORPORA / "graphrag_articles_zh"


def test_bing_fei_is_a_negation():
    """"并非" ("is not") was listed as no negation, so a claim saying it the way the article says
    "不是" came out contradicted."""
    doc = _doc(ZH / "article_2.txt")
    ev = "GraphRAG 不是一个\"取代向量 RAG\"的银弹，而是对 RAG 工具箱的关键补全。"
    v = _check(doc, "GraphRAG 并非取代向量 RAG 的银弹，而是 RAG 工具箱的关键补充。", ev)
    assert v.verdict != "contradicted", (v.verdict, v.facts)
    v = _check(doc, "GraphRAG 是取代向量 RAG 的银弹。", ev)
    assert v.verdict == "contradicted", (v.verdict, v.facts)


def test_a_clause_too_few_words_hold_says_so_not_a_share():
    """A clause capped for sharing one word said "12% of its words in the best source sentence",
    a figure nothing measured."""
    doc = _doc(CAROL)
    v = _check(doc, "The hand was pointed straight before them, and the doctor had warned the family.",
               "It gave him no reply. The hand was pointed straight before them.")
    fail = next(f for f in v.facts if f.kind == "meaning")
    assert fail.note == "no source sentence shares more than one of its words", fail.note


def test_a_fall_against_a_multiple_is_a_reversal():
    """"slumped" against "tripled": words of change go up or down whichever word says it (the
    groups of rising and falling words take "double", "triple", "slump", "plunge" ...)."""
    doc = _doc(CALLS, "FY20Q3")
    ev = ("Usage of Windows Virtual Desktop tripled this quarter as organizations deploy virtual desktops "
          "and apps on Azure to enable secure remote work.")
    v = _check(doc, "Windows Virtual Desktop usage slumped this quarter as organizations put virtual desktops "
                    "and apps on Azure for secure remote work.", ev)
    assert v.verdict == "contradicted" and v.reason == "polarity \u201cslumped\u201d: the source says \u201ctripled\u201d", v.reason
    v = _check(doc, "Windows Virtual Desktop usage surged this quarter as organizations put virtual desktops "
                    "and apps on Azure for secure remote work.", ev)
    assert held(v), (v.verdict, v.facts)


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


def test_a_word_after_a_left_out_part_opens_a_sentence():
    """"…Excluding the impact ..." in an offline report's finding: the capital follows words left out,
    like a sentence's first, and says nothing (the finding came out partial: name "Excluding")."""
    text = "Revenue grew 10% this quarter. Margins rose slightly, leaving aside the impact of the change in estimate."
    unit = {"id": "u1", "human_readable_id": 1, "text": text, "char_start": 0, "char_end": len(text)}
    v = judge("Revenue grew 10%\u2026 \u2026Excluding the impact of the change in estimate, margins rose slightly "
              "[Data: Sources (1)].", [unit], names=Names(texts=[text]))
    assert not [f for f in v.facts if f.kind == "name" and f.status != "found"], v.facts
    assert v.verdict == "supported", (v.verdict, v.facts)


PODCASTS = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"


def test_the_next_turns_label_is_not_the_speaker():
    """A part of a transcript opening mid-answer: the guest's sentence is followed by "KEVIN SCOTT:",
    which opens the next turn; it was read as the sentence's speaker (a newcomer's memo)."""
    part = _doc(PODCASTS, "Judy Estrin-part9.txt")
    ev = "I ended up, when I left Stanford, my first job was at Zilog."
    v = _check(part, "Judy Estrin says that when she left Stanford, her first job was at Zilog.", ev, before=600, after=200)
    assert v.verdict != "contradicted", (v.verdict, v.facts)


def test_a_short_quote_without_content_words_is_word_for_word():
    """'"This is it," he said.' has no content word: it came out "partial: the sentence asserts
    nothing to check" (0% of its terms) though the unit holds it word for word."""
    doc = _doc(DULCE)
    v = _check(doc, '"This is it," he said.', '"This is it," he said.')
    assert v.verdict == "supported" and v.reason == "the cited text says it word for word", (v.verdict, v.reason)
    assert v.best_sentence.startswith('"This is it,"')
    assert _check(doc, '"This was it," she said.', '"This is it," he said.').verdict != "supported"


def test_a_name_before_a_sentence_end_stands_in_no_slot_of_the_next():
    """The sample minutes' heading, "PORT ALDERMERE CITY COUNCIL", quoted with the line after it:
    "... Councillor Ben Harrow.\\nAlso present:" put Ben Harrow in the heading's place across the
    full stop (the one mark a newcomer found, on the sample corpus, was this false contradicted)."""
    from pathlib import Path
    doc = next(p for p in (Path(__file__).resolve().parents[1] / "sample_corpus").iterdir()
               if "Also present: Maria Okafor" in p.read_text(encoding="utf-8", errors="ignore")).read_text(encoding="utf-8")
    v = _check(doc, "PORT ALDERMERE CITY COUNCIL Also present: Maria Okafor, Harbour Master (Aldermere Port "
                    "Authority); Dr. Priya Nandakumar (Aldermere General Hospital).", "Also present: Maria Okafor",
               before=400, after=200)
    assert v.verdict != "contradicted", (v.verdict, v.facts)


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


def test_a_time_of_day_is_one_figure():
    """"18:30" was two counts, 18 and 30 (and "18:00 Waterfront" a count of 0 "waterfront"s): a
    finding joining two minutes' headers came out contradicted, "number 18: the source says 640
    homes". A time is compared with times."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "sample_corpus" / "2024-03-14_city_council_minutes.txt").read_text(encoding="utf-8")
    ev = "Thursday 14 March 2024, Council Chamber, City Hall, 18:30"
    assert _check(doc, "The full Council met on Thursday 14 March 2024 in the Council Chamber at City Hall at 18:30.",
                  ev, before=200, after=400).verdict == "supported"
    v = _check(doc, "The full Council met on Thursday 14 March 2024 in the Council Chamber at City Hall at 19:30.",
               ev, before=200, after=400)
    assert v.verdict == "contradicted" and v.reason == "number \u201c19:30\u201d: the source says 18:30", (v.verdict, v.reason)

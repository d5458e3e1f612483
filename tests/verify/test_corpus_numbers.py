"""The offline judge on real corpus sentences: figures with their kind and unit: counts, shares,
durations, money, multipliers, periods. The tests skip where ../shared/corpora is absent;
tests/verify/test_rule_*.py hold each rule's cases on excerpts that are always here."""
from __future__ import annotations

from core.verify import figures as fg
from core.verify.names import Names
from core.verify.offline import judge
from tests.verify_corpus import judge_holding as _say
from tests.verify_corpus import (CALLS, CAROL, NOVELLA, PODCASTS, check_claim as _check,
                                 fact_of as _fact, held, needs_wordnet, unit_around,
                                 read_doc as _doc)


def test_a_couple_is_two():
    podcast = _doc(PODCASTS, "Randall_Munroe-part3.txt")
    ev = "I remember doing a couple of biology classes in a row"
    v = _check(podcast, "He remembers doing five biology classes in a row.", ev)
    assert v.verdict == "contradicted" and "a couple of" in _fact(v, "number", "contradicted").note
    assert _check(podcast, "He remembers doing two biology classes in a row.", ev).verdict == "supported"


def test_a_collective_numeral_counts():
    novella = _doc(NOVELLA)
    ev = "Progressing with determined steps, the trio moved deeper, silently acknowledging the evolution of their predicament."
    v = _check(novella, "The four agents pressed deeper, silently acknowledging the evolution of their predicament.", ev)
    f = _fact(v, "number", "contradicted")
    assert v.verdict == "contradicted" and f.text == "four agents" and f.evidence.text == "trio"
    right = _check(novella, "The three agents pressed deeper, silently acknowledging the evolution of their predicament.", ev)
    assert right.verdict == "partial" and right.failing.rule == "edited_copy" and right.failing.text == "pressed"
    assert next(f for f in right.facts if f.kind == "number").status == "found"


def test_a_share_said_in_words_is_a_share():
    call = _doc(CALLS, "TranscriptFY24Q1.txt")
    ev = "Since introducing AI-assisted messages for recruiters five months ago, three-fourths of them say it saves them time."
    v = _check(call, "Three in four recruiters say the AI-assisted messages introduced five months ago save them time.", ev)
    assert v.verdict == "supported", v.facts
    assert _fact(v, "number", "found").evidence.text == "three-fourths"
    v = _check(call, "Two in three recruiters say the AI-assisted messages introduced five months ago save them time.", ev)
    assert v.verdict == "contradicted" and _fact(v, "number", "contradicted").text == "Two in three"


@needs_wordnet
def test_a_duration_is_compared_in_days():
    part = _doc(PODCASTS, "William_A_Adams-part2.txt")
    ev = "About a year ago he left Microsoft to create a venture studio"
    claim = ("About twelve months earlier he quit Microsoft and set up a venture studio meant to help any Black "
             "person who wants a tech career or company to enter the industry and thrive.")
    v = _check(part, claim, ev)
    f = _fact(v, "number", "found")
    assert v.verdict == "supported" and f.text == "twelve months" and f.evidence.text == "a year"
    v = _check(part, claim.replace("twelve", "eighteen"), ev)
    assert v.verdict != "supported"


def test_a_count_of_the_same_thing_elsewhere_in_the_cited_text():
    carol = _doc(CAROL)
    ev = "now with twenty legs, now a pair of legs without a head"
    v = _check(carol, "At moments the figure seemed to have as many as forty legs.", ev)
    f = _fact(v, "number", "contradicted")
    assert v.verdict == "contradicted" and f.evidence.text == "twenty legs"
    ev = "'One child,' Scrooge returned."
    v = _check(carol, "Scrooge told the Ghost that his sister had left two children.", ev, before=400, after=400)
    f = _fact(v, "number", "contradicted")
    assert v.verdict == "contradicted" and f.text == "two children" and f.evidence.text == "One child"
    # what someone was is no count: "when I was a child" says nothing of how many children
    murati = _doc(PODCASTS, "Murati-part3.txt")
    v = _check(murati, "Kevin Scott has two children, a 12-year-old and a 14-year-old.",
               "I’ve got a 12- and a 14-year-old.", before=2000, after=2000)
    assert not any(f.text == "two children" and f.status == "contradicted" for f in v.facts), v.facts


def test_a_figure_before_a_comma_is_a_figure():
    call = _doc(CALLS, "TranscriptFY22Q3.txt")
    ev = "grew nearly 50 percent year over year to 785,000, including Citrix"
    v = _check(call, "Microsoft's security customers grew nearly 50 percent in a year, to 785,000 organisations "
                     "including Citrix.", ev)
    f = next(f for f in v.facts if f.text.startswith("785,000"))
    assert f.status == "found" and f.evidence.text == "785,000", v.facts
    v = _check(call, "Microsoft's security customers grew nearly 50 percent in a year, to 875,000 organisations "
                     "including Citrix.", ev)
    assert v.verdict == "contradicted" and _fact(v, "number", "contradicted").evidence.text == "785,000"


def test_the_compared_sentence_gives_the_figure():
    call = _doc(CALLS, "TranscriptFY21Q4.txt")
    ev = "Dynamics 365 revenue accelerated for the third consecutive quarter, up 49 percent year over year."
    v = _check(call, "Dynamics 365 sales sped up for a third straight period, climbing 49 percent against the "
                     "prior-year level.", ev)
    assert held(v), v.facts
    f = next(f for f in v.facts if f.text == "49 percent")
    assert f.status == "found" and f.evidence.text == "49 percent"


def test_a_figure_one_cited_passage_gives_for_the_subject_is_found():
    q1, q2 = _doc(CALLS, "TranscriptFY23Q1.txt"), _doc(CALLS, "TranscriptFY23Q2.txt")
    u1 = {**unit_around(q1, "LinkedIn revenue increased 17 percent and 21 percent in constant currency"), "id": "q1"}
    u2 = {**unit_around(q2, "LinkedIn revenue increased 10 percent and 14 percent in constant currency"), "id": "q2"}
    names = Names(texts=[q1, q2])
    v = judge("LinkedIn revenue increased 17 percent [Data: Reports (1)].", [u2, u1], names=names)
    f = _fact(v, "number", "found")
    assert v.verdict == "supported" and f.evidence.text == "17 percent" and f.evidence.text_unit_id == "q1", v.facts
    v = judge("LinkedIn revenue increased 19 percent [Data: Reports (1)].", [u2, u1], names=names)
    assert v.verdict == "contradicted", v.facts


def test_a_part_of_an_hour_is_a_duration():
    carol = _doc(CAROL)
    ev = "Five minutes, ten minutes, a quarter of an hour went by, yet nothing came."
    v = _check(carol, "Five minutes, ten minutes, fifteen minutes went by, yet nothing came.", ev)
    assert v.verdict == "supported", v.facts
    found = {f.text: f.evidence.text for f in v.facts if f.kind == "number" and f.status == "found"}
    assert found.get("fifteen minutes") == "a quarter of an hour", found
    v = _check(carol, "Five minutes, ten minutes, half an hour went by, yet nothing came.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").text == "half an hour"
    (q,) = fg.numbers("a quarter of an hour")
    assert fg.days(q) is not None and q.kind == "count"  # no longer "25%"


def test_a_count_keeps_its_noun_across_an_adjective():
    part = _doc(PODCASTS, "Judy Estrin-part2.txt")
    ev = "there was one other woman in the country who got a PhD in electrical engineering that year"
    v = _check(part, "When her mother got her PhD from Wisconsin, there were two other women in the country "
                     "who got a PhD in electrical engineering that year.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text == "one other woman"
    call = _doc(CALLS, "TranscriptFY19Q2.txt")
    ev = "We acquired two new studios this quarter, bringing the total to 13"
    v = _check(call, "We acquired three new game studios this quarter, bringing the total to 13.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text.startswith("two new studios")


def test_figures_in_words_apart_by_a_comma_are_two():
    (a, b) = fg.numbers("spending like eight, ten hours, on like a two-line proof")[:2]
    assert (a.value, b.value, b.unit) == (8.0, 10.0, "hour")
    part = _doc(PODCASTS, "Sam_Schillace-part5.txt")
    ev = "spending like eight, ten hours, on like \u2013 like a two-line proof"
    v = _check(part, "Spending eight or ten hours on a two-line proof was really good mental discipline.", ev)
    assert not any(f.kind == "number" and f.status == "contradicted" for f in v.facts), v.facts


def test_a_name_beside_the_claims_figure_is_not_swapped():
    call = _doc(CALLS, "TranscriptFY23Q1.txt")
    ev = "We now have more than 8,500 Arc customers, more than double the number a year ago."
    v = _check(call, "Arc's client base has passed 8,500, over twice as large as twelve months earlier.", ev, before=600, after=2400)
    assert not any(f.kind == "name" and f.status == "contradicted" for f in v.facts), v.facts
    # and "twelve months earlier" is the "a year ago" of the sentence where 8,500 was found, even
    # where the best-matched sentence is another one
    f = next(f for f in v.facts if f.text == "twelve months")
    assert f.status == "found" and f.evidence.text == "a year", f


def test_the_compared_sentence_gives_the_rival_figure():
    """A sentence judged against a whole document's units (a replaced document's new version):
    the rival of its figure is the one the sentence it is compared with gives, not a figure of the
    same kind in another unit that its clause happens to match better (next quarter's guidance)."""
    from core.index.chunking import content_chunks
    from core.verify.names import Names
    from core.verify.offline import judge
    call = _doc(CALLS, "TranscriptFY20Q4.txt")
    units = [{"id": f"u{i}", "human_readable_id": i, "text": ch.text, "char_start": ch.char_start,
              "char_end": ch.char_end} for i, ch in enumerate(content_chunks(call))]
    claim = ("Revenue was $13.9 billion, increasing 17 percent and 19 percent in constant currency, slightly "
             "ahead of expectations, driven by continued customer demand for our differentiated hybrid offerings.")
    v = judge(claim.rstrip(".") + " [Data: Sources (1)].", units, names=Names(texts=[call]))
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "number", "contradicted")
    assert f.text == "$13.9 billion" and f.note == "the source says $13.4 billion", f


def test_a_duration_is_no_other_figure_and_a_decade_is_one():
    call = _doc(CALLS, "TranscriptFY22Q1.txt")
    ev = "Earlier this month, we launched Windows 11, the biggest update to our operating system in a decade."
    v = _check(call, "Earlier this month Microsoft launched Windows 11, the biggest update to its operating "
                     "system in two decades.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "number", "contradicted")
    assert f.text == "two decades" and f.evidence.text == "a decade", f


def test_fewer_minutes_count_minutes():
    call = _doc(CALLS, "TranscriptFY24Q1.txt")
    ev = "credits DAX Copilot with helping its physicians each save up to 40 minutes per day in documentation time"
    v = _check(call, "Atrium Health says DAX Copilot lets its physicians each spend up to 40 fewer minutes per "
                     "day on documentation.", ev)
    assert not any(f.kind == "number" and f.status != "found" for f in v.facts), v.facts


def test_a_fiscal_period_in_the_documents_title_is_found(tmp_path):
    """A newcomer's memo sentence "In FY20 Q4, Commercial cloud revenue grew 30 percent ..."
    cited to the FY20 Q4 call was partial ("FY20 Q4" is not in the cited unit) and, with a slot
    swap, "contradicted (the source names Azure here)". A fiscal period is no actor: it is found
    in the cited unit's document title; another period is contradicted by it."""
    import re
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import Settings
    from core.store.db import Store
    from core.verify.names import Names
    from core.verify.offline import judge
    path = tmp_path / "TranscriptFY20Q4.txt"
    path.write_text(_doc(CALLS, "TranscriptFY20Q4.txt"), encoding="utf-8")
    store = Store(tmp_path / "ws")
    ingest_paths(store, [path], max_bytes=10_000_000)
    run_index(store, Settings(engine="offline"))
    unit = next(u for u in store.rows("text_units") if "Commercial cloud revenue grew 30 percent" in u["text"])
    said = next(x for x in re.split(r"(?<=\.)\s+", unit["text"]) if "Commercial cloud revenue grew" in x)
    # another period than the title's is contradicted (session 17: a newcomer's FY24 sentence
    # cited to the FY23 call was only partial)
    for period, verdict in (("FY20 Q4", "supported"), ("FY20", "supported"), ("FY21", "contradicted"),
                            ("FY20 Q3", "contradicted")):
        v = judge(f"In {period}, {said.rstrip('.')} [Data: Sources ({unit['human_readable_id']})].", [unit],
                  names=Names(store))
        assert v.verdict == verdict, (period, v.reason, v.facts)
        if verdict == "contradicted":
            assert v.reason == f"name \u201c{period}\u201d: the cited passage is from TranscriptFY20Q4.txt", v.reason


def test_a_changed_figure_names_the_rival_in_its_place():
    """Of several figures of its kind, the one the passage says where the claim says its own (a
    newcomer's memo was told "the source says 27%", the growth rate, for Azure's share)."""
    call = _doc(CALLS, "TranscriptFY23Q4.txt")
    ev = "The Microsoft Cloud surpassed $110 billion in annual revenue, up 27% in constant currency"
    v = _check(call, "Azure now accounts for more than 70% of Microsoft Cloud revenue for the first time.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "number", "contradicted")
    assert f.text == "70%" and f.note == "the source says 50%" and f.evidence.text == "50%"


def test_a_figure_whose_subject_follows_it_is_that_subjects():
    """The figure's own subject may follow it ("91 of the Fortune 100 use Teams", "nearly 225
    million Windows 10 and Windows 11 PCs"): it is not given to the next figure's subject."""
    call = _doc(CALLS, "TranscriptFY24Q3.txt")
    ev = "Copilot in Windows is now available on nearly 225 million Windows 10 and Windows 11 PCs, up 2X quarter-over-quarter."
    v = _check(call, "The number of Windows 10 and Windows 11 machines that can run Copilot in Windows has doubled "
                     "since the previous quarter to almost 225 million.", ev)
    assert _fact(v, "number", "contradicted") is None, v.facts
    assert v.verdict == "supported", v.facts


def test_a_figure_in_the_slot_of_the_next_sentence():
    part = _doc(PODCASTS, "Neha_Narkhede-part4.txt")
    ev = "So, my brother decided to do his bachelor's here, so that was pretty early.  He came here when he was 17."
    v = _check(part, "Neha Narkhede says her brother came over to do his bachelor's degree when he was 19.", ev)
    assert v.verdict == "contradicted", v.facts
    f = _fact(v, "number", "contradicted")
    assert f.text == "19" and f.evidence.text == "17"
    v = _check(part, "Neha Narkhede says her brother came over to do his bachelor's degree when he was 17.", ev)
    assert v.verdict != "contradicted", v.facts


@needs_wordnet
def test_a_paraphrase_sharing_a_quarter_of_its_words_is_supported():
    dulce = _doc(NOVELLA)
    ev = ("\"Indeed,\" he assented, \"The echoes are the easy part. It will be the introduction of our own, "
          "human variable that truly begins our dialogue.\"")
    v = _check(dulce, "Alex Mercer agreed that mirroring the signals was the simple bit, and said real dialogue "
                      "would start only once humanity added its own variable.", ev)
    assert v.verdict == "supported", v.facts
    # an added fact about the same subject is still missing
    v = _check(dulce, "Alex Mercer agreed that mirroring the signals was the simple bit, and said the team "
                      "would leave Dulce base before dawn.", ev)
    assert v.verdict in ("partial", "unsupported"), v.facts


def test_multipliers_and_rates_are_figures():
    dulce = _doc(NOVELLA)
    ev = "The corridors of the Dulce military base were as silent as a tomb and twice as chilling."
    v = _check(dulce, "The corridors of the Dulce base were as silent as a tomb and three times as chilling.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text == "twice"
    fy23 = _doc(CALLS, "FY23Q1")
    v = _check(fy23, "Arc's client base has passed 8,500, over twice as large as twelve months earlier.",
               "We now have more than 8,500 Arc customers, more than double the number a year ago.")
    assert v.verdict == "supported", v.facts
    fy15 = _doc(CALLS, "FY15Q4")
    ev = ("We now have more than 15 million Office 365 consumer subscribers, and customers are signing up at a "
          "pace of nearly one million per month.")
    v = _check(fy15, "Office 365 had passed 15 million consumer subscribers, with close to two million new sign-ups "
                     "arriving every month.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text == "one million"
    ev = ("\"Every second counts.\" With that, they pressed forward, setting in motion a reply to a conversation "
          "billions of years in the making.")
    v = _check(dulce, "The team pressed forward, every second counting, to set in motion a reply to a conversation "
                      "a thousand years in the making.", ev)
    assert v.verdict == "contradicted", v.facts
    assert _fact(v, "number", "contradicted").evidence.text == "billions of years"


def test_a_clause_too_few_words_hold_says_so_not_a_share():
    """A clause capped for sharing one word said "12% of its words in the best source sentence",
    a figure nothing measured."""
    doc = _doc(CAROL)
    v = _check(doc, "The hand was pointed straight before them, and the doctor had warned the family.",
               "It gave him no reply. The hand was pointed straight before them.")
    fail = v.failing  # the clause, before the words of the close copy (edited_copy)
    assert fail.rule == "meaning" and fail.note == "no source sentence shares more than one of its words", fail


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


def test_a_time_of_day_is_one_figure():
    """"18:30" was two counts, 18 and 30 (and "18:00 Waterfront" a count of 0 "waterfront"s): a
    finding joining two minutes' headers came out contradicted, "number 18: the source says 640
    homes". A time is compared with times."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "sample_corpus" / "2024-03-14_city_council_minutes.txt").read_text(encoding="utf-8")
    ev = "Thursday 14 March 2024, Council Chamber, City Hall, 18:30"
    assert _check(doc, "The full Council met on Thursday 14 March 2024 in the Council Chamber at City Hall at 18:30.",
                  ev, before=200, after=400).verdict == "supported"
    v = _check(doc, "The full Council met on Thursday 14 March 2024 in the Council Chamber at City Hall at 19:30.",
               ev, before=200, after=400)
    assert v.verdict == "contradicted" and v.reason == "number \u201c19:30\u201d: the source says 18:30", (v.verdict, v.reason)


def test_another_quarter_than_the_documents_is_contradicted(fy24q3_call):
    v, _ = _say(fy24q3_call, "In FY23 Q3, Azure and other cloud services revenue grew 31%",
                "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "contradicted" and v.reason == "name \u201cFY23 Q3\u201d: the cited passage is from TranscriptFY24Q3.txt"
    v, _ = _say(fy24q3_call, "In FY24 Q3, Azure and other cloud services revenue grew 31%",
                "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "supported", (v.reason, v.facts)


def test_a_wrong_figure_heads_the_reason(fy24q3_call):
    """"In FY23 Q3 Microsoft said it had more than 5,000 ..." was headed 'name "FY23 Q3 Microsoft":
    the source names Coursera here'; the figure is what is wrong."""
    v, _ = _say(fy24q3_call, "Microsoft said 50,000 customers across every industry have used Copilot Studio",
                "customers across every industry have used Copilot Studio")
    assert v.verdict == "contradicted" and v.failing.kind == "number", (v.reason, v.facts)


def test_a_figure_given_for_another_subject_is_contradicted():
    doc = _doc(CALLS, "TranscriptFY20Q1.txt")
    ev = "Dynamics revenue grew 14 percent and 16 percent in constant currency, driven by Dynamics 365 revenue growth of 41 percent"
    v = _check(doc, "Dynamics 365 revenue grew 14 percent", ev, 750, 750)
    assert v.verdict == "contradicted", v.reason  # before: supported
    assert v.failing.kind == "number" and v.failing.evidence.text == "41 percent"
    assert _check(doc, "Dynamics revenue grew 14 percent", ev, 750, 750).verdict == "supported"
    assert _check(doc, "Dynamics 365 revenue grew 41 percent", ev, 750, 750).verdict == "supported"

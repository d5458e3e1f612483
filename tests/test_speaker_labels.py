"""A transcript's speaker labels ("ED MAGUIRE, CLSA:  Hi.") say who speaks and for whom: the
person and the firm are entities, "Who is ..." answers with the label and what the speaker came
to say, and a long turn with commas is quoted like any sentence. Text in the shape of
../shared/corpora/msft_earnings_calls and behind_the_tech_podcasts, written for this test."""
from __future__ import annotations

from conftest import build_workspace
from core.offline.mentions import en_mentions, skip_sentence
from core.query.methods import run_method
from core.store.db import Store

CALL = """HARBOURLINE HOLDINGS FY25 Q3 EARNINGS CALL

MARTA VOSS:  Thank you, operator. On the call with me is Dev Kapoor, chief financial officer.

DEV KAPOOR:  Revenue grew 12% to $4.1 billion, driven by the berth scheduling service.

(Operator Direction.)

NIALL ORTEGA, Castellan Securities:  Hi.  Good afternoon.

Marta, you talked about harmonising the crane fleet across the northern terminals.  And, I was curious how the retrofit schedule changes the capital plan for next year.

MARTA VOSS:  We expect the retrofit to finish in the second half, and the capital plan already holds it.

NIALL ORTEGA:  Great.  Thank you.

DEV KAPOOR:  Thanks, Niall.

(Operator Direction.)

PRIYA SHAH, Northgate Capital:  Thanks.  I wanted to ask about the tug contracts, the pilotage fees, the dredging schedule, and whether any of them move the margin guidance.

DEV KAPOOR:  None of them moves the guidance this quarter.
"""

PODCAST = """KEVIN SCOTT:  One of the questions we ask every guest is how they got started.

CHRISTINA WARREN:  Right, and the answers are always different.

KEVIN SCOTT:  Yeah, like Odile Marchetti, who is a lighting engineer and director of photography at a small animation studio, who worked on two of their films, although the second is the one that made me cry.

CHRISTINA WARREN:  I love that story.
"""


def test_a_label_names_a_person_and_the_firm_and_is_no_heading():
    assert not skip_sentence("NIALL ORTEGA, Castellan Securities:  Hi.")
    got = {m.surface: m.votes for m in en_mentions("NIALL ORTEGA, Castellan Securities:  Hi.")}
    assert got["NIALL ORTEGA"].get("person", 0) >= 2
    assert got["Castellan Securities"].get("organization", 0) > got["Castellan Securities"].get("person", 0)
    assert skip_sentence("SECTION ONE: OVERVIEW OF THE PLAN")  # a heading in capitals stays one


def test_who_is_an_analyst_answers_with_the_label_and_what_they_asked(tmp_path):
    store = Store(build_workspace(tmp_path, "call", [("call.txt", CALL.encode())]))
    titles = {e["title"]: e["type"] for e in store.query("select title, type from entities")}
    assert titles.get("NIALL ORTEGA") == "person"
    r = run_method("auto", store, "Who is Niall Ortega?")
    first = r.answer.split("\n\n")[0]
    assert first.startswith("NIALL ORTEGA, Castellan Securities:"), r.answer
    assert "retrofit schedule" in first  # the turn runs on past its greeting and a blank line


def test_a_speakers_long_turn_with_commas_is_quotable_and_who_is_finds_it(tmp_path):
    from core.offline.sentence_rank import is_boilerplate
    line = PODCAST.splitlines()[4]
    assert line.startswith("KEVIN SCOTT:") and line.count(",") >= 3
    assert not is_boilerplate(line)
    assert is_boilerplate("In attendance: A. Reyes (chair), B. Olsen, C. Mwangi, D. Ibsen.")  # a list of names stays metadata
    store = Store(build_workspace(tmp_path, "pod", [("ep.txt", PODCAST.encode())]))
    r = run_method("auto", store, "Who is Odile Marchetti?")
    assert "lighting engineer" in r.answer.split("\n\n")[0], r.answer


def test_a_sentence_introducing_a_quote_is_quotable():
    from core.offline.sentence_rank import is_boilerplate
    assert not is_boilerplate("Odile Marchetti, author of the Tidewater Learning Environment and a member of staff, writes:")
    assert is_boilerplate("Outputs:")


def test_a_quoted_sentence_of_a_turn_is_given_with_its_speaker(tmp_path):
    """A ties line quotes a sentence naming both ends; in a transcript it says who says it, so an
    analyst's question to Marta is not read as Marta's words (newcomer walk, FY19 Q2)."""
    from core.offline.definitions import speaker_of
    from core.offline.sentence_rank import unit_sentences
    store = Store(build_workspace(tmp_path, "call", [("call.txt", CALL.encode())]))
    sents = unit_sentences(store.rows("text_units"))
    said = {s.text[:24]: speaker_of(store, s) for s in sents}
    assert said["Marta, you talked about h"[:24]] == "NIALL ORTEGA, Castellan Securities"
    assert said["Revenue grew 12% to $4.1 billion"[:24]] == "DEV KAPOOR"
    assert said["We expect the retrofit to finish"[:24]] == "MARTA VOSS"

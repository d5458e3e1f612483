"""The offline judge's session-10 rules (issue 16), on real corpus sentences. Each rule is general
English and each test fails on the judge of 875efc5:

- a part of an hour said in words is a duration ("a quarter of an hour" is fifteen minutes, not
  25%; "half an hour", "a full half-hour");
- a count keeps what it counts across an adjective between them ("two other women" counts women,
  "three new game studios" studios), and "one other woman" is a count of one."""
from __future__ import annotations

from core.verify import facts as fx
from tests.verify_corpus import CORPORA, check_claim as _check, fact_of as _fact, read_doc as _doc

CALLS = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"
PODCASTS = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"


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
    (q,) = fx.numbers("a quarter of an hour")
    assert fx.days(q) is not None and q.kind == "count"  # no longer "25%"


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

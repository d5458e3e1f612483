"""Every packer at its exact budget: a context of exactly the budget is kept whole, one token
less cuts the last record (map batches, the global reduce context, lazy claims, basic sources).
The tokens a packer reports are those of the text it returns, counted afresh."""
from __future__ import annotations

import pytest

from core.query.basic_search import pack_sources
from core.query.context import REPORT_HEADER, pack_points, pack_report_batches, report_row
from core.query.lazy.claims import claim_block, pack_claims
from core.query.lazy.trace import Claim
from core.query.types import Point
from core.tokens import count_tokens

WORDS = "fog ledger lamplighter chimes candle shutter knocker staircase gruel nightcap".split()


def sentence(i: int) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(5 + i % 7)) + f" fact {i}."


def reports(n: int) -> list[dict]:
    return [{"human_readable_id": i, "title": f"Community {i}", "summary": sentence(i),
             "findings": [{"summary": f"Finding {i}", "explanation": sentence(i + 3)}]} for i in range(n)]


def test_map_batch_of_exactly_the_budget_is_one_batch_and_one_token_less_splits():
    reps = reports(6)
    exact = count_tokens(REPORT_HEADER + "\n" + "".join(report_row(r) + "\n" for r in reps))
    [whole] = pack_report_batches(reps, exact)
    assert [r["human_readable_id"] for r in whole.records] == list(range(6))
    assert whole.tokens == count_tokens(whole.text) == exact
    first, second = pack_report_batches(reps, exact - 1)
    assert [r["human_readable_id"] for r in first.records] == list(range(5))
    assert [r["human_readable_id"] for r in second.records] == [5]
    assert first.tokens == count_tokens(first.text) <= exact - 1


def _points(n: int) -> list[Point]:
    return [Point(description=f"{sentence(i)} [Data: Reports ({i})]", score=90 - i) for i in range(n)]


def test_reduce_context_of_exactly_the_budget_is_kept_and_one_token_less_cuts_the_last_point():
    probe = _points(5)
    pack_points(probe, 10 ** 6)
    exact = sum(p.tokens for p in probe)
    sel, cut, text, used = pack_points(_points(5), exact)
    assert len(sel) == 5 and not cut and used == count_tokens(text) == exact
    sel, cut, text, used = pack_points(_points(5), exact - 1)
    assert len(sel) == 4 and len(cut) == 1 and used == count_tokens(text) <= exact - 1


def _claims(n: int) -> list[Claim]:
    return [Claim(subquery=0, community=0, text=f"{sentence(i)} [Data: Sources ({i})]", score=90 - i,
                  sources=[i]) for i in range(n)]


def test_lazy_claims_of_exactly_the_budget_are_kept_and_one_token_less_cuts_the_last():
    exact = count_tokens("".join(claim_block(i + 1, c) for i, c in enumerate(_claims(5))))
    sel, cut, text, used = pack_claims(_claims(5), exact)
    assert len(sel) == 5 and not cut and used == count_tokens(text) == exact
    assert all(c.selected for c in sel)
    sel, cut, text, used = pack_claims(_claims(5), exact - 1)
    assert len(sel) == 4 and [c.sources for c in cut] == [[4]] and not cut[0].selected
    assert used == count_tokens(text) <= exact - 1


def _units(n: int) -> list[dict]:
    return [{"human_readable_id": i, "text": sentence(i) * 3} for i in range(n)]


def test_basic_sources_of_exactly_the_budget_are_kept_and_one_token_less_cuts_the_last():
    whole, rest = pack_sources(_units(5), 10 ** 6)
    exact = count_tokens(whole.text)
    assert whole.tokens == exact
    packed, rest = pack_sources(_units(5), exact)
    assert len(packed.records) == 5 and not rest and packed.tokens == count_tokens(packed.text) == exact
    packed, rest = pack_sources(_units(5), exact - 1)
    assert len(packed.records) == 4 and [u["human_readable_id"] for u in rest] == [4]
    assert packed.tokens == count_tokens(packed.text) <= exact - 1


@pytest.mark.parametrize("budget", [0, 1])
def test_a_budget_too_small_for_anything_packs_nothing(budget):
    sel, cut, text, used = pack_claims(_claims(2), budget)
    assert not sel and len(cut) == 2 and text == "" and used == 0

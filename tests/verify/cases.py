"""The per-rule tests' fixtures: each file of fixtures/ is one small workspace (excerpts of the
corpora) whose whole text is the cited unit; `judged` judges a sentence against it and `finding`
picks what one rule found."""
from __future__ import annotations

from pathlib import Path

from core.verify.names import Names
from core.verify.offline import judge
from core.verify.rules import Policy
from core.verify.verdict import Fact, Verdict

FIXTURES = Path(__file__).parent / "fixtures"


def text_of(fixture: str) -> str:
    return (FIXTURES / f"{fixture}.txt").read_text(encoding="utf-8")


def judged(claim: str, fixture: str, policy: Policy | None = None) -> Verdict:
    text = text_of(fixture)
    unit = {"id": "u1", "document_id": "d1", "text": text, "char_start": 0, "char_end": len(text)}
    return judge(f"{claim} [Data: Sources (1)]", [unit], names=Names(texts=[text]), policy=policy)


def finding(v: Verdict, rule: str) -> Fact | None:
    """The first fact this rule found that is not simply found (else the first it found)."""
    mine = [f for f in v.facts if f.rule == rule]
    return next((f for f in mine if f.status != "found"), mine[0] if mine else None)


def check(case: tuple, rule: str) -> None:
    """case = (claim, fixture, the rule's finding status or None, the verdict, its text or "")."""
    claim, fixture, status, verdict, text = case
    v = judged(claim, fixture)
    f = finding(v, rule)
    assert (f.status if f else None) == status, (claim, v.facts)
    assert v.verdict == verdict, (claim, v.verdict, v.reason)
    if text:
        assert f is not None and text in f"{f.text} {f.note}", (claim, f)
    if v.verdict != "supported":
        assert v.rule and v.reason, (claim, v.rule, v.reason)  # no verdict without its rule and reason

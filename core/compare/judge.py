"""Pairwise judging, as BenchmarkQED's AutoE does: for each pair of answers to one question the
judge says, per criterion, which answer is better (or neither); every pair is judged in both
orders (A shown first, then B first) and for `trials` trials, so a judge that prefers the first
(or second) answer it reads cancels out and shows up in the position-bias count. Each call is
cached like every model call (the LLM's cache): judging the same answers again costs nothing.

Without a model the offline judge compares what each answer gives of what the question asks for
(`features`: the names and cited records of its sentences about the question, the share of the
question's terms it covers, and that share per length), never its length; it is symmetric in
the order and says so in every reason.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any

from core.llm.client import FatalLLMError, LLMError
from core.llm.jsonparse import JSONParseError, chat_json
from core.prompts import render
from core.query import offline_answer as offline
from core.query.list_blocks import BULLET
from core.query.lists import list_kind
from core.text.citations import parse_citations, sentence_spans, strip_citations

CRITERIA: dict[str, str] = {
    "comprehensiveness": "How much detail does the answer give to cover every aspect of the question?",
    "diversity": "How varied is the answer: how many different perspectives, people, places and insights "
                 "does it bring to the question?",
    "empowerment": "How well does the answer help the reader understand the topic and make informed "
                   "judgements, with evidence they can check?",
    "directness": "How specifically and clearly does the answer address the question, without digression?",
}
ORDERS = ("ab", "ba")


@dataclass
class Judgement:
    question: str
    a: str
    b: str
    """The pair's methods (labels); "ab": a was shown as Answer 1."""
    order: str
    trial: int
    criterion: str
    winner: str
    """The label of the better answer, or "tie"."""
    reason: str = ""
    judge: str = "offline"
    error: str | None = None

    @property
    def first(self) -> str:
        return self.a if self.order == "ab" else self.b

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "first": self.first}


def criteria_text(criteria: list[str]) -> str:
    return "\n".join(f"- {c}: {CRITERIA.get(c, c)}" for c in criteria)


def judge_messages(question: str, answer_1: str, answer_2: str, criteria: list[str], trial: int,
                   workspace=None) -> list[dict[str, str]]:
    prompt = render("judge_pairwise", workspace, criteria=criteria_text(criteria), question=question,
                    answer_1=answer_1 or "(no answer)", answer_2=answer_2 or "(no answer)", trial=trial + 1)
    return [{"role": "user", "content": prompt}]


def _winner_code(value: Any) -> int:
    if isinstance(value, dict):
        value = value.get("winner", value.get("choice"))
    text = str(value).strip().lower()
    if text in {"1", "answer 1", "a", "first"}:
        return 1
    if text in {"2", "answer 2", "b", "second"}:
        return 2
    if text in {"0", "tie", "none", "equal", "neither", "both"}:
        return 0
    raise ValueError(f"winner {value!r} is not 1, 2 or 0")


def _validator(criteria: list[str]):
    def validate(obj: Any) -> None:
        if not isinstance(obj, dict):
            raise ValueError("expected one object with an entry per criterion")
        missing = [c for c in criteria if c not in obj]
        if missing:
            raise ValueError(f"no verdict for {', '.join(missing)}")
        for c in criteria:
            _winner_code(obj[c])
    return validate


def judge_pair(llm, question: str, a: tuple[str, str], b: tuple[str, str], trials: int = 2,
               criteria: list[str] | None = None, workspace=None) -> list[Judgement]:
    """Every verdict on the pair (label, answer) a and b: both orders x trials x criteria.
    One call per order and trial judges all criteria."""
    criteria = list(criteria or CRITERIA)
    out: list[Judgement] = []
    for trial in range(trials):
        for order in ORDERS:
            first, second = (a, b) if order == "ab" else (b, a)
            out += _one_call(llm, question, a[0], b[0], first, second, order, trial, criteria, workspace)
    return out


def _one_call(llm, question, la, lb, first, second, order, trial, criteria, workspace) -> list[Judgement]:
    base = dict(question=question, a=la, b=lb, order=order, trial=trial)
    if llm is None:
        return [Judgement(**base, criterion=c, winner=w, reason=r, judge="offline")
                for c, (w, r) in offline_verdicts(question, first, second, criteria).items()]
    messages = judge_messages(question, first[1], second[1], criteria, trial, workspace)
    try:
        obj, _, _ = chat_json(llm, messages, max_tokens=120 * len(criteria) + 60, stage="judge",
                              validate=_validator(criteria))
    except FatalLLMError:
        raise
    except (JSONParseError, LLMError) as exc:
        return [Judgement(**base, criterion=c, winner="tie", judge=llm.model, error=str(exc),
                          reason="the judge's answer was unusable; counted as a tie") for c in criteria]
    out = []
    for c in criteria:
        code = _winner_code(obj[c])
        reason = obj[c].get("reason", "") if isinstance(obj[c], dict) else ""
        winner = "tie" if code == 0 else (first[0] if code == 1 else second[0])
        out.append(Judgement(**base, criterion=c, winner=winner, reason=str(reason).strip(), judge=llm.model))
    return out


# ------------------------------------------------------------------------- offline judge

_NAME = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b")


def features(question: str, answer: str) -> dict[str, float]:
    """What an answer gives of what the question asks for, not how much it says: the share of
    the question's terms it holds (cover); the distinct names and cited records of
    its sentences about the question (those sharing a term with it, or naming the kind a list
    question asks for, and the list lines under such a sentence); its focus (cover per length).
    A sentence about something else adds nothing, however long."""
    q = set(offline.terms(question))
    kind = list_kind(question)
    head = {t for t in offline.terms(kind.split()[-1])} if kind else set()
    asked = {m.group(0) for m in _NAME.finditer(question)}
    names: set[str] = set()
    refs: set[tuple[str, int]] = set()
    all_words: set[str] = set()
    n_tokens = 0
    under = False  # inside the list lines of a sentence about the question
    for a, b in sentence_spans(answer or ""):
        piece = (answer or "")[a:b]
        cites = parse_citations(piece)
        text = strip_citations(piece, cites)
        t = set(offline.terms(text))
        all_words |= t
        n_tokens += len(text.split())
        item = BULLET.match(text) is not None
        about = bool(t & q) or bool(t & head) or (item and under)
        under = about if not item else under
        if not about:
            continue
        names |= {m.group(0) for m in _NAME.finditer(text)} - _NOT_NAMES - asked
        refs |= {(r.kind, r.id) for c in cites for r in c.refs if r.id is not None}
    cover = len(q & all_words) / len(q) if q else 0.0
    return {"cover": round(cover, 4), "names": len(names), "references": len(refs),
            "answered": len(names) + round(cover, 4),
            "focus": round(cover / math.sqrt(max(1, n_tokens) / 50 + 1), 4), "words": max(1, n_tokens)}


_NOT_NAMES = {"The", "This", "It", "In", "A", "An", "These", "Those", "They", "Its", "Their"}
_FEATURE = {"comprehensiveness": ("answered", "names given about the question plus the share of its terms covered"),
            "diversity": ("names", "distinct names about the question"),
            "empowerment": ("references", "distinct records cited about the question"),
            "directness": ("focus", "question terms covered per length")}


def offline_verdicts(question: str, first: tuple[str, str], second: tuple[str, str],
                     criteria: list[str]) -> dict[str, tuple[str, str]]:
    """Per criterion (winner label or "tie", reason): the larger feature wins by more than 10%."""
    f1, f2 = features(question, first[1]), features(question, second[1])
    out = {}
    for c in criteria:
        key, what = _FEATURE.get(c, ("answered", "names given about the question plus the share of its terms covered"))
        x, y = f1[key], f2[key]
        if max(x, y) == 0 or abs(x - y) <= 0.1 * max(x, y):
            winner = "tie"
        else:
            winner = first[0] if x > y else second[0]
        out[c] = (winner, f"offline judge: {what} {x:g} ({first[0]}) against {y:g} ({second[0]})")
    return out

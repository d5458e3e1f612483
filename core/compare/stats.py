"""Win rates of pairwise verdicts, with 95% intervals and significance, the position bias of
the judge, and the A/A check.

A pair's win rate on a criterion is (wins + ties / 2) / verdicts, from a's side. Its interval
is Wilson's score interval for that share at 95%; its p-value the two-sided exact sign test on
the decisive verdicts (wins against losses, ties left out). Verdicts on the same question are
not independent (the same two answers are read 2 x trials times), so with few questions the
interval is narrower than the truth: each rate also carries the questions won and lost and the
sign test over questions (`p_questions`), the independent unit.
Position bias: among decisive verdicts, the share that went to the answer shown first; a fair
judge is near 0.5 and counterbalancing keeps a biased one from favouring either method.
A/A: a method against a second run of itself must come out near 50%; when its interval leaves
out 0.5 the judge is biased (or the method unstable) and the report says so.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Iterable

from core.compare.judge import Judgement

ALPHA = 0.05


@dataclass
class PairStat:
    a: str
    b: str
    criterion: str
    wins: int
    losses: int
    ties: int
    n: int
    rate: float
    low: float
    high: float
    p_value: float
    significant: bool
    questions: int
    questions_won: int = 0
    """Questions on which a's verdicts come out above half (ties count half)."""
    questions_lost: int = 0
    p_questions: float = 1.0
    """The sign test over questions (the independent unit): with few questions it stays high
    however many verdicts each question has."""

    def to_dict(self) -> dict:
        return asdict(self)


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial test of wins against losses at p = 0.5."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def pair_stat(a: str, b: str, criterion: str, verdicts: list[Judgement], alpha: float = ALPHA) -> PairStat:
    wins = sum(1 for j in verdicts if j.winner == a)
    losses = sum(1 for j in verdicts if j.winner == b)
    ties = len(verdicts) - wins - losses
    n = len(verdicts)
    rate = (wins + ties / 2) / n if n else 0.5
    low, high = wilson(wins + ties / 2, n)
    p = sign_test(wins, losses)
    per_q: dict[str, list[float]] = {}
    for j in verdicts:
        per_q.setdefault(j.question, []).append(1.0 if j.winner == a else 0.0 if j.winner == b else 0.5)
    means = [sum(v) / len(v) for v in per_q.values()]
    qw, ql = sum(1 for m in means if m > 0.5), sum(1 for m in means if m < 0.5)
    return PairStat(a, b, criterion, wins, losses, ties, n, round(rate, 4), round(low, 4), round(high, 4),
                    round(p, 4), p < alpha, len(per_q), qw, ql, round(sign_test(qw, ql), 4))


def win_rates(judgements: Iterable[Judgement], alpha: float = ALPHA) -> list[PairStat]:
    """One PairStat per pair (as judged: a against b) and criterion, in first-seen order."""
    groups: dict[tuple[str, str, str], list[Judgement]] = {}
    for j in judgements:
        groups.setdefault((j.a, j.b, j.criterion), []).append(j)
    return [pair_stat(a, b, c, v, alpha) for (a, b, c), v in groups.items()]


def position_bias(judgements: Iterable[Judgement], alpha: float = ALPHA) -> dict:
    decisive = [j for j in judgements if j.winner != "tie"]
    first = sum(1 for j in decisive if j.winner == j.first)
    second = len(decisive) - first
    p = sign_test(first, second)
    share = first / len(decisive) if decisive else 0.5
    return {"first_wins": first, "second_wins": second, "share_first": round(share, 4),
            "p_value": round(p, 4), "biased": p < alpha}


def aa_check(judgements: Iterable[Judgement], a: str, b: str, alpha: float = ALPHA) -> dict:
    """a against its second run b over all criteria: ok when the 95% interval holds 0.5."""
    verdicts = [j for j in judgements if {j.a, j.b} == {a, b}]
    if not verdicts:
        return {"method": a, "ok": None, "message": "no A/A comparison was run"}
    s = pair_stat(a, b, "all", [j if j.a == a else _flip(j) for j in verdicts], alpha)
    ok = s.low <= 0.5 <= s.high
    message = (f"A/A check passed: {a} against a second run of itself won {s.rate:.0%} "
               f"(95% interval {s.low:.0%}-{s.high:.0%}), consistent with 50%." if ok else
               f"A/A check FAILED: {a} against a second run of itself won {s.rate:.0%} "
               f"(95% interval {s.low:.0%}-{s.high:.0%}, which leaves out 50%): the judge is biased or "
               f"the method unstable; read the other win rates with care.")
    return {"method": a, "against": b, "rate": s.rate, "low": s.low, "high": s.high, "n": s.n,
            "p_value": s.p_value, "ok": ok, "message": message}


def _flip(j: Judgement) -> Judgement:
    from dataclasses import replace
    return replace(j, a=j.b, b=j.a, order="ba" if j.order == "ab" else "ab")

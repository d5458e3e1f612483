"""Assertion scoring (BenchmarkQED's): the share of a question's expected facts an answer states.
Each assertion is judged against the answer's text (its citation markers removed) by the
verifier's sentence judge (core/query/support.judge): "supported" counts as stated, "weak" and
"unsupported" do not. Lexical, so a fact stated in other words counts as missing."""
from __future__ import annotations

from core.text.citations import strip_citations
from core.text.support import judge


def score_answer(answer: str, assertions: list[str]) -> dict:
    text = strip_citations(answer or "")
    rows = []
    for a in assertions:
        s = judge(a, [{"id": "answer", "text": text}])
        rows.append({"assertion": a, "stated": s.verdict == "supported", "verdict": s.verdict,
                     "score": s.score})
    stated = sum(1 for r in rows if r["stated"])
    return {"stated": stated, "total": len(rows), "share": round(stated / len(rows), 4) if rows else None,
            "assertions": rows}

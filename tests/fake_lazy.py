"""The fake model's answers to the prompts of lazy and basic search (refine, relevance tests,
claims, lazy answer, basic answer): deterministic and taken from the prompt's own text, so the
references they write resolve and the verifier can judge them. `lazy_respond` returns None for
any other prompt."""
from __future__ import annotations

import json
import re
import zlib

WORD = re.compile(r"[A-Za-z]{4,}")
COMMON = frozenset("what which when where does that this with from have about there their they them "
                   "were been into more most some such than then these those your also said".split())


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text or "")} - COMMON


def _rows(table: str) -> list[tuple[int, str]]:
    return [(int(i), t) for i, t in re.findall(r"^(\d+)\|(.*)$", table, re.M)]


def _first_sentence(text: str, q: set[str]) -> str:
    sents = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.strip()) > 20]
    hit = [s for s in sents if words(s) & q]
    return (hit or sents or [text.strip()])[0].rstrip(".!? ")


def refine(prompt: str) -> str:
    q = prompt.split("---User question---\n", 1)[1].strip()
    core = q.rstrip("?")
    return json.dumps({"subqueries": [q, f"Who is involved in this: {core}?", f"What came of it: {core}?"],
                       "expanded_question": f"{core}: who was involved, what happened and what came of it?"})


def relevance(prompt: str) -> str:
    q = prompt.split("Question: ", 1)[1].split("\nPassage: ", 1)[0]
    passage = prompt.split("\nPassage: ", 1)[1].rsplit("\nDoes the passage", 1)[0]
    shared = len(words(q) & words(passage))
    # enough of the question's words, or one of them and (for a third of the passages) more
    # that the words do not show: a judge is neither a word counter nor always convinced
    if shared >= max(1, len(words(q)) // 3) or (shared and zlib.crc32(passage.encode()) % 3 == 0):
        return "Yes"
    return "No"


def claims(prompt: str) -> str:
    q = words(prompt.split("---Question---\n", 1)[1].split("---Passages---", 1)[0])
    out = []
    for i, text in _rows(prompt.split("---Passages---", 1)[1]):
        if words(text) & q:
            out.append({"claim": f"{_first_sentence(text, q)} [Data: Sources ({i})]", "score": 10 + (i * 37) % 90})
    return json.dumps({"claims": out[:8]})


def lazy_answer(prompt: str) -> str:
    claims = re.findall(r"Importance Score: \d+\n(.+)", prompt.split("---Claims---", 1)[1])
    return "From the claims: " + " ".join(claims[:3])


def basic_answer(prompt: str) -> str:
    rows = _rows(prompt.split("-----Sources-----", 1)[1])[:3]
    return " ".join(f"{_first_sentence(t, set())} [Data: Sources ({i})]." for i, t in rows)


def lazy_respond(messages: list[dict]) -> str | None:
    first, last = messages[0]["content"], messages[-1]["content"]
    if "You break a user's question into" in first:
        return refine(first)
    if last.startswith("Question: ") and "\nDoes the passage help answer" in last:
        return relevance(last)
    if "You extract claims from passages" in first:
        return claims(first)
    if "---Claims---" in first:
        return lazy_answer(first)
    if "(Sources), the ones that matched the question best" in first:
        return basic_answer(first)
    return None

"""The model judge: one entailment call per cited sentence (prompts/verify_entailment.txt),
given the sentence and the passages it cites around the offline judge's best sentence, answering
JSON with the verdict, the passage sentences it rests on quoted exactly, and the fact that fails.

A verdict stands only with a quote that is in a passage (whitespace aside; the span kept is the
document's own text); otherwise the offline verdict stands, marked so. What the model cannot
know it is never asked: a name no document holds is fabricated by the offline check, and a
sentence the offline judge found contradicted (a number, actor, date or polarity against the
source's span) stays contradicted. The model confirms the offline verdict or lowers a supported one,
never raises it, nor moves a flagged one: its other readings are kept in the reason (RAISE,
LOWER). Calls are
cached like every call (core.llm.client)."""
from __future__ import annotations

import re
from typing import Iterable

from core.llm.jsonparse import JSONParseError, chat_json
from core.prompts import render
from core.textutil import is_cjk
from core.verify.decide import by_model
from core.verify.names import Names
from core.verify.offline import judge as offline_judge
from core.verify.verdict import RANK, Verdict

VERDICTS = ("supported", "partial", "unsupported", "contradicted")
# Qwen 1.5B's disagreements with the offline judge were nearly all readings above it, and most
# of those wrong: 17 of 26 on claims, claims_fresh2 and claims_fresh3 and, with the missing
# clause asked about alone as well, on claims_fresh4 (overreach: "..., which shows that he had
# never cared what other people said about him"; added facts: "... and also taught him to
# build radios"; "... because he suspected Taylor of sabotaging the base's power").
# A model's reading above the offline verdict is said, not taken.
RAISE = "the model reads it as {}; a model's reading does not raise the offline verdict"
# Below a flag the model's reading is no better than chance: on every stored Qwen run (claims
# sets fresh2-13) its moves from partial to unsupported were right 2 times and wrong 2 times, and
# on claims_fresh13 its one such move made the combined judge worse than the offline one. A
# sentence the offline judge already flags stays as flagged; the model lowers only an accepted one.
LOWER = "the model reads it as {}; a sentence already flagged keeps the offline verdict"
PASSAGE_CHARS = 1600   # around the best sentence, per passage
MAX_PASSAGES = 3


def _passages(units: list[dict], offline: Verdict) -> list[tuple[dict, int, int]]:
    """(unit, start, end): the unit holding the offline best sentence first, each cut to
    PASSAGE_CHARS around its best sentence (or its start)."""
    order = sorted(units, key=lambda u: u.get("id") != offline.text_unit_id)[:MAX_PASSAGES]
    out = []
    for u in order:
        text = u.get("text") or ""
        if u.get("id") == offline.text_unit_id and offline.unit_start is not None and offline.unit_end is not None:
            mid = (offline.unit_start + offline.unit_end) // 2
        else:
            mid = 0
        lo = max(0, mid - PASSAGE_CHARS // 2)
        hi = min(len(text), lo + PASSAGE_CHARS)
        out.append((u, lo, hi))
    return out


def find_quote(quote: str, text: str) -> tuple[int, int] | None:
    """The span of quote in text, whitespace runs and quote marks matched loosely; None if absent."""
    words = [w for w in re.split(r"\s+", quote.strip().strip("\"'\u201c\u201d\u2018\u2019")) if w]
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    pattern = pattern.replace("'", "['\u2019]").replace('"', '["\u201c\u201d]')
    m = re.search(pattern, text)
    return (m.start(), m.end()) if m else None


def _valid(obj) -> dict:
    if not isinstance(obj, dict) or str(obj.get("verdict", "")).lower().strip() not in VERDICTS:
        raise ValueError(f'"verdict" must be one of {", ".join(VERDICTS)}')
    return obj


def judge(llm, sentence: str, units: Iterable[dict], record_texts: Iterable[str] = (),
          names: Names | None = None, offline: Verdict | None = None) -> Verdict:
    units = [u for u in units if u.get("text")]
    record_texts = list(record_texts)
    offline = offline or offline_judge(sentence, units, record_texts, names=names)
    # not asked: a name no document holds; a contradiction the offline checks found (another
    # number, actor, date or polarity, with the source span that says otherwise), which a small
    # model's "supported" does not undo (Qwen 1.5B called 4 of 5 entity swaps supported with a
    # quote of the swapped sentence); and a quote: every word of the sentence in the cited
    # sentence it matched, nothing found against it (the model called a verbatim Chinese
    # sentence of claims_fresh5 unsupported, giving the sentence itself as the fact that fails)
    if (not units or offline.verdict in ("fabricated", "contradicted")
            or any(f.status == "contradicted" for f in offline.facts)
            or (offline.verdict == "supported" and offline.score >= 1.0)):
        return _stands(offline)
    passages = _passages(units, offline)
    from core.text.support import claim_text
    claim = claim_text(sentence).strip()
    try:
        obj = _ask(llm, claim, passages)
    except JSONParseError:
        return _stands(offline, "the model's answer was unusable")
    except Exception as exc:  # an unreachable model: the offline verdict, said so
        return _stands(offline, f"the model failed: {exc}")
    verdict = str(obj.get("verdict")).lower().strip()
    if verdict in RANK and RANK[verdict] > RANK.get(offline.verdict, 0):
        return _stands(offline, RAISE.format(verdict))
    if offline.verdict != "supported" and verdict != offline.verdict:
        return _stands(offline, LOWER.format(verdict))
    quotes = obj.get("quotes") or []
    if isinstance(quotes, str):
        quotes = [quotes]
    spans = []
    for q in quotes:
        if not isinstance(q, str):
            continue
        for u, lo, hi in passages:
            text = u.get("text") or ""
            at = find_quote(q, text[lo:hi])
            if at:
                spans.append((u, lo + at[0], lo + at[1]))
                break
    if verdict != "unsupported" and not spans:
        return _stands(offline, "the model's quote is not in the source, so the offline verdict stands")
    failing = str(obj.get("failing_fact") or "").strip()
    if offline.verdict == "supported" and verdict != "supported" and not _of_the_sentence(failing, claim, passages):
        # the fact that fails must be one the sentence states and the passages lack: Qwen 1.5B
        # lowered a true paraphrase of Carol's party ("further rounds of dancing") for "the
        # number of dances", which the sentence never gives (claims_fresh19)
        return _stands(offline, f"the model reads it as {verdict} for \u201c{failing[:80]}\u201d, which is no word "
                                "of the sentence the cited text lacks, so the offline verdict stands")
    v = Verdict(offline.verdict, score=offline.score, coverage=offline.coverage, matched=offline.matched,
                missing=offline.missing, facts=[f for f in offline.facts if f.status in ("found",)])
    if spans:
        u, s, e = spans[0]
        base = u.get("char_start")
        lead = max(0, len(u.get("text") or "") - ((u.get("char_end") or 0) - (base or 0))) if base is not None else 0
        v.best_sentence = (u.get("text") or "")[s:e]
        v.text_unit_id, v.unit_start, v.unit_end = u.get("id"), s, e
        if base is not None:
            v.char_start, v.char_end = base - lead + s, base - lead + e
    return by_model(v, verdict, offline, failing, claim)


def _of_the_sentence(failing: str, claim: str, passages: list[tuple[dict, int, int]]) -> bool:
    """Does the failing fact hold a content word (or, in Chinese, a bigram) of the sentence that
    the passages do not?"""
    from core.verify.facts import content_terms
    said = {t for t, _, _ in content_terms(claim)}
    have = {t for u, lo, hi in passages for t, _, _ in content_terms((u.get("text") or "")[lo:hi])}
    return any(t in said and t not in have for t, _, _ in content_terms(failing))


def _ask(llm, claim: str, passages: list[tuple[dict, int, int]]) -> dict:
    body = "\n\n".join(f"[{i + 1}] {(u.get('text') or '')[lo:hi]}" for i, (u, lo, hi) in enumerate(passages))
    lang = "Write the failing fact in Chinese." if is_cjk(claim) else ""
    messages = [{"role": "user", "content": render("verify_entailment", None, sentence=claim,
                                                     passages=body, language_instruction=lang)}]
    obj, _raw, _n = chat_json(llm, messages, max_tokens=400, stage="verify", validate=_valid)
    return obj


def _stands(offline: Verdict, why: str = "") -> Verdict:
    """The offline verdict, marked as the offline judge's, with why the model did not change it."""
    offline.judge = "offline"
    if why:
        offline.reason = f"{offline.reason}; {why}" if offline.reason else why
    return offline

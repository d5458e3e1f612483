"""The offline query engine: lexical relevance instead of a model.

Map: each report's relevance to the question (BM25 over its title, summary and findings; Chinese
and Japanese/Korean text as character bigrams) scaled 0-100, 0 where nothing matches; its points
are its best-matching findings, with a reference to the report and the finding's own references.
Reduce: the best points assembled into paragraphs, each keeping its references. Local: the context
sentences that share most with the question, each followed by its reference.

A question about the corpus as a whole ("what are the main themes?", "这些文章主要讨论了哪些主题？")
shares few words with any report, yet it is exactly what community reports answer; for such
questions every report also gets a baseline from its importance rating.
"""
from __future__ import annotations

import re
from typing import Any

from core.text.citations import disarm, parse_citations
from core.query.types import Point
from core.textutil import has_cjk
from core.tokens import count_tokens
from core.text.lexical import (DOCUMENT_WORDS, BM25, CJK_STOP_BIGRAMS, CJK_STOP_CHARS, STOPWORDS, END_PUNCT, cite,  # noqa: F401
                               is_prose, join_sentences, sentences, terms)

# cues that a question asks about the corpus as a whole
_BROAD = re.compile(
    r"\b(themes?|topics?|main|overall|overview|summar\w*|key|major|mostly|trends?|"
    r"dataset|corpus|whole|entire|general|moral|morals|gist|lessons?|takeaways?|message)\b|"
    r"^\s*what(?:'s|\u2019s|\s+is|\s+are|\s+was|\s+were)\s+[^?]{1,80}\babout\s*\??\s*$|\bwho are the\b|主题|主要|概述|总结|概括|核心|要点|整体|大意|讨论了",
    re.IGNORECASE)

def is_broad_question(question: str) -> bool:
    """A cue of the corpus as a whole, or no word beyond a question's framing ("What happens in this
    story?": happen, story): nothing narrower is asked than the whole."""
    from core.offline.themes import BROAD
    ts = terms(question or "")
    return bool(_BROAD.search(question or "")) or (bool(ts) and all(t in BROAD for t in ts))


# ---------------------------------------------------------------------------- reports (map)

def finding_parts(finding: Any) -> tuple[str, str]:
    if isinstance(finding, dict):
        return str(finding.get("summary") or ""), str(finding.get("explanation") or "")
    return "", str(finding or "")


def report_text(report: dict) -> str:
    parts = [report.get("title") or "", report.get("summary") or ""]
    for f in report.get("findings") or []:
        parts.extend(finding_parts(f))
    return "\n".join(parts)


def score_reports(question: str, reports: list[dict]) -> dict[int, int]:
    """human_readable_id -> relevance 0-100 of each report to the question."""
    broad = is_broad_question(question)
    # "the main themes of this earnings call": the words naming the documents match the reports
    # that speak of the call itself (its running order, its disclaimers), not what it is about
    q = terms(DOCUMENT_WORDS.sub(" ", question) if broad else question)
    bm = BM25([terms(report_text(r)) for r in reports])
    raw = [bm.score(q, i) for i in range(len(reports))]
    top = max(raw, default=0.0)
    out: dict[int, int] = {}
    for i, r in enumerate(reports):
        s = 0
        if raw[i] > 0:
            s = max(1, round(100 * (0.5 * bm.coverage(q, i) + 0.5 * raw[i] / top)))
        if broad:
            rating = r.get("rating")
            s = max(s, round(10 + 4 * (5.0 if rating is None else float(rating))))
        out[int(r["human_readable_id"])] = min(100, s)
    return out


def split_refs(text: str) -> tuple[str, dict[str, list[int]]]:
    """Text without its [Data: ...] markers, and the references they held by kind."""
    refs: dict[str, list[int]] = {}
    pieces, pos = [], 0
    for c in parse_citations(text):
        pieces.append(text[pos:c.start])
        pos = c.end
        for ref in c.refs:
            if ref.id is not None and ref.id not in refs.setdefault(ref.kind, []):
                refs[ref.kind].append(ref.id)
    pieces.append(text[pos:])
    body = re.sub(r"[ \t]+", " ", "".join(pieces))
    return re.sub(r"\s+([.,;:。，；：])", r"\1", body).strip(), refs


def quoted_sentences(text: str) -> list[str]:
    """The sentences of text, a citation marker written after a full stop kept with the
    sentence before it."""
    out: list[str] = []
    for s in sentences(text):
        if out and not split_refs(s)[0]:
            out[-1] += " " + s
        else:
            out.append(s)
    return out


def best_sentences(text: str, q: set[str], max_tokens: int) -> str:
    """The sentences of text that share most terms with q (in their original order), up to
    max_tokens; the leading ones when none does."""
    sents = quoted_sentences(text)
    good = [s for s in sents if is_prose(split_refs(s)[0])] or sents
    ranked = sorted(range(len(good)), key=lambda i: (-len(q & set(terms(good[i]))), i))
    if not any(q & set(terms(s)) for s in good):
        ranked = list(range(len(good)))
    keep, used = [], 0
    for i in ranked:
        n = count_tokens(good[i])
        if keep and used + n > max_tokens:
            break
        keep.append(i)
        used += n
    return join_sentences([good[i] for i in sorted(keep)])


def report_points(question: str, report: dict, score: int, max_points: int = 3,
                  point_tokens: int = 120) -> list[Point]:
    """The report's best-matching findings as points, each citing the report."""
    if score <= 0:
        return []
    hrid = int(report["human_readable_id"])
    q = set(terms(question))
    findings = [finding_parts(f) for f in report.get("findings") or []]
    scored = []
    for idx, (summ, expl) in enumerate(findings):
        overlap = len(q & set(terms(summ + " " + expl)))
        scored.append((overlap, -idx, summ, expl))
    scored.sort(reverse=True)
    chosen = [s for s in scored if s[0] > 0][:max_points]
    if not chosen:  # matched through title/summary, or a broad question: the leading findings
        chosen = sorted(scored, key=lambda s: -s[1])[:min(2, max_points)]
    points: list[Point] = []
    best = chosen[0][0] if chosen else 0
    for rank, (overlap, _, summ, expl) in enumerate(chosen):
        body, refs = split_refs(best_sentences(expl, q, point_tokens))
        head, head_refs = split_refs(summ)
        for k, v in head_refs.items():
            refs.setdefault(k, []).extend(i for i in v if i not in refs.get(k, []))
        head = END_PUNCT.sub("", head)
        sep = "：" if has_cjk(head[-1:]) else ": "
        text = f"{head}{sep}{body}" if head and body else (head or body)
        if not text:
            continue
        all_refs = {"Reports": [hrid], **{k: v for k, v in refs.items() if k != "Reports"}}
        s = score if rank == 0 else max(1, round(score * (overlap / best if best else 1) - 5 * rank))
        desc = cite(text, all_refs)
        points.append(Point(description=desc, score=min(score, s), report_ids=[hrid]))
    if not points and report.get("summary"):
        desc = cite(split_refs(best_sentences(report["summary"], q, point_tokens))[0], {"Reports": [hrid]})
        points.append(Point(description=desc, score=score, report_ids=[hrid]))
    return points


# ------------------------------------------------------------------------------ answers

def extractive_reduce(points: list[Point], answer_tokens: int, per_paragraph: int = 3) -> str:
    """The best points (already ordered) as paragraphs, each point keeping its references."""
    chosen, used, seen = [], 0, set()
    for p in points:
        key = re.sub(r"\W+", "", p.description.lower())
        if key in seen:
            continue
        if chosen and used + p.tokens > answer_tokens:
            break
        seen.add(key)
        chosen.append(p.description)
        used += p.tokens
    return "\n\n".join(join_sentences(chosen[i:i + per_paragraph])
                       for i in range(0, len(chosen), per_paragraph))


def no_data_answer(question: str, detail: str) -> str:
    if has_cjk(question):
        return f"现有数据无法回答这个问题：{detail}。没有编造任何内容。"
    return f"The indexed data does not answer this question: {detail}. Nothing has been made up."


def extractive_local_answer(question: str, candidates: list[tuple[str, int, str]],
                            answer_tokens: int, max_sentences: int = 8,
                            min_share: float = 0.25) -> str:
    """candidates: (kind, human_readable_id, text). The sentences most like the question, each
    followed by its reference, best first; a sentence scoring under min_share of the best one is
    left out."""
    rows: list[tuple[str, int, str]] = []
    for kind, hrid, text in candidates:
        for s in sentences(text):
            if is_prose(s):  # a marker written in source text or a description is no citation
                rows.append((kind, hrid, s if kind == "Reports" else disarm(s)))
    if not rows:
        return ""
    q = terms(question)
    bm = BM25([terms(s) for _, _, s in rows])
    scored = sorted(((bm.score(q, i), -i) for i in range(len(rows))), reverse=True)
    floor = min_share * scored[0][0]
    chosen, used, seen = [], 0, set()
    for score, neg_i in scored:
        if score <= 0 or score < floor or len(chosen) >= max_sentences:
            break
        kind, hrid, s = rows[-neg_i]
        key = re.sub(r"\W+", "", s.lower())
        if len(key) < 4 or any(key in k or k in key for k in seen):
            continue
        text = cite(s, {kind: [hrid]})
        n = count_tokens(text)
        if chosen and used + n > answer_tokens:
            break
        seen.add(key)
        chosen.append(text)
        used += n
    return "\n\n".join(join_sentences(chosen[i:i + 4]) for i in range(0, len(chosen), 4))

"""Extractive summaries and community reports for the offline engine (no model).

summarize_descriptions: the most central distinct sentences of several descriptions (centrality
= how many other sentences share each content word), redundant ones skipped, in their original
order, under about 120 words (CJK: 240 characters). Deterministic.

write_report: the same JSON as the LLM's report. Every finding quotes the rows it cites:
- a sub-community finding quotes that report's summary and cites [Data: Reports (community)];
- an entity finding quotes the entity's description and the relationships it names;
- a relationship finding quotes the supporting sentence of that relationship;
- a claim finding quotes the claim's description.
Rating (0-10) is arithmetic on size and connectedness, stated as such in rating_explanation:
    0.7*log2(1+entities) + 0.35*log2(1+relationships) + 0.35*log2(1+highest degree)
    (+ 0.3*log2(1+sub-reports), and never below the best sub-report's rating), capped at 10.
    (A community of 17 entities and 27 relationships rates about 6; one of 100 and 300, 9.
    The earlier weights put every community of a dozen entities at 10, so colour said nothing.)
Chinese communities (most names and descriptions CJK) get Chinese templates.
"""
from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import Any

from core.engine import ReportInput
from core.text.citations import disarm
from core.textutil import (content_words, has_cjk, normalize_title, split_sentences, text_length, trim_around,
                           words)

_SMALL = {"OF", "THE", "AND", "DE", "DU", "VAN", "VON", "DER", "LA", "LE", "Y", "TO", "A", "AN", "IN", "ON"}


def _sentences(text: str) -> list[str]:
    return list(_sentences_cached(text))


@functools.lru_cache(maxsize=65536)
def _sentences_cached(text: str) -> tuple[str, ...]:
    """The same descriptions are split again at every level of the hierarchy: split them once."""
    return tuple(" ".join(text[a:b].split()) for a, b in split_sentences(text))


def _key(sentence: str) -> str:
    return re.sub(r"\W+", " ", sentence.lower()).strip()


MAX_SENTENCES = 400


def summarize_descriptions(name: str, descriptions: list[str], max_words: int = 120) -> str:
    """One extractive description from several: central, distinct sentences, original order."""
    unique: dict[str, str] = {}
    for d in descriptions:
        for s in _sentences(d):
            unique.setdefault(_key(s), s)
    unique.pop("", None)
    keys = list(unique)
    if len(keys) > MAX_SENTENCES:  # an entity named in thousands of units: an even sample, in order
        keys = [keys[i * len(keys) // MAX_SENTENCES] for i in range(MAX_SENTENCES)]
    # a sentence contained in a longer one (trimmed at extraction) is the same sentence
    sents = [unique[k] for k in keys if not any(k in o for o in keys if len(o) > len(k))]
    if sum(text_length(s) for s in sents) <= max_words:
        return " ".join(sents)
    name_words = set(content_words(name.replace("->", " ")))
    bags = [set(content_words(s)) - name_words for s in sents]
    df = Counter(w for b in bags for w in b)
    defining = _defining(name)
    scores = []
    for i, (s, bag) in enumerate(zip(sents, bags)):
        score = sum(min(df[w] - 1, 5) for w in bag) / math.sqrt(len(bag) + 1) + 0.5 * math.sqrt(len(bag))
        if defining and defining.search(s):
            score *= 2.0  # "Belle, a comely matron", "GraphRAG 是一种..."
        if s[:1] in "'\"\u2018\u201c\u300c":
            score *= 0.6  # a line of dialogue says less about its speaker than narration does
        if text_length(s) < 6:
            score *= 0.5
        if s.startswith("\u2026") or s.endswith("\u2026"):
            score *= 0.7  # a sentence trimmed at extraction reads worse than a whole one
        scores.append((-score, i))
    chosen: list[int] = []
    used = 0.0
    for _, i in sorted(scores):
        length = text_length(sents[i])
        if used + length > max_words:
            continue
        if any(_jaccard(bags[i], bags[j]) > 0.5 for j in chosen):
            continue
        chosen.append(i)
        used += length
        if used >= max_words * 0.9:
            break
    if not chosen:  # every sentence alone is over budget: trim the most central one
        i = sorted(scores)[0][1]
        return trim_around(sents[i], 0, 0, max_words)
    return " ".join(sents[i] for i in sorted(chosen))


def _defining(name: str) -> re.Pattern | None:
    """Sentences that define a name: "<name>, a ...", "<name> is a ...", "<name>是..."."""
    names = [n.strip() for n in name.split("->") if n.strip()]
    if len(names) != 1:
        return None
    n = r"\s+".join(re.escape(w) for w in names[0].split())
    return re.compile(rf"^\W*{n}\W*,\s+(?:a|an|the)\b|{n}\s+(?:is|was)\s+(?:a|an|the)\b|{n}\s*(?:是|为|指)",
                      re.IGNORECASE)


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def display_name(title: str, row: dict[str, Any] | None = None) -> str:
    """How a normalised title reads in prose: its spelling in the row's aliases or description
    ("GRAPHRAG" -> "GraphRAG"), else capitalised words ("BANK OF ENGLAND" -> "Bank of England")."""
    if has_cjk(title) or not title.isupper():
        return title
    row = row or {}
    for alias in row.get("aliases") or []:
        if isinstance(alias, str) and normalize_title(alias) == title and not alias.isupper():
            return alias
    forms = Counter(" ".join(m.group(0).split())
                    for m in _title_pattern(title).finditer(row.get("description") or ""))
    mixed = [f for f, _ in forms.most_common() if not f.isupper() and not f.islower()]
    if mixed:
        return mixed[0]
    if title in forms:
        return title  # written in capitals in the text: an acronym (RAG, LLM)
    words = title.split()
    return " ".join(w.lower() if (i and w in _SMALL) else w[:1] + w[1:].lower() for i, w in enumerate(words))


@functools.lru_cache(maxsize=65536)
def _title_pattern(title: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in title.split()) + r"(?!\w)", re.IGNORECASE)


def _cite(reports=(), entities=(), relationships=(), claims=()) -> str:
    parts = []
    for label, ids in (("Reports", reports), ("Entities", entities), ("Relationships", relationships),
                       ("Claims", claims)):
        ids = list(dict.fromkeys(ids))
        if ids:
            parts.append(f"{label} ({', '.join(str(i) for i in ids)})")
    return f" [Data: {'; '.join(parts)}]" if parts else ""


def _chinese(text: str) -> bool:
    """Write the report in Chinese when CJK characters outnumber half the Latin words: Chinese
    technical prose is full of English names, so a share of letters would call it English."""
    cjk = sum(1 for ch in text if has_cjk(ch))
    return cjk >= 4 and cjk >= 0.5 * len(re.findall(r"[A-Za-z]+", text))


def _join(names: list[str], zh: bool) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ("、".join(names[:-1]) + "与" + names[-1]) if zh else (", ".join(names[:-1]) + " and " + names[-1])


# the opening sentences write_report puts in every summary: not worth quoting in a parent report
_BOILERPLATE = re.compile(r"^(?:This community centres on .*?\. The report (?:covers|is written from) .*?\.|该社区以.*?。)\s*")
_MARKUP = re.compile(r"^(?:#{1,6}|>|[-*+\u2022]|\d{1,3}[.)])\s+|\*\*|__|`")


def _clean(sentence: str) -> str:
    """A source sentence as quoted in a report: markdown marks dropped, and any "[Data: ...]"
    written in the source itself disarmed, so the report's only citations are its own."""
    s = _MARKUP.sub("", sentence.strip())
    s = _MARKUP.sub("", s).replace(" | ", "; ").strip("| ")
    return disarm(s)


def _first(text: str, n_words: int = 60) -> str:
    """The opening sentences of a description, up to about n_words, cleaned for quoting."""
    out, used = [], 0.0
    for s in (_clean(x) for x in _sentences(text or "")):
        if not s:
            continue
        length = text_length(s)
        if out and used + length > n_words:
            break
        out.append(s if length <= n_words else trim_around(s, 0, 0, n_words))
        used += length
    return " ".join(out)


def _rating(inp: ReportInput, max_degree: int) -> float:
    r = 0.7 * math.log2(1 + len(inp.entities)) + 0.35 * math.log2(1 + len(inp.relationships)) \
        + 0.35 * math.log2(1 + max_degree)
    if inp.sub_reports:
        r = max(r + 0.3 * math.log2(1 + len(inp.sub_reports)),
                max(float(s.get("rating") or 0) for s in inp.sub_reports))
    return round(min(10.0, max(0.0, r)), 1)


def write_report(inp: ReportInput) -> dict[str, Any]:
    ents = sorted(inp.entities, key=lambda e: (-(e.get("degree") or 0), e["human_readable_id"]))
    rels = sorted(inp.relationships, key=lambda r: (-(r.get("weight") or r.get("combined_degree") or 0),
                                                    r["human_readable_id"]))
    subs = sorted(inp.sub_reports, key=lambda r: (-(r.get("rating") or 0), r["community"]))
    by_title = {e["title"]: e for e in ents}
    name = {e["title"]: display_name(e["title"], e) for e in ents}

    context = {"description": " ".join((r.get("description") or "")[:400] for r in rels[:60])}

    def nm(title: str) -> str:
        return name.get(title) or display_name(title, by_title.get(title) or context)

    sample = " ".join([(e.get("description") or "")[:300] for e in ents[:8]]
                      + [(s.get("summary") or "")[:300] for s in subs[:5]])
    zh = _chinese(sample)
    findings = _findings(ents, rels, inp.claims, subs, nm, zh)
    top = [nm(e["title"]) for e in ents[:3]]
    if top:
        title = _join(top, zh)
    elif subs:
        title = (subs[0].get("title") or "") + ("及相关社区" if zh else " and related communities")
    else:
        title = f"社区 {inp.community}" if zh else f"Community {inp.community}"
    max_degree = max([e.get("degree") or 0 for e in ents] or [0])
    rating = _rating(inp, max_degree)
    return {"title": title, "summary": _summary(inp, ents, rels, subs, top, nm, zh), "rating": rating,
            "rating_explanation": _rating_explanation(inp, ents, subs, max_degree, rating, nm, zh),
            "findings": findings}


def _pick(text: str, n_words: float, skip: list[frozenset]) -> list[tuple[frozenset, str]]:
    """(word bag, sentence) pairs from the start of a description, cleaned for quoting, leaving
    out sentences already covered by skip (the same sentence trimmed elsewhere counts), up to
    about n_words (a long first sentence is trimmed)."""
    out: list[tuple[frozenset, str]] = []
    used = 0.0
    for s in (_clean(x) for x in _sentences(text or "")):
        bag = frozenset(words(s))
        if not bag or _covered(bag, skip) or _covered(bag, [b for b, _ in out]):
            continue
        length = text_length(s)
        if out and used + length > n_words:
            break
        out.append((bag, s if length <= n_words else trim_around(s, 0, 0, n_words)))
        used += length
    return out


def _covered(bag: frozenset, bags: list[frozenset]) -> bool:
    """Mostly inside a quoted sentence, or a quoted fragment (8+ words) is mostly inside it."""
    return any(len(bag & b) >= 0.8 * len(bag) or (len(b) >= 8 and len(bag & b) >= 0.8 * len(b)) for b in bags)


def _findings(ents, rels, claims, subs, nm, zh: bool) -> list[dict[str, str]]:
    """5-10 findings, each quoting every row it cites; a sentence is quoted in one finding only."""
    findings: list[dict[str, str]] = []
    used: list[frozenset] = []  # sentences quoted by earlier findings

    for s in subs[:5]:
        text = _first(_BOILERPLATE.sub("", s.get("summary") or ""), 60) or _first(s.get("summary") or "", 60)
        if text:
            findings.append({"summary": s.get("title") or f"Community {s['community']}",
                             "explanation": text + _cite(reports=[s["community"]])})

    def entity_finding(e: dict) -> dict[str, str] | None:
        quote = _pick(e.get("description") or "", 45, used)
        if not quote:
            return None
        here = [b for b, _ in quote]
        cited, others, added = [], [], 0
        for r in rels:
            if e["title"] not in (r["source"], r["target"]):
                continue
            rq = _pick(r.get("description") or "", 30, [])
            if not rq:
                continue
            if not any(_covered(b, here) for b, _ in rq):  # not quoted yet: quote its first new sentence
                new = [(b, t) for b, t in rq if not _covered(b, used)]
                if not new or added >= 2:
                    continue
                quote.append(new[0])
                here.append(new[0][0])
                added += 1
            cited.append(r["human_readable_id"])
            others.append(nm(r["target"] if r["source"] == e["title"] else r["source"]))
            if len(cited) >= 3:
                break
        used.extend(here)
        name = nm(e["title"])
        if zh:
            summary = f"{name}：与{_join(others, True)}相关" if others else name
        else:
            summary = f"{name}, linked to {_join(others, False)}" if others else name
        return {"summary": summary, "explanation": " ".join(t for _, t in quote) + _cite(
            entities=[e["human_readable_id"]], relationships=cited)}

    def relationship_finding(r: dict) -> dict[str, str] | None:
        quote = _pick(r.get("description") or "", 60, used)
        if not quote:
            return None
        used.extend(b for b, _ in quote)
        a, b = nm(r["source"]), nm(r["target"])
        lead = f"{a}与{b}出现在同一句中：" if zh else f"{a} and {b} appear together: "
        return {"summary": f"{a}与{b}" if zh else f"{a} and {b}",
                "explanation": lead + " ".join(t for _, t in quote) + _cite(relationships=[r["human_readable_id"]])}

    def claim_finding(c: dict) -> dict[str, str] | None:
        desc = _first(c.get("description") or "", 60)
        if not desc:
            return None
        status = c.get("status") or ""
        lead = f"{nm(c['subject'])}（{status}）：" if zh else f"{nm(c['subject'])} ({status}): "
        return {"summary": f"{nm(c['subject'])}: {c.get('type') or 'claim'}",
                "explanation": lead + desc + _cite(claims=[c["human_readable_id"]])}

    queue = [(entity_finding, e) for e in ents[:4]] + [(relationship_finding, r) for r in rels[:4]] \
        + [(claim_finding, c) for c in claims[:2]] + [(entity_finding, e) for e in ents[4:]] \
        + [(relationship_finding, r) for r in rels[4:]]
    for make, row in queue:
        if len(findings) >= 10:
            break
        f = make(row)
        if f:
            findings.append(f)
    return findings


def _summary(inp, ents, rels, subs, top, nm, zh: bool) -> str:
    n, m = len(ents), len(rels)
    if zh:
        head = (f"该社区以{_join(top, True)}为中心，" if top else "") + f"报告依据其中连接最多的{n}个实体和{m}条关系写成"
        head += f"，以及{len(subs)}个子社区的报告。" if subs else "。"
    else:
        head = (f"This community centres on {_join(top, False)}. " if top else "") + \
            f"The report is written from its {n} best-connected {'entity' if n == 1 else 'entities'} and {m} " \
            f"{'relationship' if m == 1 else 'relationships'} (those its context budget holds)" + \
            (f", and the reports of {len(subs)} sub-communities." if subs else ".")
    parts = [head]
    if ents and ents[0].get("description"):
        parts.append(_first(ents[0]["description"], 40))
    if rels and rels[0].get("description"):
        rd = _first(rels[0]["description"], 40)
        if _key(rd) not in _key(" ".join(parts)):
            parts.append(rd)
    if subs and not ents:
        parts.append(_first(subs[0].get("summary") or "", 50))
    return " ".join(p for p in parts if p)


def _rating_explanation(inp, ents, subs, max_degree: int, rating: float, nm, zh: bool) -> str:
    best = nm(ents[0]["title"]) if ents else None
    if zh:
        text = (f"离线评分 {rating}/10，依据社区规模与连接度计算，而非阅读判断：{len(ents)}个实体、"
                f"{len(inp.relationships)}条关系")
        text += f"，连接最多的实体{best}的度为{max_degree}" if best else ""
        text += f"；子社区最高评分 {max(float(s.get('rating') or 0) for s in subs)}。" if subs else "。"
        return text
    text = (f"Offline rating {rating}/10, computed from the community's size and connectedness, not from "
            f"reading it: {len(ents)} entities, {len(inp.relationships)} relationships")
    text += f", best-connected entity {best} with degree {max_degree}" if best else ""
    text += f"; highest sub-community rating {max(float(s.get('rating') or 0) for s in subs)}." if subs else "."
    return text

"""Does the cited source text support the sentence that cites it? A lexical, deterministic check.

A sentence (its citation markers removed) is reduced to content terms: words case-folded,
lightly stemmed ("refused" and "refuse" -> "refus", "charities" -> "charity"), English stop
words dropped, numbers kept; Chinese (CJK) text becomes character bigrams, split at function
characters such as 的 and 了. Every sentence of every cited text unit is reduced the same way.

score     the share of the claim's terms found in the best single source sentence (token recall)
coverage  the share of the claim's terms found anywhere in the cited text units

Verdicts (thresholds chosen on Microsoft GraphRAG's index of A Christmas Carol and crafted
sentences; see tests/test_support.py):
- supported    score >= SUPPORTED (0.5), or score >= SPREAD_SCORE (0.4) with coverage >=
               SPREAD_COVERAGE (0.7): one source sentence holds at least half of its terms, or
               the cited text holds most of them across a few sentences;
- weak         score >= WEAK (0.3), or the record's own text (an entity or relationship
               description, a report's summary) contains >= RECORD_WEAK (0.5) of the terms: that
               text is the model's own summary, so it can lift a sentence to weak, never to
               supported;
- unsupported  otherwise, or nothing to judge against.

The highlight is always a sentence of the source text: its span in the text unit
(unit_start, unit_end) and in the document (char_start, char_end = the unit's char_start plus
the offset), so `document.text[char_start:char_end] == best_sentence`. A unit whose text is
longer than its document span (Microsoft GraphRAG prepends a "title: <file>." line) has that
lead skipped: its sentences are never chosen and offsets are counted after it.

Limits, by design of a lexical check: synonyms ("donate" vs "give") count as missing, negation
and numbers in the wrong role are not understood. A sentence with no content terms at all
(e.g. "And so it is.") is "weak" with score 0: there is nothing to check.
"""
from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field
from typing import Iterable

from core.text.citations import parse_citations, sentence_spans, strip_citations

SUPPORTED = 0.5
WEAK = 0.3
RECORD_WEAK = 0.5
SPREAD_SCORE = 0.4
SPREAD_COVERAGE = 0.7

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TERM = re.compile(rf"[{_CJK}]+|[0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+(?:'[a-z]+)?")
_CJK_STOP = re.compile("[的了是在和与及也就都而并被把这那其之或等个为以于对将从中上下有着过所]")

_STOP = frozenset("""
a about above according across after afterwards again against all almost alone along already also
although always am among an and another any anyhow anyone anything anyway anywhere are around as
at be became because become becomes been before being below beside besides between beyond both
but by can cannot could did do does doing done down during each either else elsewhere enough even
ever every everyone everything for from further had has have having he her here hers herself him
himself his how however i if in into is it its itself just least less many may me might mine more
moreover most mostly much must my myself neither never nevertheless no nor not nothing now of off
often on once one only onto or other others otherwise our ours ourselves out over own per perhaps
rather same several she should since so some somehow someone something sometimes somewhat such
than that the their theirs them themselves then thence there thereby therefore these they this
those though through throughout thus to together too toward towards under until up upon us very
via was we well were what whatever when whenever where whereas whether which while who whoever
whole whom whose why will with within without would yet you your yours yourself yourselves
shall said says say also s t d ll ve re m don didn doesn isn wasn weren won wouldn couldn shouldn
""".split())


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stripper: enough to match inflections, deterministic, no dictionary."""
    if "'" in word:
        word = word.split("'", 1)[0]
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl, keep in (("ies", "y", 2), ("sses", "ss", 2), ("ingly", "", 3), ("edly", "", 3),
                               ("ing", "", 3), ("ied", "y", 2), ("ed", "", 3), ("es", "", 3), ("s", "", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: len(word) - len(suffix)] + repl
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


def terms(text: str) -> frozenset[str]:
    """The content terms of a text (see the module docstring)."""
    out: set[str] = set()
    for tok in _TERM.findall(text.lower().replace("’", "'")):
        if "\u3400" <= tok[0] <= "\ufaff":
            for piece in _CJK_STOP.split(tok):
                if len(piece) == 1:
                    out.add(piece)
                else:
                    out.update(piece[i:i + 2] for i in range(len(piece) - 1))
        elif tok not in _STOP and (len(tok) > 1 or tok.isdigit()):
            s = stem(tok)
            if s not in _STOP:
                out.add(s)
    return frozenset(out)


@functools.lru_cache(maxsize=8192)
def _unit_sentences(text: str) -> tuple[frozenset[str], tuple[tuple[int, int, frozenset[str]], ...]]:
    """A text unit's terms and its sentences with their terms (cached by text)."""
    sents = tuple((s, e, terms(text[s:e])) for s, e in sentence_spans(text))
    union: set[str] = set()
    for _, _, t in sents:
        union |= t
    return frozenset(union), sents


def _lead(unit: dict, text: str) -> int:
    """Characters at the start of a unit's text that are not in its document (graphrag's
    "title: <file>." line): the text minus the length of its document span."""
    start, end = unit.get("char_start"), unit.get("char_end")
    if start is None or end is None:
        return 0
    return max(0, len(text) - (end - start))


@dataclass
class Support:
    verdict: str
    score: float = 0.0
    best_sentence: str = ""
    text_unit_id: str | None = None
    char_start: int | None = None
    char_end: int | None = None
    unit_start: int | None = None
    unit_end: int | None = None
    coverage: float = 0.0
    record_score: float = 0.0
    matched: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


# what an answer's Markdown puts around a sentence: a list item's number or bullet, a heading's
# hashes, a quote's ">" (at its start) and emphasis ("**Ebenezer Scrooge**:"); none of it is
# what the sentence asserts ("1. **Ebenezer" is no number of the claim)
_MD_LEAD = re.compile(r"^\s*(?:(?:#{1,6}|>|[-*+\u2022]|\d{1,3}[.)])\s+)+")
# a list item's bold label before a dash or colon ("**Amy Hood and Satya Nadella: chief, officer,
# capex** — The first is, ..."): a heading of the point, not part of the sentence it introduces
_BOLD = r"(?:\*\*[^*\n]{1,200}\*\*|__[^_\n]{1,200}__)"  # a bold run, underscores inside it ("**embed_text**")
_MD_LABEL = re.compile(r"^" + _BOLD + r"(?:\s*\([^()\n]{1,80}\))?"
                       r"\s*(?:[:\u2014\u2013]|-\s)\s*(?=\S)")
_MD_EMPHASIS = re.compile(r"\*\*|__|`|(?<![\w*])\*(?=[^\s*])|(?<=[^\s*])\*(?![\w*])")


_MD_HEADING = re.compile(_BOLD + r"(?:\s*\([^()\n]{1,80}\))?\s*[.:]?\s*")


def is_heading(sentence: str) -> bool:
    """Is the sentence (its markers aside) a bold title alone, as a list item's ("4. **Business
    Processes and Intelligent Cloud: billion, grow, decrease** (community report 28)")? It titles
    what follows and asserts nothing of its own but its names. (A "#" heading may hold a claim.)"""
    text = _MD_LEAD.sub("", strip_citations(sentence, parse_citations(sentence))).strip()
    return bool(text) and _MD_HEADING.fullmatch(text) is not None


def claim_text(sentence: str) -> str:
    """The sentence without its citation markers and without the Markdown of the answer around
    it (list number or bullet, heading, a point's bold label, emphasis)."""
    text = strip_citations(sentence, parse_citations(sentence))
    return _MD_EMPHASIS.sub("", _MD_LABEL.sub("", _MD_LEAD.sub("", text)))


def judge(sentence: str, sources: Iterable[dict], record_texts: Iterable[str] = ()) -> Support:
    """Judge one sentence against text_units rows (dicts with id, text, char_start) and
    optionally the cited records' own texts."""
    claim = terms(claim_text(sentence))
    if not claim:
        return Support("weak", 0.0)
    n = len(claim)
    best: tuple | None = None  # (hits, -length, order) to maximise
    best_info = None
    seen: set[str] = set()
    order = 0
    for unit in sources:
        text = unit.get("text") or ""
        union, sents = _unit_sentences(text)
        found = claim & union
        if not found:
            continue
        seen |= found
        lead = _lead(unit, text)
        for s, e, t in sents:
            order += 1
            if s < lead:
                continue
            hits = len(claim & t)
            if not hits:
                continue
            key = (hits, -(e - s), -order)
            if best is None or key > best:
                best, best_info = key, (unit, s, e, t)
    coverage = len(seen) / n
    record_score = 0.0
    for rt in record_texts:
        if rt:
            record_score = max(record_score, len(claim & terms(rt)) / n)
    if best_info is None:
        verdict = "weak" if record_score >= RECORD_WEAK else "unsupported"
        return Support(verdict, 0.0, coverage=round(coverage, 3), record_score=round(record_score, 3),
                       missing=sorted(claim))
    unit, s, e, t = best_info
    score = best[0] / n
    if score >= SUPPORTED or (score >= SPREAD_SCORE and coverage >= SPREAD_COVERAGE):
        verdict = "supported"
    elif score >= WEAK or record_score >= RECORD_WEAK:
        verdict = "weak"
    else:
        verdict = "unsupported"
    base = unit.get("char_start")
    if base is not None:
        base -= _lead(unit, unit["text"])
    return Support(
        verdict=verdict, score=round(score, 3), best_sentence=unit["text"][s:e],
        text_unit_id=unit.get("id"),
        char_start=None if base is None else base + s, char_end=None if base is None else base + e,
        unit_start=s, unit_end=e, coverage=round(coverage, 3), record_score=round(record_score, 3),
        matched=sorted(claim & t), missing=sorted(claim - t))

"""The offline judge's alignment: the cited text units prepared as sentences with their content
terms, the source sentence that shares most of a claim's terms, the window around it, and the
word-level look-ups the fact checks use (where a word or a name stands in the cited text).
core.verify.offline judges with them."""
from __future__ import annotations

import functools
import re

from core.text.citations import sentence_spans
from core.verify import facts as fx
from core.text import wordnet
from core.verify import figures as fg
from core.verify.verdict import Span

_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")


class Sent:
    __slots__ = ("start", "end", "terms", "words")

    def __init__(self, text: str, start: int, end: int):
        self.start, self.end = start, end
        piece = text[start:end]
        self.terms = frozenset(t for t, _, _ in fx.content_terms(piece))
        self.words = frozenset(_WORDS.findall(piece.lower()))


@functools.lru_cache(maxsize=8192)
def prepared(text: str) -> tuple[tuple[Sent, ...], frozenset[str]]:
    sents = tuple(Sent(text, s, e) for s, e in sentence_spans(text))
    union: set[str] = set()
    for s in sents:
        union |= s.terms
    return sents, frozenset(union)


@functools.lru_cache(maxsize=8192)
def numbers(text: str) -> tuple[fg.Number, ...]:
    return tuple(fg.numbers(text))


def _lead(unit: dict, text: str) -> int:
    start, end = unit.get("char_start"), unit.get("char_end")
    if start is None or end is None:
        return 0
    return max(0, len(text) - (end - start))


class Source:
    """One cited text unit, prepared."""

    def __init__(self, unit: dict):
        self.unit = unit
        self.text = unit.get("text") or ""
        self.sents, self.terms = prepared(self.text)
        structure = unit.get("structure")
        if isinstance(structure, dict):  # a heading or a code block is never the evidence sentence
            blocks = (structure.get("headings") or []) + (structure.get("skip") or [])
            self.sents = tuple(s for s in self.sents if not any(a <= s.start and s.end <= b for a, b, *_ in blocks))
        self.lead = _lead(unit, self.text)
        base = unit.get("char_start")
        self.base = None if base is None else base - self.lead

    def span(self, s: int, e: int) -> Span:
        return Span(self.text[s:e], self.unit.get("id"), s, e,
                    None if self.base is None else self.base + s,
                    None if self.base is None else self.base + e)

    def sentence_at(self, pos: int) -> Sent | None:
        for s in self.sents:
            if s.start <= pos < s.end:
                return s
        return None


def best(sources: list[Source], terms: frozenset[str], plain: frozenset[str] = frozenset(),
         nums: tuple = ()) -> tuple[Source, int] | None:
    """The sentence sharing most terms; the plain ones (besides names) count twice: a name is
    what a passage is about, its other words say what it says about it. Between sentences that
    share as many, the one giving more of the claim's figures (nums): "Azure grew 31%" is
    highlighted on Azure's 31%, not on the sentence where server revenue grew 24%."""
    best, key = None, None
    for src in sources:
        if not terms & src.terms:
            continue
        figures = numbers(src.text) if nums else ()
        for i, s in enumerate(src.sents):
            if s.start < src.lead:
                continue
            said = len(plain & s.terms)
            held = sum(1 for y in nums if any(s.start <= x.start < s.end and fg.same_number(x, y) for x in figures))
            hits = len(terms & s.terms) + said
            # at equal hits the sentence with the claim's figures, then the one that says
            # something of the claim, beats one that only names its subject ("KEVIN SCOTT:
            # Yeah, for sure.")
            if hits and (key is None or (hits, held, said, -(s.end - s.start)) > key):
                best, key = (src, i), (hits, held, said, -(s.end - s.start))
    return best


_SEGMENT = re.compile(r"[;\uff1b]|\n[ \t]*\n|\n[ \t]*(?:[\u2022*\u00b7]|\d+[.)]\s)")  # not a wrapped line's break


def segment(src: Source, sent: Sent, terms: frozenset[str]) -> Sent:
    """The part of a sentence, cut at semicolons, blank lines and list bullets, that shares
    most terms with the claim: a negation in another item of a list is about another fact."""
    piece = src.text[sent.start:sent.end]
    cuts = [0] + [m.end() for m in _SEGMENT.finditer(piece)] + [len(piece)]
    if len(cuts) <= 2:
        return sent
    parts = [Sent(src.text, sent.start + a, sent.start + b) for a, b in zip(cuts, cuts[1:]) if piece[a:b].strip()]
    best = max(parts, key=lambda p: len(terms & p.terms))
    return best if terms & best.terms else sent


def best_alternatives(sources: list[Source], alts: list[tuple[str, frozenset[str]]],
                       names: frozenset[str]) -> tuple[Source, int] | None:
    """best, with each claim word counted when the sentence holds any term it may stand for."""
    best, key = None, None
    for src in sources:
        for i, s in enumerate(src.sents):
            if s.start < src.lead:
                continue
            said = sum(1 for own, a in alts if own not in names and a & s.terms)
            hits = sum((1 if own in names else 2) for own, a in alts if a & s.terms)
            if hits and (key is None or (hits, said, -(s.end - s.start)) > key):
                best, key = (src, i), (hits, said, -(s.end - s.start))
    return best


def window(src: Source, i: int, terms: frozenset[str]) -> list[Sent]:
    out = [src.sents[i]]
    for j in (i - 1, i + 1):
        if 0 <= j < len(src.sents) and src.sents[j].start >= src.lead and terms & src.sents[j].terms:
            out.append(src.sents[j])
    return sorted(out, key=lambda s: s.start)


def recall(terms: frozenset[str], text: str, have: frozenset[str] | None = None) -> float:
    if not terms:
        return 0.0
    have = have if have is not None else frozenset(t for t, _, _ in fx.content_terms(text))
    return len(terms & have) / len(terms)


def is_actor(claim: str, n: fx.Name) -> bool:
    """Is the name the sentence's actor: among its first words ("Dick Wilkins called out...",
    "It was Fred who...")?"""
    head = re.sub(r"^(?:it\s+was|it\s+is|and|but|then)\s+", "", claim[:n.start].strip().lower())
    return len(head.split()) <= 2


def word_span(src: Source, window: list[Sent], word: str) -> Span | None:
    for s in window:
        m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", src.text[s.start:s.end], re.I)
        if m:
            return src.span(s.start + m.start(), s.start + m.end())
    return None


def _whole(words: tuple[str, ...]) -> re.Pattern:
    """A name's words in a row ("Microsoft Cloud", "Dr. Lila Chen"), any case."""
    return re.compile(r"(?<!\w)" + r"[\s.'\u2019-]{1,3}".join(re.escape(w) for w in words) + r"(?!\w)", re.I)


def name_span(src: Source, window: list[Sent], words: tuple[str, ...]) -> Span | None:
    """The whole name where the window writes it in a row, else its last word (a highlight of
    "Cloud" alone for "Microsoft Cloud" looked like a match of the whole name)."""
    if len(words) > 1:
        rx = _whole(words)
        for s in window:
            m = rx.search(src.text, s.start, s.end)
            if m:
                return src.span(m.start(), m.end())
    return word_span(src, window, words[-1])


def find_word(sources: list[Source], words: tuple[str, ...]) -> Span | None:
    if len(words) > 1:  # the whole name first, anywhere in the cited text
        rx = _whole(words)
        for src in sources:
            m = rx.search(src.text, src.lead)
            if m:
                return src.span(m.start(), m.end())
    word = words[-1]
    for src in sources:
        m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", src.text[src.lead:], re.I)
        if m:
            return src.span(src.lead + m.start(), src.lead + m.end())
    return None


_SPEECH = re.compile(r"(?:said|says|replied|cried|asked|answered|exclaimed|remarked|told|added|called)\s*$", re.I)


_PREP = re.compile(r"\b(?:from|for|to|of|in|on|at|with|by|about|like|including|into|across|than)\W*$", re.I)


def other_names(src: Source, window: list[Sent], claim_words: set[str], actors_only: bool = False) -> list[str]:
    """The names of the window that could do what the claim says its name does: none of its
    words the claim's, no fiscal period ("FY25") and no thing WordNet knows by its capitals
    ("AI", "PC"); with actors_only, only a speaker (after "said", or a transcript's label)."""
    out = []
    for s in window:
        piece = src.text[s.start:s.end]
        for n in fx.names(piece):
            if n.initial and not known_name(src, n.words):
                continue
            if set(n.words) & claim_words:
                continue
            surface = piece[n.start:n.end]
            if all(fx.PERIOD.match(w) for w in n.words) or (
                    len(n.words) == 1 and surface.isupper() and wordnet.common_noun(surface)):
                continue  # "our cloud and AI products, we expect ...": a thing, not who expects
            if _PREP.search(piece[max(0, n.start - 25):n.start]):
                continue  # "From Coursera and Grammarly, ... we now have": named, not acting
            if actors_only:
                before = piece[max(0, n.start - 20):n.start]
                label = piece[n.end:n.end + 30].lstrip().startswith((":", ",")) and piece[n.start:n.end].isupper()
                if not (_SPEECH.search(before) or label):
                    continue
            out.append(n.surface)
    return out


def known_name(src: Source, words: tuple[str, ...]) -> bool:
    """A sentence-initial word is a name when the unit also writes it capitalised mid-sentence."""
    w = words[-1]
    return bool(re.search(rf"(?:[a-z,;]\s+|[\u3001\uff0c\u3400-\u9fff]\s*){re.escape(w.capitalize())}(?!\w)", src.text))

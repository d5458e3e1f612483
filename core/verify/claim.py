"""The judge's records and its first two steps. `read`: the claim's facts (its names, numbers and
content terms, claim words the cited text lacks rewritten to the relatives it holds:
core.verify.paraphrase). `locate` and `align`: the source sentence the claim is compared with and
its window (core.verify.align). The cited text units are `Passage`s (core.verify.align.Source);
what a rule finds is a `Fact` with its rule id and evidence span (core.verify.verdict)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from core.text import wordnet
from core.text.support import claim_text
from core.verify import align as al
from core.verify import facts as fx
from core.verify import figures as fg
from core.verify import paraphrase
from core.verify.align import Sent, Source
from core.verify.names import Names

Passage = Source
ALIGNED = 0.4  # share of the claim's plain terms in the window for the window to be about the same thing


@dataclass
class Claim:
    """The sentence as the judge reads it: its text, names, numbers and content terms (claim words
    the cited text lacks rewritten to the relatives it holds)."""
    claim: str
    sources: list[Source]
    record_texts: list[str]
    names: Names
    found_names: list[fx.Name]
    name_words: set[str]
    nums: list[fg.Number]
    have: frozenset[str]
    mapping: dict
    terms: frozenset[str]
    plain: frozenset[str]
    said: frozenset[str] = frozenset()
    # the terms of acronyms the claim names ("RAM", "CPU", "GPU"): names for the fabricated
    # check, but what a passage says of them as much as any plain word, so they count for the
    # alignment ("64k of RAM" against "8k of RAM" is about the same thing)
    acronyms: frozenset[str] = frozenset()

    def reterm(self, mapping: dict) -> None:
        self.mapping = mapping
        self.terms = paraphrase.terms(self.claim, mapping)
        self.plain = frozenset(t for t in self.terms if t not in self.name_words or t in self.acronyms)
        # what the claim says of its names: the plain terms less the names' own stems ("scot")
        named = {t for t, _, _ in fx.content_terms(" ".join(self.name_words))}
        self.said = frozenset(t for t in self.plain if t not in named)


@dataclass
class Alignment:
    """The source sentence the claim is compared with (sentence i of src) and its window."""
    src: Source
    i: int
    window: list[Sent]
    best: Sent
    wterms: frozenset[str]
    wwords: frozenset[str]
    wlo: int
    whi: int
    score: float
    strong: bool
    memo: dict = field(default_factory=dict)  # what rules computed on it, to share (core.verify.rules)


def read(sentence: str, units: Iterable[dict], record_texts: Iterable[str], names: Names | None) -> Claim:
    """The claim's text, names, numbers and terms; the cited units prepared."""
    claim = claim_text(sentence).strip()
    sources = [Source(u) for u in units if u.get("text")]
    record_texts = [t for t in record_texts if t]
    names = names or Names(texts=[s.text for s in sources] + record_texts)
    # a word opening the sentence says nothing by its capital, unless the workspace's documents
    # write it capitalised mid-sentence ("Siemens shared last week ...": ", Siemens shared how")
    found_names = [replace(n, initial=False) if n.initial and all(names.written_as_name(w) for w in n.words) else n
                   for n in fx.names(claim)]
    name_words = {w for n in found_names if not n.initial for w in n.words}  # "The", "Meeting" opening a sentence are words
    # the claim's words that the cited text does not hold, in the text's words where WordNet
    # relates them (core.verify.paraphrase)
    have = frozenset().union(*(s.terms for s in sources)) if sources else frozenset()
    mapping = paraphrase.rewrite(claim, have, frozenset(name_words)) if paraphrase.ENABLED else {}
    c = Claim(claim, sources, record_texts, names, found_names, name_words, fg.numbers(claim), have,
               mapping, frozenset(), frozenset(), acronyms=_acronym_terms(claim, found_names))
    c.reterm(mapping)
    return c


def _acronym_terms(claim: str, found: list[fx.Name]) -> frozenset[str]:
    """The terms of the claim's one-word all-capital names of 2-5 letters that WordNet holds as
    common nouns ("RAM", "CPU"; not "UBS", an affiliation like any name)."""
    out = set()
    for n in found:
        word = claim[n.start:n.end]
        if len(n.words) == 1 and word.isupper() and word.isalpha() and 2 <= len(word) <= 5 \
                and wordnet.common_noun(word):
            t = fx.term(word)
            if t:
                out.add(t)
    return frozenset(out)


def locate(c: Claim) -> tuple[Source, int] | None:
    """The source sentence sharing most of the claim's terms. A claim word may stand for several
    words of the text (WordNet is sense-blind): the sentence that holds most of the claim's words
    in any of their relatives is the one compared, and each word is read as the relative that
    sentence holds (which re-terms the claim)."""
    located = al.best(c.sources, c.terms, c.said, tuple(c.nums)) if c.terms else None
    if located is not None and c.mapping:
        alts = paraphrase.choices(c.claim, c.have, frozenset(c.name_words))
        other = al.best_alternatives(c.sources, alts, frozenset(c.name_words))
        if other is not None and other != located:
            near = frozenset().union(*(s.terms for s in al.window(other[0], other[1], c.terms)))
            local = paraphrase.rewrite(c.claim, near, frozenset(c.name_words))
            c.reterm({**c.mapping, **local})
            located = other
    return located


def align(c: Claim, src: Source, i: int, aligned: float = ALIGNED) -> Alignment:
    window = al.window(src, i, c.terms)
    wterms = frozenset().union(*(s.terms for s in window))
    score = len(c.terms & wterms) / len(c.terms) if c.terms else 0.0
    strong = bool(c.plain) and len(c.plain & wterms) / len(c.plain) >= aligned
    return Alignment(src, i, window, src.sents[i], wterms, frozenset().union(*(s.words for s in window)),
                    window[0].start, window[-1].end, score, strong)



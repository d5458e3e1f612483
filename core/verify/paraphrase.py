"""A claim's words in the cited text's words: a word of the sentence that the cited text does not
hold stands for a WordNet relative of it that the text does hold ("pupils" for "students",
"secluded" for "isolated"; core.text.wordnet). Only relatives that occur in the cited text
count, so a word's other senses find nothing to match. Names and numbers are never rewritten."""
from __future__ import annotations

import functools

from core.verify import facts as fx
from core.text import wordnet

# which relatives count: the synsets of every sense (0) or only the first N; and whether the
# similar-to / derivation links one step away count too. Chosen by bench/verify_claims.py on its
# development part: every sense, synsets only (the links raised false accepts). ENABLED=False
# judges without WordNet (for the bench's before/after).
SENSES = 0
LINKS = False
ENABLED = True
PHRASES = True


def rewrite(claim: str, have: frozenset[str], skip: frozenset[str] = frozenset()) -> dict[str, str]:
    """{lower-case word of the claim: the term of the cited text it stands for} for the claim's
    content words whose own term is not in have (the cited text's terms); skip: name words."""
    out: dict[str, str] = {}
    toks = [t for t in fx.tokens(claim) if t.text[:1].isalpha()]
    nxt = {t.start: toks[i + 1].low for i, t in enumerate(toks[:-1])}
    for term, a, b in fx.content_terms(claim):
        word = claim[a:b].lower()
        if term in have or word in skip or word in out or not word.isalpha():
            continue
        # a two-word lemma first ("broke up" = "adjourned"), then the word alone
        hit = (_relative_in(word, have, nxt[a]) if PHRASES and a in nxt else None) or _relative_in(word, have)
        if hit is not None:
            out[word] = hit
    return out


def _relative_in(word: str, have: frozenset[str], then: str = "") -> str | None:
    for t in sorted(_relative_terms(word, then)):
        if t in have:
            return t
    return None


@functools.lru_cache(maxsize=65536)
def _relative_terms(word: str, then: str = "") -> frozenset[str]:
    out = set()
    for r in wordnet.related(word, links=LINKS, senses=SENSES, then=then):
        t = fx.term(r)
        if t:
            out.add(t)
    return frozenset(out)


def terms(text: str, mapping: dict[str, str]) -> frozenset[str]:
    """The content terms of text with the claim's words rewritten."""
    return frozenset(mapping.get(text[a:b].lower(), t) for t, a, b in fx.content_terms(text))


def choices(claim: str, have: frozenset[str], skip: frozenset[str] = frozenset()) -> list[tuple[str, frozenset[str]]]:
    """(the claim word's own term, the terms it may stand for in the cited text: its own and
    every WordNet relative the text holds) for each content word of the claim; names (skip)
    stand for themselves only."""
    out = []
    toks = [t for t in fx.tokens(claim) if t.text[:1].isalpha()]
    nxt = {t.start: toks[i + 1].low for i, t in enumerate(toks[:-1])}
    for term, a, b in fx.content_terms(claim):
        word = claim[a:b].lower()
        alts = {term}
        if term not in have and word not in skip and word.isalpha():
            alts |= _relative_terms(word) & have
            if PHRASES and a in nxt:
                alts |= _relative_terms(word, nxt[a]) & have
        out.append((term, frozenset(alts)))
    return out

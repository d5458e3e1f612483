"""The terms of a unit that are no proper names: lower-case noun phrases it repeats ("community
reports") and the headings its text says again ("Global Search" over "the global search
method"). Both are kept as entities on purpose; each hit is (sentence index, start, end), keyed by
the term's words in upper case, as the offline engine keys its candidates."""
from __future__ import annotations

import re
from typing import Sequence

from core.offline.mentions import content_word, masked_sentence, skip_sentence
from core.textutil import has_cjk

Hits = list[tuple[int, int, int]]

_HEADING_WORDS = re.compile(r"[A-Za-z][A-Za-z-]*")
# the words of a document's own parts: a heading holding one names a part, not a term
_PART_WORDS = frozenset("""overview introduction summary conclusion conclusions benefits improvements statement
    steps started notes note examples example usage requirements features background motivation rationale
    abstract references appendix faq details contents discussion limitations acknowledgements acknowledgments
    copyright footnotes resources changes goals highlights questions answers""".split())


def noun_phrases(sentences: list[str], edges: Sequence[Sequence[int]] = (), min_count: int = 3,
                 limit: int = 3) -> dict[str, Hits]:
    """Salient noun phrases, sparingly: a lower-case pair of content words ("community reports")
    repeated at least min_count times in the unit; at most `limit` per unit. edges[i]: where
    markup begins or ends in sentence i (inline code, bold), which no phrase runs across."""
    hits: dict[str, Hits] = {}
    for i, s in enumerate(sentences):
        if has_cjk(s) or skip_sentence(s):
            continue
        ws = list(re.finditer(r"(?<![A-Za-z])[a-z][a-z-]+(?![A-Za-z])", masked_sentence(s)))
        for m1, m2 in zip(ws, ws[1:]):
            a, b = m1.group(0), m2.group(0)
            if i < len(edges) and any(m1.end() <= x <= m2.start() for x in edges[i]):
                continue
            if s[m1.end():m2.start()] != " " or not content_word(a) or not content_word(b) or b.endswith(("ed", "ing")):
                continue
            hits.setdefault(f"{a} {b}".upper(), []).append((i, m1.start(), m2.end()))
    ranked = sorted((k for k, v in hits.items() if len(v) >= min_count),
                    key=lambda k: (-len(hits[k]), hits[k][0]))
    return {k: hits[k] for k in ranked[:limit]}


def heading_terms(headings: list[str], sentences: list[str]) -> dict[str, tuple[str, Hits]]:
    """A heading of two to four words that the text under it says again, in any case, twice or
    once in the heading's own capitals: the page's subject, a term of the corpus. Its key ->
    (the heading's words as it writes them, "Global Search"; the sentences' hits). A heading with
    figures, code or punctuation, one opening or closing on a stop word ("How to use") or naming
    a part of the page ("Core Benefits", "Next Steps") is none."""
    out: dict[str, tuple[str, Hits]] = {}
    for h in headings:
        words = _HEADING_WORDS.findall(h)
        if not 2 <= len(words) <= 4 or len(" ".join(words)) < len(h.strip(" #*_:\t\n").strip()) - 4:
            continue
        if not all(content_word(w.lower()) or w.isupper() for w in (words[0], words[-1])):
            continue
        if any(w.lower() in _PART_WORDS for w in words):
            continue
        pattern = re.compile(r"(?<![A-Za-z])" + r"[\s-]+".join(map(re.escape, words)) + r"(?![A-Za-z])", re.I)
        hits = [(i, m.start(), m.end()) for i, sent in enumerate(sentences)
                for m in pattern.finditer(masked_sentence(sent))]
        title = " ".join(words)
        if len(hits) >= 2 or any(" ".join(sentences[i][a:b].split()) == title for i, a, b in hits):
            out.setdefault(title.upper(), (title, hits))
    return out

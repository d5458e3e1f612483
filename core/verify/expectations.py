"""A result against expectations, reversed: "beat expectations" where the passage says "fell short
of expectations", "slightly weaker than expected" for "slightly better than we expected", "in
line with expectations" for "ahead of expectations". Earnings calls say how every figure came
out against a forecast, and a paraphrase that flips it keeps every other word.

Two scales, so that a paraphrase is never read as a reversal: quality (ahead of, better, beat /
behind, worse, missed) and size (higher, more / lower, less: "costs lower than expected" is good
news, yet no opposite of "better than expected"); "in line with" and "as expected" sit at the
middle of both. A phrase with a negation just before it ("did not meet expectations") counts as
its opposite. A claim with one such phrase is compared with the sentence's one, or, of several, with the one whose
words before it the claim shares most. General
English; nothing is fitted to a corpus."""
from __future__ import annotations

import re

_EXP = r"(?:our\s+|the\s+|market\s+|analysts[’']?\s+|consensus\s+)?(?:expectations?|expected|forecasts?|guidance)"
_THAN = r"(?:[-\s]+than[-\s]+(?:[\w\u2019']+\s+){0,3}?(?:expected|anticipated|forecast|planned)" \
        r"|\s+than\s+" + _EXP + r")"
# (pattern, scale, sign): scale "q" quality, "s" size, "*" both (the middle)
_PHRASES = [
    (r"\b(?:ahead\s+of|exceed(?:ed|ing|s)?|beat(?:ing|s)?|surpass(?:ed|es|ing)?|top(?:ped|s)?|outpac(?:ed|es|ing)|"
     r"favou?rable\s+to|above)\s+" + _EXP, "q", 1),
    (r"\b(?:better|stronger|more\s+favou?rable)" + _THAN, "q", 1),
    (r"\b(?:behind|short\s+of|miss(?:ed|es|ing)?|below|under)\s+" + _EXP, "q", -1),
    (r"\b(?:worse|weaker|softer|less\s+favou?rable)" + _THAN, "q", -1),
    (r"\b(?:disappointing|disappointed)\b", "q", -1),
    (r"\b(?:higher|more|larger|greater|bigger)" + _THAN, "s", 1),
    (r"\b(?:lower|less|smaller|fewer)" + _THAN, "s", -1),
    (r"\b(?:in\s+line\s+with|consistent\s+with|on\s+track\s+with|met|meet(?:s|ing)?|matched|matching)\s+" + _EXP
     + r"|\bas\s+(?:we\s+)?(?:had\s+)?(?:expected|anticipated|forecast)", "*", 0),
]
_COMPILED = [(re.compile(p, re.I), scale, sign) for p, scale, sign in _PHRASES]
_NEG_BEFORE = re.compile(r"\b(?:not|n[’']t|never|no|failed\s+to|fail(?:s|ing)?\s+to)\s+(?:\w+\s+){0,2}$", re.I)


def phrases(text: str) -> list[tuple[str, int, int, int]]:
    """(scale, sign, start, end) of each result-against-expectation phrase, negations applied."""
    out: list[tuple[str, int, int, int]] = []
    taken: list[tuple[int, int]] = []
    for rx, scale, sign in _COMPILED:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            s = sign
            if _NEG_BEFORE.search(text[max(0, m.start() - 30):m.start()]):
                s = -1 if sign >= 0 else 0  # "did not meet", "not ahead of": below; "not below": the middle at best
            out.append((scale, s, m.start(), m.end()))
    return sorted(out, key=lambda x: x[2])


def _lead(text: str, at: int, n: int = 8) -> set[str]:
    """The longer words among the n before position at (lower case)."""
    return {w for w in re.findall(r"[a-z0-9]+", text[:at].lower())[-n:] if len(w) > 2}


def reversed_result(claim: str, sentence: str) -> tuple[str, int, int] | None:
    """(the claim's phrase, start and end of the sentence's) when the two say opposite things of
    one result against expectations, on a scale they share; else None."""
    mine, theirs = phrases(claim), phrases(sentence)
    if len(mine) != 1 or not theirs:
        return None
    if len(theirs) > 1:  # the sentence's phrase about what the claim's is about: the one whose
        # words before it ("PC market demand was slightly ...") the claim's share most, two at least
        lead = _lead(claim, mine[0][2])
        shared = [len(lead & _lead(sentence, t[2])) for t in theirs]
        best = max(shared)
        if best < 2 or shared.count(best) > 1:
            return None
        theirs = [theirs[shared.index(best)]]
    (cs, csign, ca, cb), (ss, ssign, sa, sb) = mine[0], theirs[0]
    if cs != ss and "*" not in (cs, ss):
        return None  # "lower than expected" costs is no opposite of "better than expected"
    if csign == ssign:
        return None
    return claim[ca:cb], sa, sb

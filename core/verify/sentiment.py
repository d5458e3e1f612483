"""A reversal said with words of opposite feeling: the claim says "resented" where the passage says
"appreciating", "tense" where it says "relaxed", "struggled" where it says "did a super good
job". No antonym list holds every such pair; a valence lexicon does (VADER's, 7,500 words
rated by people from -4 to +4: the `vaderSentiment` package, MIT, read from its own data file,
offline). A claim word of clear feeling that the compared passage lacks, met by a passage word of
clear opposite feeling that the claim lacks, in a passage strongly aligned with the claim, reads
as a reversed polarity."""
from __future__ import annotations

import functools
import importlib.resources

from core.text.support import stem
from core.textutil import STOPWORDS
from core.verify import facts as fx
from core.verify import lexicon as lx
from core.text import wordnet

CLEAR = 1.0  # a word's mean rating at least this far from 0 is of clear feeling


@functools.lru_cache(maxsize=1)
def _lexicon() -> dict[str, float]:
    try:
        path = importlib.resources.files("vaderSentiment") / "vader_lexicon.txt"
        text = path.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0].isalpha():
            try:
                out[parts[0].lower()] = float(parts[1])
            except ValueError:
                pass
    return out


@functools.lru_cache(maxsize=65536)
def valence(word: str) -> float:
    """The word's rating, or its base form's ("appreciating": appreciate); 0 when unrated, and
    for negation cues and stop words (their reversal is read elsewhere)."""
    w = word.lower()
    if w in STOPWORDS or w in lx.NEGATIONS or not w.isalpha():
        return 0.0
    lex = _lexicon()
    if w in lex:
        return lex[w]
    for base, _ in wordnet.bases_of(w):
        if base in lex:
            return lex[base]
    return 0.0


def _words(text: str) -> list[tuple[str, float, int, int]]:
    """(stem, rating, start, end) of the content words of text, in order."""
    out = []
    for t in fx.tokens(text):
        if t.text[:1].isalpha() and t.low not in STOPWORDS:
            st = stem(t.low)
            # a capitalised word inside a sentence is a name ("LinkedIn Talent Solutions"), and a
            # word of the antonym list ("lower", "higher") is read by the antonym check
            felt = t.initial or not t.text[:1].isupper()
            v = valence(t.low) if felt and st not in fx.ANTONYMS and fx.canon(st) not in fx.ANTONYMS else 0.0
            out.append((st, v, t.start, t.end))
    return out


def _near(words: list, i: int) -> set[str]:
    """The stems of the content words up to REACH either side of word i."""
    return {w[0] for w in words[max(0, i - REACH):i] + words[i + 1:i + 1 + REACH]}


# content words either side that make a word's slot; at 2, "Sam Rivera joked that everyone should
# have brought their good luck charms" met "a tension palpable, Sam Rivera piped in": a false reversal
REACH = 1


def reversed_feeling(claim: str, passage: str) -> tuple[str, int, int] | None:
    """(the claim word, start, end of the passage word) when the claim says a word of clear
    feeling that the passage lacks, and the passage, in the same slot (a content word in common
    at most REACH words either side: "resented the leadership" / "appreciating the leadership",
    "tense posture" / "posture relaxed"), a word of the opposite feeling that the claim lacks."""
    mine, theirs = _words(claim), _words(passage)
    cst, pst = {w[0] for w in mine}, {w[0] for w in theirs}
    for i, (s, v, a, b) in enumerate(mine):
        if abs(v) < CLEAR or s in pst:
            continue
        around = _near(mine, i)
        for j, (t, w, x, y) in enumerate(theirs):
            if abs(w) >= CLEAR and (v > 0) != (w > 0) and t not in cst and around & _near(theirs, j):
                return claim[a:b], x, y
    return None

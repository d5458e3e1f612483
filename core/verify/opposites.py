"""A word of the sentence met by its dictionary opposite in the passage: "a heavy load" against
"very light to carry", "impatient" against "patient", "watched over" against "unwatched". The
antonym list (words/antonyms.txt) holds the opposites of quantities and trends; WordNet's
antonym links and the negative prefixes (un-, in-, dis-, non-) reach the rest. Such an opposite
says the passage may reverse the sentence, not that it does (the word may be about another fact
of the passage): the rule that reads it is not trusted alone, so it makes "check this", never a
false "supported"."""
from __future__ import annotations

from core.text import wordnet
from core.text.support import stem
from core.textutil import STOPWORDS
from core.verify import facts as fx
from core.verify import lexicon as lx

ORDINALS = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth last".split())
# content words either side that make a word's slot: "a heavy load to carry" / "very light to
# carry" share "carry"; an opposite elsewhere in the sentence is about another fact of it
REACH = 2

PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")


def _negated(text: str, at: int, cues: list[tuple[int, int]]) -> bool:
    """Is there a negation cue in the 30 characters before the word at `at`?"""
    return any(e <= at and at - e <= 30 for _, e in cues)


def _words(text: str) -> list[tuple[str, str, int, int]]:
    """(lower-case word, stem, start, end) of the plain content words of text: no stop word,
    no name (a capitalised word inside its sentence), no figure, no word opening a two-word
    lemma ("high school", "light year": no height, no weight)."""
    out = []
    toks = fx.tokens(text)
    for t, nxt in zip(toks, list(toks[1:]) + [None]):
        if nxt is not None and not text[t.end:nxt.start].strip() and wordnet.phrase(t.low, nxt.low) is not None:
            continue
        if t.text.isalpha() and t.low not in STOPWORDS and len(t.low) > 2 \
                and t.low not in lx.UNITS and t.low not in lx.SCALES and t.low not in ORDINALS \
                and (t.initial or not t.text[:1].isupper()):
            out.append((t.low, stem(t.low), t.start, t.end))
    return out


def _opposite_stems(word: str) -> set[str]:
    """The stems of a word's opposites: WordNet's antonyms of its adjective and adverb senses (a
    noun's, "mother": father, are other people, the name rules' to check; a verb's, "guide":
    follow, are often two sides of one act) and the word with a negative prefix."""
    return {stem(w) for w in wordnet.antonyms(word, pos_of=("a", "r"))} | {stem(p + word) for p in PREFIXES}


def _unprefixed(word: str) -> str | None:
    """The root of a word with a negative prefix when what is left is an English word
    ("unwatched": watch, "unmusical": music)."""
    for p in PREFIXES:
        rest = word[len(p):]
        if word.startswith(p) and len(rest) >= 4 and wordnet.english_word(rest):
            return stem(rest)
    return None


def _same_root(a: str, b: str) -> bool:
    return len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))


def reversed_word(claim: str, passage: str) -> tuple[str, int, int] | None:
    """(the claim word, start, end of the passage word) when a word of the claim that the passage
    lacks has its opposite in the passage and the claim lacks that opposite, neither of them
    negated (a negated opposite says the same thing: "not light" for "heavy"), in the same slot
    (a content word in common at most REACH words either side)."""
    mine, theirs = _words(claim), _words(passage)
    cst = {s for _, s, _, _ in mine}
    pst = {s for _, s, _, _ in theirs}
    pcanon = {fx.canon(s) for s in pst}
    ccues, pcues = fx.negation_positions(claim), fx.negation_positions(passage)
    def near(words: list, i: int) -> set[str]:
        return {fx.canon(w[1]) for w in words[max(0, i - REACH):i] + words[i + 1:i + 1 + REACH]}

    for i, (word, s, a, b) in enumerate(mine):
        if s in pst or fx.canon(s) in pcanon or _negated(claim, a, ccues):
            continue
        opposite = _opposite_stems(word) - cst
        around = near(mine, i)
        for j, (pword, t, x, y) in enumerate(theirs):
            if t in cst or _negated(passage, x, pcues) or not around & near(theirs, j):
                continue
            if t in opposite or s in _opposite_stems(pword) \
                    or any(r is not None and _same_root(r, o) for r, o in ((_unprefixed(word), t), (_unprefixed(pword), s))):
                return claim[a:b], x, y
    return None

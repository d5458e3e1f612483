"""The key facts a sentence asserts, found by rule (no model): its tokens, names, and the
negation cues and content terms (stemmed, synonyms folded) that the judge compares polarity and
meaning with; its figures are read by core/verify/figures.py.

Every token keeps its character span, so a fact found in a source points at exact text."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from core.text import wordnet
from core.text.support import stem
from core.textutil import STOPWORDS
from core.verify import lexicon as lx

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|\$|€|£|%|[0-9]+(?:,[0-9]{{3}})*(?:\.[0-9]+)?|"
                    r"[A-Za-z\u00c0-\u024f](?:[A-Za-z\u00c0-\u024f0-9&]|['\u2019](?=[A-Za-z]))*")


class Token(NamedTuple):
    text: str
    start: int
    end: int
    initial: bool  # starts a sentence, quote or heading (a capital says nothing there)

    @property
    def low(self) -> str:
        return self.text.lower().replace("\u2019", "'")


_CJK_NEXT = re.compile(r"[ \t]*[\u3400-\u9fff]")
_OPENERS = frozenset(".!?:;\"\u201c\u201d([\u2014\u2013'\u2018\u2026")  # "…" too: a quote's words left out


@functools.lru_cache(maxsize=16384)
def tokens(text: str) -> tuple[Token, ...]:
    out = []
    for m in _TOKEN.finditer(text):
        s = m.start()
        k = s - 1
        while k >= 0 and text[k] in " \t\r\n":
            k -= 1
        initial = k < 0 or text[k] in _OPENERS or text[k] == "-" and k > 0 and text[k - 1] == "-" \
            or text.count("\n", k, s) >= 2
        if initial and _CJK_NEXT.match(text, m.end()):
            initial = False  # Chinese text capitalises nothing: "Gao 等人在综述中" opens with a name
        out.append(Token(m.group(0), s, m.end(), initial))
    return tuple(out)


def _is_cap(tok: str) -> bool:
    return tok[0].isupper() or (len(tok) > 1 and any(c.isupper() for c in tok[1:]) and tok[0].isalpha())


def _odd_case(tok: str) -> bool:
    """GraphRAG, LangChain, EY, H&R: capitals inside the word say it is a name even first."""
    return len(tok) > 1 and any(c.isupper() for c in tok[1:]) and not tok.isupper() or \
        (tok.isupper() and 2 <= len(tok) <= 5 and tok.isalpha())


def _name_word(t: Token) -> str:
    w = t.low
    for suffix in ("'s", "'"):
        if w.endswith(suffix):
            w = w[: -len(suffix)]
    return w


@dataclass(frozen=True)
class Name:
    surface: str
    start: int
    end: int
    words: tuple[str, ...]  # lower case, titles dropped
    initial: bool  # a single word at a sentence start: maybe not a name at all


PERIOD = re.compile(r"^(?:fy\d{2,4}|q[1-4]|h[12]|fy\d{2}q[1-4])$")  # "FY23", "Q3": a fiscal period


def names(text: str) -> list[Name]:
    """Runs of capitalised words (titles such as Mr. and Dr. kept in the surface, not the words).
    A capitalised word that opens a sentence counts only when it is part of a longer run or has
    capitals inside (LangChain, EY); all-capital text is read as the speaker labels of a
    transcript (SATYA NADELLA:) only when the run is short."""
    toks = [t for t in tokens(text) if t.text[0].isalpha() and not ("\u3400" <= t.text[0] <= "\ufaff")]
    out: list[Name] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if not _is_cap(t.text):
            i += 1
            continue
        run = [t]
        j = i + 1
        # a possessive ends a name: "Microsoft's AI services" names Microsoft, then AI; so does a
        # fiscal period next to a name ("In FY23 Q3 Microsoft said": FY23 Q3, then Microsoft)
        while j < len(toks) and _is_cap(toks[j].text) and not run[-1].low.endswith(("'s", "\u2019s")) \
                and bool(PERIOD.match(run[-1].low)) == bool(PERIOD.match(toks[j].low)) and (
                text[run[-1].end:toks[j].start] in (" ", "-")
                or text[run[-1].end:toks[j].start] == ". " and (run[-1].low in lx.TITLES or len(run[-1].text) == 1)):
            run.append(toks[j])
            j += 1
        i = j
        words = [_name_word(r) for r in run]
        keep = [(r, w) for r, w in zip(run, words)
                if w not in lx.TITLES and w not in lx.NOT_NAMES and w not in STOPWORDS and len(w) > 1]
        if not keep:
            continue
        initial = run[0].initial and len(keep) == 1 and keep[0][0] is run[0] and not _odd_case(run[0].text)
        first, last = keep[0][0], keep[-1][0]
        if run.index(first) > 0 and run[run.index(first) - 1].low in lx.TITLES:
            first = run[run.index(first) - 1]  # "Dr. Chen", not "Chen"
        surface = text[first.start:last.end]
        for suffix in ("'s", "\u2019s", "'", "\u2019"):
            if surface.endswith(suffix):
                surface = surface[: -len(suffix)]
                break
        out.append(Name(surface, first.start, first.start + len(surface), tuple(w for _, w in keep), initial))
    return out


def title_case(text: str) -> bool:
    """A heading written in title case: most of its words of four letters or more capitalised,
    and no full stop at its end."""
    if text.rstrip().endswith((".", "!", "?", "\u3002", "\uff01", "\uff1f")):
        return False
    words = [t.text for t in tokens(text) if t.text[0].isalpha() and len(t.text) >= 4
             and not ("\u3400" <= t.text[0] <= "\ufaff")]
    return len(words) >= 3 and sum(w[0].isupper() for w in words) / len(words) >= 0.6


def canon(term: str) -> str:
    return lx.SYNONYMS.get(term, term)


# Months and weekdays are stop words for search but key facts of a date here.
_DATE_WORDS = frozenset("january february march april may june july august september october november december "
                        "monday tuesday wednesday thursday friday saturday sunday".split()) - {"may", "march"}
_STOP_EXTRA = frozenset("said say says also just really actually like".split())


@functools.lru_cache(maxsize=65536)
def _term(word: str) -> str | None:
    w = word.lower().replace("\u2019", "'")
    if "'" in w:
        w = w.split("'", 1)[0]
    if (w in STOPWORDS and w not in _DATE_WORDS) or w in _STOP_EXTRA or w in lx.NEGATIONS or len(w) < 2 or w[0].isdigit():
        return None
    # an irregular verb form is its verb ("grew" is "grow", "shrank" is "shrink")
    st = stem(wordnet.irregular_verb(w) or w)
    # who a verb's action falls on ("employees", "trainees") is a person, not the verb: its stem
    # is no synonym of the verb's ("employees" are not "deployed")
    c = st + "ee" if w.endswith(("ee", "ees")) and len(w) > 5 and not st.endswith("e") else canon(st)
    return c[:PREFIX] if PREFIX and c.isascii() else c


def term(word: str) -> str | None:
    """The content term of one word (None for a stop word, a negation, a number)."""
    return _term(word)


# Terms are cut to their first PREFIX letters ("tenderness" and "tender", "transcribing" and
# "transcript" meet); 0 keeps them whole. Chosen by measurement (bench/verify_claims.py).
PREFIX = 6


_ZH_SPLIT = re.compile("[的了是在和与及也就都而并被把这那其之或等个为以于对将从中上下有着过所不没未无非]")


def content_terms(text: str) -> list[tuple[str, int, int]]:
    """(term, start, end) of the content words of text: stemmed, synonyms folded, stop words,
    negations and digits dropped; CJK runs as character bigrams (split at function characters)."""
    out = []
    for t in tokens(text):
        if "\u3400" <= t.text[0] <= "\ufaff":
            pos = 0
            for piece in _ZH_SPLIT.split(t.text):
                at = t.text.find(piece, pos) if piece else pos
                pos = at + len(piece)
                if len(piece) == 1:
                    out.append((piece, t.start + at, t.start + at + 1))
                for k in range(len(piece) - 1):
                    bg = piece[k:k + 2]
                    out.append((canon(bg), t.start + at + k, t.start + at + k + 2))
            continue
        if not t.text[0].isalpha():
            continue
        for part in t.text.split("-") if "-" in t.text else (t.text,):
            term = _term(part)
            if term:
                out.append((term, t.start, t.end))
    return out


_DETERMINERS = frozenset("the a an that this his her its their our your my wicked".split())
_HEDGE_VERBS = frozenset("know knows knew remember remembers recall recalls say tell".split())
_WH = frozenset("how what when where why who whether if which".split())


def negation_positions(text: str) -> list[tuple[int, int]]:
    """Spans of the negation cues of text (not, no, never, without, -n't; Chinese 不 没 未 ...)."""
    out = []
    toks = tokens(text)
    for i, t in enumerate(toks):
        low = t.low
        if i and (low, toks[i - 1].low) in (("than", "rather"), ("of", "instead")):
            out.append((toks[i - 1].start, t.end))  # "A rather than B" says "not B"
        elif "\u3400" <= t.text[0] <= "\ufaff":
            masked = t.text
            for w in lx.ZH_NOT_NEGATIONS:
                masked = masked.replace(w, "\0" * len(w))
            for cue in lx.ZH_NEGATIONS:
                k = masked.find(cue)
                while k >= 0:
                    out.append((t.start + k, t.start + k + 1))
                    k = masked.find(cue, k + 1)
        elif low in lx.NEGATIONS or low.endswith("n't") or low in ("dont", "didnt", "cant", "wont"):
            if low == "no" and text[t.end:t.end + 1] == "-" and text[t.end + 1:t.end + 2].isalpha():
                continue  # "no-code tools", "a no-show": a compound, not a negation
            after = [x.low for x in toks[i + 1:i + 8]]
            if after and after[0] in lx.NOT_NEGATING.get(low, ()):
                continue
            if low == "cant" and i and toks[i - 1].low in _DETERMINERS:
                continue  # "that wicked cant", "the cant of the day": the noun
            if after[:1] and after[0] in _HEDGE_VERBS and after[1:2] and after[1] in _WH:
                continue  # "I don't know how many years": a hedge on what follows, which it leaves said
            if low == "not" and i and toks[i - 1].low == "or" and (
                    i > 1 and toks[i - 2].low == "whether" or i + 1 == len(toks)
                    or text[t.end:toks[i + 1].start].strip()):
                continue  # "whether or not", "empathy or not, we ...": either way, no negation
            if low == "not" and after[:1] in (["so"], ["as"]) and "as" in after[2:6]:
                continue  # "not so like a child as like an old man": a comparison of degree
            if low == "not" and "alone" in after[1:4] and not any(w in lx.NEGATIONS for w in after[:4]):
                continue  # "not technology alone", "not by bread alone": X and more
            if low == "nor" and any(x.low in ("neither", "not", "no", "never") or x.low.endswith("n't")
                                    for x in toks[max(0, i - 12):i]):
                continue  # "neither A nor B", "not A nor B": one negation governing both
            out.append((t.start, t.end))
    return out


def _stemmed_antonyms() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for word, opposites in lx.ANTONYMS.items():
        key = stem(word) if word.isascii() else word
        out.setdefault(key, set()).update(stem(o) if o.isascii() else o for o in opposites)
    return {k: frozenset(v) for k, v in out.items()}


ANTONYMS = _stemmed_antonyms()


def raw_stems(text: str) -> list[tuple[str, int, int]]:
    """(stem, start, end) of every word (no synonym folding), for the antonym check."""
    out = []
    for t in tokens(text):
        if "\u3400" <= t.text[0] <= "\ufaff":
            for word in ANTONYMS:
                if not word.isascii():
                    k = t.text.find(word)
                    if k >= 0:
                        out.append((word, t.start + k, t.start + k + len(word)))
        elif t.text[0].isalpha():
            for part in t.text.lower().split("-"):
                out.append((stem(part.split("'")[0]), t.start, t.end))
    return out

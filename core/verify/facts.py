"""The key facts a sentence asserts, found by rule (no model): names, numbers (with their unit:
money, percent, year, or the word that follows; written-out numbers too: "fifteen" = 15,
"eighteen hundred" = 1800, "$28.5 billion", "10%", "a quarter of" = 25%), and the negation cues
and content terms (stemmed, synonyms folded) that the judge compares polarity and meaning with.

Every token keeps its character span, so a fact found in a source points at exact text."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from core.query.support import stem
from core.textutil import STOPWORDS
from core.verify import lexicon as lx

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|\$|€|£|%|[0-9]+(?:,[0-9]{{3}})*(?:\.[0-9]+)?|"
                    r"[A-Za-z\u00c0-\u024f](?:[A-Za-z\u00c0-\u024f0-9&]|['\u2019](?=[A-Za-z]))*")
_HYPHEN_SPLIT = re.compile(r"-")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$")


class Token(NamedTuple):
    text: str
    start: int
    end: int
    initial: bool  # starts a sentence, quote or heading (a capital says nothing there)

    @property
    def low(self) -> str:
        return self.text.lower().replace("\u2019", "'")


_CJK_NEXT = re.compile(r"[ \t]*[\u3400-\u9fff]")
_OPENERS = frozenset(".!?:;\"\u201c\u201d([\u2014\u2013'\u2018")


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
        while j < len(toks) and _is_cap(toks[j].text) and (
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


@dataclass(frozen=True)
class Number:
    value: float
    kind: str  # money | percent | year | count
    unit: str  # the stemmed word after it ("shilling"), "" when none
    surface: str
    start: int
    end: int


def _written(words: list[str]) -> float | None:
    """The value of written-out number words ("eighteen hundred", "twenty-one", "a thousand")."""
    total, current, seen = 0.0, 0.0, False
    for w in words:
        if w in lx.UNITS:
            current += lx.UNITS[w]
            seen = True
        elif w in lx.SCALES and w not in ("k", "m", "bn"):
            current = (current or 1) * lx.SCALES[w]
            if lx.SCALES[w] >= 1000:
                total, current = total + current, 0.0
            seen = True
        elif w in ("a", "and") and not seen:
            continue
    return total + current if seen else None


def _small(word: str) -> float | None:
    """The value of a one-word count: digits or a written number word ("three", "12")."""
    if word.isdigit():
        return float(word)
    return float(lx.UNITS[word]) if word in lx.UNITS else None


def _shares(toks: tuple[Token, ...], text: str) -> dict[int, tuple[float, int]]:
    """{token index: (the share in percent, the index after it)} for the ratios said in words:
    "three in four", "1 out of 3", "three-fourths", "two thirds" (a share, as "75%" is)."""
    out: dict[int, tuple[float, int]] = {}
    for i, t in enumerate(toks):
        parts = t.low.split("-")
        if len(parts) == 2 and _small(parts[0]) and parts[1] in lx.DENOMINATORS:
            out[i] = (round(100 * _small(parts[0]) / lx.DENOMINATORS[parts[1]], 1), i + 1)
            continue
        n = _small(t.low)
        if not n or i > 0 and toks[i - 1].text in ("$", "\u20ac", "\u00a3"):
            continue
        if i + 1 < len(toks) and toks[i + 1].low in lx.DENOMINATORS and n < lx.DENOMINATORS[toks[i + 1].low]:
            out[i] = (round(100 * n / lx.DENOMINATORS[toks[i + 1].low], 1), i + 2)
            continue
        k = i + 2 if i + 1 < len(toks) and toks[i + 1].low == "in" else \
            i + 3 if i + 2 < len(toks) and toks[i + 1].low == "out" and toks[i + 2].low == "of" else None
        m = _small(toks[k].low) if k is not None and k < len(toks) else None
        if m and n < m <= 100 and (k + 1 >= len(toks) or toks[k + 1].low not in lx.SCALES):
            out[i] = (round(100 * n / m, 1), k + 1)
    return out


def _hours(toks: tuple[Token, ...]) -> dict[int, tuple[float, int]]:
    """{token index: (hours, the index after it)} for parts of an hour said in words: "a quarter
    of an hour", "three quarters of an hour", "half an hour", "a full half-hour" (a duration, not
    a share)."""
    out: dict[int, tuple[float, int]] = {}
    lows = [t.low for t in toks]
    for i, w in enumerate(lows):
        if w not in ("half", "quarter", "quarters"):
            continue
        k, frac = i + 1, lx.FRACTIONS.get(w.rstrip("s"), 0.25)
        if k < len(lows) and lows[k] == "of":
            k += 1
        if k < len(lows) and lows[k] in ("a", "an"):
            k += 1
        if k >= len(lows) or lows[k] != "hour":
            continue
        first, n = i, 1.0
        if i > 0 and (lows[i - 1] in ("a", "one") or _small(lows[i - 1])):
            first, n = i - 1, float(_small(lows[i - 1]) or 1)
            if first > 0 and lows[first] == "a" and lows[first - 1] in ("a",):
                first -= 1
        if i > 1 and lows[i - 1] in lx.COUNT_ADJECTIVES and lows[i - 2] in ("a", "one"):
            first = i - 2  # "a full half-hour"
        out[first] = (n * frac, k + 1)
    return out


def numbers(text: str) -> list[Number]:
    toks = tokens(text)
    out: list[Number] = []
    shares = _shares(toks, text)
    hours = _hours(toks)
    i = 0
    while i < len(toks):
        t = toks[i]
        low = t.low
        if i in hours:  # "a quarter of an hour": a quarter of an hour long
            value, j = hours[i]
            out.append(Number(value, "count", "hour", text[t.start:toks[j - 1].end], t.start, toks[j - 1].end))
            i = j
            continue
        if low == "one" and i + 2 < len(toks) and toks[i + 1].low in lx.COUNT_ADJECTIVES \
                and toks[i + 2].text[:1].isalpha() and toks[i + 2].low not in STOPWORDS:
            # "one other woman": a count of one (alone, "one" is a pronoun as often as a number)
            out.append(Number(1.0, "count", unit_stem(toks[i + 2].low), text[t.start:toks[i + 2].end],
                              t.start, toks[i + 2].end))
            i += 3
            continue
        if i in shares:
            value, j = shares[i]
            out.append(Number(value, "percent", "", text[t.start:toks[j - 1].end], t.start, toks[j - 1].end))
            i = j
            continue
        start, value, j = t.start, None, i + 1
        if low[0].isdigit() and not _ORDINAL.match(low):
            try:
                value = float(low.replace(",", ""))
            except ValueError:
                value = None
            if value is not None and "," in low and not re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", low):
                value = None
        else:
            parts = _HYPHEN_SPLIT.split(low)
            if parts[0] in lx.UNITS and parts[0] != "one" or \
                    (parts[0] in ("a", "one") and i + 1 < len(toks) and toks[i + 1].low in lx.SCALES
                     and toks[i + 1].low not in ("k", "m", "bn")):
                words = [p for p in parts if p in lx.UNITS or p in lx.SCALES]
                while j < len(toks) and (toks[j].low in lx.UNITS or toks[j].low in lx.SCALES
                                         and toks[j].low not in ("k", "m", "bn")) \
                        and text[toks[j - 1].end:toks[j].start].strip() in ("", "-"):  # "eight, ten": two figures
                    words.append(toks[j].low)
                    j += 1
                value = _written(words if parts[0] not in ("a", "one") else [parts[0]] + words)
                if parts[0] in ("a", "one"):
                    value = _written(words)
            elif low in lx.COLLECTIVES:
                out.append(Number(float(lx.COLLECTIVES[low]), "count", "", t.text, t.start, t.end))
                i += 1
                continue  # "the trio": three, counting the group itself (no unit after it)
            elif low == "a" and i + 2 < len(toks) and toks[i + 1].low == "couple" and toks[i + 2].low == "of":
                value, j = 2.0, i + 3  # "a couple of biology classes": two ("a pair of tongs" is one thing)
            elif low in ("a", "one") and i + 2 < len(toks) and toks[i + 1].low in lx.FRACTIONS \
                    and toks[i + 2].low == "of":
                out.append(Number(round(lx.FRACTIONS[toks[i + 1].low] * 100, 1), "percent", "",
                                  text[t.start:toks[i + 1].end], t.start, toks[i + 1].end))
                i += 3
                continue
        if value is None:
            i += 1
            continue
        kind, unit, end = "count", "", toks[j - 1].end
        if i > 0 and toks[i - 1].text in ("$", "€", "£") and toks[i - 1].end == t.start:
            kind, start = "money", toks[i - 1].start
        if j < len(toks) and toks[j].low in lx.SCALES and low[0].isdigit():
            value *= lx.SCALES[toks[j].low]
            end = toks[j].end
            j += 1
        if j < len(toks) and (toks[j].text == "%" or toks[j].low in ("percent", "pct")):
            kind, end = "percent", toks[j].end
            j += 1
        elif j + 1 < len(toks) and toks[j].low == "per" and toks[j + 1].low == "cent":
            kind, end = "percent", toks[j + 1].end
            j += 2
        if kind == "count" and 1800 <= value <= 2100 and value == int(value) and low.isdigit():
            kind = "year"
        elif kind == "count" and low.isdigit() and i > 0 and toks[i - 1].text[0].isupper() \
                and toks[i - 1].text.isalpha() and text[toks[i - 1].end:t.start] == " " and not toks[i - 1].initial:
            kind = "label"  # part of a name: "Microsoft 365", "Gears 5", "Windows 11"
        if kind == "count" and j < len(toks) and toks[j].text[0].isalpha() \
                and text[toks[j - 1].end:toks[j].start].strip() in ("", "-"):  # "to 785,000, including": no unit
            w = toks[j].low
            if "\u3400" <= w[0] <= "\ufaff":
                # a Chinese measure word is the run's first character ("10 分的...": 分); a
                # connective ("1 到 10": 到) counts nothing
                if w[0] not in lx.ZH_NOT_UNITS:
                    unit, end = w[0], toks[j].start + 1
            elif w in lx.COUNT_ADJECTIVES and j + 1 < len(toks) and toks[j + 1].text[:1].isalpha() \
                    and toks[j + 1].low not in STOPWORDS and toks[j + 1].low not in lx.NEGATIONS:
                k = j + 1  # "two other women": women; "three new game studios": studios
                if k + 1 < len(toks) and toks[k + 1].low.endswith("s") and not toks[k].low.endswith("s") \
                        and toks[k + 1].text[:1].isalpha() and toks[k + 1].low not in STOPWORDS \
                        and text[toks[k].end:toks[k + 1].start] == " ":
                    k += 1
                unit = unit_stem(toks[k].low.split("-")[0])
                end = toks[k].end
            elif w not in STOPWORDS and w not in lx.NEGATIONS:
                unit = unit_stem(w.split("-")[0])
                end = toks[j].end  # "fifteen shillings": the number with what it counts
        out.append(Number(value, kind, unit, text[start:end], start, end))
        i = j
    return out


def days(n: Number) -> float | None:
    """A duration's length in days ("twelve months", "2 years"), else None."""
    per = lx.DURATIONS.get(n.unit) if n.kind == "count" else None
    return n.value * per if per else None


_UNIT_WORDS = {"minut": "minute", "hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "decad": "decade",
               "centuri": "century"}


def one_unit_span(n: Number, text: str) -> tuple[int, int] | None:
    """Where text says a duration as one of a unit ("a year" for "twelve months"), else None."""
    d = days(n)
    for unit, per in lx.DURATIONS.items() if d is not None else ():
        if abs(d / per - 1) < 0.01 and unit != n.unit:
            m = re.search(rf"\b(?:a|an|one)\s+{_UNIT_WORDS[unit]}\b", text, re.I) or (
                # "up 50% year over year": a change over one year
                re.search(r"\byear[- ]over[- ]year\b|\bover the (?:past|last) year\b", text, re.I)
                if unit == "year" else None)
            if m:
                return m.start(), m.end()
    return None


def one_unit_rival(n: Number, text: str) -> tuple[int, int] | None:
    """Where text gives a duration as one of a unit that is another length than n ("a decade"
    against "two decades"), else None."""
    d = days(n)
    if d is None:
        return None
    for unit, per in lx.DURATIONS.items():
        m = re.search(rf"\b(?:a|an|one)\s+{_UNIT_WORDS[unit]}\b", text, re.I)
        if m and abs(d / per - 1) >= 0.01:
            return m.start(), m.end()
    return None


def unit_stem(word: str) -> str:
    """What a number counts, as a stem ("legs" and "leg": leg; "children" and "child": child;
    "employees": employee, not the verb "employ")."""
    word = lx.IRREGULAR_PLURALS.get(word, word)
    if word.endswith(("ee", "ees")) and len(word) > 5:
        return word[:-1] if word.endswith("s") else word
    return stem(word)


_PREDICATIVE = frozenset("was is were are be been being am as like became become becomes such".split())


def singular_rival(n: Number, text: str) -> tuple[int, int] | None:
    """Where text counts one of what n counts ("one child", "a bell" against "two children",
    "three bells"), for a count of several; None when it does not."""
    if n.kind != "count" or not n.unit or n.value < 2 or days(n) is not None:
        return None
    toks = tokens(text)
    for k, (t, u) in enumerate(zip(toks, toks[1:])):
        # "when I was a child", "as a child": what someone was, not how many there are
        if t.low in ("a", "an") and k and toks[k - 1].low in _PREDICATIVE:
            continue
        if t.low in ("one", "a", "an", "single") and u.text[:1].isalpha() and unit_stem(u.low) == n.unit \
                and text[t.end:u.start] == " ":
            return t.start, u.end
    return None


def same_number(a: Number, b: Number) -> bool:
    if a.value == b.value:
        if (days(a) is None) != (days(b) is None) and (a.unit if days(a) is None else b.unit):
            return False  # "two decades" is not "two-way" (a bare "12-" of "a 12- and a 14-year-old" may be)
        return a.unit == b.unit or days(a) is None or days(b) is None
    da, db = days(a), days(b)
    if da is not None and db is not None:
        return abs(da - db) / max(da, db) < 0.01  # "twelve months" = "one year" (= 52 weeks)
    if a.kind == b.kind == "percent" and a.value != int(a.value) or b.value != int(b.value) and b.kind == a.kind == "percent":
        return abs(a.value - b.value) < 0.5  # "a third" (33.3%) = "33%"
    if "year" in (a.kind, b.kind) or (a.value == int(a.value) and b.value == int(b.value) and max(a.value, b.value) < 10_000):
        return False  # 2023 is not 2024: rounding only for amounts and shares ("$28.47 billion" ~ "$28.5 billion")
    big = max(abs(a.value), abs(b.value))
    return big > 0 and abs(a.value - b.value) / big < 0.005


def comparable(a: Number, b: Number) -> bool:
    """Could b be another value of the same fact as a (same kind, and the same unit if both
    have one)?"""
    if a.kind != b.kind:
        return False
    if a.kind == "count":
        if days(a) is not None and days(b) is not None:
            return True  # "18 months" against "two years"
        return not a.unit or not b.unit or a.unit == b.unit or \
            lx.SYNONYMS.get(a.unit, a.unit) == lx.SYNONYMS.get(b.unit, b.unit)
    return True


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
    st = stem(w)
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

"""The figures a sentence asserts, found by rule (no model): numbers with their unit (money,
percent, year, or the word that follows; written-out numbers too: "fifteen" = 15, "eighteen
hundred" = 1800, "$28.5 billion", "10%", "a quarter of" = 25%, "three in four", "a quarter of an
hour"), durations in days, and when two figures are the same or rivals of one fact. Tokens come
from core/verify/facts.py; every figure keeps its character span."""
from __future__ import annotations

import re
from dataclasses import dataclass

from core.text.support import stem
from core.textutil import STOPWORDS
from core.verify import lexicon as lx
from core.verify.facts import Token, tokens

_HYPHEN_SPLIT = re.compile(r"-")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$")


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
        if low.isdigit() and len(low) <= 2 and int(low) < 24 and i + 1 < len(toks) \
                and text[t.end:t.end + 1] == ":" and toks[i + 1].start == t.end + 1 and re.fullmatch(r"[0-5]\d", toks[i + 1].low):
            # "18:00", "09:30": a time of day, one figure (not 18 of something and 0 "Waterfront")
            m = toks[i + 1]
            out.append(Number(int(low) + int(m.low) / 60, "time", "", text[t.start:m.end], t.start, m.end))
            i += 2
            continue
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
        if low in _PLURAL_SCALES and i + 2 < len(toks) and toks[i + 1].low == "of" and toks[i + 2].text[:1].isalpha() \
                and toks[i + 2].low not in STOPWORDS:
            # "billions of years", "thousands of developers": at least two of the scale
            out.append(Number(2.0 * _PLURAL_SCALES[low], "count", unit_stem(toks[i + 2].low), text[t.start:toks[i + 2].end],
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
            elif low in _MULTIPLIERS:  # "twice as chilling", "more than double": two times
                out.append(Number(_MULTIPLIERS[low], "count", unit_stem("times"), t.text, t.start, t.end))
                i += 1
                continue
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
            elif w not in STOPWORDS and w not in lx.NEGATIONS and w != "per":  # "one million per month": a rate
                unit = unit_stem(w.split("-")[0])
                end = toks[j].end  # "fifteen shillings": the number with what it counts
        if unit in ("x", "\u00d7"):  # "up 2X": two times
            unit = unit_stem("times")
        out.append(Number(value, kind, unit, text[start:end], start, end))
        i = j
    return out


_PLURAL_SCALES = {"dozens": 12.0, "hundreds": 100.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}
_MULTIPLIERS = {"twice": 2.0, "double": 2.0, "doubled": 2.0, "doubling": 2.0, "thrice": 3.0, "triple": 3.0,
                "tripled": 3.0, "tripling": 3.0, "quadrupled": 4.0}


def days(n: Number) -> float | None:
    """A duration's length in days ("twelve months", "2 years"), else None."""
    per = lx.DURATIONS.get(n.unit) if n.kind == "count" else None
    return n.value * per if per else None


_UNIT_WORDS = {"minut": "minute", "hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "decad": "decade",
               "centuri": "century"}


def _one_of(unit: str, text: str, over: bool = False) -> re.Match | None:
    """Where text says one of a duration unit ("a year", "an hour"); with over, a change over one
    year too ("up 50% year over year")."""
    m = re.search(rf"\b(?:a|an|one)\s+{_UNIT_WORDS[unit]}\b", text, re.I)
    if m is None and over and unit == "year":
        m = re.search(r"\byear[- ]over[- ]year\b|\bover the (?:past|last) year\b", text, re.I)
    return m


def one_unit_span(n: Number, text: str) -> tuple[int, int] | None:
    """Where text says a duration as one of a unit ("a year" for "twelve months"), else None."""
    d = days(n)
    for unit, per in lx.DURATIONS.items() if d is not None else ():
        m = _one_of(unit, text, over=True) if abs(d / per - 1) < 0.01 and unit != n.unit else None
        if m:
            return m.start(), m.end()
    return None


def one_unit_rival(n: Number, text: str) -> tuple[int, int] | None:
    """Where text gives a duration as one of a unit that is another length than n ("a decade"
    against "two decades"), else None."""
    d = days(n)
    for unit, per in lx.DURATIONS.items() if d is not None else ():
        m = _one_of(unit, text) if abs(d / per - 1) >= 0.01 else None
        if m:
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

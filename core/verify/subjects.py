"""Whose number is it: a value the cited text gives for another subject.

"Dynamics 365 revenue grew 14 percent" against "Dynamics revenue grew 14 percent ..., driven by
Dynamics 365 revenue growth of 41 percent": 14 percent is in the text, but for Dynamics; the
text's figure for Dynamics 365 is 41 percent. The sentence's qualifiers of a number are its
capitalised words and label digits between the number and the previous figure of the same kind
(or the clause's start); the text's stretch before each figure runs back to its previous figure
of the same kind (or the sentence's start), and the matching figure's own subject may follow it
up to the next figure or the clause's end ("91 of the Fortune 100 use Teams"). When the stretch before the matching figure lacks a
qualifier and the stretch before another figure of the same kind holds them all, the sentence's
number belongs to that other figure's subject."""
from __future__ import annotations

import re

from core.textutil import STOPWORDS
from core.verify import figures as fg
from core.verify import lexicon as lx

_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019\-]*|\d[\d,.]*")
_STOP = re.compile(r"[.!?;:\n]")


def _stretch(text: str, x: fg.Number, numbers: list[fg.Number]) -> str:
    lo = max((y.end for y in numbers if y.end <= x.start and fg.comparable(x, y) and y.kind != "label"), default=0)
    cut = [m.end() for m in _STOP.finditer(text, lo, x.start)]
    return text[cut[-1] if cut else lo:x.start]


def _after(text: str, x: fg.Number, numbers: list[fg.Number]) -> str:
    """The words after a figure up to the next figure of its kind, the clause's end (", and",
    ";") or the sentence's."""
    hi = min((y.start for y in numbers if y.start >= x.end and fg.comparable(x, y) and y.kind != "label"),
             default=len(text))
    piece = text[x.end:hi]
    stop = re.search(r"[.!?;:\n]|,\s+(?:and|but|while|whereas)\b", piece)
    return piece[:stop.start()] if stop else piece


def qualifiers(claim: str, num: fg.Number, numbers: list[fg.Number]) -> set[str]:
    out = set()
    for m in _WORD.finditer(_stretch(claim, num, numbers)):
        w = m.group(0)
        low = w.lower()
        if w[0].isdigit() or (w[0].isupper() and low not in STOPWORDS and low not in lx.NOT_NAMES):
            out.add(low.rstrip(".,"))
    return out


def _words(piece: str) -> set[str]:
    return {m.group(0).lower().rstrip(".,") for m in _WORD.finditer(piece)}


def other_subject(claim: str, num: fg.Number, claim_numbers: list[fg.Number], text: str,
                  found: fg.Number, text_numbers: list[fg.Number], lo: int, hi: int) -> fg.Number | None:
    """The figure of text[lo:hi] whose subject is the sentence's, when the figure the sentence
    matched (found) is given for another subject; else None."""
    q = qualifiers(claim, num, claim_numbers)
    if not q or q <= _words(_stretch(text, found, text_numbers)) | _words(_after(text, found, text_numbers)):
        return None  # the found figure's own subject, before it or after it ("91 of the Fortune 100 use Teams")
    for x in text_numbers:
        if lo <= x.start < hi and x is not found and fg.comparable(num, x) and not fg.same_number(num, x) \
                and q <= _words(_stretch(text, x, text_numbers)):
            return x
    return None

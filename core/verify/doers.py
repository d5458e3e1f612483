"""Names in their roles: what the sentence says a name does or is, the passage may say of another
name ("Smartsheet plans to use Microsoft Graph" against "Oracle plans to use Microsoft Graph";
"Sam Rivera was setting up a makeshift lab station" against "Jordan Hayes, diligently setting up
their makeshift lab station, and Sam Rivera ..."). The sentence's words after the name, up to its
next name or the end of its clause, are its predicate; where the passage says most of them
together, the nearest name before them in that sentence is who the passage says does it. A
different name there says the sentence may give the fact to the wrong one. English puts the doer
before the deed, but not always (a passive, a clause that names the doer later), so the rule
that reads this is not trusted alone: "check this", never a false "supported"."""
from __future__ import annotations

import re

from core.verify import facts as fx
from core.verify.actors import opens_predicate, same_person
from core.text.wordnet import english_word

_CLAUSE_END = re.compile(r"[;:!?.]|,\s*(?:and|but|while|whereas|which|who|because|so)\b|\s(?:while|whereas|because)\s")
SPAN = 10  # content words: how close the predicate's words must be to make one statement
MOST = 5   # the predicate's first content words read


def _predicate(claim: str, n: fx.Name, after: list[fx.Name], mapping: dict[str, str]) -> list[str]:
    """The terms of the first content words after n (names too: "plans to use Microsoft Graph"),
    up to the clause's end or the name after next."""
    stop = _CLAUSE_END.search(claim, n.end)
    end = stop.start() if stop else len(claim)
    nxt = [m.start for m in after if m.start >= n.end]
    if len(nxt) > 1:
        end = min(end, nxt[1])
    out = []
    for t, s, e in fx.content_terms(claim[n.end:end]):
        term = mapping.get(claim[n.end + s:n.end + e].lower(), t)
        if term not in out:
            out.append(term)
        if len(out) == MOST:
            break
    return out


def _cluster(text: str, want: list[str]) -> tuple[int, int] | None:
    """(start, count) of the run of SPAN content words of text holding most of want's terms (at
    least two, and at least half of them), the shortest such run where several hold as many."""
    terms = fx.content_terms(text)
    best, key = None, None
    for i, (t, s, _) in enumerate(terms):
        if t not in want:
            continue
        got, last = set(), i
        for j, (x, _, _) in enumerate(terms[i:i + SPAN], i):
            if x in want and x not in got:
                got.add(x)
                last = j
        k = (len(got), -(last - i))
        if len(got) >= max(2, (len(want) + 1) // 2) and (key is None or k > key):
            best, key = (s, len(got)), k
    return best


def _sentence_start(text: str, at: int) -> int:
    return max([text.rfind(ch, 0, at) + 1 for ch in (".", "!", "?", "\n\n")] + [0])


def other_doer(claim: str, names: list[fx.Name], text: str, mapping: dict[str, str],
               known=None) -> tuple[fx.Name, fx.Name] | None:
    """(the sentence's name, the passage's name) where the passage says the first name's
    predicate of another name: the nearest name before the predicate's words in their sentence,
    one the sentence does not give that predicate too. known(words): is a one-word name opening
    a sentence written as a name elsewhere?"""
    found = fx.names(text)
    for n in names:
        if n.initial and not (known and known(n.words)) and english_word(n.words[0]):
            continue  # a capital opening the sentence on an English word says nothing
        if re.match(r"\s*\d", claim[n.end:n.end + 3]):
            continue  # a numbered name ("PEP 484"): the series' word is no doer
        if re.search(r"[A-Z][\w.&'\u2019-]*\s*(?:,|\band|\bor|&)\s*$", claim[max(0, n.start - 40):n.start]):
            continue  # one of a list ("Bayer, KPMG and Unilever are using"): the list does it
        first = re.match(r"\s+([a-z]+)", claim[n.end:n.end + 30])
        if first is None or not opens_predicate(first.group(1)):
            continue  # no subject here ("Windows usage declined", "using HoloLens to ...")
        want = _predicate(claim, n, names, mapping)
        if len(want) < 2:
            continue
        hit = _cluster(text, want)
        if hit is None:
            continue
        at = hit[0]
        lo = _sentence_start(text, at)
        before = [m for m in found if lo <= m.start and m.end <= at
                  and not (m.initial and len(m.words) == 1 and not (known and known(m.words)))
                  and not text[m.end:m.end + 2].startswith(":")  # a transcript's speaker label
                  and not (m.surface.isupper() and len(m.words) == 1 and english_word(m.words[0]))]  # "AI"
        if not before:
            continue
        m = before[-1]
        if same_person(n.words, m.words, text + " " + claim, n.surface):
            continue  # "Mercer" and "Alex" of "Alex Mercer"
        if len(m.words) == 1 and english_word(m.words[0]) and not (known and known(m.words)):
            continue  # a capitalised English word ("Type Hints"), no one who does anything
        mine = next((x for x in names if set(x.words) & set(m.words)), None)
        if mine is not None and len(set(_predicate(claim, mine, names, mapping)) & set(want)) >= 2:
            continue  # the sentence says it of that name too
        return n, m
    return None

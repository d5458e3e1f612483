"""The offline judge's name checks (core.verify.offline): each name of a claim found in the
cited text; another name in its slot of the matched sentence, or another actor in a passage that
does not name it -> contradicted; a made-up sentence-opening name -> absent; a fiscal period
found in the text or its document's title. `c` and `a` are the judge's claim and alignment
records; each check returns the facts it finds."""
from __future__ import annotations

import re

from core.text.support import stem
from core.verify import actors
from core.verify import align as al
from core.verify import facts as fx
from core.verify import figures as fg
from core.verify.align import Source
from core.verify.verdict import Fact

_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")
_PERIOD = fx.PERIOD  # fiscal periods: "FY22", "Q4"
_SAYS = re.compile(r"[\s,]*(?:also\s+|then\s+|later\s+)?(?:said|says|told|tells|noted|notes|explained|explains|"
                   r"reported|reports|announced|announces|added|adds|stated|states|remarked|remarks|"
                   r"highlighted|highlights|pointed out|points out|mentioned|mentions|claimed|claims)\b", re.I)
LABEL = re.compile(r"\b[A-Z][A-Z.'\u2019-]+(?: [A-Z][A-Z.'\u2019-]+)*:\s")  # "KEVIN SCOTT: "


def check_names(c, a, absent: set[str], aligned: float, background: float) -> list[Fact]:
    """Each name: found in the window or the cited text; another name in its slot of the matched
    sentence, or another actor in a passage that does not name it -> contradicted; a made-up
    sentence-opening name in a name's slot -> absent; nowhere in the cited text -> not found
    (unless most of the workspace's units hold it: what the documents are about)."""
    out: list[Fact] = []
    src, window, best = a.src, a.window, a.best
    wstems_ = {stem(w) for w in a.wwords}
    # a transcript's speaker label ("KEVIN SCOTT: Simone Giertz is ...") names who speaks, not who
    # the sentence is about: a name only there stands in no slot of it
    piece = src.text[best.start:best.end]
    label = LABEL.search(piece[:120])
    said = frozenset(_WORDS.findall(piece[label.end():].lower())) if label else best.words
    for n in c.found_names:
        if n.surface in absent:
            continue
        if all(_PERIOD.match(w) for w in n.words):  # "FY22", "FY20 Q4": a period, not an actor
            where = al.find_word(c.sources, n.words)
            title = None if where else _title_holding(c, n.words)
            other = None if where or title else _other_period(c, n.words)
            if other is not None:  # "In FY24 Q3 ..." citing a passage of TranscriptFY23Q3.txt
                out.append(Fact("name", n.surface, "contradicted", f"the cited passage is from {other}"))
                continue
            out.append(Fact("name", n.surface, "found" if where or title else "not found",
                                f"in the document's title, {title}" if title else "", evidence=where))
            continue
        # another name where the matched sentence (or, when the name is not in the window, the
        # window) puts the sentence's name
        in_window = all(w in a.wwords or stem(w) in wstems_ for w in n.words)
        swap = None
        if (a.strong or a.score >= aligned) and not all(w in said for w in n.words) \
                and not _with_claim_figure(c, src, n):
            lo, hi = (best.start, best.end) if in_window else (a.wlo, a.whi)
            swap = actors.slot_swap(c.claim, n, src.text[lo:hi], c.name_words | set(n.words),
                                    known=lambda words: al.known_name(src, words)
                                    or all(c.names.written_as_name(w) for w in words))
            if swap is not None and n.initial:
                # a capital opening the sentence says nothing; where the passage has a name in
                # its place and no document holds the word, it is a made-up name ("Citadel, for
                # example, will use ..." against "Bridgewater Associates, for example, will use")
                if c.names.absent(n.words):
                    out.append(Fact("name", n.surface, "absent"))
                    continue
                if not al.known_name(src, n.words):  # written capitalised mid-sentence: a name
                    swap = None
            if swap is not None:
                # its words all in the documents but not the name ("Delta Air Lines" where the
                # source names Alaska Airlines): made up, not only misplaced
                made_up = len(n.words) > 1 and not n.initial and not c.names.phrase_known(n.words)
                out.append(Fact("name", n.surface, "absent" if made_up else "contradicted",
                                    f"the source names {swap.surface} here",
                                    evidence=src.span(lo + swap.start, lo + swap.end)))
                continue
        if a.strong and (not n.initial or al.known_name(src, n.words)):
            # another name of the passage does what the sentence says this one does
            holder = actors.predicate_holder(c.claim, n, src.text[a.wlo:a.whi], c.name_words | set(n.words))
            if holder is not None:
                out.append(Fact("name", n.surface, "contradicted", f"the source says {holder.surface} does it",
                                    evidence=src.span(a.wlo + holder.start, a.wlo + holder.end)))
                continue
        if in_window:
            out.append(Fact("name", n.surface, "found", evidence=al.name_span(src, window, n.words)))
            continue
        elsewhere = al.find_word(c.sources, n.words)
        # another actor: the name is nowhere in the cited text, and the passage it is about names
        # someone else
        other = []
        if a.strong and not n.initial and al.is_actor(c.claim, n) and not _with_claim_figure(c, src, n):
            # nowhere in the cited text and the passage names someone else; or in it elsewhere,
            # while the passage's own actor (who says or does it) is someone else
            # a speaker ("Satya Nadella said that ...") is contradicted by another speaker only:
            # the companies a passage names are what he speaks of
            speaks = bool(_SAYS.match(c.claim, n.end))
            other = al.other_names(src, [best] + [s for s in window if s is not best], c.name_words,
                                   actors_only=elsewhere is not None or speaks)  # the matched sentence's first
        if other:
            out.append(Fact("name", n.surface, "contradicted", f"the source names {other[0]} here",
                                evidence=al.word_span(src, window, other[0].lower().split()[-1])))
        elif elsewhere is not None:
            out.append(Fact("name", n.surface, "found", evidence=elsewhere))
        elif not n.initial and (title := _title_holding(c, n.words)):
            # the document is named for it ("..._Podcast_with_Kimberly_Bryant-part3.txt"): a
            # transcript's guest, whose passage says "I"
            out.append(Fact("name", n.surface, "found", f"in the document's title, {title}"))

        elif (we := _as_we(c, src, best, n, background)) is not None:
            # "Microsoft also expects ..." for the call's "we expect ...": the company its
            # speakers speak for, in the place of their "we"
            out.append(Fact("name", n.surface, "found", "the passage's \u201cwe\u201d: the company its "
                                "speakers speak for", evidence=we))
        elif not n.initial and not all(c.names.share(w) >= background for w in n.words):
            out.append(Fact("name", n.surface, "not found"))
        # a name most of the workspace's units hold is what the documents are about: a passage
        # may say "we" for it, so its absence from the cited unit is no missing fact
    return out


_WE = re.compile(r"\b(?:[Ww]e|[Oo]ur)\b")


def _as_we(c, src: Source, best, n: fx.Name, background: float):
    """The span of the matched sentence's "we" when the claim's name stands in its place (the
    same word after both: "Microsoft also expects" and "we expect"), the name is none of the
    document's speakers, and many of the document's units hold it (what the document is
    about); else None."""
    doc = src.unit.get("document_id")
    if c.names.store is None or not doc:
        return None
    piece = src.text[best.start:best.end]
    _, after = actors.context(c.claim, n.start, n.end)
    for m in _WE.finditer(piece):
        _, there = actors.context(piece, m.start(), m.end())
        if there and there[0] in after[:2]:
            break
    else:
        return None
    if any(actors.same_person(n.words, tuple(s.lower().split()), s, n.surface) for s in c.names.speakers_of(doc)):
        return None
    if not all(c.names.doc_share(w, doc) >= background for w in n.words):
        return None
    return src.span(best.start + m.start(), best.start + m.end())


_TITLE_PERIOD = re.compile(r"(FY\d{2,4})?[ _-]?(Q[1-4])?", re.I)


def _other_period(c, words: tuple[str, ...]) -> str | None:
    """The title of a cited unit's document that names another fiscal year or quarter than the
    claim's ("FY24" against TranscriptFY23Q3.txt), when every cited unit's title names one; else
    None."""
    titles = [c.names.doc_title(s.unit) for s in c.sources]
    if not titles or not all(titles):
        return None
    for w in words:
        kind = 1 if w.startswith("fy") and "q" not in w[2:] else 2 if w.startswith("q") else 0
        if not kind:
            return None
        periods = [[m.group(kind).lower() for m in _TITLE_PERIOD.finditer(t) if m.group(kind)] for t in titles]
        if not all(periods) or any(w in p for p in periods):
            continue
        # years written two ways ("FY2024", "FY24") are one year
        if kind == 1 and any(p[-2:] == w[-2:] for ps in periods for p in ps):
            continue
        return titles[0]
    return None


def _title_holding(c, words: tuple[str, ...]) -> str | None:
    """The title of a cited unit's document that holds the name's words, else None."""
    return next((t for s in c.sources if (t := c.names.in_title(s.unit, words))), None)


def _with_claim_figure(c, src: Source, n: fx.Name) -> bool:
    """Does a sentence of the cited text hold both the name and a figure of the claim ("more
    than 8,500 Arc customers" for "Arc's client base has passed 8,500")? Then that sentence, not
    the best-matched one, is where the name stands: no other name took its place."""
    for s in src.sents if c.nums else ():
        if all(w in s.words for w in n.words) and any(
                fg.same_number(x, y) for x in al.numbers(src.text) if s.start <= x.start < s.end for y in c.nums):
            return True
    return False

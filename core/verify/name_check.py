"""The offline judge's name checks (core.verify.offline): each name of a claim found in the
cited text; another name in its slot of the matched sentence, or another actor in a passage that
does not name it -> contradicted; a made-up sentence-opening name -> absent; a fiscal period
found in the text or its document's title. `c` and `a` are the judge's claim and alignment
records."""
from __future__ import annotations

import re

from core.query.support import stem
from core.verify import actors
from core.verify import align as al
from core.verify import facts as fx
from core.verify import figures as fg
from core.verify.align import Source
from core.verify.verdict import Fact

_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")
_PERIOD = re.compile(r"^(?:fy\d{2,4}|q[1-4]|h[12]|fy\d{2}q[1-4])$")  # fiscal periods: "FY22", "Q4"
LABEL = re.compile(r"\b[A-Z][A-Z.'\u2019-]+(?: [A-Z][A-Z.'\u2019-]+)*:\s")  # "KEVIN SCOTT: "


def check_names(c, a, absent: set[str], aligned: float, background: float) -> None:
    """Each name: found in the window or the cited text; another name in its slot of the matched
    sentence, or another actor in a passage that does not name it -> contradicted; a made-up
    sentence-opening name in a name's slot -> absent; nowhere in the cited text -> not found
    (unless most of the workspace's units hold it: what the documents are about)."""
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
            c.facts.append(Fact("name", n.surface, "found" if where or title else "not found",
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
                    c.facts.append(Fact("name", n.surface, "absent"))
                    continue
                if not al.known_name(src, n.words):  # written capitalised mid-sentence: a name
                    swap = None
            if swap is not None:
                # its words all in the documents but not the name ("Delta Air Lines" where the
                # source names Alaska Airlines): made up, not only misplaced
                made_up = len(n.words) > 1 and not n.initial and not c.names.phrase_known(n.words)
                c.facts.append(Fact("name", n.surface, "absent" if made_up else "contradicted",
                                    f"the source names {swap.surface} here",
                                    evidence=src.span(lo + swap.start, lo + swap.end)))
                continue
        if a.strong and (not n.initial or al.known_name(src, n.words)):
            # another name of the passage does what the sentence says this one does
            holder = actors.predicate_holder(c.claim, n, src.text[a.wlo:a.whi], c.name_words | set(n.words))
            if holder is not None:
                c.facts.append(Fact("name", n.surface, "contradicted", f"the source says {holder.surface} does it",
                                    evidence=src.span(a.wlo + holder.start, a.wlo + holder.end)))
                continue
        if in_window:
            c.facts.append(Fact("name", n.surface, "found", evidence=al.name_span(src, window, n.words)))
            continue
        elsewhere = al.find_word(c.sources, n.words)
        # another actor: the name is nowhere in the cited text, and the passage it is about names
        # someone else
        other = []
        if a.strong and not n.initial and al.is_actor(c.claim, n) and not _with_claim_figure(c, src, n):
            # nowhere in the cited text and the passage names someone else; or in it elsewhere,
            # while the passage's own actor (who says or does it) is someone else
            other = al.other_names(src, [best] + [s for s in window if s is not best], c.name_words,
                                   actors_only=elsewhere is not None)  # the matched sentence's first
        if other:
            c.facts.append(Fact("name", n.surface, "contradicted", f"the source names {other[0]} here",
                                evidence=al.word_span(src, window, other[0].lower().split()[-1])))
        elif elsewhere is not None:
            c.facts.append(Fact("name", n.surface, "found", evidence=elsewhere))
        elif not n.initial and (title := _title_holding(c, n.words)):
            # the document is named for it ("..._Podcast_with_Kimberly_Bryant-part3.txt"): a
            # transcript's guest, whose passage says "I"
            c.facts.append(Fact("name", n.surface, "found", f"in the document's title, {title}"))

        elif not n.initial and not all(c.names.share(w) >= background for w in n.words):
            c.facts.append(Fact("name", n.surface, "not found"))
        # a name most of the workspace's units hold is what the documents are about: a passage
        # may say "we" for it, so its absence from the cited unit is no missing fact


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

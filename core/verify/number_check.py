"""The offline judge's number checks (core.verify.offline): each figure of a claim against the
passage its own clause is about. The same value found (in the occurrence given for the claim's
subject); another value of its kind there, its value given for another subject, or a count of the
same thing elsewhere in the cited text -> contradicted; a duration said in another unit ("a
year" for "twelve months") or a figure another cited passage gives in a sentence about the
claim's subject -> found. `c` and `a` are the judge's claim and alignment records."""
from __future__ import annotations

import re

from core.text.support import stem
from core.verify import align as al
from core.verify import figures as fg
from core.verify import paraphrase
from core.verify import subjects
from core.verify.align import Source
from core.verify.clauses import clauses
from core.verify.verdict import Fact


def _number_passage(c, a, pieces: list, num: fg.Number, aligned: float) -> tuple[Source, int, int, bool]:
    """The passage a number is checked against: its own clause's best sentence and window when the
    claim has several clauses, else the claim's; and whether that passage is strongly aligned."""
    nsrc, nwlo, nwhi, nstrong = a.src, a.wlo, a.whi, a.strong or a.score >= aligned
    offset = 0
    for piece, _c in pieces:
        at = c.claim.find(piece, offset)
        if len(pieces) > 1 and at <= num.start < at + len(piece):
            ct = paraphrase.terms(piece, c.mapping)
            loc = al.best(c.sources, ct) if ct else None
            pt = frozenset(t for t in ct if t not in c.name_words or t in c.acronyms)
            if loc is not None and not pt & loc[0].sents[loc[1]].terms:
                loc = None  # a clause that only names its subject ("X said he was about 12") is the claim's
            if loc is not None:
                nsrc = loc[0]
                w = al.window(loc[0], loc[1], ct)
                nwlo, nwhi = w[0].start, w[-1].end
                wt = frozenset().union(*(x.terms for x in w))
                # one shared word does not make the same fact ("Headcount rose 3%" is not
                # "revenue increased 11%")
                nstrong = bool(pt) and len(pt & wt) / len(pt) >= aligned and len(pt & wt) >= min(2, len(pt))
            break
        offset = max(offset, at + len(piece)) if at >= 0 else offset
    return nsrc, nwlo, nwhi, nstrong


def check_numbers(c, a, aligned: float) -> list[Fact]:
    """Each number against the passage its own clause is about: the same value found; another
    value of its kind there, or its value given for another subject -> contradicted."""
    out: list[Fact] = []
    pieces = clauses(c.claim)
    for num in c.nums:
        nsrc, nwlo, nwhi, nstrong = _number_passage(c, a, pieces, num, aligned)
        wnums = [(x, nsrc) for x in al.numbers(nsrc.text) if nwlo <= x.start < nwhi]
        hits = [(x, s) for x, s in wnums if fg.same_number(num, x)]
        hit = hits[0] if hits else None
        other = None
        for h in hits if nstrong else ():  # the value given for the claim's subject, if any occurrence is
            other = subjects.other_subject(c.claim, num, c.nums, nsrc.text, h[0], list(al.numbers(nsrc.text)),
                                           nwlo, nwhi)
            if other is None:
                hit = h
                break
        if other is not None:  # the value is there, for another subject (core.verify.subjects)
            out.append(Fact("number", num.surface, "contradicted",
                                f"the source says {other.surface} for it ({hit[0].surface} is another figure's)",
                                evidence=nsrc.span(other.start, other.end)))
            continue
        given = _given_for_subject(c, num) if hit and _names_elsewhere(c, hit[0], hit[1]) else None
        if hit and given is None:
            out.append(Fact("number", num.surface, "found", evidence=hit[1].span(hit[0].start, hit[0].end)))
            continue
        if given is not None:
            # "LinkedIn revenue rose 7 percent": the window's 7 percent is Office's; the sentence
            # naming LinkedIn says 17
            out.append(_for_subject(num, *given))
            continue
        # a rival in the compared sentence itself first, then in the sentences around it; of
        # several, the one whose words around it are the claim number's ("more than 50% of the
        # total" for "more than 70% of Microsoft Cloud revenue", not "up 27%" before it)
        ordered = sorted(wnums, key=lambda p: not (nsrc is a.src and a.best.start <= p[0].start < a.best.end))
        cands = [x for x, _ in ordered if fg.comparable(num, x) and not any(fg.same_number(x, y) for y in c.nums)]
        rival = _closest(c.claim, num, cands, nsrc.text) if nstrong else None
        if rival is None and not hits:
            # a figure in the claim figure's own slot, in the compared sentence or next to it
            # even where no content word is shared ("He came here when he was 17.")
            lo, hi = a.src.sents[max(0, a.i - 1)].start, a.src.sents[min(len(a.src.sents) - 1, a.i + 1)].end
            near = [x for x in al.numbers(a.src.text) if lo <= x.start < hi and x.start >= a.src.lead
                    and fg.comparable(num, x) and not any(fg.same_number(x, y) for y in c.nums)]
            slot = _same_slot(c, num, near, a.src.text)
            if slot is not None:
                rival, nsrc = slot, a.src
        if rival is not None and a.strong and not (nsrc is a.src and a.best.start <= rival.start < a.best.end):
            # the sentence the whole claim is compared with gives another value of this kind: that
            # is the rival, not one from the clause's own best sentence elsewhere ("Revenue was
            # $13.1 billion" against "$13.4 billion", not next quarter's "$12.55" guidance)
            in_best = _closest(c.claim, num, [x for x in al.numbers(a.src.text) if a.best.start <= x.start < a.best.end
                               and fg.comparable(num, x) and not any(fg.same_number(x, y) for y in c.nums)
                               and (x.kind in ("money", "percent") or x.unit == num.unit
                                    or fg.days(x) is not None and fg.days(num) is not None)], a.src.text)
            if in_best is not None:
                rival, nsrc = in_best, a.src
        if rival is not None and nwlo != a.wlo and a.strong:
            # the clause's own best sentence gives another value, but the sentence the whole
            # claim is compared with gives this one ("climbing 49 percent" of "up 49 percent")
            same = next((x for x in al.numbers(a.src.text) if a.wlo <= x.start < a.whi and fg.same_number(num, x)), None)
            if same is not None:
                out.append(Fact("number", num.surface, "found", evidence=a.src.span(same.start, same.end)))
                continue
        hit = next(((x, s) for s in c.sources for x in al.numbers(s.text)
                    if x.start >= s.lead and fg.same_number(num, x)), None)
        said = fg.one_unit_span(num, nsrc.text[nwlo:nwhi])
        if said is not None:  # "twelve months" where the passage says "a year"
            out.append(Fact("number", num.surface, "found", evidence=nsrc.span(nwlo + said[0], nwlo + said[1])))
            continue
        anchored = _in_figure_sentences(c, num, out) if rival is None and hit is None else None
        if anchored is not None:  # said so in the sentence where the claim's other figures are
            src, lo, hi = anchored
            out.append(Fact("number", num.surface, "found", evidence=src.span(lo, hi)))
            continue
        said_here = next(((x, s) for s in c.sources for x in al.numbers(s.text) if x.start >= s.lead
                          and fg.same_number(num, x) and _aligned_at(c, x, s, aligned)), None) if rival is not None else None
        if said_here is not None:
            # another cited passage gives this very figure in a sentence about the same thing
            # (a report citing three quarters' calls: "LinkedIn revenue increased 17 percent" in
            # one, "10 percent" in the next): the cited text says it, the rival is another fact
            x, s = said_here
            out.append(Fact("number", num.surface, "found", evidence=s.span(x.start, x.end)))
            continue
        once = fg.one_unit_rival(num, nsrc.text[nwlo:nwhi]) if rival is None and hit is None and nstrong else None
        if once is not None:  # "two decades" where the passage says "in a decade"
            out.append(Fact("number", num.surface, "contradicted",
                                f"the source says {nsrc.text[nwlo + once[0]:nwlo + once[1]]}",
                                evidence=nsrc.span(nwlo + once[0], nwlo + once[1])))
            continue
        counted = _counted_elsewhere(c, num) if rival is None and hit is None else None
        if counted is not None:  # "one child" where the claim says "two children"
            src, lo, hi = counted
            out.append(Fact("number", num.surface, "contradicted", f"the source says {src.text[lo:hi]}",
                                evidence=src.span(lo, hi)))
        elif rival is not None:
            out.append(Fact("number", num.surface, "contradicted", f"the source says {rival.surface}",
                                evidence=nsrc.span(rival.start, rival.end)))
        elif hit and _names_elsewhere(c, hit[0], hit[1]) and (given := _given_for_subject(c, num)) is not None:
            out.append(_for_subject(num, *given))  # 7 percent is Office's; LinkedIn's sentence says 17
        elif hit:
            out.append(Fact("number", num.surface, "found", evidence=hit[1].span(hit[0].start, hit[0].end)))
        else:
            out.append(Fact("number", num.surface, "not found"))
    return out


_WORD = re.compile(r"[A-Za-z]+")


def _beside(text: str, start: int, end: int, k: int, reach: int) -> tuple[list[str], list[str]]:
    """The k words before a figure and the k after it, within reach characters."""
    return _WORD.findall(text[max(0, start - reach):start])[-k:], _WORD.findall(text[end:end + reach])[:k]


def _around(text: str, start: int, end: int, k: int = 6) -> set[str]:
    """The stems of the k words either side of a figure, within its sentence's reach (60 chars)."""
    before, after = _beside(text, start, end, k, 60)
    return {stem(w.lower()) for w in before + after if len(w) > 2}


def _closest(claim: str, num: fg.Number, cands: list[fg.Number], text: str) -> fg.Number | None:
    """The first candidate, unless a later one shares more of the words around the claim's
    figure (by two or more; the same unit counts three): the figure the passage says in the
    claim's place."""
    if len(cands) < 2:
        return cands[0] if cands else None
    mine = _around(claim, num.start, num.end)
    # what the figure counts weighs most ("four employees" for "a dozen employees", not the
    # "two" of "a year or two" beside the claim's other words)
    scores = [len(mine & _around(text, x.start, x.end)) + (3 if num.unit and x.unit == num.unit else 0)
              for x in cands]
    best = max(range(len(cands)), key=lambda i: (scores[i], -i))
    return cands[best] if scores[best] >= scores[0] + 2 else cands[0]


def _slot(text: str, start: int, end: int) -> tuple[set[str], set[str]]:
    """The stems of the three words before a figure and of the three after it (40 chars)."""
    before, after = _beside(text, start, end, 3, 40)
    return {stem(w.lower()) for w in before}, {stem(w.lower()) for w in after}


def _same_slot(c, num: fg.Number, cands: list[fg.Number], text: str) -> fg.Number | None:
    """In a passage only loosely aligned with the claim, a figure standing in the claim figure's
    own slot: two of the three words before it, or two after it, the same."""
    if any(fg.same_number(num, x) for s in c.sources for x in al.numbers(s.text)):
        return None
    mb, ma = _slot(c.claim, num.start, num.end)
    for x in cands:
        xb, xa = _slot(text, x.start, x.end)
        if len(mb & xb) >= 2 or len(ma & xa) >= 2:
            return x
    return None


def _in_figure_sentences(c, num: fg.Number, found: list[Fact]) -> tuple[Source, int, int] | None:
    """A duration said as one of a unit ("a year ago", "year over year") in a sentence where
    another figure of the claim was found ("more than 8,500 Arc customers, more than double the
    number a year ago" for "8,500 ... twice as large as twelve months earlier"): (source, start,
    end), else None."""
    if fg.days(num) is None:
        return None
    by_id = {s.unit.get("id"): s for s in c.sources}
    for f in found:
        ev = f.evidence
        if f.kind != "number" or f.status != "found" or ev is None or ev.unit_start is None:
            continue
        src = by_id.get(ev.text_unit_id)
        sent = src.sentence_at(ev.unit_start) if src is not None else None
        if sent is None:
            continue
        at = fg.one_unit_span(num, src.text[sent.start:sent.end])
        if at is not None:
            return src, sent.start + at[0], sent.start + at[1]
    return None


def _for_subject(num: fg.Number, src: Source, x: fg.Number) -> Fact:
    """The fact for a figure the cited text gives for the claim's subject in its own sentence."""
    if fg.same_number(num, x):
        return Fact("number", num.surface, "found", evidence=src.span(x.start, x.end))
    return Fact("number", num.surface, "contradicted", f"the source says {x.surface} for it "
                f"({num.surface} is another figure's)", evidence=src.span(x.start, x.end))


def _claim_names(c) -> list:
    return [n for n in c.found_names if not n.initial]


def _names_elsewhere(c, x: fg.Number, src: Source) -> bool:
    """Is figure x, found away from the passage the claim is compared with, in a sentence that
    leaves out a name of the claim while another sentence of the cited text has them all (the
    figure belongs to another subject there)?"""
    names = _claim_names(c)
    if not names:
        return False
    sent = src.sentence_at(x.start)
    if sent is None or all(w in sent.words for n in names for w in n.words):
        return False
    return any(all(w in t.words for n in names for w in n.words) for s in c.sources for t in s.sents)


def _given_for_subject(c, num: fg.Number) -> tuple[Source, fg.Number] | None:
    """The figure the cited text gives for the claim's subject: in a sentence that names every name
    of the claim and says its name with the word after it ("LinkedIn revenue"), the claim's own
    figure, else one of its kind that is none of the claim's (the sentence sharing most of the
    claim's plain terms): (source, figure), else None."""
    names = _claim_names(c)
    # the name with the word after it ("LinkedIn revenue"): the sentence saying that is about it
    after = re.match(r"\W*(\w+)", c.claim[names[0].end:]) if names else None
    phrase = f"{names[0].surface} {after.group(1)}".lower() if after else None
    best: tuple[int, Source, fg.Number] | None = None
    for s in c.sources:
        for t in s.sents:
            if not all(w in t.words for n in names for w in n.words) \
                    or not (phrase and phrase in s.text[t.start:t.end].lower()):
                continue
            figures = [x for x in al.numbers(s.text) if t.start <= x.start < t.end and x.start >= s.lead]
            same = next((x for x in figures if fg.same_number(num, x)), None)
            other = next((x for x in figures if fg.comparable(num, x) and x.kind == num.kind
                          and not any(fg.same_number(x, y) for y in c.nums)), None)
            pick = same or other  # the subject's own sentence saying the claim's figure: found there
            shared = len(c.plain & t.terms) + (1 if same is not None else 0)
            if pick is not None and (best is None or shared > best[0]):
                best = (shared, s, pick)
    return None if best is None else (best[1], best[2])


def _aligned_at(c, x: fg.Number, src: Source, aligned: float) -> bool:
    """Is the sentence holding figure x about the claim's subject: every name of the claim in it,
    and ALIGNED of its plain terms?"""
    idx = next((k for k, s in enumerate(src.sents) if s.start <= x.start < s.end), None)
    if idx is None or not c.plain:
        return False
    sent = src.sents[idx]  # the sentence itself: the figure is its fact, not a neighbour's
    wt, words = sent.terms, sent.words
    names = _claim_names(c)
    named = bool(names) and all(w in words for n in names for w in n.words)
    return named and len(c.plain & wt) / len(c.plain) >= aligned


def _counted_elsewhere(c, num: fg.Number) -> tuple[Source, int, int] | None:
    """A count of the same thing with another value anywhere in the cited text ("twenty legs",
    "one child" against "forty legs", "two children"), when the passage compared holds neither:
    the number's own sentence may lie outside the window: (source, start, end) of the rival."""
    if num.kind != "count" or not num.unit or fg.days(num) is not None:
        return None
    for s in c.sources:
        for x in al.numbers(s.text):
            if x.start >= s.lead and x.kind == "count" and x.unit == num.unit and x.value != num.value \
                    and not any(fg.same_number(x, y) for y in c.nums):
                return s, x.start, x.end
        at = fg.singular_rival(num, s.text[s.lead:])
        if at is not None:
            return s, s.lead + at[0], s.lead + at[1]
    return None

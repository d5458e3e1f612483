"""Polarity: does the cited passage say the reverse of a sentence?

The claim's negation cues ("not", "never", "without"...) that govern a word of the passage, the
passage's negation cues next to the claim's words, and antonyms met ("increased" against
"decreased", "stronger" against "weaker", irregular and comparative forms too): an odd number of
flips contradicts. A reversed comparison ("hostile rather than curious" against "more curious than
hostile") contradicts too. `src` is the offline judge's prepared source (text, span(),
sentence_at()); sentences are its `_Sent` records (start, end, terms)."""
from __future__ import annotations

import re

from core.text.support import stem
from core.verify import facts as fx
from core.verify.actors import context as actors_context, same_slot
from core.text import wordnet
from core.verify.verdict import Fact


REACH = 3  # a source's negation governs a claim term among the next three content words
# a negation's reach ends where a new clause opens: "..., and", "..., but", ";"
_SCOPE_END = re.compile(r"[;:]|,\s*(?:and|but|so|yet|while|whereas|because|for)\b|\bbut\b|[，；]")


def _scopes(piece: str, terms: frozenset[str], mapping: dict[str, str] | None = None,
            reach: int = 4) -> list[tuple[int, int, frozenset[str], int]]:
    """(start, end, the terms it governs, end of its reach) of each negation cue with a term of the
    other side among the next four words (mapping: the claim's words rewritten in the cited
    text's, core.verify.paraphrase)."""
    out = []
    ct = [((mapping or {}).get(piece[a:b].lower(), t), a, b, e) for t, a, b, e in
          ((t, a, b, b) for t, a, b in fx.content_terms(piece))]
    for a, b in fx.negation_positions(piece):
        stop = _SCOPE_END.search(piece, b)  # "I don't have to sleep, and I can play": not "play"
        limit = min(b + 40, stop.start() if stop else len(piece))
        near = [(t, e) for t, s, _, e in ct if b <= s <= limit]
        if " " in piece[a:b]:  # "A rather than B", "A instead of B": the cue negates B alone
            near = near[:1]
        governed = frozenset(t for t, _ in near[:reach] if t in terms)
        if governed:
            out.append((a, b, governed, near[:reach][-1][1]))
    return out


def _scoped_negations(piece: str, terms: frozenset[str], mapping: dict[str, str] | None = None, reach: int = 4) -> list[tuple[int, int]]:
    """Negation cues with a term of the other side among the next four words."""
    return [(a, b) for a, b, _, _ in _scopes(piece, terms, mapping, reach)]


def _direct(claim: str, cpos: int, text: str, spos: int, claim_scopes: list, ev_scopes: list) -> bool:
    """An antonym in the claim word's own slot (two of the two words either side the same, one
    next to it: "percentage increased slightly" against "percentage decreased slightly"), with no
    negation governing either word: a reversal of that fact whatever else the sentence flips."""
    if any(a <= cpos <= e for a, _, _, e in claim_scopes) or any(a <= spos <= e for a, _, _, e in ev_scopes):
        return False
    cw = _word_at(claim, cpos)
    sw = _word_at(text, spos)
    if cw is None or sw is None:
        return False
    return same_slot(actors_context(claim, cpos, cw), actors_context(text, spos, sw))


def _word_at(text: str, pos: int) -> int | None:
    m = re.match(r"[A-Za-z\u00c0-\u024f'\u2019-]+", text[pos:])
    return pos + m.end() if m else None


def flipped(claim: str, src, window: list, best, terms: frozenset[str],
            mapping: dict[str, str] | None = None) -> Fact | None:
    """Contradicted polarity: the claim's negations, the source's negations next to the claim's
    terms and the antonyms met (an odd count of them). The best sentence is read first; the
    sentences around it only when it holds no cue at all."""
    # a claim's negation counts where what it negates is in the window to compare with
    wterms = frozenset().union(*(s.terms for s in window))
    claim_scopes = _scopes(claim, wterms, mapping)
    claim_neg = [(x, y) for x, y, _, _ in claim_scopes]
    n_claim_neg = len(fx.negation_positions(claim))  # all of them, governing something or not
    terms = terms | {o for st, _, _ in fx.raw_stems(claim) for o in fx.ANTONYMS.get(st, ())}
    found = _cues(claim, src, [best], terms)
    piece = src.text[best.start:best.end]
    # the sentences around the best one count only when it does not say all of the claim itself
    if not found[0] and not found[1] and len(terms & best.terms) < 0.8 * len(terms):
        # a polar word of the claim that the best sentence itself holds is confirmed there: its
        # opposite in a sentence around it is about another fact
        confirmed = {x for st, _, _ in fx.raw_stems(piece) for x in (st, fx.canon(st))}
        found = _cues(claim, src, window, terms, confirmed)
    ev_neg, flips, ev_scopes, flip_at = found
    direct = next(((c, f) for c, f in zip(flip_at, flips) if _direct(claim, c, src.text, f[0], claim_scopes, ev_scopes)), None)
    if direct is not None:
        flip_at, flips = [direct[0]], [direct[1]]
        direct = direct[1]
    elif (len(claim_neg) + len(ev_neg) + len(flips)) % 2 == 0:
        return None
    elif not flips and n_claim_neg and n_claim_neg in (
            len(fx.negation_positions(piece)),
            sum(len(fx.negation_positions(src.text[s.start:s.end])) for s in window if s.terms & terms)):
        # as many negations on either side, none of them reversing a word of the other ("he did
        # not yet show the hard, severe features" against "His face had not the harsh and rigid
        # lines"): their reach missed each other's words, which proves no reversal
        return None
    elif not flips and n_claim_neg > len(claim_neg):
        # a negation of the claim's that governs nothing the window says ("neither good-looking
        # nor smartly turned out" against "not a handsome family"): the count cannot pair the two
        # sides' negations, so a negation of the source's alone proves no reversal
        return None
    if not flips and not direct and (
            ev_neg and not claim_neg and _implicit_at(claim, piece, {t for _, _, g, _ in ev_scopes for t in g}, mapping)
            or claim_neg and not ev_neg and _implicit_at(piece, claim, {t for _, _, g, _ in claim_scopes for t in g})):
        # the side without a cue says it with a word of negative sense ("had little enthusiasm"
        # for "didn't", "stayed much the same" for "haven't changed"): no count proves a reversal
        return None
    if flips:
        at = flips[0]
    elif ev_neg:
        at = ev_neg[0]
    else:
        at = None
    if at is not None:
        note = f"the source says \u201c{src.text[at[0]:at[1]]}\u201d"
        sent = src.sentence_at(at[0]) or best
    else:
        note, sent = "the source says it without the negation", best
    if claim_neg:
        what = claim[claim_neg[0][0]:claim_neg[0][1]]
    elif flips and (end := _word_at(claim, flip_at[0])) is not None:
        what = claim[flip_at[0]:end]  # the claim's word the source reverses ("heavier" against "lighter")
    else:
        what = "affirmative"
    return Fact("polarity", what, "contradicted", note, evidence=src.span(sent.start, sent.end))


_IMPLICIT = re.compile(r"\b(?:little|few|rarely|seldom|refus(?:e|es|ed|ing)|avoid(?:s|ed|ing)?|unable|"
                       r"impossible|unchanged|the same|too\s+\w+\s+to|instead|rather than|other than|"
                       r"declin(?:e|es|ed|ing) to|ceased?)\b", re.I)


def _implicit_at(text: str, other: str, governed: set[str], mapping: dict[str, str] | None = None) -> bool:
    """Does the side without a cue say the negation by a word of negative sense next to (within
    30 characters of) a word the other side's negation governs, a word the other side lacks?"""
    hits = [m for m in _IMPLICIT.finditer(text) if not re.search(rf"\b{re.escape(m.group(0))}\b", other, re.I)]
    if not hits or not governed:
        return False
    at = [a for t, a, _ in fx.content_terms(text)
          if t in governed or (mapping or {}).get(text[a:a + 40].split()[0].lower().strip(".,;:!?"), "") in governed]
    return any(abs(m.start() - a) <= 30 or abs(m.end() - a) <= 30 for m in hits for a in at)


def _same_side(st: str, opposites: frozenset[str], confirmed) -> bool:
    """Does the best sentence hold the word or one of the same polarity (one sharing an opposite
    with it: "increased" for "rose")?"""
    return st in confirmed or fx.canon(st) in confirmed or any(
        fx.ANTONYMS.get(x, frozenset()) & opposites for x in confirmed)


def _idioms(text: str) -> set[int]:
    """Starts of the words that open a two-word WordNet lemma with no opposite among its
    synonyms: "falling short" (fall_short = fail) is no fall, "grew up" no growth; "cut back"
    (= reduce) stays a cut."""
    out = set()
    toks = [t for t in fx.tokens(text) if t.text[:1].isalpha()]
    for t, nxt in zip(toks, toks[1:]):
        if stem(t.low) not in fx.ANTONYMS or text[t.end:nxt.start].strip():
            continue
        syn = wordnet.phrase(t.low, nxt.low)
        if syn is not None and not any(stem(w) in fx.ANTONYMS for w in syn):
            out.add(t.start)
    return out


_BOUND = re.compile(r"\b(?:more|fewer|less|over|under|above|below|nearly|almost|up to)\s+(?:than\s+)?(?=[$\u20ac\u00a3]?\d)", re.I)


def _in_name(text: str, a: int) -> bool:
    """Is the word at a capitalised inside its sentence ("LinkedIn Live", "Stay Connected"):
    part of a name, no opposite of a claim word?"""
    before = text[:a].rstrip()
    return text[a:a + 1].isupper() and bool(before) and before[-1] not in ".!?:;\"'\u201c\u2018(\u2014-"


def _bounds(text: str) -> set[int]:
    """Starts of the words bounding a figure ("fewer than 500", "over 1,000", "more than 50
    percent"): part of the number's fact (checked as a number), not a polarity of the sentence."""
    return {m.start() for m in _BOUND.finditer(text)}


def _cues(claim: str, src, sents: list, terms: frozenset[str], confirmed: frozenset[str] | set[str] = frozenset()):
    """(negation spans next to claim terms, antonym spans) in these sentences of the source."""
    ev_neg: list[tuple[int, int]] = []
    ev_scopes: list[tuple[int, int, frozenset[str], int]] = []
    for s in sents:
        piece = src.text[s.start:s.end]
        got = [(s.start + a, s.start + b, g, s.start + e) for a, b, g, e in _scopes(piece, terms, reach=REACH)]
        ev_scopes += got
        ev_neg += [(a, b) for a, b, _, _ in got]
    wstems: dict[str, tuple[int, int]] = {}
    for s in sents:
        piece = src.text[s.start:s.end]
        idioms = _idioms(piece) | _bounds(piece)
        for st, a, b in fx.raw_stems(piece):
            if a in idioms or _in_name(piece, a):
                continue
            wstems.setdefault(fx.canon(st), (s.start + a, s.start + b))
            wstems.setdefault(st, (s.start + a, s.start + b))
    idioms = _idioms(claim) | _bounds(claim)
    # (a word of a name, "Old Marley", is no opposite of the passage's "new", on either side)
    claim_stems = [x for x in fx.raw_stems(claim) if x[1] not in idioms and not _in_name(claim, x[1])]
    cstems = {st for st, _, _ in claim_stems} | {fx.canon(st) for st, _, _ in claim_stems}
    # and the stems of the claim words' base forms ("died": die), so that an opposite the claim
    # itself says ("for a living, died") is not read as the passage's reversal of it
    cstems |= {x for t in fx.tokens(claim) if t.text[:1].isalpha() for b, _ in wordnet.bases_of(t.low)
               for x in (stem(b), fx.canon(stem(b)))}
    flips, used, flip_at = [], set(), []
    for st, cpos, _ in claim_stems:
        opposites = fx.ANTONYMS.get(st, frozenset()) | fx.ANTONYMS.get(fx.canon(st), frozenset())
        if not opposites or st in wstems or fx.canon(st) in wstems or _same_side(st, opposites, confirmed):
            continue
        for o in opposites:
            if (o in wstems or fx.canon(o) in wstems) and o not in cstems and o not in used:
                used.add(o)
                flips.append(wstems.get(o) or wstems.get(fx.canon(o)))
                flip_at.append(cpos)
                break
    return ev_neg, flips, ev_scopes, flip_at


_COMPARE = re.compile(r"\b(more|less)\s+(\w+)\s+than\s+(\w+)"
                      r"|\b(\w+)(?:\s+(?:and|or)\s+(\w+))?\s+rather\s+than\s+(\w+)(?:\s+(?:and|or)\s+(\w+))?"
                      r"|\b(\w+)\s+instead\s+of\s+(\w+)"
                      # "not one of confrontation or conquest, but of connection": B over A
                      r"|\bnot\s+(?:be\s+)?(?:one\s+of\s+|of\s+|a\s+|an\s+|the\s+)?(?!only\b|just\b|merely\b|simply\b|also\b)(\w+)(?:\s+(?:or|and|nor)\s+(\w+))?"
                      r"\s*,?\s+but\s+(?:one\s+of\s+|of\s+|a\s+|an\s+|the\s+|rather\s+)?(\w+)(?:\s+(?:and|or)\s+(\w+))?", re.I)


def _comparisons(text: str) -> list[tuple[frozenset[str], frozenset[str], int, int]]:
    """(preferred, dispreferred, start, end) of "more A than B", "A (and A2) rather than B",
    "A instead of B", "not B (or B2) but A" ("less A than B" prefers B), as stems."""
    def st(*ws: str | None) -> frozenset[str]:
        return frozenset(fx.canon(stem(w.lower())) for w in ws if w)
    out = []
    for m in _COMPARE.finditer(text):
        g = m.groups()
        if g[0]:
            a, b = st(g[1]), st(g[2])
            if g[0].lower() == "less":
                a, b = b, a
        elif g[3]:
            a, b = st(g[3], g[4]), st(g[5], g[6])
        elif g[7]:
            a, b = st(g[7]), st(g[8])
        else:
            a, b = st(g[11], g[12]), st(g[9], g[10])
        out.append((a, b, m.start(), m.end()))
    return out


def same_comparison(claim: str, src, window: list) -> bool:
    """Does the passage prefer what the sentence prefers ("curious rather than hostile" and "more
    curious than hostile")? Then the sentence's "rather than" is no negation the passage lacks."""
    mine = _comparisons(claim)
    return any(ca & a and cb & b for s in window for a, b, _, _ in _comparisons(src.text[s.start:s.end])
               for ca, cb, _, _ in mine)


def reversed_comparison(claim: str, src, window: list) -> Fact | None:
    """The sentence prefers A to B where the passage prefers B to A ("hostile rather than
    curious" against "more curious than hostile"; "confrontation rather than connection" against
    "not confrontation or conquest, but connection")."""
    mine = _comparisons(claim)
    if not mine:
        return None
    for s in window:
        for a, b, x, y in _comparisons(src.text[s.start:s.end]):
            for ca, cb, cx, cy in mine:
                if ca & b and cb & a and not (ca & cb):
                    return Fact("polarity", claim[cx:cy], "contradicted",
                                f"the source says \u201c{src.text[s.start + x:s.start + y]}\u201d",
                                evidence=src.span(s.start, s.end))
    return None

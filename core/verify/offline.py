"""The offline judge: does the cited text support a sentence? No model; deterministic.

1. Align: the source sentence that shares most of the claim's content terms (stemmed, synonyms
   folded: core.verify.facts; a claim word the cited text lacks stands for any WordNet synonym of
   it that the sentence holds, and is then read as that one: core.verify.paraphrase), widened by the sentence before and after it when they share terms
   too: the *window* the claim is compared with. Its share of the claim's terms is the meaning
   score; `strong` alignment (ALIGNED of the terms besides names and numbers) means the window is
   about the same thing, which the contradiction checks require.
2. Key facts (core.verify.facts), each with the source span that confirms or contradicts it:
   - a name: found in the cited text; absent from the whole workspace (entity titles and full-text
     search over every text unit: core.verify.names) -> fabricated; not in a strongly aligned
     window that names someone else, another name in its slot of the matched sentence, or a
     speaker the passage does not give ("Amy Hood said" under a "SATYA NADELLA:" label), or a
     role the text gives another person ("I'm your host, Kevin Scott": core.verify.roles) ->
     contradicted (another actor: core.verify.actors);
   - a number (with its kind and unit): found when the cited text has the same value; otherwise
     contradicted when the aligned window gives another value of the same kind and unit, or gives
     the same value for another subject (core.verify.subjects);
   - polarity (core.verify.polarity): the claim's negation cues against the window's (those of its best sentence, and
     those next to a claim term in the sentences around it), and antonyms ("increased" against
     "decreased", "stronger" against "weaker"): an odd number of flips -> contradicted; so is a
     reversed comparison ("A rather than B" against "more B than A").
   An inference ("shows that", "proves") in a passage that draws none -> not held.
3. Meaning, clause by clause (the claim cut at ", and", ";", ", while", "because", an appended
   participle, ", where", "and also"...): each clause judged against its own best sentence (one
   away from the claim's sentence needs FAR common words or a claim name in it). Every clause supported (CLAUSE of its terms) and no key
   fact missing -> supported; some -> partial, except that a reason or inference the text does
   not give ("because ...", "shows that ...") makes the claim unsupported; none -> unsupported.
   A record's own text (an entity description, a report summary: the model's words) can lift an
   unsupported claim to partial, never to supported.

Measured on bench/data/claims.jsonl (bench/verify_claims.py; see the closing note of issue 16):
the thresholds below were chosen on a development part of the set and checked on the rest."""
from __future__ import annotations

import functools
import re
from typing import Iterable

from core.query.citations import sentence_spans
from core.query.support import claim_text, stem
from core.verify import actors
from core.verify.absent import absent_names as _absent_names
from core.verify.clauses import clauses
from core.verify import facts as fx
from core.verify import paraphrase
from core.verify import polarity
from core.verify import roles
from core.verify import subjects
from core.verify import lexicon as lx
from core.verify.names import Names
from core.verify.verdict import Fact, Span, Verdict

ALIGNED = 0.4     # share of the claim's plain terms in the window for a contradiction to count
SUPPORTED = 0.4   # share of the claim's terms in the window for supported
CLAUSE = 0.4      # share of a clause's terms in its best sentence for that clause to hold
FAR = 3          # terms a clause must share with a sentence away from the claim's best one
BACKGROUND = 0.4  # share of the workspace's units holding a name for it to be the documents' subject
# (0.5 at first; with session 6's chunk rule Microsoft is in 46% of its own call's units)
RECORD = 0.5      # share of the terms in a record's own text that lifts unsupported to partial
_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")


class _Sent:
    __slots__ = ("start", "end", "terms", "words")

    def __init__(self, text: str, start: int, end: int):
        self.start, self.end = start, end
        piece = text[start:end]
        self.terms = frozenset(t for t, _, _ in fx.content_terms(piece))
        self.words = frozenset(_WORDS.findall(piece.lower()))


@functools.lru_cache(maxsize=8192)
def _prepared(text: str) -> tuple[tuple[_Sent, ...], frozenset[str]]:
    sents = tuple(_Sent(text, s, e) for s, e in sentence_spans(text))
    union: set[str] = set()
    for s in sents:
        union |= s.terms
    return sents, frozenset(union)


@functools.lru_cache(maxsize=8192)
def _numbers(text: str) -> tuple[fx.Number, ...]:
    return tuple(fx.numbers(text))


def _lead(unit: dict, text: str) -> int:
    start, end = unit.get("char_start"), unit.get("char_end")
    if start is None or end is None:
        return 0
    return max(0, len(text) - (end - start))


class _Source:
    """One cited text unit, prepared."""

    def __init__(self, unit: dict):
        self.unit = unit
        self.text = unit.get("text") or ""
        self.sents, self.terms = _prepared(self.text)
        self.lead = _lead(unit, self.text)
        base = unit.get("char_start")
        self.base = None if base is None else base - self.lead

    def span(self, s: int, e: int) -> Span:
        return Span(self.text[s:e], self.unit.get("id"), s, e,
                    None if self.base is None else self.base + s,
                    None if self.base is None else self.base + e)

    def sentence_at(self, pos: int) -> _Sent | None:
        for s in self.sents:
            if s.start <= pos < s.end:
                return s
        return None


def _best(sources: list[_Source], terms: frozenset[str], plain: frozenset[str] = frozenset()) -> tuple[_Source, int] | None:
    """The sentence sharing most terms; the plain ones (besides names) count twice: a name is
    what a passage is about, its other words say what it says about it."""
    best, key = None, None
    for src in sources:
        if not terms & src.terms:
            continue
        for i, s in enumerate(src.sents):
            if s.start < src.lead:
                continue
            hits = len(terms & s.terms) + len(plain & s.terms)
            if hits and (key is None or (hits, -(s.end - s.start)) > key):
                best, key = (src, i), (hits, -(s.end - s.start))
    return best


_SEGMENT = re.compile(r"[;\uff1b]|\n[ \t]*\n|\n[ \t]*(?:[\u2022*\u00b7]|\d+[.)]\s)")  # not a wrapped line's break


def _segment(src: _Source, sent: _Sent, terms: frozenset[str]) -> _Sent:
    """The part of a sentence, cut at semicolons, blank lines and list bullets, that shares
    most terms with the claim: a negation in another item of a list is about another fact."""
    piece = src.text[sent.start:sent.end]
    cuts = [0] + [m.end() for m in _SEGMENT.finditer(piece)] + [len(piece)]
    if len(cuts) <= 2:
        return sent
    parts = [_Sent(src.text, sent.start + a, sent.start + b) for a, b in zip(cuts, cuts[1:]) if piece[a:b].strip()]
    best = max(parts, key=lambda p: len(terms & p.terms))
    return best if terms & best.terms else sent


def _best_alternatives(sources: list[_Source], alts: list[tuple[str, frozenset[str]]],
                       names: frozenset[str]) -> tuple[_Source, int] | None:
    """_best, with each claim word counted when the sentence holds any term it may stand for."""
    best, key = None, None
    for src in sources:
        for i, s in enumerate(src.sents):
            if s.start < src.lead:
                continue
            hits = sum((1 if own in names else 2) for own, a in alts if a & s.terms)
            if hits and (key is None or (hits, -(s.end - s.start)) > key):
                best, key = (src, i), (hits, -(s.end - s.start))
    return best


def _window(src: _Source, i: int, terms: frozenset[str]) -> list[_Sent]:
    out = [src.sents[i]]
    for j in (i - 1, i + 1):
        if 0 <= j < len(src.sents) and src.sents[j].start >= src.lead and terms & src.sents[j].terms:
            out.append(src.sents[j])
    return sorted(out, key=lambda s: s.start)


def judge(sentence: str, units: Iterable[dict], record_texts: Iterable[str] = (),
          names: Names | None = None) -> Verdict:
    """Judge one sentence (citation markers are ignored) against the text_units rows it cites
    (dicts with id, text, char_start, char_end) and optionally the cited records' own texts;
    names answers which names occur in the workspace (default: the cited text alone)."""
    claim = claim_text(sentence).strip()
    sources = [_Source(u) for u in units if u.get("text")]
    record_texts = [t for t in record_texts if t]
    names = names or Names(texts=[s.text for s in sources] + record_texts)
    found_names = fx.names(claim)
    name_words = {w for n in found_names if not n.initial for w in n.words}  # "The", "Meeting" opening a sentence are words
    nums = fx.numbers(claim)
    # the claim's words that the cited text does not hold, in the text's words where WordNet
    # relates them (core.verify.paraphrase)
    have = frozenset().union(*(s.terms for s in sources)) if sources else frozenset()
    mapping = paraphrase.rewrite(claim, have, frozenset(name_words)) if paraphrase.ENABLED else {}
    terms = paraphrase.terms(claim, mapping)
    plain = frozenset(t for t in terms if t not in name_words)
    facts: list[Fact] = []
    # fabricated: a name nowhere in the workspace
    cited = " ".join([s.text for s in sources] + record_texts).lower()
    for surface in _absent_names(claim, names, cited):
        facts.append(Fact("name", surface, "absent", "no document mentions it"))
    if not terms and not nums:
        v = Verdict("partial" if not facts else "fabricated", facts=facts,
                    reason="the sentence asserts nothing to check")
        return v
    located = _best(sources, terms, plain) if terms else None
    if located is not None and mapping:
        # a claim word may stand for several words of the text (WordNet is sense-blind): the
        # sentence that holds most of the claim's words in any of their relatives is the one
        # compared, and each word is read as the relative that sentence holds
        alts = paraphrase.choices(claim, have, frozenset(name_words))
        other = _best_alternatives(sources, alts, frozenset(name_words))
        if other is not None and other != located:
            near = frozenset().union(*(s.terms for s in _window(other[0], other[1], terms)))
            local = paraphrase.rewrite(claim, near, frozenset(name_words))
            mapping = {**mapping, **local}
            terms = paraphrase.terms(claim, mapping)
            plain = frozenset(t for t in terms if t not in name_words)
            located = other
    coverage = len(terms & frozenset().union(*(s.terms for s in sources))) / len(terms) if sources and terms else 0.0
    if located is None:
        v = Verdict("unsupported", coverage=round(coverage, 3), missing=sorted(terms), facts=facts)
        rec = max((_recall(terms, t) for t in record_texts), default=0.0)
        v.record_score = round(rec, 3)
        if rec >= RECORD:
            v.verdict, v.reason = "partial", "only the cited record's own description says it"
        return _finish(v, facts)
    src, i = located
    window = _window(src, i, terms)
    best = src.sents[i]
    wterms = frozenset().union(*(s.terms for s in window))
    wwords = frozenset().union(*(s.words for s in window))
    wlo, whi = window[0].start, window[-1].end
    score = len(terms & wterms) / len(terms) if terms else 0.0
    strong = bool(plain) and len(plain & wterms) / len(plain) >= ALIGNED
    v = Verdict("supported", score=round(score, 3), best_sentence=src.text[best.start:best.end],
                text_unit_id=src.unit.get("id"), unit_start=best.start, unit_end=best.end,
                char_start=None if src.base is None else src.base + best.start,
                char_end=None if src.base is None else src.base + best.end,
                coverage=round(coverage, 3), matched=sorted(terms & wterms), missing=sorted(terms - wterms))
    # names
    absent = {f.text for f in facts}
    wstems_ = {stem(w) for w in wwords}
    for n in found_names:
        if n.surface in absent:
            continue
        # another name where the matched sentence (or, when the name is not in the window, the
        # window) puts the sentence's name
        in_window = all(w in wwords or stem(w) in wstems_ for w in n.words)
        swap = None
        if (strong or score >= ALIGNED) and not all(w in best.words for w in n.words):
            lo, hi = (best.start, best.end) if in_window else (wlo, whi)
            swap = actors.slot_swap(claim, n, src.text[lo:hi], name_words | set(n.words),
                                    known=lambda words: _known_name(src, words))
            if swap is not None and n.initial:
                # a capital opening the sentence says nothing; where the passage has a name in
                # its place and no document holds the word, it is a made-up name ("Citadel, for
                # example, will use ..." against "Bridgewater Associates, for example, will use")
                if names.absent(n.words):
                    facts.append(Fact("name", n.surface, "absent", "no document mentions it"))
                    continue
                if not _known_name(src, n.words):  # written capitalised mid-sentence: a name
                    swap = None
            if swap is not None:
                facts.append(Fact("name", n.surface, "contradicted", f"the source names {swap.surface} here",
                                  evidence=src.span(lo + swap.start, lo + swap.end)))
                continue
        if in_window:
            facts.append(Fact("name", n.surface, "found", evidence=_word_span(src, window, n.words[-1])))
            continue
        elsewhere = _find_word(sources, n.words)
        # another actor: the name is nowhere in the cited text, and the passage it is about names
        # someone else
        other = []
        if strong and not n.initial and _actor(claim, n):
            # nowhere in the cited text and the passage names someone else; or in it elsewhere,
            # while the passage's own actor (who says or does it) is someone else
            other = _other_names(src, window, name_words, actors_only=elsewhere is not None)
        if other:
            facts.append(Fact("name", n.surface, "contradicted", f"the source names {other[0]} here",
                              evidence=_word_span(src, window, other[0].lower().split()[-1])))
        elif elsewhere is not None:
            facts.append(Fact("name", n.surface, "found", evidence=elsewhere))
        elif not n.initial and not all(names.share(w) >= BACKGROUND for w in n.words):
            facts.append(Fact("name", n.surface, "not found"))
        # a name most of the workspace's units hold is what the documents are about: a passage
        # may say "we" for it, so its absence from the cited unit is no missing fact
    # the speaker: the sentence says someone said it, the passage gives another speaker
    speaker = actors.claim_speaker(claim, [n for n in found_names if n.surface not in absent])
    if speaker is not None and strong and not any(f.text == speaker.surface and f.status == "contradicted" for f in facts):
        # the matched sentence's own attribution; else the one before it ("'Mr. Scrooge!' said
        # Bob; 'I'll give you...'" goes on with Bob's words); else the one after it
        given = actors.passage_speakers(src.text, best.start, best.end)
        for j in (i - 1, i + 1):
            if not given and 0 <= j < len(src.sents) and src.sents[j].start >= src.lead:
                if j == i - 1 and actors.unnamed_speaker(src.text[src.sents[j].start:src.sents[j].end]):
                    break  # "At last she said: 'I have known him walk ...'": a speaker, not named
                given = actors.passage_speakers(src.text, src.sents[j].start, src.sents[j].end)
        if given and not any(actors.same_person(speaker.words, tuple(g.lower().replace(".", " ").split()), src.text)
                             for g, _, _ in given):
            g, a, b = given[0]
            facts = [f for f in facts if f.text != speaker.surface]
            facts.append(Fact("name", speaker.surface, "contradicted", f"the source gives {g} as the speaker",
                              evidence=src.span(a, b)))
    # a role the cited text gives another person by apposition ("I'm your host, Kevin Scott")
    role = _role_holder(claim, sources)
    if role is not None and not any(f.text == role[0] and f.status in ("contradicted", "absent") for f in facts):
        facts = [f for f in facts if f.text != role[0]]
        facts.append(Fact("name", role[0], "contradicted", role[1], evidence=role[2]))
    # numbers, each against the passage its own clause is about
    pieces = clauses(claim)
    for num in nums:
        nsrc, nwlo, nwhi, nstrong = src, wlo, whi, strong or score >= ALIGNED
        offset = 0
        for piece, _c in pieces:
            at = claim.find(piece, offset)
            if len(pieces) > 1 and at <= num.start < at + len(piece):
                ct = paraphrase.terms(piece, mapping)
                loc = _best(sources, ct) if ct else None
                if loc is not None:
                    nsrc = loc[0]
                    w = _window(loc[0], loc[1], ct)
                    nwlo, nwhi = w[0].start, w[-1].end
                    wt = frozenset().union(*(x.terms for x in w))
                    pt = frozenset(t for t in ct if t not in name_words)
                    nstrong = bool(pt) and len(pt & wt) / len(pt) >= ALIGNED
                break
            offset = max(offset, at + len(piece)) if at >= 0 else offset
        wnums = [(x, nsrc) for x in _numbers(nsrc.text) if nwlo <= x.start < nwhi]
        hit = next(((x, s) for x, s in wnums if fx.same_number(num, x)), None)
        other = subjects.other_subject(claim, num, nums, nsrc.text, hit[0], list(_numbers(nsrc.text)),
                                       nwlo, nwhi) if hit and nstrong else None
        if other is not None:  # the value is there, for another subject (core.verify.subjects)
            facts.append(Fact("number", num.surface, "contradicted",
                              f"the source says {other.surface} for it ({hit[0].surface} is another figure's)",
                              evidence=nsrc.span(other.start, other.end)))
            continue
        if hit:
            facts.append(Fact("number", num.surface, "found", evidence=hit[1].span(hit[0].start, hit[0].end)))
            continue
        rival = next((x for x, _ in wnums if fx.comparable(num, x)
                      and not any(fx.same_number(x, y) for y in nums)), None) if nstrong else None
        hit = next(((x, s) for s in sources for x in _numbers(s.text)
                    if x.start >= s.lead and fx.same_number(num, x)), None)
        if rival is not None:
            facts.append(Fact("number", num.surface, "contradicted", f"the source says {rival.surface}",
                              evidence=nsrc.span(rival.start, rival.end)))
        elif hit:
            facts.append(Fact("number", num.surface, "found", evidence=hit[1].span(hit[0].start, hit[0].end)))
        else:
            facts.append(Fact("number", num.surface, "not found"))
    # polarity
    if strong:
        part = _segment(src, best, terms)
        pwin = [part if s is best else s for s in window]
        pol = polarity.flipped(claim, src, pwin, part, terms, mapping) or polarity.reversed_comparison(claim, src, window)
        if pol is not None:
            facts.append(pol)
    v.facts = facts
    # meaning, clause by clause
    if any(f.status in ("absent", "contradicted") for f in facts):
        return _finish(v, facts)
    held, missing_causal, n_clauses = 0, False, 0
    claim_name_words = frozenset(w for n in found_names for w in n.words)
    for piece, causal in clauses(claim):
        ct = paraphrase.terms(piece, mapping)
        if not ct:
            continue
        n_clauses += 1
        loc = _best(sources, ct)
        r = 0.0
        if loc is not None:
            csrc, ci = loc
            cwin = _window(csrc, ci, ct)
            have = frozenset().union(*(s.terms for s in cwin))
            named = claim_name_words & {w for w in _WORDS.findall(piece.lower())} & frozenset().union(*(s.words for s in cwin))
            r = _recall(ct, "", have)
            if len(ct & have) < min(2, len(ct)):
                r = min(r, CLAUSE / 2)  # one shared word does not make a fact
            elif len(pieces) > 1 and not (csrc is src and abs(ci - i) <= 1) and not named \
                    and len(ct & have) < min(FAR, len(ct)):
                # a clause held only by a sentence away from the one the rest of the claim is
                # about needs more than two common words there: an added fact ("and promised
                # to buy them new cloth") otherwise finds "new" and "put" somewhere in the unit
                r = min(r, CLAUSE / 2)
        ok = r >= CLAUSE
        held += ok
        if not ok:
            missing_causal |= causal
            facts.append(Fact("meaning", " ".join(piece.split()), "not found",
                              f"{r:.0%} of its words in the best source sentence"))
    # an inference ("shows that", "proves", "means that") holds only where the cited text too
    # says that one thing follows from another
    low = f" {claim.lower()} "
    if any(f" {c}" in low for c in lx.INFERENCE) and not any(
            lx.CAUSE_CUE.search(src.text[s.start:s.end]) for s in window):
        missing_causal = True
        held = min(held, n_clauses - 1)
        facts.append(Fact("meaning", next(c for c in lx.INFERENCE if f" {c}" in low), "not found",
                          "the cited text draws no such inference"))
    missing_key = any(f.status == "not found" and f.kind in ("name", "number") for f in facts)
    if held == n_clauses and score >= SUPPORTED and not missing_key:
        v.verdict = "supported"
    elif held and not missing_causal and (score >= CLAUSE / 2 or held > 0):
        v.verdict = "partial"
    else:
        v.verdict = "unsupported"
    if v.verdict == "unsupported":
        rec = max((_recall(terms, t) for t in record_texts), default=0.0)
        v.record_score = round(rec, 3)
        if rec >= RECORD and not missing_causal:
            v.verdict, v.reason = "partial", "only the cited record's own description says it"
    return _finish(v, facts)


def _role_holder(claim: str, sources: list[_Source]) -> tuple[str, str, Span] | None:
    """(the sentence's name, the reason, the source's role-and-name span) when the cited text
    gives the sentence's role for that name only to someone else (core.verify.roles)."""
    texts = [s.text for s in sources]
    hit = roles.other_holder(claim, "\n".join(texts))
    if hit is None:
        return None
    name, b = hit
    at = 0
    for src, text in zip(sources, texts):
        if at <= b.start < at + len(text):
            lo, hi = min(b.start, b.name.start) - at, max(b.end, b.name.end) - at
            return name.surface, f"the source gives {b.name.surface} as the {src.text[b.start - at:b.end - at]}", src.span(lo, hi)
        at += len(text) + 1
    return None


def _finish(v: Verdict, facts: list[Fact]) -> Verdict:
    v.facts = facts
    if any(f.status == "absent" for f in facts):
        v.verdict = "fabricated"
    elif any(f.status == "contradicted" for f in facts):
        v.verdict = "contradicted"
    if not v.reason:
        fail = v.failing
        v.reason = fail.describe() if fail and v.verdict != "supported" else ""
    return v


def _recall(terms: frozenset[str], text: str, have: frozenset[str] | None = None) -> float:
    if not terms:
        return 0.0
    have = have if have is not None else frozenset(t for t, _, _ in fx.content_terms(text))
    return len(terms & have) / len(terms)


def _actor(claim: str, n: fx.Name) -> bool:
    """Is the name the sentence's actor: among its first words ("Dick Wilkins called out...",
    "It was Fred who...")?"""
    head = re.sub(r"^(?:it\s+was|it\s+is|and|but|then)\s+", "", claim[:n.start].strip().lower())
    return len(head.split()) <= 2


def _word_span(src: _Source, window: list[_Sent], word: str) -> Span | None:
    for s in window:
        m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", src.text[s.start:s.end], re.I)
        if m:
            return src.span(s.start + m.start(), s.start + m.end())
    return None


def _find_word(sources: list[_Source], words: tuple[str, ...]) -> Span | None:
    word = words[-1]
    for src in sources:
        m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", src.text[src.lead:], re.I)
        if m:
            return src.span(src.lead + m.start(), src.lead + m.end())
    return None


_SPEECH = re.compile(r"(?:said|says|replied|cried|asked|answered|exclaimed|remarked|told|added|called)\s*$", re.I)


def _other_names(src: _Source, window: list[_Sent], claim_words: set[str], actors_only: bool = False) -> list[str]:
    out = []
    for s in window:
        piece = src.text[s.start:s.end]
        for n in fx.names(piece):
            if n.initial and not _known_name(src, n.words):
                continue
            if set(n.words) & claim_words:
                continue
            if actors_only:
                before = piece[max(0, n.start - 20):n.start]
                label = piece[n.end:n.end + 30].lstrip().startswith((":", ",")) and piece[n.start:n.end].isupper()
                if not (_SPEECH.search(before) or label):
                    continue
            out.append(n.surface)
    return out


def _known_name(src: _Source, words: tuple[str, ...]) -> bool:
    """A sentence-initial word is a name when the unit also writes it capitalised mid-sentence."""
    w = words[-1]
    return bool(re.search(rf"(?:[a-z,;]\s+|[\u3001\uff0c\u3400-\u9fff]\s*){re.escape(w.capitalize())}(?!\w)", src.text))

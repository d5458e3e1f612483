"""The offline judge: does the cited text support a sentence? No model; deterministic.

1. Align: the source sentence that shares most of the claim's content terms (stemmed, synonyms
   folded: core.verify.facts; a claim word the cited text lacks stands for any WordNet synonym of
   it that the sentence holds, and is then read as that one: core.verify.paraphrase), widened by the sentence before and after it when they share terms
   too: the *window* the claim is compared with. Its share of the claim's terms is the meaning
   score; `strong` alignment (ALIGNED of the terms besides names and numbers) means the window is
   about the same thing, which the contradiction checks require.
2. Key facts (core.verify.facts, figures: core.verify.figures), each with the source span that confirms or contradicts it:
   - a name: found in the cited text; absent from the whole workspace (entity titles and full-text
     search over every text unit: core.verify.names) -> fabricated; not in a strongly aligned
     window that names someone else, another name in its slot of the matched sentence, or a
     speaker the passage does not give ("Amy Hood said" under a "SATYA NADELLA:" label), or a
     role the text gives another person ("I'm your host, Kevin Scott": core.verify.roles), or two
     of the sentence's names trading places in the matched sentence (a role reversal) ->
     contradicted (another actor: core.verify.actors, run by core.verify.actor_check);
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

The thresholds below are chosen with bench/verify_claims.py on the labelled claim sets of
bench/data, on a development part and checked on the rest."""
from __future__ import annotations

import functools
import json

import re
from pathlib import Path
from dataclasses import dataclass, field, replace
from typing import Iterable

from core.text.support import claim_text, is_heading
from core.verify import align as al
from core.verify.absent import absent_names as _absent_names
from core.verify.align import Sent, Source
from core.verify.clauses import clauses
from core.verify import facts as fx
from core.verify import figures as fg
from core.verify import paraphrase
from core.verify import polarity
from core.verify import sentiment
from core.verify import expectations
from core.text import wordnet
from core.verify import lexicon as lx
from core.verify.names import Names
from core.verify.actor_check import check_first_person, check_reversal, check_role, check_speaker
from core.verify.name_check import check_names
from core.verify.number_check import check_numbers
from core.verify.verdict import Fact, Span, Verdict

ALIGNED = 0.4     # share of the claim's plain terms in the window for a contradiction to count
SUPPORTED = 0.3   # share of the claim's terms in the window for supported
CLAUSE = 0.25     # share of a clause's terms in its best sentence for that clause to hold
CAUSAL_CLAUSE = 0.6  # a reason ("because ...", "which is why ...") is what an overreach invents: the
# text must hold more of its words (all claim sets: overreach accepted for a reason clause held
# at 0.45-0.58; paraphrased reasons held at 0.67-1.0, one at 0.5)
FAR = 3          # terms a clause must share with a sentence away from the claim's best one
BACKGROUND = 0.4  # share of the workspace's units holding a name for it to be the documents' subject
RECORD = 0.5      # share of the terms in a record's own text that lifts unsupported to partial
_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")


@dataclass
class _Claim:
    """The sentence as the judge reads it: its text, names, numbers and content terms (claim words
    the cited text lacks rewritten to the relatives it holds), and the facts found so far."""
    claim: str
    sources: list[Source]
    record_texts: list[str]
    names: Names
    found_names: list[fx.Name]
    name_words: set[str]
    nums: list[fg.Number]
    have: frozenset[str]
    mapping: dict
    terms: frozenset[str]
    plain: frozenset[str]
    facts: list[Fact] = field(default_factory=list)
    said: frozenset[str] = frozenset()
    # the terms of acronyms the claim names ("RAM", "CPU", "GPU"): names for the fabricated
    # check, but what a passage says of them as much as any plain word, so they count for the
    # alignment ("64k of RAM" against "8k of RAM" is about the same thing)
    acronyms: frozenset[str] = frozenset()

    def reterm(self, mapping: dict) -> None:
        self.mapping = mapping
        self.terms = paraphrase.terms(self.claim, mapping)
        self.plain = frozenset(t for t in self.terms if t not in self.name_words or t in self.acronyms)
        # what the claim says of its names: the plain terms less the names' own stems ("scot")
        named = {t for t, _, _ in fx.content_terms(" ".join(self.name_words))}
        self.said = frozenset(t for t in self.plain if t not in named)


@dataclass
class _Aligned:
    """The source sentence the claim is compared with (sentence i of src) and its window."""
    src: Source
    i: int
    window: list[Sent]
    best: Sent
    wterms: frozenset[str]
    wwords: frozenset[str]
    wlo: int
    whi: int
    score: float
    strong: bool


def judge(sentence: str, units: Iterable[dict], record_texts: Iterable[str] = (),
          names: Names | None = None) -> Verdict:
    """Judge one sentence (citation markers are ignored) against the text_units rows it cites
    (dicts with id, text, char_start, char_end) and optionally the cited records' own texts;
    names answers which names occur in the workspace (default: the cited text alone)."""
    c = _read(sentence, units, record_texts, names)
    _ruled(c, "absent_names", lambda: c.facts.extend(_absent(c)))
    if is_heading(sentence):
        return _heading(c)
    if not c.terms and not c.nums:
        held = next((s for s in c.sources if _holds(_flat(s.text), " ".join(_pieces(c.claim)))), None) \
            if not c.facts and len(_flat(c.claim).split()) >= 3 else None
        if held is not None:  # '"This is it," he said.': no content word, but the text's own words
            return _word_for_word(c, Verdict("supported"), held)
        return Verdict("partial" if not c.facts else "fabricated", facts=c.facts,
                       reason="the sentence asserts nothing to check")
    located = _locate(c)
    coverage = len(c.terms & c.have) / len(c.terms) if c.sources and c.terms else 0.0
    if located is None:
        return _unlocated(c, coverage)
    a = _align(c, *located)
    v = Verdict("supported", score=round(a.score, 3), best_sentence=a.src.text[a.best.start:a.best.end],
                text_unit_id=a.src.unit.get("id"), unit_start=a.best.start, unit_end=a.best.end,
                char_start=None if a.src.base is None else a.src.base + a.best.start,
                char_end=None if a.src.base is None else a.src.base + a.best.end,
                coverage=round(coverage, 3), matched=sorted(c.terms & a.wterms), missing=sorted(c.terms - a.wterms))
    absent = {f.text for f in c.facts}
    _ruled(c, "names", lambda: check_names(c, a, absent, ALIGNED, BACKGROUND))  # core.verify.name_check
    _ruled(c, "reversal", lambda: check_reversal(c, a, ALIGNED))  # core.verify.actor_check
    _ruled(c, "speaker", lambda: check_speaker(c, a, absent))
    _ruled(c, "role", lambda: check_role(c))  # a role given by apposition says more than the first person around it
    _ruled(c, "first_person", lambda: check_first_person(c, a, absent))
    _ruled(c, "numbers", lambda: check_numbers(c, a, ALIGNED))  # core.verify.number_check
    _ruled(c, "polarity", lambda: _check_polarity(c, a))
    quoted = _quoted(c.claim, c.sources)
    if quoted is not None:
        # the cited text holds the sentence word for word: nothing in it can contradict what it
        # says (a figure of the next sentence is no rival of a figure quoted from this one)
        c.facts[:] = [f for f in c.facts if f.status != "contradicted"]
    v.facts = c.facts
    if any(f.status in ("absent", "contradicted") for f in c.facts):
        return _finish(v, c.facts)
    if quoted is not None:  # and it says what it says: supported, highlighted where it stands
        return _word_for_word(c, v, quoted)
    return _meaning(c, a, v)


def _heading(c: _Claim) -> Verdict:
    """A heading ("4. **Business Processes and Intelligent Cloud: billion, grow, decrease**") titles
    what follows: its names are checked (fabricated when no document holds one), not its words
    (a title's "decrease" is no polarity)."""
    if any(f.status == "absent" for f in c.facts):
        return _finish(Verdict("fabricated"), c.facts)
    said = [n for n in c.found_names if not n.initial]
    for n in said:
        where = al.find_word(c.sources, n.words)
        named = where is not None or any(all(w in t.lower().replace("\u2019", "'") for w in n.words)
                                         for t in [x.text for x in c.sources] + c.record_texts)
        c.facts.append(Fact("name", n.surface, "found" if named else "not found", evidence=where))
    if said and all(f.status == "found" for f in c.facts):
        v = Verdict("supported", reason="a heading: the cited text names what it names", rule="heading")
        _highlight(v, c, next((f.evidence for f in c.facts if f.evidence is not None), None))
        return _finish(v, c.facts)
    # the name the cited text lacks is the reason, else: nothing to check
    return _finish(Verdict("partial", reason="" if said else "a heading: it asserts nothing to check"), c.facts)


def _highlight(v: Verdict, c: _Claim, at: Span | None) -> None:
    """The verdict's evidence: the source sentence holding the span at (a heading's first name)."""
    src = next((x for x in c.sources if at is not None and x.unit.get("id") == at.text_unit_id), None)
    sent = src.sentence_at(at.unit_start) if src is not None else None
    if sent is not None:
        _set_best(v, src, sent)


def _set_best(v: Verdict, src: Source, sent: Sent) -> None:
    v.best_sentence, v.text_unit_id = src.text[sent.start:sent.end], src.unit.get("id")
    v.unit_start, v.unit_end = sent.start, sent.end
    v.char_start = None if src.base is None else src.base + sent.start
    v.char_end = None if src.base is None else src.base + sent.end


def _word_for_word(c: _Claim, v: Verdict, src: Source) -> Verdict:
    """Supported: the cited text holds the sentence word for word; the highlight is the source
    sentence holding its opening words."""
    words = _pieces(c.claim)[0].split()
    flats = [(x, _flat(src.text[x.start:x.end])) for x in src.sents]
    at = None  # the sentence holding most of the quote's opening words (not the first that opens
    for k in range(len(words), min(6, len(words)) - 1, -1):  # the same way: "Excluding the impact of the change ...")
        head = " ".join(words[:k])
        at = next((x for x, f in flats if head in f), None)
        if at is not None:
            break
    if at is not None:
        _set_best(v, src, at)
    v.verdict, v.reason, v.rule = "supported", "the cited text says it word for word", "quoted"
    return _finish(v, c.facts)


def _read(sentence: str, units: Iterable[dict], record_texts: Iterable[str], names: Names | None) -> _Claim:
    """The claim's text, names, numbers and terms; the cited units prepared."""
    claim = claim_text(sentence).strip()
    sources = [Source(u) for u in units if u.get("text")]
    record_texts = [t for t in record_texts if t]
    names = names or Names(texts=[s.text for s in sources] + record_texts)
    # a word opening the sentence says nothing by its capital, unless the workspace's documents
    # write it capitalised mid-sentence ("Siemens shared last week ...": ", Siemens shared how")
    found_names = [replace(n, initial=False) if n.initial and all(names.written_as_name(w) for w in n.words) else n
                   for n in fx.names(claim)]
    name_words = {w for n in found_names if not n.initial for w in n.words}  # "The", "Meeting" opening a sentence are words
    # the claim's words that the cited text does not hold, in the text's words where WordNet
    # relates them (core.verify.paraphrase)
    have = frozenset().union(*(s.terms for s in sources)) if sources else frozenset()
    mapping = paraphrase.rewrite(claim, have, frozenset(name_words)) if paraphrase.ENABLED else {}
    c = _Claim(claim, sources, record_texts, names, found_names, name_words, fg.numbers(claim), have,
               mapping, frozenset(), frozenset(), acronyms=_acronym_terms(claim, found_names))
    c.reterm(mapping)
    return c


def _acronym_terms(claim: str, found: list[fx.Name]) -> frozenset[str]:
    """The terms of the claim's one-word all-capital names of 2-5 letters that WordNet holds as
    common nouns ("RAM", "CPU"; not "UBS", an affiliation like any name)."""
    out = set()
    for n in found:
        word = claim[n.start:n.end]
        if len(n.words) == 1 and word.isupper() and word.isalpha() and 2 <= len(word) <= 5 \
                and wordnet.common_noun(word):
            t = fx.term(word)
            if t:
                out.add(t)
    return frozenset(out)


def _absent(c: _Claim) -> list[Fact]:
    """Fabricated: the names no document of the workspace holds."""
    cited = " ".join([s.text for s in c.sources] + c.record_texts).lower()
    out = []
    for surface in _absent_names(c.claim, c.names, cited):
        if all(fx.PERIOD.match(w) for w in surface.lower().split()):
            continue  # "FY23 Q3" that no document writes: a date, checked against the titles (name_check)
        mixed = c.names.blended(tuple(surface.lower().split()))
        out.append(Fact("name", surface, "absent", f"they name {mixed[0]} and {mixed[1]}" if mixed else ""))
    return out


def _locate(c: _Claim) -> tuple[Source, int] | None:
    """The source sentence sharing most of the claim's terms. A claim word may stand for several
    words of the text (WordNet is sense-blind): the sentence that holds most of the claim's words
    in any of their relatives is the one compared, and each word is read as the relative that
    sentence holds (which re-terms the claim)."""
    located = al.best(c.sources, c.terms, c.said, c.nums) if c.terms else None
    if located is not None and c.mapping:
        alts = paraphrase.choices(c.claim, c.have, frozenset(c.name_words))
        other = al.best_alternatives(c.sources, alts, frozenset(c.name_words))
        if other is not None and other != located:
            near = frozenset().union(*(s.terms for s in al.window(other[0], other[1], c.terms)))
            local = paraphrase.rewrite(c.claim, near, frozenset(c.name_words))
            c.reterm({**c.mapping, **local})
            located = other
    return located


def _unlocated(c: _Claim, coverage: float) -> Verdict:
    """No source sentence shares a term: unsupported, or partial when a cited record's own text
    (the model's words) says it."""
    v = Verdict("unsupported", coverage=round(coverage, 3), missing=sorted(c.terms), facts=c.facts)
    rec = max((al.recall(c.terms, t) for t in c.record_texts), default=0.0)
    v.record_score = round(rec, 3)
    if rec >= RECORD:
        v.verdict, v.reason = "partial", "only the cited record's own description says it"
    return _finish(v, c.facts)


def _align(c: _Claim, src: Source, i: int) -> _Aligned:
    window = al.window(src, i, c.terms)
    wterms = frozenset().union(*(s.terms for s in window))
    score = len(c.terms & wterms) / len(c.terms) if c.terms else 0.0
    strong = bool(c.plain) and len(c.plain & wterms) / len(c.plain) >= ALIGNED
    return _Aligned(src, i, window, src.sents[i], wterms, frozenset().union(*(s.words for s in window)),
                    window[0].start, window[-1].end, score, strong)


def _flat(text: str) -> str:
    return " ".join(text.lower().replace("\u2019", "'").replace("\uff0c", ",").split())


_ELISION = re.compile(r"\s*(?:\u2026|\.\.\.)\s*")  # "…" or "...": words left out of a quote


def _pieces(claim: str) -> list[str]:
    """The claim (its closing stop aside) in its quoted pieces: one, or those an elision joins."""
    core = _flat(claim).rstrip(".!?\u3002\uff01\uff1f ")
    return [p for p in (x.strip(" ,;:") for x in _ELISION.split(core)) if p]


def _quoted(claim: str, sources: list[Source]) -> Source | None:
    """The cited source that holds the claim word for word, from a word's start, if the claim is
    long enough to be a statement (six words, or 12 characters of Chinese). A quote with words left
    out ("If we were not perfectly convinced ... than there would be in\u2026 \u2026Hamlet's father
    died") is word for word when every piece is, in one cited source or another: the first piece's
    is returned."""
    pieces = _pieces(claim)
    core = " ".join(pieces)
    long_enough = len(core.split()) >= 6 or (len(core) >= 12 and any("\u4e00" <= ch <= "\u9fff" for ch in core))
    if not long_enough:
        return None
    flats = [(s, _flat(s.text)) for s in sources]
    first = None
    for piece in pieces:
        holder = next((s for s, flat in flats if _holds(flat, piece)), None)
        if holder is None:
            return None
        first = first or holder
    return first


def quote_pieces(claim: str) -> list[str]:
    """The claim's quoted pieces (one, or those "…" joins), flattened: lower case, one space."""
    return _pieces(claim)


def holds_quote(text: str, quote: str) -> bool:
    """Does text hold the quote word for word (each piece of it, where words are left out)?"""
    flat = _flat(text)
    return all(_holds(flat, p) for p in _pieces(quote))


def _holds(flat: str, piece: str) -> bool:
    at = flat.find(piece)
    while at >= 0:
        if at == 0 or not flat[at - 1].isalnum():
            return True
        at = flat.find(piece, at + 1)
    return False


def _check_polarity(c: _Claim, a: _Aligned) -> None:
    """Negation cues and antonyms in the claim's item of the matched sentence and its window, or a
    reversed comparison (core.verify.polarity); only where the window is strongly aligned."""
    if not a.strong:  # (a sentence the cited text holds word for word is never contradicted: judge)
        return
    part = al.segment(a.src, a.best, c.terms)
    # a sentence the matched one holds word for word is read there alone: a "not" in the next
    # sentence ("people who were not to be trifled with") is no polarity of a quote
    pwin = [part] if c.terms <= a.best.terms else [part if s is a.best else s for s in a.window]
    pol = polarity.flipped(c.claim, a.src, pwin, part, c.terms, c.mapping)
    if pol is not None:
        pol.rule = "polarity.antonym" if pol.note.startswith("the source says \u201c") and \
            pol.text != "affirmative" and not fx.negation_positions(pol.text) else "polarity.negation"
    else:
        pol = polarity.reversed_comparison(c.claim, a.src, a.window)
        if pol is not None:
            pol.rule = "polarity.comparison"
    if pol is None:
        piece = a.src.text[part.start:part.end]
        # "beat expectations" where the passage "fell short of expectations"; else "resented"
        # where it says "appreciating" (core.verify.sentiment), for a claim without a negation
        hit = expectations.reversed_result(c.claim, piece)
        rule = "polarity.expectation"
        if hit is None and not fx.negation_positions(c.claim):
            hit, rule = sentiment.reversed_feeling(c.claim, piece), "polarity.feeling"
        if hit is not None:
            word, lo, hi = hit
            pol = Fact("polarity", word, "contradicted", f"the source says \u201c{piece[lo:hi]}\u201d",
                       evidence=a.src.span(part.start, part.end), rule=rule)
    if pol is not None:
        c.facts.append(pol)


def _meaning(c: _Claim, a: _Aligned, v: Verdict) -> Verdict:
    """Meaning, clause by clause, and the verdict: every clause held and no key fact missing ->
    supported; some held -> partial, unless a reason or inference the text does not give is
    missing; none -> unsupported (a cited record's own text may lift that to partial)."""
    facts, src, i = c.facts, a.src, a.i
    pieces = clauses(c.claim)
    held, missing_causal, n_clauses = 0, False, 0
    claim_name_words = frozenset(w for n in c.found_names for w in n.words)
    for piece, causal in pieces:
        ct = paraphrase.terms(piece, c.mapping)
        if not ct:
            continue
        n_clauses += 1
        loc = al.best(c.sources, ct)
        r, why = 0.0, ""
        if loc is not None:
            csrc, ci = loc
            cwin = al.window(csrc, ci, ct)
            have = frozenset().union(*(s.terms for s in cwin))
            own = claim_name_words & {w for w in _WORDS.findall(piece.lower())}  # the names the clause says
            named = own & frozenset().union(*(s.words for s in cwin))
            r = al.recall(ct, "", have)
            elsewhere = bool(own) and not named and any(w in s.words for x in c.sources for s in x.sents for w in own)
            if len(ct & have) < min(2, len(ct)):
                r = min(r, CLAUSE / 2)  # one shared word does not make a fact
                why = "no source sentence shares more than one of its words"
            elif elsewhere and len(ct & have) < min(FAR, len(ct)):
                # a clause about a name the cited text holds, matched only by a sentence that
                # does not name it, needs three common words there ("LinkedIn's operating margin
                # reached a record high" is not "operating income increased")
                r = min(r, CLAUSE / 2)
                why = "only a sentence that does not name its subject shares its words, and too few"
            elif len(pieces) > 1 and not (csrc is src and abs(ci - i) <= 1) and not named \
                    and len(ct & have) < min(FAR, len(ct)):
                # a clause held only by a sentence away from the one the rest of the claim is
                # about needs more than two common words there: an added fact ("and promised
                # to buy them new cloth") otherwise finds "new" and "put" somewhere in the unit
                r = min(r, CLAUSE / 2)
                why = "only a sentence away from the rest of the claim shares its words, and too few"
        ok = r >= (CAUSAL_CLAUSE if causal else CLAUSE)
        held += ok
        if not ok:
            missing_causal |= causal
            facts.append(Fact("meaning", " ".join(piece.split()), "not found",
                              why or f"{r:.0%} of its words in the best source sentence"))
    # an inference ("shows that", "proves", "means that") holds only where the cited text too
    # says that one thing follows from another
    low = f" {c.claim.lower()} "
    if any(f" {x}" in low for x in lx.INFERENCE) and not any(
            lx.CAUSE_CUE.search(src.text[s.start:s.end]) for s in a.window):
        missing_causal = True
        held = min(held, n_clauses - 1)
        facts.append(Fact("meaning", next(x for x in lx.INFERENCE if f" {x}" in low), "not found",
                          "the cited text draws no such inference"))
    missing_key = any(f.status == "not found" and f.kind in ("name", "number") for f in facts)
    if held == n_clauses and a.score >= SUPPORTED and not missing_key:
        v.verdict = "supported"
    elif held and not missing_causal and (a.score >= CLAUSE / 2 or held > 0):
        v.verdict = "partial"
    else:
        v.verdict = "unsupported"
    if v.verdict == "unsupported":
        rec = max((al.recall(c.terms, t) for t in c.record_texts), default=0.0)
        v.record_score = round(rec, 3)
        if rec >= RECORD and not missing_causal:
            v.verdict, v.reason = "partial", "only the cited record's own description says it"
    return _finish(v, facts)


def _ruled(c: _Claim, rule: str, check) -> None:
    """Run one check and mark the facts it added, or whose status it changed, with its rule id."""
    before = {id(f): f.status for f in c.facts}
    check()
    for f in c.facts:
        if id(f) not in before:
            f.rule = f.rule or rule  # a check may name its own part ("polarity.negation")
        elif before[id(f)] != f.status:
            f.rule = rule


@functools.lru_cache(maxsize=1)
def alarm_alone() -> dict[str, bool]:
    """rule id -> may it make a verdict contradicted or fabricated on its own (rules.json)."""
    return dict(json.loads((Path(__file__).parent / "rules.json").read_text(encoding="utf-8"))["alarm_alone"])


def _finish(v: Verdict, facts: list[Fact]) -> Verdict:
    """The verdict from the facts (the one place a fact's status becomes a verdict): absent ->
    fabricated, contradicted -> contradicted, each only when a rule that may alarm on its own
    found it; otherwise partial, with what was found as the reason to read the source."""
    v.facts = facts
    for f in facts:
        f.rule = f.rule or f.kind  # a fact the verdict's own step found: "meaning", "name"
    may = alarm_alone()
    alarms = [f for f in facts if f.status in ("absent", "contradicted")]
    trusted = [f for f in alarms if may.get(f.rule, True)]
    if any(f.status == "absent" for f in trusted):
        v.verdict = "fabricated"
    elif trusted:
        v.verdict = "contradicted"
    elif alarms and v.verdict != "unsupported":  # only a check that is often wrong alone: check this
        v.verdict = "partial"
        v.reason = v.reason or f"{alarms[0].describe()} (flagged by the {alarms[0].rule} check, which is " \
            "not trusted alone: read the source)"
    fail = v.failing
    if not v.reason:
        v.reason = fail.describe() if fail and v.verdict != "supported" else ""
    v.rule = fail.rule if fail is not None and v.verdict != "supported" else (v.rule or "meaning")
    return v

"""The offline judge: does the cited text support a sentence? No model; deterministic. Four steps:

1. Read (core.verify.claim.read): the claim's names, numbers and content terms (stemmed,
   synonyms folded: core.verify.facts; a claim word the cited text lacks stands for any WordNet
   synonym of it that the text holds: core.verify.paraphrase).
2. Align (core.verify.claim.locate, align): the source sentence that shares most of the claim's
   terms, widened by the sentences around it that share terms too: the *window*. Its share of
   the claim's terms is the meaning score; `strong` alignment (the "aligned" share of the terms
   besides names and numbers) means the window is about the same thing, which the
   contradiction rules require.
3. Rules (core.verify.rules.REGISTRY, in order), each finding facts with its id and the source
   span that confirms or contradicts them: names no document holds (fabricated), names in the
   cited text or another name in their slot, speakers, roles, role reversals, numbers (with
   their kind and unit), polarity (negations, antonyms, reversed comparisons, results against
   expectations, feelings). A sentence the cited text holds word for word is "quoted".
4. Meaning, clause by clause (the claim cut at ", and", ";", ", while", "because", an appended
   participle, ", where", "and also"...): each clause judged against its own best sentence (one
   away from the claim's sentence needs "far" common words or a claim name in it); an inference
   ("shows that", "proves") in a passage that draws none is not held.

Then core.verify.decide reads the findings and the meaning against its precedence table: the
one place a verdict is set. The thresholds are the policy's (core/verify/rules.json, changed by a
workspace's `verify` setting), chosen with bench/verify_all_sets.py on the labelled claim sets."""
from __future__ import annotations

import re
from typing import Iterable

from core.text.support import is_heading
from core.verify import align as al
from core.verify import lexicon as lx
from core.verify import paraphrase
from core.verify import rules
from core.verify.align import Sent, Source
from core.verify.claim import Alignment, Claim, align, locate, read
from core.verify.clauses import clauses
from core.verify.decide import Meaning, decide
from core.verify.names import Names
from core.verify.rules import Policy
from core.verify.verdict import Fact, Span, Verdict

_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")


def judge(sentence: str, units: Iterable[dict], record_texts: Iterable[str] = (),
          names: Names | None = None, policy: Policy | None = None) -> Verdict:
    """Judge one sentence (citation markers are ignored) against the text_units rows it cites
    (dicts with id, text, char_start, char_end) and optionally the cited records' own texts;
    names answers which names occur in the workspace (default: the cited text alone); policy:
    the rules run and trusted, and the thresholds (default: rules.json)."""
    policy = policy or Policy.default()
    c = read(sentence, units, record_texts, names)
    facts = rules.run(c, None, policy)  # what needs no alignment: names no document holds
    fenced = _FENCED.fullmatch(sentence.strip())
    if fenced is not None:  # a code block quoted from a page (a how-to answer's command)
        return _code(c, fenced.group(1), facts, policy)
    if is_heading(sentence):
        return _heading(c, facts, policy)
    if not c.terms and not c.nums:
        held = next((s for s in c.sources if _holds(_flat(s.text), " ".join(_pieces(c.claim)))), None) \
            if not facts and len(_flat(c.claim).split()) >= 3 else None
        if held is not None:  # '"This is it," he said.': no content word, but the text's own words
            return _word_for_word(c, Verdict("supported"), held, facts, policy)
        return decide(Verdict("partial"), facts, Meaning(nothing=True), policy)
    located = locate(c)
    coverage = len(c.terms & c.have) / len(c.terms) if c.sources and c.terms else 0.0
    if located is None:  # no source sentence shares a term
        v = Verdict("unsupported", coverage=round(coverage, 3), missing=sorted(c.terms))
        v.record_score = round(_record(c), 3)
        return decide(v, facts, Meaning(record=v.record_score), policy)
    a = align(c, *located, policy.t("aligned"))
    v = Verdict("supported", score=round(a.score, 3), best_sentence=a.src.text[a.best.start:a.best.end],
                text_unit_id=a.src.unit.get("id"), unit_start=a.best.start, unit_end=a.best.end,
                char_start=None if a.src.base is None else a.src.base + a.best.start,
                char_end=None if a.src.base is None else a.src.base + a.best.end,
                coverage=round(coverage, 3), matched=sorted(c.terms & a.wterms), missing=sorted(c.terms - a.wterms))
    facts = rules.run(c, a, policy, facts)  # core.verify.rules.REGISTRY, in order
    quoted = _quoted(c.claim, c.sources)
    if quoted is not None:  # supported, highlighted where it stands (a figure of the next
        # sentence is no rival of a figure quoted from this one: core.verify.decide)
        return _word_for_word(c, v, quoted, facts, policy)
    if any(f.status in ("absent", "contradicted") and policy.trusted(f.rule or f.kind, f.closeness) for f in facts):
        return decide(v, facts, Meaning(), policy)
    # a finding of a rule not trusted alone is a doubt: what the meaning step holds decides
    # between "check this" (partial) and "the cited text does not say it" (unsupported)
    return decide(v, *_meaning(c, a, facts, policy), policy)


_FENCED = re.compile(r"```[\w+-]*\n(.*?)\n?```(?:\s*\[Data:[^\]]*\])?\.?", re.S)


def _code(c: Claim, code: str, facts: list[Fact], policy: Policy) -> Verdict:
    """A code block is supported when a cited unit holds its lines as they are (a block's lines
    are never sentences of the text, so it is checked as a quote), highlighted at its first
    line; otherwise "check this" (partial), since code has no words to weigh."""
    lines = [x.strip() for x in code.splitlines() if x.strip() and x.strip() != "..."]
    for src in c.sources:
        at = src.text.find(lines[0]) if lines else -1
        if at >= 0 and all(x in src.text for x in lines):
            v = Verdict("supported", best_sentence=lines[0], text_unit_id=src.unit.get("id"),
                        unit_start=at, unit_end=at + len(lines[0]))
            v.char_start = None if src.base is None else src.base + at
            v.char_end = None if src.base is None else src.base + at + len(lines[0])
            return decide(v, facts, Meaning(), policy, quoted=True)
    return decide(Verdict("partial"), facts, Meaning(nothing=True), policy)


def _record(c: Claim) -> float:
    """The best share of the claim's terms in a cited record's own text (the model's words)."""
    return max((al.recall(c.terms, t) for t in c.record_texts), default=0.0)


def _heading(c: Claim, facts: list[Fact], policy: Policy) -> Verdict:
    """A heading ("4. **Business Processes and Intelligent Cloud: billion, grow, decrease**") titles
    what follows: its names are checked (fabricated when no document holds one), not its words
    (a title's "decrease" is no polarity)."""
    v = Verdict("partial")
    if not any(f.status == "absent" for f in facts):
        for n in (n for n in c.found_names if not n.initial):
            where = al.find_word(c.sources, n.words)
            named = where is not None or any(all(w in t.lower().replace("\u2019", "'") for w in n.words)
                                             for t in [x.text for x in c.sources] + c.record_texts)
            facts.append(Fact("name", n.surface, "found" if named else "not found", evidence=where, rule="heading"))
        _highlight(v, c, next((f.evidence for f in facts if f.evidence is not None), None))
    return decide(v, facts, Meaning(heading=True), policy)


def _highlight(v: Verdict, c: Claim, at: Span | None) -> None:
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


def _word_for_word(c: Claim, v: Verdict, src: Source, facts: list[Fact], policy: Policy) -> Verdict:
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
    return decide(v, facts, Meaning(), policy, quoted=True)


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


def _meaning(c: Claim, a: Alignment, facts: list[Fact], policy: Policy) -> tuple[list[Fact], Meaning]:
    """Meaning, clause by clause: each clause held when its best source sentence holds CLAUSE of
    its terms (a reason or inference, CAUSAL_CLAUSE); the facts with a "meaning" fact for each
    clause not held, and what core.verify.decide reads (every clause held and no key fact
    missing -> supported; some held -> partial, unless a reason or inference the text does not
    give is missing; none -> unsupported, which a cited record's own text may lift to partial)."""
    src, i = a.src, a.i
    CLAUSE, CAUSAL_CLAUSE, FAR = policy.t("clause"), policy.t("causal_clause"), policy.t("far")
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
    return facts, Meaning(n_clauses, held, a.score, missing_causal, round(_record(c), 3))

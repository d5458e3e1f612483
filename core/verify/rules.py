"""The offline judge's rules, as units: each check is a `Rule` with an id, what it looks for and a
`find` that returns the facts it finds (each tagged with the rule's id and the source span that
confirms or contradicts it). `REGISTRY` runs them in order; a rule reads the findings before it
(`prior`) and never changes them: a finding marked `replaces` stands for an earlier one on the
same name. Which rules a workspace runs, which may alarm on their own and the thresholds are a
`Policy` (rules.json, changed by the workspace's `verify` setting). The verdict is decided in one
place, core.verify.decide."""
from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from core.text.support import stem
from core.verify import doers, expectations, opposites, polarity, sentiment
from core.verify import align as al
from core.verify import facts as fx
from core.verify import lexicon as lx
from core.verify.absent import absent_names
from core.verify.actor_check import check_first_person, check_reversal, check_role, check_speaker
from core.verify.claim import Alignment, Claim
from core.verify.name_check import check_names
from core.verify.number_check import check_numbers
from core.verify.verdict import Fact

_DEFAULTS = Path(__file__).parent / "rules.json"


@dataclass(frozen=True)
class Policy:
    """The rules a workspace runs and how far it trusts them."""
    thresholds: Mapping[str, float]
    alarm_alone: Mapping[str, bool | float]
    off: frozenset[str] = frozenset()

    def t(self, name: str) -> float:
        return self.thresholds[name]

    def trusted(self, rule: str, score: float = 1.0) -> bool:
        """May a finding of this rule make the verdict contradicted or fabricated on its own? A
        number: only where the window holds at least that share of the claim's terms (a close
        copy of the passage, whose flipped word is the claim's own edit)."""
        may = self.alarm_alone.get(rule, True)
        return may if isinstance(may, bool) else score >= float(may)

    @staticmethod
    @functools.lru_cache(maxsize=1)
    def default() -> "Policy":
        data = json.loads(_DEFAULTS.read_text(encoding="utf-8"))
        return Policy(dict(data["thresholds"]), dict(data["alarm_alone"]), frozenset(data.get("off", ())))

    def changed(self, changes: Mapping[str, Any] | None) -> "Policy":
        """This policy with a workspace's `verify` setting applied ({"off": [...],
        "alarm_alone": {rule: bool}, "thresholds": {name: value}}); unknown names are an error."""
        if not changes:
            return self
        unknown = set(changes) - {"off", "alarm_alone", "thresholds"}
        ids = {r.id for r in REGISTRY} | {"polarity.antonym"}
        bad = sorted(unknown | (set(changes.get("off", ())) - ids) | (set(changes.get("alarm_alone", {})) - ids)
                     | (set(changes.get("thresholds", {})) - set(self.thresholds)))
        if bad:
            raise ValueError(f"unknown verify settings: {', '.join(bad)} (rules: {', '.join(sorted(ids))}; "
                             f"thresholds: {', '.join(sorted(self.thresholds))})")
        return Policy({**self.thresholds, **{k: float(v) for k, v in changes.get("thresholds", {}).items()}},
                      {**self.alarm_alone, **{k: v if isinstance(v, bool) else float(v)
                                              for k, v in changes.get("alarm_alone", {}).items()}},
                      self.off | frozenset(changes.get("off", ())))


Finder = Callable[[Any, Any, tuple, Any], list]  # (claim, alignment or None, prior findings, policy) -> findings


@dataclass(frozen=True)
class Rule:
    id: str
    what: str            # what it finds, in a reader's words
    find: Finder         # (claim, alignment, prior findings, policy) -> new findings
    aligned: bool = True  # needs the claim's alignment (False: runs on the claim and the workspace alone)


def _absent(c: Claim, a, prior, p: Policy) -> list[Fact]:
    cited = " ".join([s.text for s in c.sources] + c.record_texts).lower()
    out = []
    for surface in absent_names(c.claim, c.names, cited):
        if all(fx.PERIOD.match(w) for w in surface.lower().split()):
            continue  # "FY23 Q3" that no document writes: a date, checked against the titles (names)
        mixed = c.names.blended(tuple(surface.lower().split()))
        out.append(Fact("name", surface, "absent", f"they name {mixed[0]} and {mixed[1]}" if mixed else ""))
    return out


def _absent_texts(prior) -> set[str]:
    return {f.text for f in prior if f.status == "absent"}


def _part(c: Claim, a: Alignment):
    """The claim's item of the matched sentence (core.verify.align.segment), once per alignment
    for the polarity rules that read it."""
    if "part" not in a.memo:
        a.memo["part"] = al.segment(a.src, a.best, c.terms)
    return a.memo["part"]


def _flipped(c: Claim, a: Alignment) -> Fact | None:
    """The negation or antonym reversal of the claim's item of the matched sentence and its
    window (core.verify.polarity), computed once per alignment for the two rules that read it."""
    if "flipped" not in a.memo:
        part = _part(c, a)
        # a sentence the matched one holds word for word is read there alone: a "not" in the next
        # sentence ("people who were not to be trifled with") is no polarity of a quote
        pwin = [part] if c.terms <= a.best.terms else [part if s is a.best else s for s in a.window]
        pol = _negation_pair(c, a) or polarity.flipped(c.claim, a.src, pwin, part, c.terms, c.mapping)
        if pol is not None and " " in pol.text and polarity.same_comparison(c.claim, a.src, a.window):
            pol = None  # "A rather than B" where the passage says "more A than B": the same preference
        if pol is not None:
            pol.rule = "polarity.antonym" if pol.note.startswith("the source says \u201c") and \
                pol.text != "affirmative" and not fx.negation_positions(pol.text) else "polarity.negation"
        a.memo["flipped"] = pol
    return a.memo["flipped"]


_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")


def _negation_pair(c: Claim, a: Alignment) -> Fact | None:
    """The sentence word for word in the matched sentence but for a negation one of them has
    ("had been done" against "had not been done", "didn't" against "did"), at most one word in ten
    left out or changed: the reverse, whatever word the negation governs (a stop word like "done"
    is no content term for the other rules)."""
    piece = a.src.text[a.best.start:a.best.end]

    def words(text: str) -> list[tuple[str, int, int, bool]]:
        neg = fx.negation_positions(text)
        out = []
        for m in _WORD.finditer(text):
            low = m.group(0).lower().replace("\u2019", "'")
            is_neg = any(s <= m.start() < e for s, e in neg)
            if is_neg and low.endswith("n't") and low not in ("can't", "won't", "shan't"):
                low = low[:-3]  # "didn't" is "did" negated
                out.append((low, m.start(), m.end(), False))
                out.append(("not", m.start(), m.end(), True))
                continue
            out.append((low, m.start(), m.end(), is_neg))
        return out
    cw, sw = words(c.claim), words(piece)
    cplain = [w for w, _, _, n in cw if not n]
    splain = [(w, s, e) for w, s, e, n in sw if not n]
    if len(cplain) < 4 or len(cplain) > len(splain):
        return None
    # the claim's words in order in the sentence, at most one word in ten left out or changed
    blocks = [b for b in difflib.SequenceMatcher(None, cplain, [w for w, _, _ in splain], autojunk=False)
              .get_matching_blocks() if b.size]
    if not blocks or sum(b.size for b in blocks) < 0.9 * len(cplain):
        return None
    lo, hi = splain[blocks[0].b][1], splain[blocks[-1].b + blocks[-1].size - 1][2]
    src_neg = [(s, e) for w, s, e, n in sw if n and lo <= s <= hi]
    claim_neg = [w for w, _, _, n in cw if n]
    if (len(src_neg) + len(claim_neg)) % 2 == 0:
        return None
    at = src_neg[0] if src_neg else None
    note = f"the source says \u201c{piece[at[0]:at[1]]}\u201d" if at else "the source says it without the negation"
    return Fact("polarity", claim_neg[0] if claim_neg else "affirmative", "contradicted", note,
                evidence=a.src.span(a.best.start, a.best.end), rule="polarity.negation")


def _polarity(kind: str) -> Finder:
    def find(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
        if not a.strong:
            return []
        pol = _flipped(c, a)
        return [pol] if pol is not None and pol.rule == kind else []
    return find


def _no_polarity_yet(prior) -> bool:
    return not any(f.kind == "polarity" for f in prior)


def _comparison(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    if not a.strong or not _no_polarity_yet(prior):
        return []
    pol = polarity.reversed_comparison(c.claim, a.src, a.window)
    return [pol] if pol is not None else []


def _piece_hit(kind: str, hit, a: Alignment, part) -> list[Fact]:
    if hit is None:
        return []
    piece = a.src.text[part.start:part.end]
    word, lo, hi = hit
    return [Fact("polarity", word, "contradicted", f"the source says \u201c{piece[lo:hi]}\u201d",
                 evidence=a.src.span(part.start, part.end), rule=kind)]


def _expectation(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    if not a.strong or not _no_polarity_yet(prior):
        return []
    part = _part(c, a)
    return _piece_hit("polarity.expectation",
                      expectations.reversed_result(c.claim, a.src.text[part.start:part.end]), a, part)


def _feeling(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    if not a.strong or not _no_polarity_yet(prior) or fx.negation_positions(c.claim):
        return []
    part = _part(c, a)
    return _piece_hit("polarity.feeling", sentiment.reversed_feeling(c.claim, a.src.text[part.start:part.end]), a, part)


def _doer(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    if not a.strong or any(f.kind == "name" and f.status != "found" for f in prior):
        return []
    hit = doers.other_doer(c.claim, [n for n in c.found_names], a.src.text[a.wlo:a.whi], c.mapping,
                           known=lambda words: al.known_name(a.src, words))
    if hit is None:
        return []
    n, m = hit
    return [Fact("name", n.surface, "contradicted", f"the source says this of {m.surface}",
                 evidence=a.src.span(a.wlo + m.start, a.wlo + m.end))]


def _opposite(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    if not a.strong or not _no_polarity_yet(prior):
        return []
    return _piece_hit("polarity.opposite", opposites.reversed_word(c.claim, a.src.text[a.best.start:a.best.end]), a, a.best)


_NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "mis", "anti")


def _same_root(word: str, window_words) -> bool:
    """Does the window hold a word built on this one, or this one on it ("passed" in
    "surpassed")? Not when what is added makes a negative ("able": "unable")."""
    root = stem(word.lower())
    if len(root) < 4:
        return False
    for x in window_words:
        at = x.find(root)
        if at > 0 and x[:at] in _NEGATIVE_PREFIXES:
            continue
        if at >= 0 or (len(stem(x)) >= 4 and stem(x) in root and not root.startswith(_NEGATIVE_PREFIXES)):
            return True
    return False


_RUN_WORD = re.compile(r"[^\W_]+")


def copied_run(claim: str, sentence: str) -> int:
    """The plain words (lower case, no figure) of the longest run of words the claim and the
    sentence share in a row (case and punctuation aside): a copied name or figure ("Johns Hopkins
    Applied Physics Laboratory") is no copied wording."""
    words = _RUN_WORD.findall(claim)
    a = [w.lower() for w in words]
    plain = [w.islower() and w.isalpha() for w in words]
    b = [w.lower() for w in _RUN_WORD.findall(sentence)]
    best, prev = 0, [0] * (len(b) + 1)
    for i, x in enumerate(a):
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + plain[i]
                best = max(best, cur[j])
        prev = cur
    return best


def _edited_copy(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    """A close copy of the passage (its window holds the "edited_copy" share of the claim's
    terms or more, or the claim repeats "copied_run" plain words in a row of its matched
    sentence) with plain words (no name, no figure) the passage does not hold: those words
    are the claim's edit, the one thing to check (a name, even one opening the sentence, is the
    name rule's). Not found, with the words."""
    if a.score >= 1.0 or (a.score < p.t("edited_copy") and
                          copied_run(c.claim, a.src.text[a.best.start:a.best.end]) < p.t("copied_run")):
        return []
    missing = c.plain - a.wterms  # names and figures are the name and number rules' to check
    in_figure = [(n.start, n.end) for n in c.nums] + [(n.start, n.end) for n in c.found_names]
    words = list(dict.fromkeys(c.claim[s:e] for t, s, e in fx.content_terms(c.claim)
                               if c.mapping.get(c.claim[s:e].lower(), t) in missing
                               and not any(lo <= s < hi for lo, hi in in_figure)))
    words = [w for w in words if not _same_root(w, a.wwords)
             and not (w.lower() in lx.TIME_FRAME and fx.term(w) in c.have)]  # "this quarter" of a quarter's call
    if not words:
        return []
    return [Fact("meaning", ", ".join(words[:4]), "not found",
                 "the sentence copies the passage closely but these words are not in it: check them")]


_COPULA = re.compile(r"\s+(?:is|was|are|were|became|becomes|remains|remained|serves as|served as)\s+"
                     r"(?:(?:the|a|an|one of the|its|their|his|her)\s+)?(?P<what>[^,;.()]+)", re.I)
_COMPLEMENT_END = re.compile(r"\s+(?:of|at|for|in|on|with|who|which|that|and|but|from|to|by)\s", re.I)


def _predicate(c: Claim, a: Alignment, prior, p: Policy) -> list[Fact]:
    """What a sentence says a name is ("Alex Mercer is the commanding general of ..."): the words
    of that role or kind, up to a preposition or a clause, must be in the passage the sentence is
    compared with (or their synonyms); otherwise the cited text does not say it of the name."""
    named = [n for n in c.found_names if not n.initial]
    if not named:
        return []
    n = named[0]
    m = _COPULA.match(c.claim, n.end)
    if m is None:
        return []
    what = m.group("what")
    cut = _COMPLEMENT_END.search(what)
    what = (what[:cut.start()] if cut else what).strip()
    pieces = [(c.mapping.get(what[s:e].lower(), t), what[s:e]) for t, s, e in fx.content_terms(what)]
    lacking = [w for t, w in pieces if t not in a.wterms and not _same_root(w, a.wwords)]
    if not pieces or not lacking:
        return []
    return [Fact("meaning", what, "not found", f"the cited text does not say {n.surface} is that "
                 f"({', '.join(lacking)} not in the passage)")]


REGISTRY: tuple[Rule, ...] = (
    Rule("absent_names", "a name that no document of the workspace holds (fabricated)", _absent, aligned=False),
    Rule("names", "each name of the sentence in the cited text, or another name in its place",
         lambda c, a, prior, p: check_names(c, a, _absent_texts(prior), p.t("aligned"), p.t("background"))),
    Rule("reversal", "two names of the sentence trading places in the matched sentence",
         lambda c, a, prior, p: check_reversal(c, a, prior, p.t("aligned"))),
    Rule("speaker", "a speaker the passage does not give",
         lambda c, a, prior, p: check_speaker(c, a, prior, _absent_texts(prior))),
    Rule("role", "a role the cited text gives someone else by apposition",
         lambda c, a, prior, p: check_role(c, prior)),
    Rule("first_person", "a first-person passage under another speaker's transcript label",
         lambda c, a, prior, p: check_first_person(c, a, prior, _absent_texts(prior))),
    Rule("numbers", "each figure, with its kind and unit, against the passage its clause is about",
         lambda c, a, prior, p: check_numbers(c, a, p.t("aligned"))),
    Rule("polarity.negation", "a negation one side has and the other lacks, for the same fact", _polarity("polarity.negation")),
    Rule("polarity.antonym", "a word of the sentence met by its opposite in the passage", _polarity("polarity.antonym")),
    Rule("polarity.comparison", "a comparison the passage makes the other way round", _comparison),
    Rule("polarity.expectation", "a result against expectations, reversed", _expectation),
    Rule("polarity.feeling", "a word of clear feeling met by one of the opposite feeling", _feeling),
    Rule("doer", "what the sentence says a name does, said in the passage of another name", _doer),
    Rule("polarity.opposite", "a word of the sentence met by its dictionary opposite (WordNet, a negative prefix)", _opposite),
    Rule("edited_copy", "a close copy of the passage with words the passage does not hold", _edited_copy),
    Rule("predicate", "what the sentence says a name is, in the passage", _predicate),
)


def _closeness(c: Claim, a: Alignment, f: Fact) -> float:
    """The window's share of the claim's terms, the finding's own word counted as held (an
    antonym is a word the window lacks by its nature)."""
    terms = c.plain or c.terms
    if not terms:
        return 0.0
    own = {t for t, _, _ in fx.content_terms(f.text)} if f.kind == "polarity" else set()
    return len(terms & (a.wterms | own)) / len(terms)


def run(c: Claim, a: Alignment | None, policy: Policy, prior: list[Fact] | None = None) -> list[Fact]:
    """The registry's rules in order (those needing an alignment only when a is given, those
    already run when prior is given skipped): every finding, tagged with its rule."""
    facts = list(prior or ())
    for rule in REGISTRY:
        if rule.id in policy.off or rule.aligned != (a is not None):
            continue
        for f in rule.find(c, a, tuple(facts), policy):
            f.rule = f.rule or rule.id
            if a is not None:
                f.closeness = _closeness(c, a, f)
            if f.rule in policy.off:
                continue
            if f.replaces:
                facts = [x for x in facts if x.text != f.text]
            facts.append(f)
    return facts

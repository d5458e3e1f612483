"""The one place a verdict is decided. The offline judge gathers what its rules found (facts, each
with its rule id) and what the meaning step found (a `Meaning`); `decide` reads them against
`PRECEDENCE`, the first row that holds giving the verdict. The model judge's reading and the
workspace-wide quote search of report checks come here too (`by_model`, `said_elsewhere`), so no
verdict changes without the rule that changed it in `Verdict.rule` and a reason."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from core.verify.verdict import Fact, Verdict


@dataclass
class Meaning:
    """What the meaning step found: the clauses it judged and held, the window's share of the
    claim's terms, whether a reason or inference the text does not give is missing, the best
    share of the claim's terms in a cited record's own text (the model's words)."""
    clauses: int = 0
    held: int = 0
    score: float = 0.0
    missing_causal: bool = False
    record: float = 0.0
    heading: bool = False  # the sentence is a heading: its names are checked, not its words
    nothing: bool = False  # the sentence has no content word or figure to check


@dataclass
class Case:
    facts: list[Fact]
    meaning: Meaning
    trusted: list[Fact] = field(default_factory=list)    # alarms of rules trusted alone
    untrusted: list[Fact] = field(default_factory=list)  # alarms of rules that are not
    quoted: bool = False


def _held_all(c: Case, supported: float) -> bool:
    m = c.meaning
    missing_key = any(f.status == "not found" and (f.kind in ("name", "number") or f.rule in KEY_RULES) for f in c.facts)
    return m.clauses > 0 and m.held == m.clauses and m.score >= supported and not missing_key


KEY_RULES = frozenset({"edited_copy", "predicate"})  # a meaning fact of these rules not found keeps "supported" away


# (row, when it holds, verdict): read top to bottom, the first that holds decides
PRECEDENCE: tuple[tuple[str, Callable[[Case, dict], bool], str], ...] = (
    ("a name no document holds", lambda c, t: any(f.status == "absent" for f in c.trusted), "fabricated"),
    ("the cited text says it word for word", lambda c, t: c.quoted, "supported"),
    ("a trusted rule finds it contradicted", lambda c, t: bool(c.trusted), "contradicted"),
    # (where the cited text says none of it, it stays unsupported: a doubt lifts nothing)
    ("a rule not trusted alone flags it: check this",
     lambda c, t: bool(c.untrusted) and (c.meaning.held > 0 or c.meaning.heading or c.meaning.nothing), "partial"),
    ("a heading whose names the cited text holds",
     lambda c, t: c.meaning.heading and bool(c.facts) and all(f.status == "found" for f in c.facts), "supported"),
    ("a heading: only its names are checked", lambda c, t: c.meaning.heading, "partial"),
    ("it asserts nothing to check", lambda c, t: c.meaning.nothing, "partial"),
    ("every clause held and every key fact found", lambda c, t: _held_all(c, t["supported"]), "supported"),
    ("some clauses held", lambda c, t: c.meaning.held > 0 and not c.meaning.missing_causal, "partial"),
    ("only a cited record's own description says it",
     lambda c, t: c.meaning.record >= t["record"] and not c.meaning.missing_causal, "partial"),
    ("the cited text does not say it", lambda c, t: True, "unsupported"),
)

_RULE_OF_ROW = {"the cited text says it word for word": "quoted",
                "a heading whose names the cited text holds": "heading",
                "a heading: only its names are checked": "heading",
                "every clause held and every key fact found": "meaning"}


def decide(v: Verdict, facts: list[Fact], meaning: Meaning, policy, quoted: bool = False) -> Verdict:
    """Set v's verdict, rule and reason from the findings and the meaning (policy: which rules are
    trusted alone, the thresholds: core.verify.rules.Policy)."""
    for f in facts:
        f.rule = f.rule or f.kind  # a fact the meaning or heading step found: "meaning", "name"
    if quoted:  # nothing in a sentence the cited text holds word for word contradicts it
        facts = [f for f in facts if f.status != "contradicted"]
    alarms = [f for f in facts if f.status in ("absent", "contradicted")]
    case = Case(facts, meaning, [f for f in alarms if policy.trusted(f.rule, f.closeness)],
                [f for f in alarms if not policy.trusted(f.rule, f.closeness)], quoted)
    t = {"supported": policy.t("supported"), "record": policy.t("record")}
    row, verdict = next((name, verdict) for name, holds, verdict in PRECEDENCE if holds(case, t))
    v.verdict, v.facts = verdict, facts
    fail = v.failing
    if row == "a rule not trusted alone flags it: check this":
        f = case.untrusted[0]
        v.reason = v.reason or f"{f.describe()} (flagged by the {f.rule} rule, which is not trusted alone: read the source)"
    elif row == "only a cited record's own description says it":
        v.reason = "only the cited record's own description says it"
    elif row in ("it asserts nothing to check", "a heading: only its names are checked") and not fail:
        v.reason = ("a heading: it asserts nothing to check" if meaning.heading else "the sentence asserts nothing to check")
    elif row == "the cited text says it word for word":
        v.reason = "the cited text says it word for word"
    elif row == "a heading whose names the cited text holds":
        v.reason = "a heading: the cited text names what it names"
    if not v.reason and verdict != "supported" and fail is not None:
        v.reason = fail.describe()
    v.rule = fail.rule if fail is not None and verdict != "supported" else _RULE_OF_ROW.get(row, "meaning")
    return v


def said_elsewhere(v: Verdict, sources: str) -> Verdict:
    """Unsupported: other text units of the workspace hold the sentence word for word, the cited
    ones do not (a report that cites the wrong source; core.verify.reports)."""
    v.verdict, v.rule = "unsupported", "said_elsewhere"
    v.facts = [f for f in v.facts if f.status != "contradicted"]
    v.reason = (f"the cited text does not say it; Source{'s' * (',' in sources)} {sources} of the documents "
                f"say{'s' * (',' not in sources)} it word for word")
    return v


def by_model(v: Verdict, verdict: str, offline: Verdict, failing: str, claim: str) -> Verdict:
    """The model judge's reading, once its gates let it stand (core.verify.model): its verdict,
    naming the offline rule it confirms or overturns."""
    v.verdict, v.judge = verdict, "model"
    same = verdict == offline.verdict
    v.rule = f"model ({'confirms' if same else 'overturns'} {offline.rule or 'meaning'})"
    if verdict != "supported":
        v.facts.append(Fact("meaning", failing or claim, "contradicted" if verdict == "contradicted" else "not found",
                            "the model's reading", rule=v.rule))
    v.reason = failing
    return v


def names_absent(names: list[str], policy) -> Verdict:
    """A report finding that names what no document holds, in any of its sentences (GraphRAG's
    findings cite on their last sentence only): decided as any absent name is."""
    facts = [Fact("name", x, "absent", rule="absent_names") for x in names]
    return decide(Verdict("unsupported", reason="names what no document holds"), facts, Meaning(), policy)


def unverifiable(reason: str) -> Verdict:
    """Unsupported: what the sentence cites is gone (removed, rewritten, never there)."""
    return Verdict("unsupported", reason=reason, rule="sources")

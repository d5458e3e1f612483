"""The records a judge returns: a Verdict per cited sentence, with the key Facts it asserts.

Verdicts, worst first: fabricated (names someone or something that occurs nowhere in the
workspace's documents), contradicted (the cited text gives another number, actor or the reverse
polarity for the same fact), unsupported (its key facts or meaning are not in the cited text),
partial (some are, some are not), supported.

A Verdict is a core.text.support.Support (score, best_sentence, its spans in the unit and the
document, coverage, matched, missing) with its facts, its judge and a reason, so every screen
that highlights the best sentence keeps working: `document.text[char_start:char_end] ==
best_sentence`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from core.text.support import Support

VERDICTS = ("fabricated", "contradicted", "unsupported", "partial", "supported")
RANK = {v: i for i, v in enumerate(VERDICTS)}  # lower is worse
FLAGGED = frozenset({"fabricated", "contradicted", "unsupported"})
HELP = {
    "supported": "the cited text says it",
    "partial": "the cited text says part of it",
    "unsupported": "the cited text does not say it",
    "contradicted": "the cited text says otherwise",
    "fabricated": "it names something that is nowhere in the documents",
}


@dataclass
class Span:
    """An exact piece of a source: its text, its text unit and its offsets in the unit and in the
    document (document.text[char_start:char_end] == text)."""
    text: str
    text_unit_id: str | None = None
    unit_start: int | None = None
    unit_end: int | None = None
    char_start: int | None = None
    char_end: int | None = None


@dataclass
class Fact:
    kind: str       # name | number | polarity | meaning
    text: str       # as the sentence says it
    status: str     # found | contradicted | not found | absent (nowhere in the workspace)
    note: str = ""  # e.g. "the source says fifteen"
    evidence: Span | None = None
    rule: str = ""  # the rule that found it (core.verify.rules.REGISTRY)
    # a finding that stands for any earlier one on the same name (the transcript's speaker
    # label settles who said it better than the name check could)
    replaces: bool = field(default=False, repr=False, compare=False)
    # the share of the claim's terms the passage it was found in holds, the word it finds
    # reversed counted as held: how close a copy of the passage the sentence is (rules.Policy)
    closeness: float = field(default=1.0, repr=False, compare=False)

    def describe(self) -> str:
        if self.status == "contradicted" and self.note:  # "number “15%”: the source says 10%"
            return f"{self.kind} \u201c{self.text}\u201d: {self.note}"
        what = {"found": "found", "contradicted": "contradicted", "not found": "not in the cited text",
                "absent": "nowhere in the documents"}.get(self.status, self.status)
        return f"{self.kind} \u201c{self.text}\u201d: {what}" + (f" ({self.note})" if self.note else "")


_FIRST = {"number": 0}


@dataclass
class Verdict(Support):
    facts: list[Fact] = field(default_factory=list)
    judge: str = "offline"
    reason: str = ""
    rule: str = ""
    """The rule that decided the verdict: the failing fact's, else what made it supported."""

    @property
    def failing(self) -> Fact | None:
        """The fact that decides a verdict other than supported (absent, contradicted, then
        not found)."""
        for status in ("absent", "contradicted", "not found"):
            # among contradictions, a figure first: the reader checks it at a glance (a newcomer
            # saw "5,000" against "2,500" headed by a name's slot)
            # among things not found, a clause the text does not say before the words of a close
            # copy: the clause is what the sentence adds
            for f in sorted(self.facts, key=lambda f: _FIRST.get(f.kind, 1) if status == "contradicted"
                            else f.rule == "edited_copy"):
                if f.status == status:
                    return f
        return None

    @property
    def fabricated(self) -> list[str]:
        return [f.text for f in self.facts if f.status == "absent"]

    def to_dict(self) -> dict:
        d = asdict(self)
        for f in d["facts"]:
            f.pop("replaces", None)
            f.pop("closeness", None)
        fail = self.failing
        d["failing"] = fail.describe() if fail else ""
        d["fabricated"] = self.fabricated
        return d


def worst(verdicts: list[str]) -> str:
    return min(verdicts, key=lambda v: RANK.get(v, 0)) if verdicts else "unsupported"

"""What a lazy query leaves behind, for the trace, `query --json` and the Ask page.

SearchResult.lazy holds LazyTrace.to_dict(); LazyTrace.from_dict gives it back (unknown keys
are ignored, so an older trace still loads).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

OUTSIDE = -1
"""The community number of the group of units that belong to no community."""


@dataclass
class Subquery:
    index: int
    text: str
    """As the refine step wrote it (offline: the question)."""
    concepts: list[str] = field(default_factory=list)
    """Entities of the graph matching it, added to it for ranking the units."""
    budget: int = 0
    """Its share of the relevance tests."""
    tests: int = 0
    """Tests it made."""
    relevant: int = 0
    """Units found relevant to it."""
    ranked_units: int = 0
    """Units that matched it at all (BM25: sharing a term; embeddings: all)."""
    rounds: int = 0
    stopped: str = ""
    """Why its search ended: "budget", "no community left"."""


@dataclass
class Visit:
    order: int
    """Position in the subquery's path (0 = first)."""
    subquery: int
    community: int
    """The community number (OUTSIDE: units in no community)."""
    level: int
    round: int
    tested: list[int] = field(default_factory=list)
    """human_readable_ids of the units tested in this visit."""
    relevant: list[int] = field(default_factory=list)
    descend: bool = False
    """This visit made z in a row with nothing relevant: the search went one level deeper."""


@dataclass
class Test:
    subquery: int
    unit: int
    """The unit's human_readable_id."""
    community: int
    round: int
    relevant: bool
    answer: str = ""
    """The model's word (offline: the lexical score)."""
    cached: bool = False
    passage: str = ""
    """What the test read."""


@dataclass
class Claim:
    subquery: int
    community: int
    text: str
    """One sentence with its [Data: Sources (...)] reference."""
    score: int = 0
    sources: list[int] = field(default_factory=list)
    tokens: int = 0
    """What the claim costs in the reduce context."""
    selected: bool = False
    """It entered the reduce context (else it was cut by the budget)."""


@dataclass
class LazyTrace:
    expanded_question: str = ""
    subqueries: list[Subquery] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    map_calls: list[dict[str, Any]] = field(default_factory=list)
    """One per claims call: subquery, communities, units (hrids, grouped by community), tokens,
    claims, error."""
    reduce: dict[str, Any] = field(default_factory=dict)
    """budget, tokens, context_text, selected, cut."""
    phases: dict[str, dict[str, Any]] = field(default_factory=dict)
    """refine / relevance / claims / reduce: llm_calls, cache_hits, prompt and completion tokens,
    seconds; relevance also tests."""
    rounds: list[int] = field(default_factory=list)
    """Tests sent together in each round of relevance tests (all subqueries at once)."""
    ranking: str = "bm25"
    """How units were ranked: "bm25" or "embedding"."""
    relevance_model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "LazyTrace":
        d = dict(d or {})
        lists = {"subqueries": Subquery, "visits": Visit, "tests": Test, "claims": Claim}
        kw = {k: v for k, v in d.items() if k in {f.name for f in dataclasses.fields(cls)}}
        for key, kind in lists.items():
            kw[key] = [kind(**_known(kind, x)) for x in d.get(key) or []]
        return cls(**kw)

    def tested_units(self, subquery: int) -> list[Test]:
        return [t for t in self.tests if t.subquery == subquery]


def _known(cls: type, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in d.items() if k in names}

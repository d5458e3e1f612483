"""Match: which text units are relevant to a subquery, found with a budget of yes/no tests.

Per subquery: the units are ranked by similarity (core/query/unit_rank); the communities of the
current level are ranked by the rank of their best untested unit; a round takes the next z
communities in that order and tests the best `chunks_per_community` untested units of each (a
test reads the unit's passage that best matches the subquery). When z communities in a row gave
nothing relevant, the rest of the level is skipped and the search descends to the next level,
whose smaller communities rank their own best units (iterative deepening: broad communities
whose best units are not relevant are looked into); a level whose communities are all visited
descends too. A level's cut holds its communities and the leaves of the levels above, so every
level covers the whole graph; at the deepest level the search goes round again over what is
left untested. It stops when its share of the budget is spent or no community has an untested
unit. Units that belong to no community form one group (community -1) present at every level.

Rounds are planned here and run by the caller, all subqueries' tests of a round at once.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from core.query.lazy.params import LazyParams
from core.query.lazy.trace import OUTSIDE, Subquery, Test, Visit
from core.query.unit_rank import Ranked
from core.store.db import Store


@dataclass
class Community:
    number: int
    level: int
    children: list[int] = field(default_factory=list)
    unit_ids: frozenset[str] = frozenset()


def load_hierarchy(store: Store, unit_ids: list[str]) -> dict[int, Community]:
    """Every community with its units (a community listing none: its entities' units), and the
    group of units in no community (OUTSIDE)."""
    rows = store.rows("communities", select="community, level, parent, children, entity_ids, text_unit_ids")
    need_entities = [r for r in rows if not r.get("text_unit_ids")]
    ent_units: dict[str, list[str]] = {}
    if need_entities:
        ids = list({e for r in need_entities for e in r.get("entity_ids") or []})
        ent_units = {e["id"]: e.get("text_unit_ids") or [] for e in store.by_ids("entities", ids)}
    out: dict[int, Community] = {}
    covered: set[str] = set()
    for r in rows:
        units = r.get("text_unit_ids") or [u for e in r.get("entity_ids") or [] for u in ent_units.get(e, [])]
        c = Community(int(r["community"]), int(r.get("level") or 0),
                      [int(x) for x in r.get("children") or []], frozenset(units))
        out[c.number] = c
        covered |= c.unit_ids
    rest = frozenset(u for u in unit_ids if u not in covered)
    if rest:
        out[OUTSIDE] = Community(OUTSIDE, 0, [], rest)
    return out


@dataclass
class Pick:
    community: int
    level: int
    units: list[dict]
    """The units to test (rows), best first."""


class SubqueryMatch:
    """The state of one subquery's search."""

    def __init__(self, sub: Subquery, ranked: list[Ranked], hierarchy: dict[int, Community],
                 params: LazyParams):
        self.sub, self.params, self.hier = sub, params, hierarchy
        self.rank = {r.unit["id"]: r.rank for r in ranked}
        self.rows = {r.unit["id"]: r.unit for r in ranked}
        self.tested: set[str] = set()
        self.pending: set[str] = set()
        """Units planned for the round in flight (tested when it settles)."""
        self.relevant: list[tuple[str, int]] = []
        """(unit id, community it was found in), in the order found."""
        self.visits: list[Visit] = []
        self.left = sub.budget
        self.round = 0
        self.misses = 0
        self.depth = 0
        self.deepest = max((c.level for c in hierarchy.values()), default=0)
        sub.ranked_units = len(ranked)
        self.queue = deque(self._by_rank(self._cut(0)))
        self.done = False

    # -- planning -----------------------------------------------------------------------
    def _cut(self, depth: int) -> list[int]:
        """The communities of the hierarchy cut at this depth: those of the level, and the
        leaves of the levels above it (so every cut covers the whole graph)."""
        return [n for n, c in self.hier.items() if c.level == depth or (c.level < depth and not c.children)]

    def _untested(self, number: int) -> list[str]:
        c = self.hier.get(number)
        if c is None:
            return []
        units = [u for u in c.unit_ids if u in self.rank and u not in self.tested and u not in self.pending]
        return sorted(units, key=self.rank.__getitem__)

    def _best(self, number: int) -> float:
        units = self._untested(number)
        return self.rank[units[0]] if units else math.inf

    def _by_rank(self, numbers: list[int]) -> list[int]:
        keyed = [(self._best(n), n) for n in dict.fromkeys(numbers)]
        return [n for b, n in sorted(keyed) if b < math.inf]

    def _descend(self) -> bool:
        """On to the next level's cut (at the deepest level: the same cut once more, ranked by
        what is left untested); False when no community has an untested unit."""
        self.depth = min(self.depth + 1, self.deepest)
        nxt = self._by_rank(self._cut(self.depth))
        self.queue = deque(nxt)
        self.misses = 0
        return bool(nxt)

    def plan(self, most: int | None = None, communities: int | None = None) -> list[Pick]:
        """The next round: up to z communities, each with its best untested units, within the
        budget left and at most `most` tests (the round's share of the calls in flight, so that
        a round is one wave of calls) and `communities` communities (default z: a round never
        looks past the z misses that would send the search deeper). An empty list with nothing
        pending: the search is over (sub.stopped says why)."""
        if self.done:
            return []
        picks: list[Pick] = []
        planned: set[str] = set()
        left = self.left - len(self.pending)
        room = left if most is None else min(left, max(1, most))
        wanted = max(1, self.params.z) if communities is None else communities
        while len(picks) < wanted and room > len(planned):
            if not self.queue:
                if picks or not self._descend():
                    break
            number = self.queue.popleft()
            units = [u for u in self._untested(number) if u not in planned]
            units = units[:max(1, self.params.chunks_per_community)][:room - len(planned)]
            if not units:
                continue
            if planned and len(units) < min(self.params.chunks_per_community, len(self._untested(number))):
                self.queue.appendleft(number)  # no room for its share: first in the next round
                break
            planned.update(units)
            picks.append(Pick(number, self.hier[number].level, [self.rows[u] for u in units]))
        if not picks and not self.pending:
            self.done = True
            self.sub.stopped = "budget" if self.left <= 0 else "no community left"
        self.pending |= planned
        return picks

    # -- settling -----------------------------------------------------------------------
    def settle(self, picks: list[Pick], tests: list[Test]) -> None:
        """Record the round's tests (in the communities' rank order) and decide where the search
        goes next."""
        verdict = {(t.unit, t.community): t.relevant for t in tests}
        self.pending.clear()
        descend = False
        for p in picks:
            tested = [int(u["human_readable_id"]) for u in p.units]
            hits = [h for h in tested if verdict.get((h, p.community))]
            for u in p.units:
                self.tested.add(u["id"])
                if verdict.get((int(u["human_readable_id"]), p.community)):
                    self.relevant.append((u["id"], p.community))
            self.left -= len(p.units)
            self.sub.tests += len(p.units)
            visit = Visit(order=len(self.visits), subquery=self.sub.index, community=p.community,
                          level=p.level, round=self.round, tested=tested, relevant=hits)
            self.visits.append(visit)
            self.misses = 0 if hits else self.misses + 1
            if self.misses >= max(1, self.params.z) and self.depth < self.deepest and not descend:
                visit.descend = descend = True
        self.sub.relevant = len(self.relevant)
        self.sub.rounds = self.round = self.round + 1
        if descend:  # the rest of this level is left untested
            self.queue.clear()
        if self.left <= 0:
            self.done = True
            self.sub.stopped = "budget"


def split_budget(budget: int, n: int) -> list[int]:
    """budget tests over n subqueries, as evenly as possible (the first ones get the rest)."""
    if n <= 0:
        return []
    base, extra = divmod(max(0, budget), n)
    return [base + (1 if i < extra else 0) for i in range(n)]

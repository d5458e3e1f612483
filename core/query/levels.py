"""Which community reports answer a global question at a level (DESIGN.md section 4).

A level N is the finest partition of the graph down to N, as graphrag's community-level roll-up
(every entity answers through its deepest community at a level <= N): a level reads its own
communities plus those above it that were not split further (leaves). Leiden's sub-communities
partition their parent, so every level covers the whole graph, and the deepest level is the
finest cut rather than the few communities that happen to be split that far. Reports whose community has no row (an imported table without one) answer at
their own level only.
"""
from __future__ import annotations

from core.errors import UserError
from core.store.db import Store


def _reports(store: Store) -> list[dict]:
    return store.rows("community_reports", "level is not null", select="id, community, level, rating")


def _leaves(store: Store) -> set[int]:
    """Communities no other community names as its parent: not split further."""
    return store.leaf_communities()


def _read_at(reports: list[dict], level: int, leaves: set[int]) -> list[dict]:
    return [r for r in reports if int(r["level"]) == level
            or (int(r["level"]) < level and int(r["community"]) in leaves)]


def report_levels(store: Store) -> dict[int, int]:
    """level -> number of community reports a global search at that level reads."""
    reports, leaves = _reports(store), _leaves(store)
    levels = sorted({int(r["level"]) for r in reports})
    return {lv: len(_read_at(reports, lv, leaves)) for lv in levels}


def level_reports(store: Store, level: int) -> list[dict]:
    """Ids, ratings and own levels of the reports read at `level`, in report order."""
    return _read_at(_reports(store), level, _leaves(store))


def choose_level(store: Store, level: int | None) -> int:
    levels = sorted({int(r["level"]) for r in _reports(store)})
    if not levels:
        raise UserError("this workspace has no community reports yet: index a corpus first")
    if level is None:
        return 1 if 1 in levels else (0 if 0 in levels else min(levels))
    if int(level) not in levels:
        have = ", ".join(str(lv) for lv in levels)
        raise UserError(f"there are no community reports at level {level}; levels with reports: {have}")
    return int(level)

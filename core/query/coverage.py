"""What the reduce answer leaves out of the best points, for small models.

A small model (Qwen 1.5B on Operation Dulce) writes the global answer from one point and drops
the rest, even points scored as high: "who are the agents" answered from the point about the
base while the two points naming Sam Rivera and Alex Mercer went unused. The names the best
points give (entities of their reports' communities, written in the points) that the answer does
not are the measure; the model is asked once more with them, and the answer naming more is kept.
Names still left out after that bring the best points naming them into the answer, word for word
and marked as the points' own words: what the map step scored highest is not lost in the reduce.
"""
from __future__ import annotations

from core.query.types import Point
from core.store.db import Store
from core.textutil import names_entity

TOP_POINTS = 5
"""The best points (by score) whose names the answer should carry."""
TOP_ENTITIES = 10
"""Entities per community looked for in the points (by degree)."""


def _in(n: int) -> str:
    return "(" + ",".join("?" * n) + ")"


def point_names(store: Store, points: list[Point]) -> list[str]:
    """Titles of the entities of the points' reports' communities that the points name."""
    top = points[:TOP_POINTS]
    report_ids = sorted({int(i) for p in top for i in p.report_ids})
    if not report_ids:
        return []
    reports = store.rows("community_reports", f"human_readable_id in {_in(len(report_ids))}", report_ids,
                         select="community")
    communities = sorted({r["community"] for r in reports})
    if not communities:
        return []
    rows = store.rows("communities", f"community in {_in(len(communities))}", communities, select="entity_ids")
    ids = list(dict.fromkeys(e for r in rows for e in (r.get("entity_ids") or [])))
    ents = store.by_ids("entities", ids)
    titles = [e["title"] for e in sorted(ents, key=lambda e: -(e.get("degree") or 0))[:TOP_ENTITIES * len(rows)]]
    text = " ".join(p.description for p in top)
    return [t for t in dict.fromkeys(titles) if names_entity(t, text)]


def left_out(names: list[str], answer: str) -> list[str]:
    return [t for t in names if not names_entity(t, answer)]


def best_points_naming(points: list[Point], names: list[str]) -> list[Point]:
    """Of the best points (by score), the fewest that name every one of `names` they can: each
    point taken names one not named by a point taken before it."""
    todo, taken = list(names), []
    for p in points[:TOP_POINTS]:
        hit = [t for t in todo if names_entity(t, p.description)]
        if hit:
            taken.append(p)
            todo = [t for t in todo if t not in hit]
    return taken

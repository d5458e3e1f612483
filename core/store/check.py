"""`sensemaker check`: is a workspace consistent? References between tables point at rows that
exist, nothing is orphaned, and the full-text indexes are in step with their tables."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.store.db import Store


@dataclass
class CheckResult:
    problems: list[dict[str, Any]] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, table: str, row: Any, problem: str) -> None:
        self.problems.append({"table": table, "row": row, "problem": problem})

    def summary(self) -> str:
        n = sum(self.checked.values())
        if self.ok:
            return f"workspace is consistent: {n} rows in {len(self.checked)} tables checked"
        return f"{len(self.problems)} problems in {n} rows checked"


def _ids(store: Store, table: str, col: str = "id") -> set:
    return set(store.column(table, col))


def check_workspace(store: Store) -> CheckResult:
    res = CheckResult()
    docs, units = _ids(store, "documents"), _ids(store, "text_units")
    titles = _ids(store, "entities", "title")
    ent_ids, rel_ids = _ids(store, "entities"), _ids(store, "relationships")
    communities = _ids(store, "communities", "community")
    for table in ("documents", "text_units", "entities", "relationships", "claims", "communities",
                  "community_reports", "embeddings"):
        res.checked[table] = store.count(table)
    for r in store.rows("text_units", select="id, human_readable_id, document_id, char_start, char_end"):
        if r["document_id"] not in docs:
            res.add("text_units", r["human_readable_id"], f"orphan: its document {r['document_id']} does not exist")
    for r in store.rows("entities", select="id, human_readable_id, title, text_unit_ids"):
        missing = [u for u in r["text_unit_ids"] or [] if u not in units]
        if missing:
            res.add("entities", r["human_readable_id"], f"{len(missing)} text units it cites do not exist")
    for r in store.rows("relationships", select="human_readable_id, source, target, text_unit_ids"):
        for end in (r["source"], r["target"]):
            if end not in titles:
                res.add("relationships", r["human_readable_id"], f"its end {end!r} is not an entity")
        if any(u not in units for u in r["text_unit_ids"] or []):
            res.add("relationships", r["human_readable_id"], "a text unit it cites does not exist")
    for r in store.rows("claims", select="human_readable_id, subject, text_unit_id"):
        if r["text_unit_id"] and r["text_unit_id"] not in units:
            res.add("claims", r["human_readable_id"], "its text unit does not exist")
    for r in store.rows("communities", select="community, parent, entity_ids, relationship_ids"):
        if r["parent"] not in (-1, None) and r["parent"] not in communities:
            res.add("communities", r["community"], f"its parent {r['parent']} does not exist")
        if any(e not in ent_ids for e in r["entity_ids"] or []):
            res.add("communities", r["community"], "an entity it lists does not exist")
        if any(x not in rel_ids for x in r["relationship_ids"] or []):
            res.add("communities", r["community"], "a relationship it lists does not exist")
    for r in store.rows("community_reports", select="community"):
        if r["community"] not in communities:
            res.add("community_reports", r["community"], "orphan: its community does not exist")
    owners = {"entities": ent_ids, "community_reports": _ids(store, "community_reports")}
    for r in store.rows("embeddings", select="human_readable_id, owner_table, owner_id"):
        if r["owner_id"] not in owners.get(r["owner_table"], set()):
            res.add("embeddings", r["human_readable_id"], "orphan: its owner row does not exist")
    for index, problem in store.fulltext_problems():
        res.add(index, None, problem)
    return res

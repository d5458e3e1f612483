"""DRIFT's trace as a typed record: the tree of steps under the question and how it was cut.
Stored in a search result's context under "drift" (`to_dict`); `from_dict` reads any stored
trace back, older ones included (missing fields take their defaults)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from core.query.drift.primer import DriftNode


@dataclass
class DriftTrace:
    hypothetical_answer: str = ""
    """The answer written without reading anything, that the reports were ranked against."""
    report_ranking: str = ""
    """How the reports were ranked: "embeddings" or "bm25"."""
    top_reports: list[int] = field(default_factory=list)
    nodes: list[DriftNode] = field(default_factory=list)
    """Primer folds (depth 0) and follow-ups, each with its parent."""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Per round of follow-ups: depth, asked, waiting."""
    reduce: dict[str, Any] = field(default_factory=dict)
    """selected (node ids, best first), cut, tokens, budget."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "DriftTrace":
        data = dict(data or {})
        names = {f.name for f in dataclasses.fields(DriftNode)}
        nodes = [DriftNode(**{k: v for k, v in n.items() if k in names}) for n in data.pop("nodes", [])]
        own = {f.name for f in dataclasses.fields(cls)}
        return cls(nodes=nodes, **{k: v for k, v in data.items() if k in own})

    def node_dicts(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(n) for n in self.nodes]

"""What an indexing engine must do. Two implementations write the same tables:
the LLM engine (core/index/llm_engine.py) and the offline engine (core/offline/engine.py).

Records exchanged here are plain dicts with these keys:
- entity: {"title": str (as written in the text), "type": str, "description": str}
- relationship: {"source": str, "target": str, "description": str, "weight": float}
- claim: {"subject": str, "object": str|None, "type": str, "status": "TRUE"|"FALSE"|"SUSPECTED",
          "description": str, "source_text": str, "start_date": str|None, "end_date": str|None}
- rejected: {"kind": "entity"|"relationship", "name": str, "reason": str}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class Extraction:
    entities: list[dict[str, Any]] = field(default_factory=list)
    relationships: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    llm_calls: int = 0


@dataclass
class ReportInput:
    """What a community report is written from (already ranked and packed to a budget)."""
    community: int
    level: int
    entities: list[dict[str, Any]]        # rows of the entities table (human_readable_id, title, description, degree)
    relationships: list[dict[str, Any]]   # rows of the relationships table
    claims: list[dict[str, Any]]          # rows of the claims table
    sub_reports: list[dict[str, Any]]     # rows of community_reports for sub-communities used instead of elements
    context_text: str                     # the packed context as CSV-like sections, as an LLM would see it


class IndexEngine(Protocol):
    name: str  # "offline" or the chat model's name

    def extract(self, unit: dict[str, Any]) -> Extraction:
        """Entities, relationships and claims of one text unit (a text_units row)."""

    def summarize(self, kind: str, name: str, descriptions: list[str]) -> str:
        """One description from several (kind is 'entity' or 'relationship')."""

    def write_report(self, inp: ReportInput) -> dict[str, Any]:
        """{title, summary, rating (0-10), rating_explanation, findings: [{summary, explanation}]},
        explanations carrying [Data: Entities (..); Relationships (..); Claims (..); Reports (..)]."""

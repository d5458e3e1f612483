"""Records of the query engines: parameters, map batches, points and the search result.

A SearchResult is everything a user can inspect about one query; `to_dict()` is what the
trace stores and what `sensemaker query --json` prints, and `from_dict()` loads it back, so a
trace can be re-rendered exactly as it was shown.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


SMALL_WINDOW = 8192
"""A context window this small is a small (usually local) model's: auto gives it one report per
map call."""


@dataclass
class GlobalParams:
    level: int | None = None
    """Community level whose reports are mapped; None: level 1 when it has reports, else 0."""
    rating_threshold: float = 0.0
    """Reports rated below this are left out (a common setting is 5)."""
    seed: int | None = None
    """Shuffle seed for the order of reports in batches; None draws one (and records it)."""
    map_max_tokens: int = 8000
    """Context budget of one map batch (the report table), in tokens."""
    map_max_reports: int | None = None
    """Reports in one map batch at most; 0: as many as the budget holds; None (auto): 1 for a
    model whose context window is SMALL_WINDOW tokens or less, else 0. Small local models read
    one report per call better than several (they answer from the first and skip the rest), and
    a budget fitted to a small window holds only a few reports anyway."""
    map_answer_tokens: int = 1000
    """Output cap of one map call."""
    reduce_max_tokens: int = 12000
    """Budget of the reduce context (the points handed to the final call)."""
    answer_tokens: int = 2000
    """Output cap of the reduce call."""
    concurrency: int = 8
    """Map calls in flight at once."""
    response_type: str = "multiple paragraphs"
    language: str = "auto"
    """Language of points and answer: "auto" follows the question."""


@dataclass
class LocalParams:
    max_tokens: int = 12000
    """Context budget of the whole local context."""
    text_unit_prop: float = 0.5
    """Share of max_tokens for source text units."""
    community_prop: float = 0.15
    """Share of max_tokens for community reports; the rest is entities, relationships, claims."""
    top_k_entities: int = 10
    """Entry entities taken from the question."""
    top_k_relationships: int = 40
    answer_tokens: int = 2000
    response_type: str = "multiple paragraphs"
    include_claims: bool = True
    language: str = "auto"


@dataclass
class Point:
    description: str
    """The point's text, with its [Data: ...] references."""
    score: int
    """Importance 0-100 (the map model's, or lexical relevance offline)."""
    report_ids: list[int] = field(default_factory=list)
    """human_readable_ids of the reports the point cites."""
    tokens: int = 0
    """What the point costs in the reduce context (its block: analyst header, score and
    description); set for every point above 0, selected or cut."""
    batch: int | None = None
    """The map batch it came from."""


@dataclass
class MapBatch:
    batch: int
    report_ids: list[int]
    """human_readable_ids of the reports in this batch, in the order sent."""
    context_tokens: int = 0
    raw_output: str = ""
    """The model's text as received (offline: the scored points as JSON)."""
    points: list[Point] = field(default_factory=list)
    error: str | None = None
    """Why the batch failed (its output could not be parsed, or the call failed); None if ok."""
    seconds: float = 0.0
    attempts: int = 0

    @property
    def failed(self) -> bool:
        return self.error is not None


@dataclass
class SearchResult:
    method: str
    """A name of core/query/methods.py: "global", "local", "lazy", "basic", ..."""
    question: str
    answer: str = ""
    engine: str = "offline"
    """"offline" (no model) or "llm"."""
    model: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    level: int | None = None
    batches: list[MapBatch] = field(default_factory=list)
    reduce: dict[str, Any] = field(default_factory=dict)
    """selected: [Point], cut: [Point], context_text, tokens (global only)."""
    context: dict[str, Any] = field(default_factory=dict)
    """Local: ids (human_readable_id) of the entities, relationships, reports, sources, claims used."""
    usage: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    trace_id: str | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    """Set when the final call failed; the answer is then empty."""
    no_data: bool = False
    """True when nothing in the data answered the question (no reduce call was made)."""
    created_at: str | None = None
    absent: list[str] = field(default_factory=list)
    """Names the question gives that no document of the workspace holds: the answer says so first."""
    lazy: dict[str, Any] = field(default_factory=dict)
    """Lazy search's trace (core/query/lazy/trace.py LazyTrace.to_dict()): subqueries, community
    visits, relevance tests, claims, phases."""

    # -- serialisation ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """One JSON-ready object: the trace and the CLI's --json output."""
        reduce = dict(self.reduce)
        for key in ("selected", "cut"):
            reduce[key] = [_point_dict(p) for p in reduce.get(key, [])]
        return {
            "method": self.method, "question": self.question, "answer": self.answer,
            "engine": self.engine, "model": self.model, "params": self.params,
            "level": self.level, "trace_id": self.trace_id, "created_at": self.created_at,
            "error": self.error, "no_data": self.no_data,
            "map": {"batches": [_batch_dict(b) for b in self.batches]},
            "reduce": reduce, "context": self.context, "citations": self.citations,
            "usage": self.usage, "timings": self.timings, "lazy": self.lazy, "absent": self.absent,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SearchResult":
        reduce = dict(d.get("reduce") or {})
        for key in ("selected", "cut"):
            reduce[key] = [Point(**_known(Point, p)) for p in reduce.get(key, [])]
        batches = []
        for b in (d.get("map") or {}).get("batches", []):
            b = dict(b)
            b["points"] = [Point(**_known(Point, p)) for p in b.get("points", [])]
            batches.append(MapBatch(**_known(MapBatch, b)))
        return cls(method=d["method"], question=d["question"], answer=d.get("answer", ""),
                   engine=d.get("engine", "offline"), model=d.get("model"),
                   params=d.get("params") or {}, level=d.get("level"), batches=batches,
                   reduce=reduce, context=d.get("context") or {}, usage=d.get("usage") or {},
                   timings=d.get("timings") or {}, trace_id=d.get("trace_id"),
                   citations=d.get("citations") or [], error=d.get("error"),
                   no_data=bool(d.get("no_data")), created_at=d.get("created_at"),
                   lazy=d.get("lazy") or {}, absent=list(d.get("absent") or []))

    # -- summaries ----------------------------------------------------------------------
    @property
    def failed_batches(self) -> list[MapBatch]:
        return [b for b in self.batches if b.failed]

    @property
    def points(self) -> list[Point]:
        return [p for b in self.batches for p in b.points]


def _point_dict(p: Point | dict) -> dict[str, Any]:
    return dataclasses.asdict(p) if isinstance(p, Point) else dict(p)


def _batch_dict(b: MapBatch) -> dict[str, Any]:
    d = dataclasses.asdict(b)
    d["failed"] = b.failed
    return d


def _known(cls: type, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in d.items() if k in names}


def params_dict(params: GlobalParams | LocalParams) -> dict[str, Any]:
    return dataclasses.asdict(params)

"""Query traces: every query, stored in the workspace's query_traces table.

A trace holds the whole SearchResult (question, method, parameters with the seed, model, each map
batch with its report ids, raw output, points and scores, the points selected for the reduce
context and those cut with their tokens, the reduce context as sent, the answer, the citations,
calls and tokens per stage, timings). load_trace gives back a SearchResult that renders exactly
as the original did.
"""
from __future__ import annotations

import copy
import uuid
from typing import Any

from core.errors import UserError
from core.query.types import SearchResult
from core.access import LOCAL
from core.settings import load_settings
from core.store.access import require
from core.store.db import Store, now


class TraceNotFound(UserError):
    """No query trace with that id in this workspace."""


def save_trace(store: Store, result: SearchResult) -> str:
    """Store the result as a trace; sets and returns result.trace_id."""
    if not result.trace_id:
        result.trace_id = uuid.uuid4().hex
    if not result.created_at:
        result.created_at = now()
    trace = result.to_dict()
    who = getattr(store, "principal", LOCAL)
    if not who.local:  # a signed-in user's question is theirs (core.store.access)
        trace["author"] = who.id
    store.upsert("query_traces", [{
        "id": result.trace_id, "created_at": result.created_at, "question": result.question,
        "method": result.method, "params": result.params, "answer": result.answer,
        "trace": trace, "author": trace.get("author")}])
    return result.trace_id


def sees_all_questions(store: Store) -> bool:
    """Does the store's user see every question of the workspace? The local user and owners do;
    others when the owners share the questions (setting share_questions)."""
    who = getattr(store, "principal", LOCAL)
    if who.local or getattr(store, "role", None) == "owner":
        return True
    return load_settings(store.workspace, env={}).share_questions


def _mine(store: Store, author: str | None) -> bool:
    return sees_all_questions(store) or author == getattr(store, "principal", LOCAL).id


def load_trace(store: Store, trace_id: str | int) -> SearchResult:
    """A stored trace by its id, or by its number (human_readable_id) as `list_traces` shows it."""
    row = store.get("query_traces", str(trace_id))
    if row is None and str(trace_id).strip().isdigit():
        row = store.by_hrid("query_traces", int(trace_id))
    if row is None:
        raise TraceNotFound(f"no query trace {trace_id!r} in {store.workspace}")
    data = row["trace"] if isinstance(row["trace"], dict) else {}
    if not _mine(store, data.get("author")):  # another user's question, not shared: not there for them
        raise TraceNotFound(f"no query trace {trace_id!r} in {store.workspace}")
    result = SearchResult.from_dict({"method": row["method"], "question": row["question"], **data})
    result.trace_id = row["id"]
    return result


def list_traces(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """The latest traces, newest first: id, number, created_at, method, question, answer start."""
    require(store, "browse")
    rows = store.rows("query_traces", order_by="human_readable_id desc", limit=limit if sees_all_questions(store) else 100_000,
                      select="id, human_readable_id, created_at, method, question, answer, params, author")
    rows = [r for r in rows if _mine(store, r.get("author"))][:limit]
    out = []
    for r in rows:
        answer = r.get("answer") or ""
        out.append({"id": r["id"], "number": r["human_readable_id"], "created_at": r["created_at"],
                    "method": r["method"], "question": r["question"],
                    "answer": answer if len(answer) <= 200 else answer[:197] + "...",
                    "params": r.get("params") or {}})
    return out


def delete_trace(store: Store, trace_id: str) -> None:
    store.delete_where("query_traces", "id = ?", [trace_id])


# ---------------------------------------------------------------------- usage per query

_COUNTERS = ("llm_calls", "cache_hits", "prompt_tokens", "completion_tokens", "cost")


def usage_snapshot(llm: Any) -> dict[str, Any]:
    if llm is None:
        return {}
    lock = getattr(llm, "_lock", None)
    if lock is not None:
        with lock:
            return copy.deepcopy(llm.usage.as_dict())
    return copy.deepcopy(llm.usage.as_dict())


def usage_delta(before: dict[str, Any], llm: Any) -> dict[str, Any]:
    """Calls and tokens spent since `before` (a usage_snapshot), in total and per stage."""
    out: dict[str, Any] = {k: 0 for k in _COUNTERS}
    out["by_stage"] = {}
    if llm is None:
        return out
    after = usage_snapshot(llm)
    for k in _COUNTERS:
        out[k] = after.get(k, 0) - before.get(k, 0)
    for stage, counts in after.get("by_stage", {}).items():
        prev = before.get("by_stage", {}).get(stage, {})
        delta = {k: v - prev.get(k, 0) for k, v in counts.items()}
        if any(delta.values()):
            out["by_stage"][stage] = delta
    out["cost"] = round(out["cost"], 6)
    return out

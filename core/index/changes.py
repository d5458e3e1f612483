"""What an index run changed: documents, units, entities and relationships added / removed /
changed, communities changed by membership, reports rewritten, LLM calls by kind.

snapshot() is the compact state a run starts from (ids with a hash of what a user reads of each
row); summarize() compares it with the state at the end. A change killed half way keeps its
baseline in meta (lifecycle.PENDING), so the run that finishes it reports the whole change.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from core.store.db import Store

# usage stages of the LLM client -> the kinds a user counts
CALL_KINDS = {"extract": "extraction", "claims": "extraction", "summarize": "summary", "reports": "report"}


def _h(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:12]


def snapshot(store: Store, unchunked_as_new: bool = False) -> dict[str, Any]:
    """unchunked_as_new: documents not chunked yet (just added) count as added by the run."""
    ents = {e["id"]: _h(e["description"], sorted(e["text_unit_ids"] or []))
            for e in store.rows("entities", select="id, description, text_unit_ids")}
    rels = {r["id"]: _h(r["description"], sorted(r["text_unit_ids"] or []))
            for r in store.rows("relationships", select="id, description, text_unit_ids")}
    return {
        "documents": store.column("documents", "id", "status = 'chunked'" if unchunked_as_new else None,
                                  order_by="human_readable_id"),
        "text_units": store.column("text_units", "id", order_by="human_readable_id"),
        "entities": ents, "relationships": rels,
        "communities": sorted(membership(c) for c in store.rows("communities", select="level, entity_ids")),
        "reports": store.column("community_reports", "id", order_by="human_readable_id"),
    }


def membership(c: dict) -> str:
    return _h(c["level"], sorted(c["entity_ids"] or []))


def _sets(before: list | dict, after: list | dict) -> dict[str, int]:
    b, a = set(before), set(after)
    out = {"added": len(a - b), "removed": len(b - a)}
    if isinstance(before, dict):
        out["changed"] = sum(1 for k in a & b if before[k] != after[k])
    return out


def calls_by_kind(by_stage: dict[str, dict[str, float]]) -> dict[str, int]:
    out = {"extraction": 0, "summary": 0, "report": 0, "other": 0}
    for stage, s in (by_stage or {}).items():
        out[CALL_KINDS.get(stage, "other")] += int(s.get("llm_calls", 0))
    out["total"] = sum(out.values())
    return out


def summarize(before: dict[str, Any], store: Store, *, operation: str, reports: dict[str, int],
              by_stage: dict[str, dict[str, float]], extracted: int = 0,
              documents: list[str] | None = None) -> dict[str, Any]:
    after = snapshot(store)
    return {
        "operation": operation, "documents_named": (documents or [])[:50],
        "documents": _sets(before["documents"], after["documents"]),
        "text_units": _sets(before["text_units"], after["text_units"]),
        "units_extracted": extracted,
        "entities": _sets(before["entities"], after["entities"]),
        "relationships": _sets(before["relationships"], after["relationships"]),
        "communities": _sets(before["communities"], after["communities"]),
        "reports": {"rewritten": reports.get("written", 0), "kept": reports.get("kept", 0),
                    "total": len(after["reports"])},
        "llm_calls": calls_by_kind(by_stage),
    }


def describe(ch: dict[str, Any]) -> str:
    """One paragraph a user reads: what the run changed."""
    def part(name: str, d: dict[str, int]) -> str:
        bits = [f"+{d['added']}", f"-{d['removed']}"] + ([f"~{d['changed']}"] if "changed" in d else [])
        return f"{name} {' '.join(bits)}"
    c = ch["llm_calls"]
    named = f" ({', '.join(ch['documents_named'][:3])}{', ...' if len(ch['documents_named']) > 3 else ''})" \
        if ch.get("documents_named") else ""
    return (f"{ch['operation']}{named}: " + ", ".join(part(n, ch[n]) for n in
            ("documents", "text_units", "entities", "relationships")) +
            f", communities changed {ch['communities']['added'] + ch['communities']['removed']} "
            f"(+{ch['communities']['added']} -{ch['communities']['removed']} by membership), "
            f"reports rewritten {ch['reports']['rewritten']} (kept {ch['reports']['kept']}); "
            f"LLM calls {c['total']} (extraction {c['extraction']}, summary {c['summary']}, report {c['report']})")


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k:,} {one if k == 1 else (many or one + 's')}"


def plain(ch: dict[str, Any]) -> str:
    """What the run changed, as a sentence the corpus page shows under its outcome: what was
    extracted again, what changed in the graph, which reports were rewritten, what it cost."""
    units, ents, rels = ch["text_units"], ch["entities"], ch["relationships"]
    comm, rep, calls = ch["communities"], ch["reports"], ch["llm_calls"]
    bits = []
    extracted = ch.get("units_extracted", 0)
    if units["added"] or units["removed"]:
        bits.append(f"text units +{units['added']:,} -{units['removed']:,}, {_n(extracted, 'unit')} extracted")
    elif extracted:  # a re-index: the same units, extracted again
        bits.append(f"the same text units, {_n(extracted, 'unit')} extracted again")
    else:
        bits.append("no text unit changed")
    graph = [f"{w} {d['added']:,} added, {d['removed']:,} removed, {d['changed']:,} changed" for w, d in
             (("entities", ents), ("relationships", rels)) if d["added"] or d["removed"] or d["changed"]]
    bits.append(", ".join(graph) if graph else "no entity or relationship changed")
    moved = comm["added"] + comm["removed"]
    bits.append(f"communities changed by membership: {comm['added']:,} new, {comm['removed']:,} gone" if moved else
                "no community changed")
    bits.append(f"{_n(rep['rewritten'], 'report')} rewritten, {rep['kept']:,} kept as they were")
    bits.append(f"{_n(calls['total'], 'LLM call')}" + (
        f" (extraction {calls['extraction']:,}, summary {calls['summary']:,}, report {calls['report']:,})"
        if calls["total"] else ""))
    return "What changed: " + "; ".join(bits) + "."

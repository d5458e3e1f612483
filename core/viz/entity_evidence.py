"""The evidence a graph node opens beside the graph: the entity's description, its
relationships in the community, and the source sentences that name it (with the document they
come from), read once for the drawn nodes and sent with the graph, so a click needs no round
trip to the server. Plain data: the graph's script puts it on the page as text, never HTML."""
from __future__ import annotations

from typing import Any

from core.textutil import names_entity, split_sentences

MAX_UNITS = 6        # text units read per entity
MAX_SENTENCES = 3    # source sentences shown per entity
MAX_RELATIONS = 12   # relationships listed per entity
SENTENCE_CHARS = 400
DESCRIPTION_CHARS = 900


def _cut(text: Any, n: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def entity_evidence(store, entities: list[dict[str, Any]], relationships: list[dict[str, Any]]
                    ) -> dict[str, dict[str, Any]]:
    """entity id -> {title, type, degree, description, relationships: [{other, weight,
    description}], sentences: [{text, document}]} for these entities."""
    ids = [e["id"] for e in entities]
    units_of: dict[str, list[str]] = {}
    for row in store.rows_in("entities", "id", ids, select="id, text_unit_ids", order_by=None):
        units_of[row["id"]] = list(row.get("text_unit_ids") or [])[:MAX_UNITS]
    wanted = sorted({u for us in units_of.values() for u in us})
    units = {row["id"]: row for row in store.units_with_documents(wanted)}
    by_title: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(relationships, key=lambda r: -(r.get("weight") or 0)):
        for a, b in ((r.get("source"), r.get("target")), (r.get("target"), r.get("source"))):
            by_title.setdefault(str(a).upper(), []).append(
                {"other": str(b), "weight": float(r.get("weight") or 1),
                 "description": _cut(r.get("description"), SENTENCE_CHARS)})
    out: dict[str, dict[str, Any]] = {}
    for e in entities:
        title = str(e.get("title") or e["id"])
        sentences: list[dict[str, str]] = []
        for uid in units_of.get(e["id"], []):
            unit = units.get(uid)
            if not unit or len(sentences) >= MAX_SENTENCES:
                continue
            text = unit.get("text") or ""
            for s, t in split_sentences(text):
                if names_entity(title, text[s:t]):
                    sentences.append({"text": _cut(text[s:t], SENTENCE_CHARS),
                                      "document": str(unit.get("document") or "")})
                    break  # one sentence per text unit: different passages
        out[e["id"]] = {
            "title": title, "type": str(e.get("type") or "entity"),
            "degree": int(e.get("degree") or 0),
            "description": _cut(e.get("description"), DESCRIPTION_CHARS),
            "relationships": by_title.get(title.upper(), [])[:MAX_RELATIONS],
            "sentences": sentences,
        }
    return out

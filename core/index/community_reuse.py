"""Communities after a change: keep what did not change.

Leiden numbers its clusters in the order it finds them, so one document removed renumbers
communities whose members are the same as before. keep_numbers gives every new community with
the members (level and entities) of an old one that old number (and so the same id, and its report
the same id and human_readable_id: stored citations of it stay right); the others get numbers no
community had. report_key is what a report is written from, by meaning: the community's level,
its entities and relationships with their descriptions and human_readable_ids (what its
citations name), its claims and its sub-communities'
report keys. A report whose key is unchanged is kept as it is (same row, no call); only changed
communities, and so their ancestors, are written again. successors says, for every old community
whose number went, which new community of its level took most of its entities: a stored answer
citing the old report is led to the new one (core.query.resolve).
"""
from __future__ import annotations

import hashlib
import json


def _sig(c: dict) -> tuple[int, tuple[str, ...]]:
    return c["level"], tuple(sorted(c["entity_ids"] or []))


def community_id(number: int, level: int, titles: list[str]) -> str:
    return "com-" + hashlib.sha256(f"{number}|{level}|{','.join(titles)}".encode()).hexdigest()[:16]


def keep_numbers(new: list[dict], old: list[dict], titles_of: dict[str, str]) -> list[dict]:
    """New community rows renumbered (community, human_readable_id, id, parent, children)."""
    if not old:
        return new
    old_by_sig = {_sig(c): c["community"] for c in old}
    used: set[int] = set()
    mapping: dict[int, int] = {}
    for c in new:
        n = old_by_sig.get(_sig(c))
        if n is not None and n not in used:
            mapping[c["community"]] = n
            used.add(n)
    nxt = max([c["community"] for c in old] + list(used) + [-1]) + 1
    for c in new:
        if c["community"] not in mapping:
            mapping[c["community"]] = nxt
            nxt += 1
    out = []
    for c in new:
        n = mapping[c["community"]]
        titles = sorted(titles_of.get(e, e) for e in c["entity_ids"] or [])
        out.append({**c, "community": n, "human_readable_id": n, "title": f"Community {n}",
                    "id": community_id(n, c["level"], titles),
                    "parent": mapping.get(c["parent"], -1) if c["parent"] != -1 else -1,
                    "children": sorted(mapping[k] for k in c["children"] if k in mapping)})
    return out


def successors(new: list[dict], old: list[dict]) -> list[dict]:
    """Rows of community_successors: each old community whose number no new community kept, with
    the new community of its level sharing most of its entities (ties: the smaller new one, the
    one nearer its size); none for a community none of whose entities is left."""
    kept = {c["community"] for c in new}
    by_level: dict[int, list[tuple[int, frozenset]]] = {}
    for c in new:
        by_level.setdefault(c["level"], []).append((c["community"], frozenset(c["entity_ids"] or [])))
    out = []
    for c in old:
        if c["community"] in kept:
            continue
        members = frozenset(c["entity_ids"] or [])
        best = max(((len(members & m), -abs(len(m) - len(members)), -n, n, len(m))
                    for n, m in by_level.get(c["level"], [])), default=None)
        if best is None or best[0] == 0:
            continue
        out.append({"id": str(c["community"]), "human_readable_id": c["community"], "successor": best[3],
                    "level": c["level"], "shared": best[0], "old_size": len(members), "new_size": best[4]})
    return out


def writer_signature(engine_name: str, settings, workspace, prompts: tuple[str, ...]) -> str:
    """Who writes: the engine, its model and the prompt templates (a workspace may override one).
    A change of any of them writes every report (or summary) again."""
    from core.prompts import load_prompt
    parts = [engine_name, getattr(settings, "chat_model", "") if engine_name != "offline" else ""]
    for name in prompts:
        try:
            parts.append(load_prompt(name, workspace))
        except Exception:  # a prompt the engine does not use
            parts.append("")
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


def report_key(c: dict, ents: list[dict], rels: list[dict], claims: list[dict], child_keys: list[str],
               engine_name: str, budget: int) -> str:
    payload = [engine_name, budget, c["level"],
               sorted((e["id"], e.get("human_readable_id"), e["title"], e.get("description") or "") for e in ents),
               sorted((r["id"], r.get("human_readable_id"), r.get("description") or "") for r in rels),
               sorted((x["id"], x.get("human_readable_id"), x.get("description") or "", x.get("status") or "")
                      for x in claims),
               sorted(child_keys)]
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode()).hexdigest()[:20]

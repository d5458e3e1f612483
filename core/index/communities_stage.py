"""Stage 4: the entity graph -> a hierarchy of Leiden communities.

Uses graspologic's native hierarchical Leiden (the `graspologic-native` package: the same
implementation graspologic and Microsoft GraphRAG call, without graspologic's heavy imports).
Clusters larger than max_cluster_size are split again one level down. Level 0 is the root
(coarsest); a community's parent is -1 at level 0. Seeded, so the same graph gives the same
communities.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict

import graspologic_native as gn
import networkx as nx

from core.index.progress import Progress, ProgressFn, noop
from core.settings import Settings
from core.store import Store


def leiden_hierarchy(edges: list[tuple[str, str, float]], max_cluster_size: int, seed: int
                     ) -> list[tuple[str, int, int, int]]:
    """(node, cluster, parent (-1 for none), level) for every node at every level."""
    if not edges:
        return []
    result = gn.hierarchical_leiden(edges=edges, max_cluster_size=max_cluster_size,
                                    seed=seed & 0xFFFFFFFF, resolution=1.0, randomness=0.001,
                                    use_modularity=True, iterations=1)
    return [(c.node, c.cluster, -1 if c.parent_cluster is None else c.parent_cluster, c.level)
            for c in result]


def run_communities(store: Store, settings: Settings, on_progress: ProgressFn = noop) -> dict[str, int]:
    """Compute and write the communities (the pipeline instead hands compute_communities' rows to
    run_reports, which writes them together with their reports)."""
    out, levels = compute_communities(store, settings, on_progress)
    store.replace_table("communities", out, keep_hrids=False)
    return {"communities": len(out), "levels": levels}


def compute_communities(store: Store, settings: Settings, on_progress: ProgressFn = noop
                        ) -> tuple[list[dict], int]:
    """The community rows of the current graph (not written) and the number of levels."""
    entities = store.rows("entities", select="id, title, text_unit_ids")
    rels = store.rows("relationships", select="id, source, target, weight")
    by_title = {e["title"]: e for e in entities}
    g = nx.Graph()
    for r in rels:
        if r["source"] in by_title and r["target"] in by_title:
            g.add_edge(r["source"], r["target"], weight=float(r["weight"] or 1.0))
    if settings.use_lcc and g.number_of_nodes():
        g = g.subgraph(max(nx.connected_components(g), key=len)).copy()
    edges = sorted((a, b, d["weight"]) if a < b else (b, a, d["weight"]) for a, b, d in g.edges(data=True))
    on_progress(Progress("communities", 0, 1, f"Leiden on {g.number_of_nodes()} entities, {len(edges)} relationships"))
    rows = leiden_hierarchy(edges, settings.max_cluster_size, settings.seed)

    members: dict[int, set[str]] = defaultdict(set)
    level_of: dict[int, int] = {}
    parent_of: dict[int, int] = {}
    for node, cluster, parent, level in rows:
        members[cluster].add(node)
        level_of[cluster] = level
        parent_of[cluster] = parent
    children: dict[int, list[int]] = defaultdict(list)
    for c, p in parent_of.items():
        if p != -1:
            children[p].append(c)
    rel_by_pair = {}
    for r in rels:
        rel_by_pair.setdefault(frozenset((r["source"], r["target"])), r["id"])

    out = []
    for c in sorted(members, key=lambda c: (level_of[c], c)):
        nodes = members[c]
        ent_ids = [by_title[n]["id"] for n in sorted(nodes)]
        rel_ids = sorted({rel_by_pair[frozenset((a, b))] for a, b in g.subgraph(nodes).edges()
                          if frozenset((a, b)) in rel_by_pair})
        tus: list[str] = []
        for n in sorted(nodes):
            tus.extend(by_title[n]["text_unit_ids"] or [])
        out.append({"id": "com-" + hashlib.sha256(f"{c}|{level_of[c]}|{','.join(sorted(nodes))}".encode()).hexdigest()[:16],
                    "human_readable_id": c, "community": c, "level": level_of[c], "parent": parent_of[c],
                    "children": sorted(children.get(c, [])), "title": f"Community {c}",
                    "entity_ids": ent_ids, "relationship_ids": rel_ids,
                    "text_unit_ids": list(dict.fromkeys(tus)), "size": len(nodes)})
    levels = len({r["level"] for r in out})
    on_progress(Progress("communities", 1, 1, f"{len(out)} communities on {levels} levels"))
    return out, levels

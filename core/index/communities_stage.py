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
from core.store.db import Store


def leiden_hierarchy(edges: list[tuple[str, str, float]], max_cluster_size: int, seed: int
                     ) -> list[tuple[str, int, int, int]]:
    """(node, cluster, parent (-1 for none), level) for every node at every level.

    Each connected component is clustered on its own (largest first, then by its first node), its
    clusters numbered after the previous component's: modularity weighs a community against the
    whole graph's edges, so clustered together, a document removed elsewhere would reshape the
    communities of one it shares no entity with."""
    if not edges:
        return []
    g = nx.Graph()
    g.add_weighted_edges_from(edges)
    comps = sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), c[0]))
    comp_of = {n: i for i, nodes in enumerate(comps) for n in nodes}
    parts: list[list[tuple[str, str, float]]] = [[] for _ in comps]
    for e in edges:
        parts[comp_of[e[0]]].append(e)
    out: list[tuple[str, int, int, int]] = []
    base = 0
    for part in parts:
        result = gn.hierarchical_leiden(edges=part, max_cluster_size=max_cluster_size,
                                        seed=seed & 0xFFFFFFFF, resolution=1.0, randomness=0.001,
                                        use_modularity=True, iterations=1)
        top = -1
        for c in result:
            parent = -1 if c.parent_cluster is None else c.parent_cluster + base
            out.append((c.node, c.cluster + base, parent, c.level))
            top = max(top, c.cluster)
        base += top + 1
    return out


def _graph(entities: list[dict], rels: list[dict], use_lcc: bool) -> dict[tuple[str, str], float]:
    """The entity graph as {(a, b) with a <= b: weight} (a later relationship between the same
    two entities overwrites the weight, as networkx's add_edge does); only the largest connected
    component when use_lcc."""
    titles = {e["title"] for e in entities}
    edges: dict[tuple[str, str], float] = {}
    for r in rels:
        a, b = r["source"], r["target"]
        if a in titles and b in titles:
            edges[(a, b) if a <= b else (b, a)] = float(r["weight"] or 1.0)
    if use_lcc and edges:
        g = nx.Graph()
        g.add_edges_from(edges)
        keep = max(nx.connected_components(g), key=len)
        edges = {k: w for k, w in edges.items() if k[0] in keep}
    return edges


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
    graph = _graph(entities, rels, settings.use_lcc)
    n_nodes = len({n for pair in graph for n in pair})
    edges = sorted((a, b, w) for (a, b), w in graph.items())
    on_progress(Progress("communities", 0, 1, f"Leiden on {n_nodes} entities, {len(edges)} relationships"))
    rows = leiden_hierarchy(edges, settings.max_cluster_size, settings.seed)

    members: dict[int, set[str]] = defaultdict(set)
    level_of: dict[int, int] = {}
    parent_of: dict[int, int] = {}
    cluster_at: dict[int, dict[str, int]] = defaultdict(dict)  # level -> node -> cluster
    for node, cluster, parent, level in rows:
        members[cluster].add(node)
        level_of[cluster] = level
        parent_of[cluster] = parent
        cluster_at[level][node] = cluster
    children: dict[int, list[int]] = defaultdict(list)
    for c, p in parent_of.items():
        if p != -1:
            children[p].append(c)
    # a community's relationships: the edges of the graph with both ends in it (one id per pair
    # of entities: the first relationship between them)
    rel_by_pair: dict[tuple[str, str], str] = {}
    for r in rels:
        a, b = r["source"], r["target"]
        rel_by_pair.setdefault((a, b) if a <= b else (b, a), r["id"])
    rel_ids: dict[int, list[str]] = defaultdict(list)
    for pair in graph:
        rid = rel_by_pair[pair]
        for at in cluster_at.values():
            c = at.get(pair[0])
            if c is not None and c == at.get(pair[1]):
                rel_ids[c].append(rid)

    out = []
    for c in sorted(members, key=lambda c: (level_of[c], c)):
        nodes = sorted(members[c])
        tus: list[str] = []
        for n in nodes:
            tus.extend(by_title[n]["text_unit_ids"] or [])
        out.append({"id": "com-" + hashlib.sha256(f"{c}|{level_of[c]}|{','.join(nodes)}".encode()).hexdigest()[:16],
                    "human_readable_id": c, "community": c, "level": level_of[c], "parent": parent_of[c],
                    "children": sorted(children.get(c, [])), "title": f"Community {c}",
                    "entity_ids": [by_title[n]["id"] for n in nodes],
                    "relationship_ids": sorted(set(rel_ids.get(c, ()))),
                    "text_unit_ids": list(dict.fromkeys(tus)), "size": len(nodes)})
    levels = len({r["level"] for r in out})
    on_progress(Progress("communities", 1, 1, f"{len(out)} communities on {levels} levels"))
    return out, levels

"""The community graph page and the plotly figures: self-contained, escaped, and drawn as asked."""
from __future__ import annotations

import json
import math
import re

from core.viz.charts import (CUT, SELECTED, ZERO, hierarchy_figure, point_status, rating_colour,
                         score_figure)
from core.query.types import MapBatch, Point, SearchResult
from core.viz.graph import community_graph

HOSTILE = "<img src=x onerror=alert(1)>"


def _nodes(page: str) -> list[dict]:
    m = re.search(r"new vis\.DataSet\((\[.*?\])\);\s*var edges", page, re.S)
    assert m, "the node data set is missing"
    return json.loads(m.group(1))


def _entities(n: int) -> list[dict]:
    return [{"id": f"e{i}", "title": f"ENTITY {i}", "type": "person",
             "description": f"entity number {i}", "degree": i} for i in range(n)]


def test_graph_is_self_contained_and_has_no_url():
    ents = _entities(5)
    rels = [{"source": "ENTITY 1", "target": "ENTITY 2", "weight": 3.0, "description": "met"}]
    view = community_graph(ents, rels)
    assert not re.search(r"https?://", view.html)
    assert "<link" not in view.html
    assert not re.search(r"<script[^>]+src=", view.html)
    assert "node_modules" not in view.html
    assert "vis.Network" in view.html  # vis-network is inlined, not linked
    assert (view.shown, view.total, view.edges, view.note) == (5, 5, 1, None)


def test_hostile_names_stay_text():
    ents = [{"id": "a", "title": HOSTILE, "type": "person", "degree": 2,
             "description": "</script><script>alert(2)</script>"},
            {"id": "b", "title": "B & <b>bold</b>", "type": "org", "degree": 1, "description": ""}]
    rels = [{"source": HOSTILE, "target": "B & <b>bold</b>", "weight": 1, "description": HOSTILE}]
    page = community_graph(ents, rels).html
    assert "<img" not in page and "alert(2)</script>" not in page and "<b>bold" not in page
    nodes = _nodes(page)
    # the label is the name as written (rendered on a canvas), the hover text says it plainly
    assert nodes[0]["label"] == HOSTILE
    assert nodes[0]["title"].startswith(HOSTILE)
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the search list is escaped HTML


def test_size_by_degree_colour_by_subcommunity_and_width_by_weight():
    ents = _entities(4)
    groups = {"e0": "Community 7", "e1": "Community 7", "e2": "Community 8"}
    rels = [{"source": "ENTITY 1", "target": "ENTITY 2", "weight": 1.0},
            {"source": "ENTITY 2", "target": "ENTITY 3", "weight": 4.0}]
    page = community_graph(ents, rels, groups).html
    nodes = {n["id"]: n for n in _nodes(page)}
    assert nodes["e3"]["size"] > nodes["e1"]["size"] > nodes["e0"]["size"]
    assert nodes["e0"]["color"] == nodes["e1"]["color"] != nodes["e2"]["color"]
    assert nodes["e3"]["color"] not in (nodes["e0"]["color"], nodes["e2"]["color"])  # ungrouped
    edges = json.loads(re.search(r"var edges = new vis\.DataSet\((\[.*?\])\);", page, re.S).group(1))
    widths = {(e["from"], e["to"]): e["width"] for e in edges}
    assert widths[("e2", "e3")] > widths[("e1", "e2")]
    assert "Community 7" in page and "Community 8" in page  # the legend names the groups


def test_large_community_is_capped_with_a_note():
    view = community_graph(_entities(300), [], max_nodes=50)
    assert (view.shown, view.total) == (50, 300)
    assert "50" in view.note and "300" in view.note
    ids = {n["id"] for n in _nodes(view.html)}
    assert "e299" in ids and "e0" not in ids  # the best-connected are kept
    assert "250 with lower degree are left out" in view.html


def test_positions_come_with_the_nodes_so_the_browser_runs_no_physics():
    ents = _entities(30)  # 21 in a chain, 9 without a drawn relationship
    rels = [{"source": f"ENTITY {i}", "target": f"ENTITY {i + 1}", "weight": 1.0} for i in range(20)]
    page = community_graph(ents, rels).html
    ours = page.rsplit("<script>", 1)[1]  # the page's own script, after vis-network's
    assert '"physics": {"enabled": false}' in ours and "stabiliz" not in ours
    nodes = {n["id"]: (n["x"], n["y"]) for n in _nodes(page)}
    assert len(nodes) == 30 and len(set(nodes.values())) == 30
    chain = [nodes[f"e{i}"] for i in range(21)]
    cx, cy = sum(x for x, _ in chain) / 21, sum(y for _, y in chain) / 21
    reach = max(math.dist(p, (cx, cy)) for p in chain)
    # the loose ones are drawn near the others, not flung to the rim of the view
    assert all(math.dist(nodes[f"e{i}"], (cx, cy)) < 2 * reach for i in range(21, 30))
    assert community_graph(ents, rels).html == page  # the same graph, the same picture


def test_the_graph_page_carries_only_the_style_it_uses():
    page = community_graph(_entities(3), []).html
    vis_css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert "div.vis-tooltip" in vis_css  # hover titles are positioned by it
    assert "data:image" not in vis_css and "vis-navigation" not in vis_css  # button images, unused
    assert len(page) < 500_000  # vis-network's script and the data (its style sheet was 220 kB)


def test_search_box_lists_the_entities():
    page = community_graph(_entities(3), []).html
    assert 'id="sm-find"' in page
    assert page.count("<option value=") == 3


def _result() -> SearchResult:
    p1 = Point("alpha [Data: Reports (1)]", 90, [1], 10, 0)
    p2 = Point("beta [Data: Reports (2)]", 40, [2], 10, 0)
    p3 = Point("gamma", 0, [], 5, 1)
    return SearchResult(method="global", question="q",
                        batches=[MapBatch(0, [1, 2], points=[p1, p2]), MapBatch(1, [3], points=[p3])],
                        reduce={"selected": [p1], "cut": [p2]})


def test_score_chart_tells_selected_cut_and_zero_apart():
    result = _result()
    fates = {p.description: s for p, s in point_status(result)}
    assert fates == {"alpha [Data: Reports (1)]": SELECTED, "beta [Data: Reports (2)]": CUT,
                     "gamma": ZERO}
    fig = score_figure(result)
    by_name = {t.name.rsplit(" (", 1)[0]: t for t in fig.data}
    assert list(by_name[SELECTED].y) == [90] and list(by_name[CUT].y) == [40]
    assert len(by_name[ZERO].y) == 1
    assert len({t.marker.color for t in fig.data}) == 3


def test_hierarchy_treemap_sizes_and_escapes():
    comms = [{"community": 0, "level": 0, "parent": -1, "size": 5, "entity_ids": []},
             {"community": 1, "level": 1, "parent": 0, "size": 3, "entity_ids": []},
             {"community": 2, "level": 1, "parent": 0, "size": 2, "entity_ids": []}]
    reports = [{"community": 0, "title": HOSTILE, "rating": 7.5},
               {"community": 1, "title": "Harbour", "rating": 2.0}]
    fig = hierarchy_figure(comms, reports)
    t = fig.data[0]
    vals = dict(zip(t.ids, t.values))
    assert vals["c0"] == 5 and vals["c1"] == 3 and vals["c2"] == 2
    assert dict(zip(t.ids, t.parents))["c1"] == "c0"
    colours = dict(zip(t.ids, t.marker.colors))
    assert colours["c0"] == rating_colour(7.5) != colours["c1"] == rating_colour(2.0)
    assert colours["c2"] == rating_colour(None)  # no report: grey, not a low rating
    assert all("<img" not in label for label in t.labels)

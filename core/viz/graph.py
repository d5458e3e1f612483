"""Self-contained HTML graph of a community's entities and relationships (pyvis + vis-network).

pyvis builds the node and edge records; the page is rendered here rather than by pyvis's own
template, because that template links bootstrap and vis-network from CDNs even in "in_line" mode.
vis-network is inlined from the copy pyvis bundles, and the output holds no http(s) URL at all:
nothing the app serves loads from the internet.

Untrusted text (entity names, descriptions from documents or models) only ever enters the page as
JSON inside a script, with <, > and & written as \\u escapes so it cannot close the script, and
vis-network renders labels on a canvas and hover titles through innerText: it stays text. The few
names that appear in HTML (the search list, the legend) go through html.escape.
"""
from __future__ import annotations

import functools
import html
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import networkx as nx
import pyvis
from pyvis.network import Network

PALETTE = ("#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#EECA3B",
           "#9D755D", "#FF9DA6", "#79706E", "#1F77B4", "#BCBD22")
OTHER_COLOUR = "#B0B7C3"
LABEL_MAX = 36
HOVER_MAX = 600
EDGE_PX = 140  # the average length of a drawn relationship, in vis-network's units


@dataclass
class GraphView:
    html: str
    shown: int        # entities drawn
    total: int        # entities in the community
    edges: int        # relationships drawn
    note: str | None  # says so when the graph was capped


# vis-network's style sheet is 220 kB, nearly all of it data-URI images of the navigation and
# manipulation buttons and the configurator, none of which the graph shows; they are left out
_UNUSED_CSS = ("vis-navigation", "vis-manipulation", "vis-configuration", "vis-config",
               "vis-color-picker", "vis-button", "vis-edit", "vis-close", "vis-label", "vis-separator")


@functools.lru_cache(maxsize=1)
def _vis_assets() -> tuple[str, str]:
    """vis-network's JS and the CSS rules the graph uses (the tooltip's), from pyvis's bundled
    copy, with every http(s) URL removed.

    The only functional URL is the SVG namespace, which the HTML parser gives us without writing
    it; the rest are licence comments and error strings, kept with their scheme dropped."""
    lib = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
    js = (lib / "vis-network.min.js").read_text(encoding="utf-8")
    css = (lib / "vis-network.css").read_text(encoding="utf-8")
    js = js.replace('"http://www.w3.org/2000/svg"', "__smSvgNs")
    js = re.sub(r"https?://", "", js)
    css = "".join(f"{sel}{{{body}}}" for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)
                  if "data:" not in body and not any(u in sel for u in _UNUSED_CSS))
    css = re.sub(r"https?://", "", css)
    prelude = ('var __smSvgNs=(function(){var d=document.createElement("div");'
               'd.innerHTML="<svg></svg>";return d.firstChild.namespaceURI})();')
    return prelude + js, css


def script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no <, > or & survives literally."""
    return (json.dumps(value, ensure_ascii=False)
            .replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _short(text: str, n: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def community_graph(entities: list[dict[str, Any]], relationships: list[dict[str, Any]],
                    groups: dict[str, str] | None = None, *, max_nodes: int = 120,
                    height: int = 560, evidence: dict[str, dict[str, Any]] | None = None,
                    colour_by: str = "sub-community") -> GraphView:
    """The graph of one community.

    entities: entities rows (id, title, type, description, degree); relationships: rows whose
    source/target are entity titles (or ids); groups: entity id -> sub-community label, used for
    colour (entities without one are grey). When there are more than max_nodes entities, the
    ones with the highest degree are drawn and the note says how many were left out.
    evidence: entity id -> what a click on its node shows beside the graph (entity_evidence);
    colour_by: what the colours stand for, named in the legend."""
    total = len(entities)
    ranked = sorted(entities, key=lambda e: (-(e.get("degree") or 0), str(e.get("title") or "")))
    shown = ranked[:max_nodes]
    groups = groups or {}
    group_names = sorted({groups[e["id"]] for e in shown if e["id"] in groups},
                         key=lambda g: (len(g), g))
    colour = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(group_names)}

    net = Network(height=f"{height}px", width="100%", directed=False, cdn_resources="in_line")
    by_key: dict[str, str] = {}
    max_degree = max([e.get("degree") or 0 for e in shown] + [1])
    for e in shown:
        title = str(e.get("title") or e["id"])
        degree = int(e.get("degree") or 0)
        group = groups.get(e["id"])
        kind = str(e.get("type") or "entity")
        hover = f"{title}\n{kind} \u00b7 {degree} connection{'s' if degree != 1 else ''}"
        if group and group.lower() != kind.lower():
            hover += f" \u00b7 {group}"
        if e.get("description"):
            hover += "\n\n" + _short(e["description"], HOVER_MAX)
        net.add_node(e["id"], label=_short(title, LABEL_MAX), title=hover,
                     color=colour.get(group, OTHER_COLOUR),
                     size=round(8 + 26 * math.sqrt(degree / max_degree), 1))
        by_key[e["id"]] = e["id"]
        by_key.setdefault(title, e["id"])
        by_key.setdefault(title.upper(), e["id"])

    drawn = []
    for r in relationships:
        a = by_key.get(str(r.get("source"))) or by_key.get(str(r.get("source", "")).upper())
        b = by_key.get(str(r.get("target"))) or by_key.get(str(r.get("target", "")).upper())
        if a and b and a != b:
            drawn.append((a, b, r))
    max_weight = max([float(r.get("weight") or 1) for _, _, r in drawn] + [1.0])
    for a, b, r in drawn:
        weight = float(r.get("weight") or 1)
        hover = f"{r.get('source')} \u2014 {r.get('target')} (weight {weight:g})"
        if r.get("inferred"):  # dashed: named in one sentence, not a relationship the model stated
            hover += ", inferred from co-occurrence"
        if r.get("description"):
            hover += "\n\n" + _short(r["description"], HOVER_MAX)
        net.add_edge(a, b, width=round(1 + 6 * weight / max_weight, 2), title=hover,
                     dashes=bool(r.get("inferred")))

    note = None
    if total > len(shown):
        note = (f"Showing the {len(shown)} best-connected of {total} entities; "
                f"{total - len(shown)} with lower degree are left out.")
    legend = [(g, colour[g]) for g in group_names]
    if any(e["id"] not in groups for e in shown) and group_names:
        legend.append(("no sub-community", OTHER_COLOUR))
    pos = layout([n["id"] for n in net.nodes], [(a, b) for a, b, _ in drawn])
    for n in net.nodes:
        n["x"], n["y"] = pos[n["id"]]
    shown_ids = {e["id"] for e in shown}
    details = {k: v for k, v in (evidence or {}).items() if k in shown_ids}
    page = _render(net.nodes, net.edges, legend, note, height, details, colour_by)
    return GraphView(html=page, shown=len(shown), total=total, edges=len(drawn), note=note)


def layout(ids: list[str], pairs: list[tuple[str, str]], seed: int = 7) -> dict[str, tuple[float, float]]:
    """Positions of the nodes, computed here so that the browser draws the graph at once: running
    vis-network's physics to a stable layout took a third of a second of the browser's time for
    120 nodes (more on a busy machine), while the rest of the page was waiting for the same
    thread. Fruchterman-Reingold (networkx) with a weak pull of every node towards the centre,
    so that entities without a drawn relationship stay near the others instead of being pushed
    to the rim; scaled so that an average relationship is about EDGE_PX long. Remembered for
    the last 64 graphs (a page rerun draws the same community again)."""
    return dict(_layout(tuple(ids), tuple(pairs), seed))


@functools.lru_cache(maxsize=64)
def _layout(ids: tuple[str, ...], pairs: tuple[tuple[str, str], ...], seed: int
            ) -> dict[str, tuple[float, float]]:
    if not ids:
        return {}
    g = nx.Graph()
    g.add_nodes_from(ids)
    g.add_edges_from(pairs, weight=1.0)
    hub = ("__centre__",)  # not a string, so no entity id can be it
    g.add_edges_from(((hub, i) for i in ids), weight=0.1)
    pos = nx.spring_layout(g, seed=seed, iterations=60)
    centre = pos.pop(hub)
    lengths = [math.dist(pos[a], pos[b]) for a, b in pairs if a != b]
    spread = (sum(lengths) / len(lengths) if lengths else
              sum(math.dist(p, centre) for p in pos.values()) / len(pos))
    scale = EDGE_PX / max(spread, 1e-9)
    return {i: (round(float(pos[i][0] - centre[0]) * scale, 1),
                round(float(pos[i][1] - centre[1]) * scale, 1)) for i in ids}


_OPTIONS = {
    "autoResize": True,
    # vis-network's "improved layout" clusters graphs of over 100 nodes and runs Kamada-Kawai
    # before the physics, which costs time to a stable picture; the physics alone lays it out
    # as well
    "layout": {"improvedLayout": False},
    # labels are drawn by the page's script (placeLabels), where they do not overlap
    "nodes": {"shape": "dot", "font": {"size": 13, "face": "Inter, system-ui, sans-serif",
                                       "color": "rgba(0,0,0,0)", "strokeWidth": 0},
              "borderWidth": 1},
    "edges": {"color": {"color": "#9aa5b1", "highlight": "#3b4a5a", "opacity": 0.7},
              "smooth": {"type": "continuous"}},
    "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False,
                    "keyboard": False},
    # the positions come with the nodes (layout above): no physics in the browser
    "physics": {"enabled": False},
}

_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<style>{css}</style>
<style>
html, body {{ height: 100%; }}
body {{ display: flex; flex-direction: column; box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; font-family: Inter, system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2933; }}
#sm-bar {{ display: flex; gap: 8px; align-items: center; padding: 6px 2px 8px 2px; font-size: 13px; flex-wrap: wrap; }}
#sm-find {{ flex: 1 1 160px; max-width: 280px; min-width: 0; padding: 5px 9px; border: 1px solid #cbd2d9; border-radius: 6px; font-size: 13px; }}
#sm-bar button {{ padding: 5px 10px; border: 1px solid #cbd2d9; background: #fff; border-radius: 6px; cursor: pointer; font-size: 13px; white-space: nowrap; }}
#sm-bar button:hover {{ background: #f0f4f8; }}
#sm-status {{ color: #616e7c; }}
#sm-graph {{ box-sizing: border-box; width: 100%; height: {height}px; border: 1px solid #e4e7eb; border-radius: 8px; background: #fbfcfd; }}
#sm-wrap {{ position: relative; }}
#sm-legend {{ display: flex; flex-wrap: wrap; column-gap: 14px; row-gap: 2px; padding: 5px 2px 0 2px; font-size: 11.5px; color: #3e4c59; max-height: {legend_h}px; overflow-y: auto; }}
#sm-legend > span {{ max-width: 100%; overflow-wrap: anywhere; }}
#sm-legend .key {{ color: #616e7c; }}
#sm-legend span.sw {{ display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; }}
#sm-note {{ font-size: 12px; color: #8d5b00; padding: 2px; }}
body.sm-notip div.vis-tooltip {{ visibility: hidden !important; }}
#sm-side {{ box-sizing: border-box; flex: 1 1 auto; min-height: 90px; height: {side_h}px; overflow-y: auto; margin-top: 8px; padding: 8px 12px; border: 1px solid #e4e7eb; border-radius: 8px; background: #fff; font-size: 13px; line-height: 1.45; }}
#sm-side h4 {{ margin: 0 0 2px 0; font-size: 15px; display: flex; justify-content: space-between; gap: 8px; }}
#sm-side h4 button {{ border: none; background: none; cursor: pointer; font-size: 15px; color: #616e7c; }}
#sm-side .meta {{ color: #616e7c; font-size: 12px; margin-bottom: 6px; }}
#sm-side .lbl {{ font-weight: 600; font-size: 12px; color: #3e4c59; margin: 8px 0 2px 0; }}
#sm-side ul {{ margin: 0; padding-left: 18px; }}
#sm-side blockquote {{ margin: 4px 0; padding: 2px 8px; border-left: 3px solid #f58518; color: #1f2933; }}
#sm-side blockquote .doc {{ display: block; color: #616e7c; font-size: 11.5px; }}
#sm-side mark {{ background: #ffe8a3; padding: 0 1px; }}
#sm-side .hint {{ color: #616e7c; }}
div.vis-tooltip {{ white-space: pre-wrap; max-width: 380px; font-size: 12px; line-height: 1.4; background: #fff; border: 1px solid #cbd2d9; border-radius: 6px; box-shadow: 0 2px 10px rgba(0,0,0,.12); padding: 8px 10px; color: #1f2933; font-family: inherit; }}
</style></head>
<body>
<div id="sm-bar">
  <input id="sm-find" list="sm-names" placeholder="Find an entity" autocomplete="off" aria-label="Find an entity">
  <datalist id="sm-names">{datalist}</datalist>
  <button id="sm-fit" type="button">Fit all</button>
  <span id="sm-status"></span>
</div>
<div id="sm-wrap"><div id="sm-graph" data-nodes="{n_nodes}" data-edges="{n_edges}"></div></div>
<div id="sm-legend">{legend}</div>
{note}
<div id="sm-side" aria-live="polite"><span class="hint">Click an entity to see its description, its relationships and the source sentences that name it.</span></div>
<script>{js}</script>
<script>
(function () {{
  var nodes = new vis.DataSet({nodes});
  var edges = new vis.DataSet({edges});
  var details = {details};
  var container = document.getElementById("sm-graph");
  var network = null;
  var touched = false;
  var SCREEN_FONT = 13;  // label size in screen pixels at the default zoom
  var fontSize = SCREEN_FONT;
  var measure = document.createElement("canvas").getContext("2d");
  var widths = {{}};
  function box(x, y, w, h) {{ return {{l: x, t: y, r: x + w, b: y + h}}; }}
  function hits(a, b) {{ return a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b; }}
  var order = nodes.get().sort(function (a, b) {{ return (b.size || 0) - (a.size || 0) || String(a.label).localeCompare(String(b.label)); }}).map(function (n) {{ return n.id; }});
  var rank = {{}}, HUBS = 3;
  order.forEach(function (id, i) {{ rank[id] = i; }});
  // the labels are drawn here, not by vis-network: a label is drawn only where it overlaps no
  // other label and no other node and lies inside the view, below, above, right or left of its
  // node; the best-connected entities (and the selected one) are placed first, the rest show on
  // hover (the tooltip) or when zooming in makes room
  function placeLabels() {{
    var scale = network.getScale(), W = container.clientWidth, H = container.clientHeight;
    var px = Math.max(9, Math.min(22, fontSize * scale));
    var font = px + "px Inter, system-ui, sans-serif";
    measure.font = font;
    var pos = network.getPositions(), circles = {{}}, kept = [], placed = [];
    order.forEach(function (id) {{
      var p = network.canvasToDOM(pos[id]), r = (nodes.get(id).size || 10) * scale;
      circles[id] = {{p: p, r: r, b: box(p.x - r, p.y - r, 2 * r, 2 * r)}};
    }});
    var sel = network.getSelectedNodes(), ids = sel.concat(order.filter(function (i) {{ return sel.indexOf(i) < 0; }}));
    ids.forEach(function (id) {{
      var n = nodes.get(id), c = circles[id], text = String(n.label);
      var key = text + "|" + px;
      if (!(key in widths)) {{ widths[key] = measure.measureText(text).width + 4; }}
      var w = widths[key], h = px * 1.25;
      var d = c.r * 0.7 + 1, tries = [
        box(c.p.x - w / 2, c.p.y + c.r + 1, w, h), box(c.p.x - w / 2, c.p.y - c.r - 1 - h, w, h),
        box(c.p.x + c.r + 2, c.p.y - h / 2, w, h), box(c.p.x - c.r - 2 - w, c.p.y - h / 2, w, h),
        box(c.p.x + d, c.p.y + d, w, h), box(c.p.x - d - w, c.p.y + d, w, h),
        box(c.p.x + d, c.p.y - d - h, w, h), box(c.p.x - d - w, c.p.y - d - h, w, h)];
      // the few best-connected entities are always named: their label may cross a smaller node
      var hub = rank[id] < HUBS;
      for (var t = 0; t < tries.length; t++) {{
        var b = tries[t], ok = b.l >= 0 && b.r <= W && b.t >= 0 && b.b <= H;
        for (var i = 0; ok && i < kept.length; i++) {{ if (hits(b, kept[i])) {{ ok = false; }} }}
        for (var o in circles) {{ if (!ok) {{ break; }} if (o !== String(id) && !(hub && rank[o] >= HUBS) && hits(b, circles[o].b)) {{ ok = false; }} }}
        if (ok) {{ kept.push(b); placed.push({{id: id, text: text, b: b, sel: sel.indexOf(id) >= 0}}); break; }}
      }}
    }});
    container.setAttribute("data-labels", String(placed.length));
    container.setAttribute("data-hidden-labels", String(order.length - placed.length));
    window.smLabels = placed;  // for the browser tests
    return {{font: font, placed: placed}};
  }}
  function drawLabels(ctx) {{
    var plan = placeLabels(), ratio = ctx.canvas.width / Math.max(1, ctx.canvas.clientWidth);
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);  // DOM pixels
    ctx.font = plan.font; ctx.textBaseline = "middle"; ctx.textAlign = "center";
    ctx.lineJoin = "round"; ctx.lineWidth = 3; ctx.strokeStyle = "#ffffff";
    plan.placed.forEach(function (l) {{
      var x = (l.b.l + l.b.r) / 2, y = (l.b.t + l.b.b) / 2;
      ctx.fillStyle = l.sel ? "#0b3d91" : "#1f2933";
      ctx.strokeText(l.text, x, y); ctx.fillText(l.text, x, y);
    }});
    ctx.restore();
  }}
  function el(tag, text, cls) {{ var e = document.createElement(tag); if (text !== undefined) {{ e.textContent = text; }} if (cls) {{ e.className = cls; }} return e; }}
  function marked(text, name) {{
    // the sentence as text, with the entity's name (any case) in <mark>
    var out = document.createElement("span"), low = text.toLowerCase(), key = String(name).toLowerCase(), at = 0, i;
    while (key && (i = low.indexOf(key, at)) >= 0) {{
      out.appendChild(document.createTextNode(text.slice(at, i)));
      out.appendChild(el("mark", text.slice(i, i + key.length)));
      at = i + key.length;
    }}
    out.appendChild(document.createTextNode(text.slice(at)));
    return out;
  }}
  var side = document.getElementById("sm-side");
  function showEvidence(id) {{
    var d = details[id], n = nodes.get(id);
    side.textContent = "";
    var h = el("h4"); h.appendChild(el("span", d ? d.title : String(n.label)));
    var x = el("button", "\u00d7"); x.type = "button"; x.title = "Close"; x.setAttribute("aria-label", "Close");
    x.addEventListener("click", function () {{ side.textContent = ""; side.appendChild(el("span", "Click an entity to see its evidence.", "hint")); network.unselectAll(); }});
    h.appendChild(x); side.appendChild(h);
    if (!d) {{ side.appendChild(el("div", String(n.title || ""), "meta")); side.setAttribute("data-entity", String(n.label)); return; }}
    side.appendChild(el("div", d.type + " \u00b7 " + d.degree + " connection" + (d.degree === 1 ? "" : "s"), "meta"));
    if (d.description) {{ side.appendChild(el("div", d.description)); }}
    if (d.relationships.length) {{
      side.appendChild(el("div", "Relationships in this community", "lbl"));
      var ul = el("ul");
      d.relationships.forEach(function (r) {{
        var li = el("li"); li.appendChild(el("b", r.other)); li.appendChild(document.createTextNode(" \u00b7 weight " + r.weight + (r.description ? ": " + r.description : "")));
        ul.appendChild(li);
      }});
      side.appendChild(ul);
    }}
    side.appendChild(el("div", d.sentences.length ? "Source sentences" : "No source sentence names it word for word.", "lbl"));
    d.sentences.forEach(function (s) {{
      var q = el("blockquote"); q.appendChild(marked(s.text, d.title));
      if (s.document) {{ q.appendChild(el("span", s.document, "doc")); }}
      side.appendChild(q);
    }});
    side.setAttribute("data-entity", d.title);
    side.scrollTop = 0;
  }}
  function start() {{
    // vis-network fits the view to the container's size: wait until the frame is laid out
    if (!(container.clientWidth > 0 && container.clientHeight > 0)) {{ setTimeout(start, 60); return; }}
    if (nodes.length === 0) {{
      container.textContent = "No entities to draw.";
      container.setAttribute("data-ready", "1");
      return;
    }}
    network = new vis.Network(container, {{nodes: nodes, edges: edges}}, {vis_options});
    window.smNetwork = network;  // for the browser tests and the console
    network.fit();
    // room for the labels at the edges; a small graph is not blown up
    network.moveTo({{scale: Math.min(network.getScale() * 0.85, 1.3)}});
    // labels as large on screen at the default zoom whatever the frame's width
    fontSize = SCREEN_FONT / network.getScale();  // as large on screen whatever the frame's width
    network.on("afterDrawing", drawLabels);
    network.once("afterDrawing", function () {{
      window.smDrawnAt = performance.timeOrigin + performance.now();  // for the benches
      container.setAttribute("data-ready", "1");
    }});
    network.redraw();
    network.on("dragStart", function () {{ touched = true; }});
    network.on("zoom", function () {{ touched = true; }});
    network.on("click", function (ev) {{
      if (!ev.nodes.length) {{ return; }}
      // the tooltip would cover the graph: none until the pointer leaves the node
      document.body.classList.add("sm-notip");
      showEvidence(ev.nodes[0]);
    }});
    network.on("blurNode", function () {{ document.body.classList.remove("sm-notip"); }});
  }}
  start();
  window.addEventListener("resize", function () {{ if (network && !touched) {{ network.fit(); }} }});
  var status = document.getElementById("sm-status");
  function focusOn(text) {{
    var q = (text || "").trim().toLowerCase();
    if (!q) {{ return; }}
    var all = nodes.get();
    var hit = all.filter(function (n) {{ return String(n.label).toLowerCase() === q; }})[0]
      || all.filter(function (n) {{ return String(n.label).toLowerCase().indexOf(q) >= 0; }})[0];
    if (!network) {{ return; }}
    if (!hit) {{ status.textContent = "No entity matches \u201c" + text + "\u201d"; return; }}
    status.textContent = "";
    touched = true;
    network.selectNodes([hit.id]);
    showEvidence(hit.id);
    network.focus(hit.id, {{scale: Math.max(network.getScale(), 1.0), animation: {{duration: 500, easingFunction: "easeInOutQuad"}}}});
  }}
  var find = document.getElementById("sm-find");
  find.addEventListener("change", function () {{ focusOn(find.value); }});
  find.addEventListener("keydown", function (ev) {{ if (ev.key === "Enter") {{ focusOn(find.value); }} }});
  document.getElementById("sm-fit").addEventListener("click", function () {{
    if (!network) {{ return; }}
    touched = false; network.unselectAll(); network.fit({{animation: {{duration: 400}}}}); status.textContent = "";
  }});
}})();
</script>
</body></html>
"""

SIDE_HEIGHT = 230  # the evidence panel under the graph


def _render(nodes: list[dict[str, Any]], edges: list[dict[str, Any]],
            legend: Iterable[tuple[str, str]], note: str | None, height: int,
            details: dict[str, dict[str, Any]] | None = None,
            colour_by: str = "sub-community") -> str:
    js, css = _vis_assets()
    options = "".join(f'<option value="{html.escape(str(n["label"]))}"></option>' for n in nodes)
    legend = list(legend)
    keys = ['<span class="key">size: connections (degree)</span>',
            '<span class="key">line width: relationship weight</span>']
    if legend:
        keys.append(f'<span class="key">colour: {html.escape(colour_by)}</span>')
    legend_html = "".join(keys) + "".join(
        f'<span title="{html.escape(g)}"><span class="sw" style="background:{c}"></span>{html.escape(g)}</span>'
        for g, c in legend)
    note_html = f'<div id="sm-note">{html.escape(note)}</div>' if note else ""
    keep = ("id", "label", "title", "color", "size", "shape", "x", "y")
    nodes = [{k: n[k] for k in keep if k in n} for n in nodes]
    edges = [{k: e[k] for k in ("from", "to", "width", "title", "dashes") if e.get(k) is not None}
             for e in edges]
    return _PAGE.format(css=css, js=js, height=int(height), datalist=options, legend=legend_html,
                        note=note_html, nodes=script_json(nodes), edges=script_json(edges),
                        vis_options=script_json(_OPTIONS), n_nodes=len(nodes), n_edges=len(edges),
                        legend_h=60, details=script_json(details or {}),
                        side_h=SIDE_HEIGHT)

"""Plotly figures of the app: the community hierarchy and the map step's point scores.

Plotly renders a subset of HTML in text (<b>, <a href>, <br>), so every label built from
documents or model output is passed through html.escape (plotly shows the entities as the
characters they stand for).
"""
from __future__ import annotations


import functools
import math
import html
from typing import Any

import plotly.graph_objects as go
from plotly.colors import get_colorscale, sample_colorscale

from core.query.types import Point, SearchResult

SELECTED = "in the answer's context"
CUT = "cut by the reduce budget"
ZERO = "score 0 (dropped)"
STATUS_COLOURS = {SELECTED: "#2F7D4A", CUT: "#E8A33D", ZERO: "#B8C0CC"}
SCALE = "YlOrRd"
ROOT_COLOUR = "#f5f7fa"
NO_REPORT_COLOUR = "#d9dee5"
FONT = dict(family="Inter, system-ui, -apple-system, Segoe UI, sans-serif", size=13, color="#1f2933")
MAX_OVERVIEW = 1000  # communities drawn in the hierarchy treemap: a browser takes seconds for thousands


def _text(value: Any, limit: int = 60) -> str:
    s = " ".join(str(value if value is not None else "").split())
    if len(s) > limit:
        s = s[: limit - 1] + "\u2026"
    return html.escape(s)


def hierarchy_figure(communities: list[dict[str, Any]], reports: list[dict[str, Any]],
                     height: int = 460) -> go.Figure:
    """Treemap of the community hierarchy: area = entities, colour = report rating (0-10).

    communities: rows with community, level, parent, title, entity_ids / size; reports: rows
    with community, title, rating."""
    report_of = {int(r["community"]): r for r in reports}
    known = {int(c["community"]) for c in communities}
    children: dict[int, list[int]] = {}
    for c in communities:
        parent = c.get("parent")
        if parent is not None and int(parent) in known:
            children.setdefault(int(parent), []).append(int(c["community"]))
    own = {int(c["community"]): int(c.get("size") or len(c.get("entity_ids") or []) or 1)
           for c in communities}
    value: dict[int, int] = {}

    def total(cid: int, depth: int = 0) -> int:
        if cid not in value:
            kids = sum(total(k, depth + 1) for k in children.get(cid, [])) if depth < 64 else 0
            value[cid] = max(own[cid], kids)
        return value[cid]

    ids, parents, labels, values, colours, hover = (["all"], [""], ["All communities"], [0],
                                                   [ROOT_COLOUR], ["the whole corpus"])
    for c in sorted(communities, key=lambda c: (int(c.get("level") or 0), int(c["community"]))):
        cid = int(c["community"])
        rep = report_of.get(cid)
        parent = c.get("parent")
        ids.append(f"c{cid}")
        parents.append(f"c{int(parent)}" if parent is not None and int(parent) in known else "all")
        title = (rep or {}).get("title") or c.get("title") or f"Community {cid}"
        # a cell's label is the title's first name (a whole title fits only the largest cells, and
        # plotly hides a label that does not fit); the hover gives the whole title
        labels.append(_text(title.split(",")[0].split(" and ")[0], 24))
        values.append(total(cid))
        rating = (rep or {}).get("rating")
        colours.append(rating_colour(rating))
        hover.append(f"<b>{_text(title, 80)}</b><br>community {cid} \u00b7 level {c.get('level')}"
                     f"<br>{own[cid]} entities<br>"
                     + (f"rating {float(rating):.1f}" if rating is not None else "no report yet"))
    values[0] = sum(v for v, p in zip(values, parents) if p == "all")
    fig = go.Figure(go.Treemap(
        ids=ids, parents=parents, labels=labels, values=values, branchvalues="total",
        customdata=hover, hovertemplate="%{customdata}<extra></extra>",
        marker=dict(colors=colours, line=dict(color="#ffffff", width=1)),
        maxdepth=3, textinfo="label", pathbar=dict(visible=True),
    ))
    # the colour scale, drawn by an invisible scatter (a treemap with explicit colours has none)
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", hoverinfo="skip", showlegend=False,
                             marker=dict(colorscale=SCALE, cmin=0, cmax=10, color=[0], showscale=True,
                                         colorbar=dict(title="rating", thickness=12, len=0.9))))
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    fig.update_layout(margin=dict(l=4, r=4, t=24, b=4), height=height, font=FONT,
                      plot_bgcolor="rgba(0,0,0,0)", uniformtext=dict(minsize=8, mode="hide"))
    return fig


def rating_colour(rating: float | None) -> str:
    """The colour of a rating on the 0-10 scale (grey when there is no report)."""
    if rating is None:
        return NO_REPORT_COLOUR
    return _colour(min(max(float(rating), 0.0), 10.0))


@functools.lru_cache(maxsize=1024)
def _colour(rating: float) -> str:
    # remembered: plotly looks a named scale up by inspecting its modules (2 ms a call), and a
    # hierarchy of thousands of communities has few distinct ratings
    return sample_colorscale(_scale(), [rating / 10.0])[0]


@functools.lru_cache(maxsize=1)
def _scale() -> list:
    return get_colorscale(SCALE)


def overview_plan(level_counts: dict[int, int], max_nodes: int = MAX_OVERVIEW
                  ) -> tuple[list[int], int | None, str | None]:
    """Which communities the hierarchy overview draws, given how many each level holds: whole
    levels from the top down while they fit in max_nodes, or, when even the top level does not
    fit, its largest max_nodes communities. Returns (levels, limit or None, a note when some
    communities are left out)."""
    levels: list[int] = []
    total, limit = 0, None
    for level in sorted(level_counts):
        if total + level_counts[level] > max_nodes:
            if not levels:
                levels, total, limit = [level], max_nodes, max_nodes
            break
        levels.append(level)
        total += level_counts[level]
    everything = sum(level_counts.values())
    if total >= everything:
        return levels, limit, None
    shown = f"level {levels[0]}" if len(levels) == 1 else f"levels {levels[0]}-{levels[-1]}"
    return levels, limit, (f"The overview draws {total:,} of {everything:,} communities ({shown}"
                           + (", the largest" if limit else "")
                           + "); the selectors below reach every community.")


def point_status(result: SearchResult) -> list[tuple[Point, str]]:
    """Every map point with what happened to it: selected, cut by the budget, or score 0."""
    selected = {_key(p) for p in result.reduce.get("selected", [])}
    out = []
    for b in result.batches:
        for p in b.points:
            if p.batch is None:
                p.batch = b.batch
            if not p.score:
                status = ZERO
            elif _key(p) in selected:
                status = SELECTED
            else:
                status = CUT
            out.append((p, status))
    return out


def _key(p: Point | dict) -> tuple:
    if isinstance(p, dict):
        return (p.get("batch"), p.get("description"))
    return (p.batch, p.description)


def score_figure(result: SearchResult, height: int = 320) -> go.Figure:
    """Bar chart of every map point's score, sorted high to low, coloured by its fate."""
    rows = sorted(point_status(result), key=lambda t: (-t[0].score, t[0].batch or 0))
    fig = go.Figure()
    for status in (SELECTED, CUT, ZERO):
        mine = [(i, p) for i, (p, s) in enumerate(rows) if s == status]
        fig.add_trace(go.Bar(
            name=f"{status} ({len(mine)})",
            x=[i + 1 for i, _ in mine], y=[max(p.score, 0.8) if status == ZERO else p.score
                                         for _, p in mine],
            marker_color=STATUS_COLOURS[status],
            customdata=[[p.batch, p.score, _text(p.description, 140)] for _, p in mine],
            hovertemplate="batch %{customdata[0]} \u00b7 score %{customdata[1]}<br>"
                          "%{customdata[2]}<extra></extra>",
        ))
    fig.update_layout(
        barmode="overlay", height=height, font=FONT, bargap=0.15,
        margin=dict(l=8, r=8, t=8, b=8), plot_bgcolor="#ffffff",
        # points are counted: whole-number ticks only (plotly's auto ticks gave 0.5, 1.5)
        xaxis=dict(title="points, by score", showgrid=False, tickmode="linear", tick0=1,
                   dtick=max(1, math.ceil(len(rows) / 12)), tickformat="d"),
        yaxis=dict(title="score", range=[0, 100], gridcolor="#eef1f4"),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
    )
    return fig

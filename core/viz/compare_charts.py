"""Plotly figures of DRIFT's follow-up tree and of comparison runs (win-rate heatmap, cost per
method). Labels from documents or model output are html-escaped (see core/viz/charts)."""
from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go


def _t(value: Any, limit: int = 60) -> str:
    s = " ".join(str(value if value is not None else "").split())
    return html.escape(s if len(s) <= limit else s[: limit - 1] + "\u2026")


def drift_tree_figure(question: str, nodes: list[dict], height: int = 420) -> go.Figure:
    """The question at the root, the primer folds under it, each follow-up under the node that
    asked it; colour = score (0-100), hover = the question and its answer."""
    ids = ["q"] + [f"n{n['id']}" for n in nodes]
    parents = [""] + [("q" if n.get("parent") is None else f"n{n['parent']}") for n in nodes]
    labels = [_t(question, 40)] + [(f"fold {n['id'] + 1}" if n["depth"] == 0 else _t(n["query"], 40)) for n in nodes]
    scores = [100.0] + [float(n.get("score") or 0) for n in nodes]
    hover = [_t(question, 200)] + [
        f"{_t(n['query'], 120)}<br>score {float(n.get('score') or 0):g}"
        + (f"<br>error: {_t(n['error'], 120)}" if n.get("error") else f"<br>{_t(n.get('answer'), 200)}")
        for n in nodes]
    fig = go.Figure(go.Icicle(ids=ids, labels=labels, parents=parents, marker=dict(
        colors=scores, colorscale="Blues", cmin=0, cmax=100, colorbar=dict(title="score")),
        hovertext=hover, hoverinfo="text", tiling=dict(orientation="v"), maxdepth=4))
    fig.update_layout(height=height, margin=dict(l=4, r=4, t=4, b=4))
    return fig


def win_rate_figure(win_rates: list[dict], methods: list[str], criterion: str | None = None,
                    height: int = 380) -> go.Figure:
    """Row method's win rate against the column method (ties count half), on one criterion or
    averaged over all; the diagonal is empty. Cells whose sign test is significant are marked *."""
    rows = [w for w in win_rates if criterion in (None, w["criterion"])]
    z, text = [], []
    for a in methods:
        zr: list = []
        tr: list = []
        for b in methods:
            mine = [w for w in rows if (w["a"], w["b"]) == (a, b)]
            theirs = [w for w in rows if (w["a"], w["b"]) == (b, a)]
            rates = [w["rate"] for w in mine] + [1 - w["rate"] for w in theirs]
            sig = any(w["significant"] for w in mine + theirs)
            if a == b or not rates:
                zr.append(None)
                tr.append("")
            else:
                r = sum(rates) / len(rates)
                zr.append(r)
                tr.append(f"{r:.0%}" + (" *" if sig else ""))
        z.append(zr)
        text.append(tr)
    names = [_t(m, 30) for m in methods]
    fig = go.Figure(go.Heatmap(z=z, x=names, y=names, text=text, texttemplate="%{text}", zmin=0, zmax=1,
                               colorscale="RdBu", colorbar=dict(title="win rate"),
                               hovertemplate="%{y} against %{x}: %{text}<extra></extra>"))
    fig.update_layout(height=height, margin=dict(l=4, r=4, t=30, b=4),
                      xaxis_title="against", yaxis_title="method", yaxis_autorange="reversed")
    return fig


def cost_figure(cost: dict[str, dict], height: int = 300) -> go.Figure:
    """LLM calls and tokens per method (prompt + completion), side by side."""
    methods = list(cost)
    fig = go.Figure()
    fig.add_trace(go.Bar(name="prompt tokens", x=[_t(m, 30) for m in methods],
                         y=[cost[m].get("prompt_tokens", 0) for m in methods]))
    fig.add_trace(go.Bar(name="completion tokens", x=[_t(m, 30) for m in methods],
                         y=[cost[m].get("completion_tokens", 0) for m in methods]))
    fig.add_trace(go.Scatter(name="LLM calls", x=[_t(m, 30) for m in methods], mode="markers+text",
                             y=[cost[m].get("llm_calls", 0) for m in methods], yaxis="y2",
                             text=[str(cost[m].get("llm_calls", 0)) for m in methods], textposition="top center"))
    fig.update_layout(barmode="stack", height=height, margin=dict(l=4, r=4, t=30, b=4),
                      yaxis=dict(title="tokens"), yaxis2=dict(title="calls", overlaying="y", side="right"),
                      legend=dict(orientation="h"))
    return fig

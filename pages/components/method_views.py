"""The Ask page's DRIFT, TS and auto methods: their options, how they run, and how their
answers were made (DRIFT's tree of follow-ups, TS's map over passages, the route's reason)."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.query.methods import METHODS, run_method
from core.query.types import SearchResult
from core.store.db import Store
from core.viz.charts import point_status, score_figure
from core.viz.compare_charts import drift_tree_figure
from pages.components import state as ui
from pages.components import trace as ui_trace

EXTRA = ("auto", "drift", "ts")
LABELS = {m: METHODS[m].label for m in EXTRA}
EXAMPLES = {"auto": "What are the main themes? Who is ...? Auto chooses the method from the question",
            "drift": "How did the spill change the city's plans for the waterfront?",
            "ts": "What are the main themes in these documents?"}


def options(store: Store, method: str) -> dict[str, Any]:
    with st.expander("Options", icon=":material/tune:"):
        if method == "drift":
            c = st.columns(3)
            k = c[0].number_input("Follow-ups per round", 1, 50, 20, key="ask_drift_k",
                                  help="graphrag's default is 20; a model with a small context window gets 5 "
                                       "when this is left at 20.")
            folds = c[1].number_input("Primer folds", 1, 10, 5, key="ask_drift_folds",
                                      help="Calls the top reports are split across (graphrag: 5; small window: 2).")
            depth = c[2].number_input("Depth (rounds)", 1, 5, 3, key="ask_drift_depth",
                                      help="Rounds of follow-ups (graphrag: 3; small window: 2).")
            return {"k_followups": int(k), "folds": int(folds), "depth": int(depth)}
        if method == "ts":
            c = st.columns(3)
            budget = c[0].number_input("Map context budget (tokens)", 500, 64000, 8000, 500, key="ask_ts_map")
            reduce_budget = c[1].number_input("Reduce context budget (tokens)", 500, 128000, 12000, 500,
                                              key="ask_ts_reduce")
            seed = c[2].number_input("Shuffle seed (0: a new one)", 0, 2 ** 31 - 1, 0, key="ask_ts_seed")
            return {"map_max_tokens": int(budget), "reduce_max_tokens": int(reduce_budget), "seed": int(seed) or None}
        st.caption("Auto reads the question: the graph's entities named in it and who/what/when forms "
                   "lean local; themes, trends, \"overall\", \"across\" lean global. The reason is shown "
                   "with the answer; pick another method above to override it.")
        return {}


def run(store: Store, method: str, question: str, opts: dict[str, Any]) -> SearchResult:
    with st.spinner(f"Answering with {LABELS.get(method, method)}..."):
        return run_method(method, store, question, ui.query_llm(store), ui.settings(), opts)


def draws(result: SearchResult) -> bool:
    return result.method in ("drift", "ts") or bool((result.params or {}).get("route"))


def route_banner(result: SearchResult) -> None:
    r = (result.params or {}).get("route")
    if r:
        st.info(ui.md(f"Auto chose {r['reason']}") + " Pick another method above to ask it another way.",
                icon=":material/alt_route:")


def drift_how(result: SearchResult) -> None:
    d = (result.context or {}).get("drift", {})
    p = result.params or {}
    nodes = d.get("nodes", [])
    red = d.get("reduce", {})
    st.caption(ui.md(f"{len(d.get('top_reports', []))} reports ranked by {d.get('report_ranking')} against a "
                     f"hypothetical answer, read in {sum(1 for n in nodes if n['depth'] == 0)} primer folds; "
                     f"{p.get('k_followups')} follow-ups per round, depth {p.get('depth')} ({p.get('defaults')}); "
                     f"{len(red.get('selected', []))} intermediate answers went into the reduce "
                     f"({red.get('tokens', 0)} of {red.get('budget')} tokens)."))
    if nodes:
        st.markdown("**The tree of follow-ups** (colour: score 0-100; hover for the answer)")
        st.plotly_chart(drift_tree_figure(result.question, nodes), width="stretch",
                        config={"displaylogo": False}, key=f"drift_tree_{result.trace_id}")
        chosen = set(red.get("selected", []))
        rows = [{"step": ("\u2003" * n["depth"]) + ("primer fold" if n["depth"] == 0 else n["query"]),
                 "depth": n["depth"], "score": n.get("score"), "in the answer": n["id"] in chosen,
                 "sources": ", ".join(map(str, (n.get("context") or {}).get("sources", [])[:8])),
                 "answer": n.get("error") or n.get("answer")} for n in _tree_order(nodes)]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if d.get("hypothetical_answer"):
        with st.expander("Hypothetical answer the reports were ranked against"):
            st.text(d["hypothetical_answer"])


def _tree_order(nodes: list[dict]) -> list[dict]:
    kids: dict[Any, list[dict]] = {}
    for n in nodes:
        kids.setdefault(n.get("parent"), []).append(n)
    out: list[dict] = []

    def walk(parent):
        for n in kids.get(parent, []):
            out.append(n)
            walk(n["id"])
    walk(None)
    return out


def ts_how(result: SearchResult) -> None:
    p = result.params or {}
    st.caption(ui.md(f"Map-reduce over {p.get('text_units', '?')} source passages (not reports), shuffled with "
                     f"seed {p.get('seed')}, map budget {p.get('map_max_tokens')} tokens, reduce budget "
                     f"{p.get('reduce_max_tokens')} tokens."))
    table = ui_trace.batch_rows(result.batches).rename(columns={"reports": "passages", "report ids": "passage ids"})
    st.dataframe(table, hide_index=True, width="stretch")
    if point_status(result):
        st.plotly_chart(score_figure(result), width="stretch", config={"displaylogo": False},
                        key=f"ts_scores_{result.trace_id}")
    if (result.reduce or {}).get("context_text"):
        with st.expander(f"Reduce context as sent ({result.reduce.get('tokens', '?')} tokens)"):
            st.text(result.reduce["context_text"])


def how(store: Store, result: SearchResult) -> None:
    """Like trace.how, for DRIFT, TS and routed answers."""
    route_banner(result)
    if result.method not in ("drift", "ts"):
        ui_trace.how(store, result)
        return
    with st.expander("How this answer was made", expanded=True, icon=":material/route:"):
        (drift_how if result.method == "drift" else ts_how)(result)
        st.markdown("**Usage**")
        ui_trace.usage_line(result)
        st.caption(ui.md(f"Trace {result.trace_id or '-'} \u00b7 {result.created_at or ''}"))

"""The Ask page's view of each search method, looked up by name: the option widgets, how it runs
(with its live progress), and how its answer was made. A method with no entry here gets the
generic ones: its declared options (core.query.methods, Option.control) as widgets, a spinner,
and the generic trace; so a new method needs nothing on this page."""
from __future__ import annotations

from typing import Any, Callable

import pandas as pd
import streamlit as st

from core.query.methods import METHODS, Method, run_method
from core.query.types import SearchResult
from core.store.db import Store
from core.viz.charts import point_status, score_figure
from core.viz.compare_charts import drift_tree_figure
from pages.components import method_options
from pages.components import state as ui
from pages.components import trace as ui_trace
from pages.components import trace_lazy

AUTO_HELP = ("Auto reads the question: the graph's entities named in it and who/what/when forms lean local; "
             "themes, trends, \"overall\", \"across\" lean global. The reason is shown with the answer; pick "
             "another method above to override it.")


def generic_options(method: Method) -> dict[str, Any]:
    """Widgets for a method's declared options that have an app control."""
    shown = [o for o in method.options if o.control is not None]
    if not shown:
        st.caption(AUTO_HELP if method.name == "auto" else "This method runs with its default options.")
        return {}
    out: dict[str, Any] = {}
    cols = st.columns(min(len(shown), 4))
    for i, o in enumerate(shown):
        c = o.control
        assert c is not None
        key = f"ask_{method.name}_{c.key or o.key}"
        col = cols[i % len(cols)]
        if c.kind == "choice":
            value = col.selectbox(c.label, list(c.choices), key=key, help=o.help)
        elif c.kind == "float":
            value = col.number_input(c.label, float(c.min or 0.0), float(c.max or 1e9),
                                     float(o.default if o.default is not None else c.min or 0.0),
                                     float(c.step or 0.1), key=key, help=o.help)
        else:
            value = col.number_input(c.label, int(c.min or 0), int(c.max or 10 ** 9),
                                     int(o.default if o.default is not None else c.min or 0),
                                     int(c.step or 1), key=key, help=o.help)
            value = int(value)
        out[o.key] = None if (c.unset is not None and value == c.unset) else value
    return out


OPTIONS: dict[str, Callable[[Store], dict[str, Any]]] = {
    "global": method_options.global_options,
    "local": method_options.local_options,
    "lazy": lambda store: trace_lazy.options("lazy"),
    "basic": lambda store: trace_lazy.options("basic"),
}
"""Methods whose options have a page-made form (the rest: generic_options)."""


def options(store: Store, method: str) -> dict[str, Any]:
    with st.expander("Options", icon=":material/tune:"):
        view = OPTIONS.get(method)
        return view(store) if view is not None else generic_options(METHODS[method])


def run(store: Store, method: str, question: str, opts: dict[str, Any]) -> SearchResult:
    if method == "global":
        return method_options.run_global(store, question, opts)
    with st.spinner(f"Answering with {METHODS[method].label}..."):
        ui.audit("ask", f"{method}: {question}"[:400])
        return run_method(method, store, question, ui.query_llm(store), ui.settings(), opts)


def route_banner(result: SearchResult) -> None:
    r = (result.params or {}).get("route")
    if r:
        st.info(ui.md(f"Auto chose {r['reason']}") + " Pick another method above to ask it another way.",
                icon=":material/alt_route:")
    named = (result.context or {}).get("documents")
    if named:  # core.query.doc_scope: the question names a document; its passages alone were read
        st.caption(ui.md("Read only " + ", ".join(named) + ", the document the question names."))


def drift_how(result: SearchResult) -> None:
    t = METHODS["drift"].trace(result)  # type: ignore[misc]  # drift declares a trace
    p = result.params or {}
    nodes = t.node_dicts()
    red = t.reduce
    st.caption(ui.md(f"{len(t.top_reports)} reports ranked by {t.report_ranking} against a "
                     f"hypothetical answer, read in {sum(1 for n in t.nodes if n.depth == 0)} primer folds; "
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
    if t.hypothetical_answer:
        with st.expander("Hypothetical answer the reports were ranked against"):
            st.text(t.hypothetical_answer)


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


HOW: dict[str, Callable[[SearchResult], None]] = {"drift": drift_how, "ts": ts_how}
"""Methods with a view of their own inside "How this answer was made"; the rest: trace.how."""


def how(store: Store, result: SearchResult) -> None:
    """How the answer was made: the route's reason, then the method's view."""
    route_banner(result)
    view = HOW.get(result.method)
    if view is None:
        ui_trace.how(store, result)
        return
    with st.expander("How this answer was made", expanded=True, icon=":material/route:"):
        view(result)
        st.markdown("**Usage**")
        ui_trace.usage_line(result)
        st.caption(ui.md(f"Trace {result.trace_id or '-'} \u00b7 {result.created_at or ''}"))

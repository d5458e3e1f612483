"""Lazy and basic search on the Ask page: their options, and "How this answer was made" for
them: the subqueries, the path of communities each one visited (in order, with where it went a
level deeper), every relevance test with its yes/no, the claims and which entered the answer's
context, calls and tokens per phase; for basic search the passages it read.

Document and model text is shown in tables (plain text) or through ui.md (escaped)."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.query.lazy.params import PRESETS
from core.query.lazy.trace import OUTSIDE, LazyTrace
from core.query.methods import METHODS
from core.query.types import SearchResult
from core.store.db import Store
from pages.components import drilldown as drill
from pages.components import state as ui

PHASES = {"refine": "Refine (subqueries)", "relevance": "Relevance tests", "claims": "Claims (map)",
          "reduce": "Answer (reduce)"}


def options(method: str) -> dict[str, Any]:
    """The knobs of lazy or basic search, as run_method options."""
    if method == "basic":
        c = st.columns(2)
        budget = c[0].number_input("Context budget (tokens)", 500, 128000, 8000, 500, key="ask_basic_ctx")
        top_k = c[1].number_input("Passages ranked at most", 1, 500, 50, key="ask_basic_k")
        return {"max_tokens": int(budget), "top_k": int(top_k)}
    c = st.columns(4)
    preset = c[0].selectbox("Relevance-test budget", [*PRESETS, "other"], index=1, key="ask_lazy_budget",
                            format_func=lambda b: f"{b:,} tests" if b != "other" else "another number",
                            help="; ".join(f"{k}: {v}" for k, v in PRESETS.items()))
    other = c[1].number_input("Tests (another number)", 1, 100000, 250, key="ask_lazy_budget_n",
                              disabled=preset != "other")
    subqueries = c[2].number_input("Subqueries at most", 1, 5, 3, key="ask_lazy_subq")
    z = c[3].number_input("z: misses before going deeper", 1, 20, 3, key="ask_lazy_z",
                          help="After this many communities in a row gave nothing relevant, the search "
                               "goes one level down the community hierarchy.")
    c = st.columns(4)
    chunks = c[0].number_input("Passages per community per round", 1, 20, 2, key="ask_lazy_chunks")
    map_budget = c[1].number_input("Map budget (tokens, 0: by the test budget)", 0, 200000, 0, 500,
                                   key="ask_lazy_map")
    reduce_budget = c[2].number_input("Reduce budget (tokens, 0: by the test budget)", 0, 128000, 0, 500,
                                      key="ask_lazy_reduce")
    model = c[3].text_input("Relevance-test model (optional)", key="ask_lazy_model",
                            help="A cheaper model's name on the same endpoint for the yes/no tests.")
    return {"budget": int(other if preset == "other" else preset), "subqueries": int(subqueries), "z": int(z),
            "chunks_per_community": int(chunks), "map_max_tokens": int(map_budget) or None,
            "reduce_max_tokens": int(reduce_budget) or None, "relevance_model": model.strip() or None}


def _titles(store: Store, numbers: set[int]) -> dict[int, str]:
    nums = [n for n in numbers if n != OUTSIDE]
    out = {OUTSIDE: "(in no community)"}
    if nums:
        for r in store.rows("community_reports", f"community in ({','.join('?' * len(nums))})", nums,
                            select="community, title"):
            out[int(r["community"])] = r.get("title") or ""
    return out


def path_text(trace: LazyTrace, sub: int) -> str:
    """The visited path of one subquery: community numbers in order, + where one was relevant,
    and a level marker where the search went deeper."""
    parts, level = [], None
    for v in (v for v in trace.visits if v.subquery == sub):
        if level is not None and v.level != level:
            parts.append(f"| level {v.level}:")
        level = v.level
        parts.append(f"{'outside' if v.community == OUTSIDE else v.community}{'+' if v.relevant else ''}")
    return " ".join(parts)


def lazy_how(store: Store, result: SearchResult) -> None:
    t: LazyTrace = METHODS["lazy"].trace(result)  # type: ignore[misc]  # lazy declares a trace
    p = result.params or {}
    if result.engine == "offline":
        st.caption("Offline: no model was called. Relevance was tested lexically (the share of the "
                   "subquery's words in the passage), the claims are sentences extracted from the relevant "
                   "passages, and the answer is assembled from them with their references.")
    st.caption(ui.md(f"Budget {p.get('budget')} relevance tests \u00b7 z {p.get('z')} \u00b7 "
                     f"{p.get('chunks_per_community')} passages per community per round \u00b7 units ranked by "
                     f"{t.ranking}" + (f" \u00b7 tests by {t.relevance_model}" if t.relevance_model and
                                       t.relevance_model != result.model else "")))
    if p.get("refine_note") and result.engine != "offline":
        st.warning(ui.md(p["refine_note"]), icon=":material/warning:")
    st.markdown("**1. Refine: subqueries**")
    if t.expanded_question and t.expanded_question != result.question:
        st.caption(ui.md(f"Expanded question: {t.expanded_question}"))
    st.dataframe(pd.DataFrame([{"#": s.index + 1, "subquery": s.text, "concepts": ", ".join(s.concepts),
                                "tests": f"{s.tests} of {s.budget}", "relevant": s.relevant, "rounds": s.rounds,
                                "stopped": s.stopped} for s in t.subqueries]), hide_index=True, width="stretch")
    st.markdown("**2. Match: communities visited, in order**")
    titles = _titles(store, {v.community for v in t.visits})
    for s in t.subqueries:
        st.caption(ui.md(f"Subquery {s.index + 1}: {path_text(t, s.index) or 'no community visited'}"))
    visits = [{"subquery": v.subquery + 1, "order": v.order + 1, "community": v.community,
               "title": titles.get(v.community, ""), "level": v.level, "round": v.round + 1,
               "tested": ", ".join(map(str, v.tested)), "relevant": ", ".join(map(str, v.relevant)),
               "went deeper": "yes" if v.descend else ""} for v in t.visits]
    if visits:
        st.dataframe(pd.DataFrame(visits), hide_index=True, width="stretch")
    with st.expander(f"All {len(t.tests)} relevance tests ({sum(x.relevant for x in t.tests)} yes)"):
        tests = pd.DataFrame([{"subquery": x.subquery + 1, "source": x.unit, "community": x.community,
                               "round": x.round + 1, "relevant": "yes" if x.relevant else "no",
                               "answer": x.answer, "cached": x.cached, "passage read": x.passage} for x in t.tests])
        if len(tests):
            st.caption("Click a row to read the whole passage.")
            row = ui.selected_row(tests, f"lazy_tests_{result.trace_id}")
            if row is not None:
                drill.open_ref("Sources", t.tests[row].unit)
    st.markdown("**3. Claims (map) and 4. what entered the answer's context**")
    r = t.reduce
    st.caption(f"{len(t.map_calls)} claims calls \u00b7 {len(t.claims)} claims \u00b7 {r.get('selected', 0)} in "
               f"the answer's context ({r.get('tokens', 0):,} of {r.get('budget', 0):,} tokens), "
               f"{r.get('cut', 0)} cut by the budget"
               + (f" \u00b7 {r['map_units_unread']} relevant passages beyond the map budget" if r.get("map_units_unread") else ""))
    failed = [c for c in t.map_calls if c.get("error")]
    if failed:
        st.warning(f"{len(failed)} claims call{'s' * (len(failed) != 1)} failed; their passages gave no claims.")
    if t.claims:
        st.dataframe(pd.DataFrame([{"score": c.score, "in context": "yes" if c.selected else "cut",
                                    "subquery": c.subquery + 1, "community": c.community, "tokens": c.tokens,
                                    "claim": c.text} for c in t.claims]), hide_index=True, width="stretch")
    if r.get("context_text"):
        with st.expander(f"Claims as sent to the answer ({r.get('tokens', 0):,} tokens)"):
            st.text(r["context_text"])
    phases(t)


def phases(t: LazyTrace) -> None:
    rows = [{"phase": PHASES.get(k, k), "LLM calls": v.get("llm_calls", 0), "cache hits": v.get("cache_hits", 0),
             "tokens in": v.get("prompt_tokens", 0), "tokens out": v.get("completion_tokens", 0),
             "seconds": round(v.get("seconds", 0.0), 2)} for k, v in t.phases.items()]
    if rows:
        st.markdown("**Calls and tokens per phase**")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def basic_how(store: Store, result: SearchResult) -> None:
    ctx = result.context or {}
    ids = ctx.get("sources") or []
    st.caption(f"{ctx.get('ranked', 0)} passages ranked by {ctx.get('ranking')}; the best {len(ids)} fill "
               f"{(ctx.get('tokens') or {}).get('sources', 0):,} of {ctx.get('budget', 0):,} tokens, "
               f"{len(ctx.get('cut') or [])} cut by the budget.")
    if result.engine == "offline":
        st.caption("Offline: the answer is the passages' sentences most like the question, each with its "
                   "reference; no model was called.")
    if ids:
        found = {u["human_readable_id"]: u for u in store.rows(
            "text_units", f"human_readable_id in ({','.join('?' * len(ids))})", list(ids),
            select="human_readable_id, text")}
        df = pd.DataFrame([{"source": i, "text": (found.get(i, {}).get("text") or "")[:300]} for i in ids])
        row = ui.selected_row(df, f"basic_{result.trace_id}")
        if row is not None:
            drill.open_ref("Sources", ids[row])
    if ctx.get("context_text"):
        with st.expander("Context as sent"):
            st.text(ctx["context_text"])


def how(store: Store, result: SearchResult) -> None:
    (lazy_how if result.method == "lazy" else basic_how)(store, result)

""""How this answer was made": the map batches, the score chart and the reduce context of a global
query; the four kinds of context of a local query; lazy and basic search's (trace_lazy); usage
and timings."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.viz.charts import CUT, SELECTED, ZERO, point_status, score_figure
from core.query.types import MapBatch, SearchResult
from core.store.db import Store
from pages.components import drilldown as drill
from pages.components import state as ui
from pages.components import trace_lazy


def batch_rows(batches: list[MapBatch]) -> pd.DataFrame:
    rows = []
    for b in sorted(batches, key=lambda b: b.batch):
        scores = [p.score for p in b.points]
        rows.append({
            "batch": b.batch, "reports": len(b.report_ids),
            "report ids": ", ".join(str(i) for i in b.report_ids[:12]) + (" ..." if len(b.report_ids) > 12 else ""),
            "points": len(b.points), "best score": max(scores) if scores else None,
            "tokens": b.context_tokens, "seconds": round(b.seconds, 2),
            "status": f"failed: {b.error}" if b.failed else "ok",
        })
    return pd.DataFrame(rows)


def live_batches(box, batches: list[MapBatch], total: int | None = None) -> None:
    """Redraw the table of map batches that have arrived so far."""
    with box.container():
        head = f"Map batches: {len(batches)}" + (f" of {total}" if total else "") + " answered"
        st.markdown(f"**{head}**")
        if batches:
            st.dataframe(batch_rows(batches), hide_index=True, width="stretch")


def usage_line(result: SearchResult) -> None:
    u, t = result.usage or {}, result.timings or {}
    with st.container(horizontal=True, gap="large"):  # wraps to a second line when narrow
        st.metric("LLM calls", f"{u.get('llm_calls', 0):,}", width="content")
        st.metric("Tokens in", f"{u.get('prompt_tokens', 0):,}", help="Prompt tokens sent", width="content")
        st.metric("Tokens out", f"{u.get('completion_tokens', 0):,}", help="Completion tokens received",
                  width="content")
        st.metric("Cache hits", f"{u.get('cache_hits', 0):,}", width="content")
        st.metric("Time", f"{t.get('total', 0):.2f} s", width="content")
    if result.engine == "offline" and result.method == "global":
        st.caption("Offline engine: lexical scores for the map step and an extractive answer "
                   "that keeps the references; no model was called.")
    elif result.engine == "offline":
        where = "the best passages" if result.method in ("basic", "lazy") else "the entities' neighbourhood"
        st.caption(f"Offline engine: an extractive answer from {where} that keeps the references; "
                   "no model was called.")
    elif u.get("cost"):
        st.caption(f"Cost: ${u['cost']:.4f} at the prices in the settings.")


def global_how(store: Store, result: SearchResult) -> None:
    p = result.params or {}
    st.caption(f"Level {result.level} \u00b7 {p.get('reports_eligible', '?')} of "
               f"{p.get('reports_at_level', '?')} reports"
               + (f" ({p['reports_from_levels_above']} of them leaves of the levels above)"
                  if p.get("reports_from_levels_above") else "")
               + (f" rated at least {p['rating_threshold']:g}" if p.get("rating_threshold") else " (no rating threshold)")
               + f" \u00b7 seed {p.get('seed')} \u00b7 "
               f"map budget {p.get('map_max_tokens')} tokens"
               + (f" and {p['map_max_reports']} report{'s' * (p['map_max_reports'] != 1)} per call"
                  if p.get("map_max_reports") else "") + " \u00b7 reduce budget "
               f"{p.get('reduce_max_tokens')} tokens")
    if p.get("map_max_reports_why"):
        st.caption(f"Reports per map call: {p['map_max_reports_why']}.")
    failed = result.failed_batches
    if failed:
        st.warning(f"{len(failed)} map batch{'es' if len(failed) != 1 else ''} failed; their "
                   "reports did not contribute (see the status column).")
    st.markdown("**Map: one call per batch of reports**")
    st.dataframe(batch_rows(result.batches), hide_index=True, width="stretch")
    fates = point_status(result)
    n = {s: sum(1 for _, f in fates if f == s) for s in (SELECTED, CUT, ZERO)}
    st.markdown(f"**Point scores** \u00b7 {n[SELECTED]} in the answer's context, {n[CUT]} cut by "
                f"the reduce budget, {n[ZERO]} scored 0")
    if fates:
        st.plotly_chart(score_figure(result), width="stretch",
                        config={"displaylogo": False}, key=f"scores_{result.trace_id}")
        table = [{"batch": pt.batch, "score": pt.score, "fate": fate, "tokens": pt.tokens,
                  "point": pt.description} for pt, fate in
                 sorted(fates, key=lambda t: -t[0].score)]
        with st.expander(f"All {len(table)} points"):
            st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch")
    reduce = result.reduce or {}
    left = reduce.get("left_out")
    if left:
        names = ", ".join(str(n).title() for n in left.get("names", []))
        st.caption(f"The model's first answer left out {names}, named by the best points; it was asked "
                   "once more with those names, and its "
                   + ("second answer was kept." if left.get("kept") == "second" else
                      "first answer was kept (the second named no more of them).")
                   + (f" {left['points_added']} best-scored point{'s' * (left['points_added'] != 1)} naming "
                      f"what was still left out {'was' if left['points_added'] == 1 else 'were'} added to the "
                      "answer word for word." if left.get("points_added") else ""))
    topic = reduce.get("topic")
    if topic:
        st.caption(f"The question asks about one topic, \"{ui.md(topic.get('topic'))}\": the answer quotes "
                   f"{len(topic.get('quoted') or [])} of the {topic.get('sentences')} sentences naming it in "
                   f"{topic.get('units')} passages, by section or community, instead of reducing the points above.")
    if reduce.get("attributed_markers"):
        k = reduce["attributed_markers"]
        st.caption(f"{k} reference{'s' if k != 1 else ''} added: sentences of the answer that copied a point "
                   "word for word (8+ words) without citing it were given the point's references.")
    if reduce.get("context_text"):
        with st.expander(f"Reduce context as sent ({reduce.get('tokens', '?')} tokens)"):
            st.text(reduce["context_text"])


KIND_OF = {"entities": "Entities", "relationships": "Relationships", "reports": "Reports",
           "sources": "Sources", "claims": "Claims"}


def local_how(store: Store, result: SearchResult) -> None:
    ctx = result.context or {}
    entry = ctx.get("entry_entities") or []
    how = ctx.get("entry_method") or "search"
    st.caption(f"{len(entry)} entry entities found by {how}; the context is packed to "
               f"{(result.params or {}).get('max_tokens', '?')} tokens.")
    if ctx.get("attributed_markers"):
        k = ctx["attributed_markers"]
        st.caption(f"{k} reference{'s' if k != 1 else ''} added: sentences of the answer that copied a record "
                   "of the context word for word (8+ words) without citing it were given its reference.")
    tokens = ctx.get("tokens") or {}
    tabs = st.tabs([f"{label} ({len(ctx.get(k) or [])})" for k, label in
                    (("sources", "Source text"), ("reports", "Community reports"),
                     ("relationships", "Relationships"), ("entities", "Entities"))])
    for tab, key in zip(tabs, ("sources", "reports", "relationships", "entities")):
        with tab:
            ids = ctx.get(key) or []
            st.caption(f"{tokens.get(key, 0):,} tokens of context")
            _id_table(store, key, ids, f"loc_{key}_{result.trace_id}")
    if ctx.get("claims"):
        st.caption(f"Also {len(ctx['claims'])} claims ({tokens.get('claims', 0):,} tokens).")
    if ctx.get("context_text"):
        with st.expander("Context as sent"):
            st.text(ctx["context_text"])


def _id_table(store: Store, key: str, ids: list[int], widget_key: str) -> None:
    if not ids:
        st.caption("None used.")
        return
    table = {"entities": "entities", "relationships": "relationships", "reports": "community_reports",
             "sources": "text_units", "claims": "claims"}[key]
    found = {r["human_readable_id"]: r for r in store.rows(
        table, f"human_readable_id in ({','.join('?' * len(ids))})", list(ids))}
    rows: list[dict[str, Any]] = []
    for i in ids:
        r = found.get(i) or {}
        if key == "entities":
            rows.append({"id": i, "entity": r.get("title"), "type": r.get("type"), "description": r.get("description")})
        elif key == "relationships":
            rows.append({"id": i, "source": r.get("source"), "target": r.get("target"), "weight": r.get("weight")})
        elif key == "reports":
            rows.append({"id": i, "title": r.get("title"), "rating": r.get("rating")})
        else:
            rows.append({"id": i, "text": (r.get("text") or "")[:300]})
    row = ui.selected_row(pd.DataFrame(rows), widget_key)
    if row is not None:
        drill.open_ref(KIND_OF[key], ids[row])


def how(store: Store, result: SearchResult) -> None:
    with st.expander("How this answer was made", expanded=True, icon=":material/route:"):
        if result.method == "global":
            global_how(store, result)
        elif result.method in ("lazy", "basic"):
            trace_lazy.how(store, result)
        else:
            local_how(store, result)
        st.markdown("**Usage**")
        usage_line(result)
        st.caption(ui.md(f"Trace {result.trace_id or '-'} \u00b7 {result.created_at or ''}"))

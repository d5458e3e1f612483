"""Communities: the hierarchy at a glance, a tree navigator, and the selected community's report,
graph and tables. Clicking an entity, relationship, claim or citation opens the drill-down."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.charts import hierarchy_figure
from core.store import Store
from core.viz import community_graph
from pages import ui_chips, ui_drilldown as drill
from pages import ui_state as ui

MAX_GRAPH_NODES = 120
GRAPH_HEIGHT = 520


def _label(c: dict[str, Any], report: dict[str, Any] | None) -> str:
    title = (report or {}).get("title") or c.get("title") or f"Community {c['community']}"
    rating = (report or {}).get("rating")
    stars = f" \u00b7 rating {float(rating):.1f}" if rating is not None else ""
    return f"{title} \u00b7 {c.get('size') or len(c.get('entity_ids') or [])} entities{stars}"


def navigator(comms: dict[int, dict], children: dict[int, list[int]], report_of: dict) -> list[int]:
    """Level -> parent -> children, one select box per level; returns the path to the selected
    community (its last element)."""
    roots = [n for n, c in comms.items() if c.get("parent") is None or c["parent"] not in comms]
    roots.sort(key=lambda n: -(comms[n].get("size") or 0))
    pending = st.session_state.pop("nav_pending", None)
    if pending:  # a sub-community clicked in the table below
        st.session_state[pending[0]] = pending[1]
    path: list[int] = []
    opts = roots
    cols = st.columns(3)
    while opts:
        depth = len(path)
        if depth and depth % 3 == 0:
            cols = st.columns(3)
        choices = opts if depth == 0 else [None] + opts
        pick = cols[depth % 3].selectbox(
            f"Level {comms[opts[0]].get('level', depth)}" + (" community" if depth == 0 else " sub-community"),
            choices, key=nav_key(depth, path[-1] if path else None),
            format_func=lambda n: "(all of the level above)" if n is None else _label(comms[n], report_of.get(n)))
        if pick is None:
            break
        path.append(pick)
        opts = sorted(children.get(pick, []), key=lambda n: -(comms[n].get("size") or 0))
    return path


def nav_key(depth: int, parent: int | None) -> str:
    return f"nav_{depth}_{'root' if parent is None else parent}"


def _child_table(store: Store, cid: int, comms: dict, children: dict, report_of: dict,
                 depth_key: str) -> None:
    kids = sorted(children.get(cid, []), key=lambda n: -(comms[n].get("size") or 0))
    if not kids:
        return
    data = [{"community": n, "title": (report_of.get(n) or {}).get("title") or comms[n].get("title") or "",
             "entities": comms[n].get("size") or len(comms[n].get("entity_ids") or []),
             "rating": (report_of.get(n) or {}).get("rating")} for n in kids]
    st.markdown(f"**Sub-communities ({len(kids)})** \u00b7 click one to open it")
    row = ui.selected_row(pd.DataFrame(data), f"kids_{cid}", height=min(38 + 35 * len(data), 250),
                          column_config={"rating": st.column_config.ProgressColumn(
                              min_value=0, max_value=10, format="%.1f")})
    if row is not None:  # the navigator above is already drawn: set it and draw again
        st.session_state["nav_pending"] = (depth_key, kids[row])
        st.rerun()


def report_view(store: Store, c: dict, report: dict | None) -> None:
    if report is None:
        st.info("This community has no report (yet): the last index run did not write one.")
        return
    st.subheader(ui.md(report.get("title") or f"Community {c['community']}"))
    st.markdown(f":orange-badge[rating {float(report.get('rating') or 0):.1f} / 10] "
                f":gray-badge[level {c.get('level')}] :gray-badge[community {c['community']}]"
                + (" :blue-badge[offline engine]" if report.get("engine") == "offline" else ""))
    ui_chips.cited_text(store, report.get("summary") or "", f"sum_{c['community']}")
    if report.get("rating_explanation"):
        st.markdown("**Why this rating**")
        ui_chips.cited_text(store, report["rating_explanation"], f"why_{c['community']}")
    findings = [f for f in (report.get("findings") or []) if isinstance(f, dict)]
    if findings:
        st.markdown(f"#### Findings ({len(findings)})")
    for i, f in enumerate(findings):
        with st.expander(ui.md(f.get("summary") or f"Finding {i + 1}"), expanded=i < 3):
            ui_chips.cited_text(store, f.get("explanation") or "", f"find_{c['community']}_{i}")


def _groups(store: Store, c: dict, entities: list[dict], comms: dict, children: dict,
            report_of: dict) -> tuple[dict[str, str], str]:
    kids = children.get(c["community"], [])
    if kids:
        groups = {}
        for n in kids:
            title = (report_of.get(n) or {}).get("title") or comms[n].get("title") or ""
            name = f"C{n}" + (f" \u00b7 {title[:40]}" if title else "")
            for eid in comms[n].get("entity_ids") or []:
                groups[eid] = name
        return groups, "colour: sub-community"
    return {e["id"]: f"{e.get('type') or 'entity'}" for e in entities}, \
        "colour: entity type (this community has no sub-communities)"


def _table(df: pd.DataFrame, kind: str, hrids: list[int], key: str) -> None:
    if df.empty:
        st.caption(f"No {kind.lower()} in this community.")
        return
    row = ui.selected_row(df, key, height=min(38 + 35 * len(df), 380))
    if row is not None:
        drill.open_ref(kind, hrids[row])


def tables(store: Store, entities: list[dict], rels: list[dict], claims: list[dict]) -> None:
    ents = sorted(entities, key=lambda e: -(e.get("degree") or 0))
    rels = sorted(rels, key=lambda r: -(r.get("weight") or 0))
    t1, t2, t3 = st.tabs([f"Entities ({len(ents)})", f"Relationships ({len(rels)})",
                          f"Claims ({len(claims)})"])
    with t1:
        _table(pd.DataFrame([{"id": e["human_readable_id"], "entity": e["title"], "type": e.get("type"),
                              "degree": e.get("degree"), "description": e.get("description")}
                             for e in ents]), "Entities", [e["human_readable_id"] for e in ents], "tbl_e")
    with t2:
        _table(pd.DataFrame([{"id": r["human_readable_id"], "source": r["source"], "target": r["target"],
                              "weight": r.get("weight"), "description": r.get("description")}
                             for r in rels]), "Relationships", [r["human_readable_id"] for r in rels], "tbl_r")
    with t3:
        _table(pd.DataFrame([{"id": c["human_readable_id"], "subject": c.get("subject"),
                              "object": c.get("object"), "type": c.get("type"),
                              "status": c.get("status"), "description": c.get("description")}
                             for c in claims]), "Claims", [c["human_readable_id"] for c in claims], "tbl_c")
    st.caption("Click a row to see where it comes from in the documents.")


def main() -> None:
    store = ui.require_store()
    st.title("Communities")
    rows = store.rows("communities", order_by="level, community")
    if not rows:
        st.info("No communities yet: add documents and index them on the Corpus page.",
                icon=":material/info:")
        st.page_link("pages/corpus.py", label="Go to the corpus", icon=":material/library_books:")
        return
    reports = store.rows("community_reports", order_by="level, community")
    report_of = {int(r["community"]): r for r in reports}
    comms = {int(c["community"]): c for c in rows}
    children: dict[int, list[int]] = {}
    for c in rows:
        if c.get("parent") is not None and c["parent"] in comms:
            children.setdefault(int(c["parent"]), []).append(int(c["community"]))
    levels = sorted({c["level"] for c in rows})
    st.caption(f"{len(rows)} communities on {len(levels)} level{'s' if len(levels) != 1 else ''}, "
               f"{len(reports)} reports \u00b7 area = entities, colour = rating")
    with st.expander("Hierarchy overview", expanded=True, icon=":material/account_tree:"):
        st.plotly_chart(hierarchy_figure(rows, reports, height=320), width="stretch",
                        config={"displaylogo": False})
    path = navigator(comms, children, report_of)
    cid = path[-1]
    c = comms[cid]
    entities = store.by_ids("entities", c.get("entity_ids") or [])
    rels = store.by_ids("relationships", c.get("relationship_ids") or [])
    titles = [e["title"] for e in entities]
    claims = []
    for i in range(0, len(titles), 500):
        part = titles[i:i + 500]
        claims += store.rows("claims", f"subject in ({','.join('?' * len(part))})", part)
    left, right = st.columns([1, 1.15], gap="large")
    with left:
        report_view(store, c, report_of.get(cid))
    with right:
        groups, colour_note = _groups(store, c, entities, comms, children, report_of)
        view = community_graph(entities, rels, groups, max_nodes=MAX_GRAPH_NODES, height=GRAPH_HEIGHT)
        st.markdown(f"**Graph** \u00b7 {view.shown} entities, {view.edges} relationships \u00b7 "
                    f"size: degree \u00b7 edge width: weight \u00b7 {colour_note}")
        st.iframe(view.html, height=GRAPH_HEIGHT + 110)
        if view.note:
            st.caption(view.note)
        _child_table(store, cid, comms, children, report_of, nav_key(len(path), cid))
        tables(store, entities, rels, claims)
    drill.show(store)


ui.ensure_routed()
with ui.guard():
    main()

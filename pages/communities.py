"""Communities: the hierarchy at a glance, a tree navigator, and the selected community's report,
graph and tables. Clicking an entity, relationship, claim or citation opens the drill-down."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.viz.charts import hierarchy_figure, overview_plan
from core.store.references import Resolver
from core.store.db import Store
from core.viz.entity_evidence import entity_evidence
from core.viz.graph import SIDE_HEIGHT, community_graph
from pages.components import chips as ui_chips, downloads as ui_downloads, drilldown as drill
from pages.components import trust as ui_trust
from pages.components import links, navigation
from pages.components import state as ui

MAX_GRAPH_NODES = 120
MAX_TABLE_ROWS = 1000
DESCRIPTION_CHARS = 160
GRAPH_HEIGHT = 460


def _label(c: dict[str, Any], report: dict[str, Any] | None) -> str:
    title = (report or {}).get("title") or c.get("title") or f"Community {c['community']}"
    rating = (report or {}).get("rating")
    stars = f" \u00b7 rating {float(rating):.1f}" if rating is not None else ""
    return f"{title} \u00b7 {c.get('size') or len(c.get('entity_ids') or [])} entities{stars}"


def _marks(n: int) -> str:
    return ",".join("?" * n)


class Hierarchy:
    """The communities the page shows, read as it needs them (the roots, the children of the
    communities on the selected path) without member lists: a workspace can hold tens of
    thousands of communities, and a page run must not read them all. `comms` and `report_of`
    hold the light rows read so far (community, level, parent, title, size; report title and
    rating)."""

    COLUMNS = "community, level, parent, title, size"

    def __init__(self, store: Store):
        self.store = store
        self.comms: dict[int, dict[str, Any]] = {}
        self.report_of: dict[int, dict[str, Any]] = {}
        self._kids: dict[int, list[int]] = {}
        self._roots: list[int] | None = None

    def _read(self, where: str, params: list) -> list[int]:
        rows = self.store.rows("communities", where, params, order_by="level, community", select=self.COLUMNS)
        self._add(rows)
        return [int(r["community"]) for r in rows]

    def _add(self, rows: list[dict[str, Any]]) -> None:
        unsized = [r["community"] for r in rows if r["size"] is None]
        if unsized:  # written without a size: count the members
            sizes = {int(k["community"]): len(k["entity_ids"] or []) for k in self.members(unsized)}
            for r in rows:
                if r["size"] is None:
                    r["size"] = sizes.get(int(r["community"]), 0)
        new = [int(r["community"]) for r in rows if int(r["community"]) not in self.comms]
        self.comms.update((int(r["community"]), r) for r in rows)
        for rep in self.store.rows_in("community_reports", "community", new, select="community, level, title, rating"):
            self.report_of.setdefault(int(rep["community"]), rep)

    def members(self, communities: list[int]) -> list[dict[str, Any]]:
        """(community, entity_ids) of these communities."""
        return self.store.rows_in("communities", "community", communities, order_by=None,
                                  select="community, entity_ids")

    def roots(self) -> list[int]:
        """Communities without a parent (or whose parent is missing), largest first."""
        if self._roots is None:
            found = self._read("parent is null or parent not in "
                               "(select community from communities where community is not null)", [])
            self._roots = sorted(found, key=lambda n: -(self.comms[n].get("size") or 0))
        return self._roots

    def children(self, cid: int) -> list[int]:
        """Sub-communities of cid, largest first."""
        if cid not in self._kids:
            found = [n for n in self._read("parent = ?", [cid]) if n != cid]
            self._kids[cid] = sorted(found, key=lambda n: -(self.comms[n].get("size") or 0))
        return self._kids[cid]

    def label(self, n: int) -> str:
        return _label(self.comms[n], self.report_of.get(n))

    def title(self, n: int) -> str:
        return (self.report_of.get(n) or {}).get("title") or self.comms[n].get("title") or ""

    def overview(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str | None]:
        """The communities and reports the hierarchy overview draws (see overview_plan), and a
        note when some are left out."""
        counts = {int(lv): n for lv, n in self.store.tally("communities", "level").items() if lv is not None}
        levels, limit, note = overview_plan(counts)
        if not levels:
            return [], [], None
        where = f"level in ({_marks(len(levels))})"
        rows = self.store.rows("communities", where, levels, select=self.COLUMNS, limit=limit,
                               order_by="size desc, community" if limit else "level, community")
        self._add(rows)
        return rows, [self.report_of[int(r["community"])] for r in rows
                      if int(r["community"]) in self.report_of], note


@st.fragment
def overview(h: Hierarchy) -> None:
    """The hierarchy treemap, drawn only while its expander is open (opening it reruns this
    fragment, not the page): plotly's 4.7 MB script and a treemap of up to 1,000 boxes took a
    fresh browser 1-2 s before the community's graph could be drawn."""
    box = st.expander("Hierarchy overview", icon=":material/account_tree:", key="overview_open",
                      on_change="rerun")
    with box:
        if not box.open:
            return
        drawn, drawn_reports, note = h.overview()
        st.plotly_chart(hierarchy_figure(drawn, drawn_reports, height=320), width="stretch",
                        config={"displaylogo": False})
        if note:
            st.caption(note)


def navigator(h: Hierarchy) -> list[int]:
    """Level -> parent -> children, one select box per level; returns the path to the selected
    community (its last element)."""
    pending = st.session_state.pop("nav_pending", None)
    if pending:  # a sub-community clicked in the table below, or a report in the trust list
        for key, value in (pending if isinstance(pending, list) else [pending]):
            st.session_state[key] = value
    linked = links.incoming(links.COMMUNITY)
    if linked is not None:  # a reload or a pasted link: open the community it names
        open_path(h, linked)
    path: list[int] = []
    opts = h.roots()
    while opts:
        depth = len(path)
        # one box per row, as wide as the page: a community's title is read in full
        pick = st.selectbox(
            f"Level {h.comms[opts[0]].get('level', depth)}" + (" community" if depth == 0 else " sub-community"),
            opts if depth == 0 else [None] + opts, key=nav_key(depth, path[-1] if path else None),
            format_func=lambda n: "(all of the level above)" if n is None else h.label(n))
        if pick is None:
            break
        path.append(pick)
        opts = h.children(pick)
    # the first community, shown when nothing was chosen, stays out of the address: writing it
    # added a history entry, and Back from Communities took two presses to leave the page
    roots = h.roots()
    if path != roots[:1] or st.query_params.get(links.COMMUNITY) is not None:
        links.write(links.COMMUNITY, path[-1] if path else None)
    return path


def open_path(h: Hierarchy, value: str) -> None:
    """Set the navigator's boxes to the path from the root down to community `value` (a number
    the address gave; an unknown one is ignored)."""
    try:
        cid = int(value)
    except ValueError:
        return
    chain: list[int] = []
    while cid is not None and cid not in chain and len(chain) < 64:
        row = h.store.rows("communities", "community = ?", [cid], select="community, parent", order_by=None)
        if not row:
            if not chain:
                # a link from before the corpus changed: say so rather than show another one
                st.info(f"Community {int(value)} is not in this workspace (any more: communities are "
                        "recomputed when documents are added, removed or replaced). Showing the first one.",
                        icon=":material/link_off:")
                return
            break  # the parent is not a community (-1 or missing): cid was a root
        chain.append(cid)
        parent = row[0]["parent"]
        cid = int(parent) if parent is not None and int(parent) != cid else None
    chain.reverse()
    for depth, node in enumerate(chain):
        st.session_state[nav_key(depth, chain[depth - 1] if depth else None)] = node
def jump_path(h: Hierarchy, cid: int) -> list[tuple[str, int]]:
    """The navigator's select boxes set so that community cid is the one shown."""
    chain = [cid]
    while True:
        if chain[-1] not in h.comms:
            h._read("community = ?", [chain[-1]])
        parent = h.comms.get(chain[-1], {}).get("parent")
        if parent is None or int(parent) < 0 or int(parent) in chain:
            break
        chain.append(int(parent))
    chain.reverse()
    return [(nav_key(d, chain[d - 1] if d else None), n) for d, n in enumerate(chain)]


def nav_key(depth: int, parent: int | None) -> str:
    return ui.ws_key(f"nav_{depth}_{'root' if parent is None else parent}")


def child_rows(h: Hierarchy, cid: int) -> list[dict]:
    """The sub-communities of cid as table rows."""
    return [{"community": n, "title": h.title(n), "entities": h.comms[n].get("size") or 0,
             "rating": (h.report_of.get(n) or {}).get("rating")} for n in h.children(cid)]


def _child_table(data: list[dict], depth_key: str) -> None:
    st.caption("Click a sub-community to open it.")
    row = ui.selected_row(pd.DataFrame(data), f"kids_{depth_key}", height=min(38 + 35 * len(data), 250),
                          column_config={"rating": st.column_config.ProgressColumn(
                              min_value=0, max_value=10, format="%.1f")})
    if row is not None:  # the navigator above is already drawn: set it and draw again
        st.session_state["nav_pending"] = (depth_key, data[row]["community"])
        st.rerun(scope="app")


def report_view(store: Store, c: dict, report: dict | None) -> None:
    """The report and its findings, with their reference chips and evidence."""
    if report is None:
        st.info("This community has no report (yet): the last index run did not write one.")
        return
    st.subheader(ui.md(report.get("title") or f"Community {c['community']}"))
    st.markdown(f":orange-badge[rating {float(report.get('rating') or 0):.1f} / 10] "
                f":gray-badge[level {c.get('level')}] :gray-badge[community {c['community']}]"
                + (" :blue-badge[offline engine]" if report.get("engine") == "offline" else ""))
    refs, body = judged_report(store.data_stamp(), c["community"], store, report)
    resolver = Resolver(store)
    # one evidence viewer for the whole report (a popover per finding was two more elements
    # each for the browser to draw)
    if refs:
        ui_chips.viewer(refs, f"refs_{c['community']}", resolver)
    st.html(body)
    ui_downloads.report_button(store, report)


@st.cache_data(max_entries=256, show_spinner=False)
def judged_report(stamp: tuple, community: int, _store: Store, _report: dict) -> tuple[list, str]:
    """(the evidence viewer's references, the report's text as HTML with its trust line, badges
    and chips) for the report of a community, in the workspace as its stamp finds it: judging a
    report's sentences against their sources is most of the page's server time, and it held
    back the scripts a fresh browser fetches from the same server. The same report in the same
    data, from any session, is judged once."""
    store, report = _store, _report
    findings = [f for f in (report.get("findings") or []) if isinstance(f, dict)]
    resolver = Resolver(store)
    texts = [report.get("summary") or "", report.get("rating_explanation") or ""] + \
        [f.get("explanation") or "" for f in findings]
    refs = {(o[0], o[1]): o for t in texts for o in ui_chips.chip_options(store, t, resolver)}
    # the report's text in one HTML element (its findings as <details>): as Streamlit elements,
    # with an expander per finding, the column was some sixty elements for the browser to draw,
    # and drawing them held back the graph
    trust_line, badges, _ = ui_trust.trust_parts(store, report, resolver)
    parts = [trust_line, ui_chips.cited_html(store, report.get("summary") or "", resolver)]
    if report.get("rating_explanation"):
        parts.append('<div class="sm-label">Why this rating</div>')
        parts.append(ui_chips.cited_html(store, report["rating_explanation"], resolver))
    if findings:
        parts.append(f'<div class="sm-label sm-findings">Findings ({len(findings)})</div>')
        if any(badges):  # the two kinds of verdict a finding shows, told apart
            parts.append('<div class="sm-hint">A finding\u2019s badge weighs all its sources together; '
                         'each source\u2019s chip judges the sentence against that source alone, so a '
                         'chip can flag what another source supports.</div>')
    for i, f in enumerate(findings):
        parts.append(f'<details class="sm-finding"{" open" if i < 3 else ""}><summary>'
                     f'{ui_chips.inline_html(f.get("summary") or f"Finding {i + 1}")}'
                     f'{" " + badges[i] if i < len(badges) and badges[i] else ""}</summary>'
                     f'<div class="sm-finding-body">'
                     f'{ui_chips.cited_html(store, f.get("explanation") or "", resolver)}</div></details>')
    return list(refs.values()), "".join(parts)


def _groups(h: Hierarchy, c: dict, entities: list[dict]) -> tuple[dict[str, str], str]:
    kids = h.children(c["community"])
    if kids:
        groups = {}
        for k in h.members(kids):
            n = int(k["community"])
            title = h.title(n)
            # the whole title: the legend wraps (a cut one read "Jacob Marle", "Camden T")
            name = f"C{n}" + (f" \u00b7 {title}" if title else "")
            for eid in k["entity_ids"] or []:
                groups[eid] = name
        return groups, "sub-community"
    return {e["id"]: f"{e.get('type') or 'entity'}" for e in entities}, "entity type"


def _table(df: pd.DataFrame, kind: str, hrids: list[int], key: str, total: int,
           order: str) -> tuple[str, int] | None:
    """The table; returns (kind, id) of the row clicked in this run."""
    if df.empty:
        st.caption(f"No {kind.lower()} in this community.")
        return None
    if total > len(df):
        st.caption(f"The first {len(df):,} of {total:,} {kind.lower()}{order}; its sub-communities "
                   "list the rest.")
    row = ui.selected_row(df, key, height=min(38 + 35 * len(df), 380))
    return None if row is None else (kind, hrids[row])


def _cell(text: Any) -> str | None:
    """A description as a table shows it: the first DESCRIPTION_CHARS characters (the drill-down
    a click opens shows all of it)."""
    if text is None:
        return None
    text = " ".join(str(text).split())
    return text if len(text) <= DESCRIPTION_CHARS else text[:DESCRIPTION_CHARS - 1] + "\u2026"


def table_rows(entities: list[dict], rels: list[dict], claims: list[dict]) -> dict[str, tuple]:
    """The rows the tables show: kind -> (rows, total, order), entities by degree and
    relationships by weight, at most MAX_TABLE_ROWS each with descriptions cut to
    DESCRIPTION_CHARS (the tables of a giant community were 1 MB to send and decode)."""
    n = MAX_TABLE_ROWS
    ents = sorted(entities, key=lambda e: -(e.get("degree") or 0))[:n]
    top = sorted(rels, key=lambda r: -(r.get("weight") or 0))[:n]
    return {
        "Entities": ([{"id": e["human_readable_id"], "entity": e["title"], "type": e.get("type"),
                       "degree": e.get("degree"), "description": _cell(e.get("description"))}
                      for e in ents], len(entities), " by degree"),
        "Relationships": ([{"id": r["human_readable_id"], "source": r["source"], "target": r["target"],
                            "weight": r.get("weight"), "inferred": "inferred" if r.get("inferred") else "",
                            "description": _cell(r.get("description"))}
                           for r in top], len(rels), " by weight"),
        "Claims": ([{"id": c["human_readable_id"], "subject": c.get("subject"), "object": c.get("object"),
                     "type": c.get("type"), "status": c.get("status"),
                     "description": _cell(c.get("description"))} for c in claims[:n]], len(claims), ""),
    }


_SINGULAR = {"Sub-communities": "sub-community", "Entities": "entity", "Relationships": "relationship",
             "Claims": "claim"}


def _tables_label(rows: dict[str, tuple], kids: list[dict]) -> str:
    counts = [(k, v[1]) for k, v in rows.items()] + ([("Sub-communities", len(kids))] if kids else [])
    return "Tables: " + ", ".join(f"{n:,} {_SINGULAR[k] if n == 1 else k.lower()}" for k, n in counts)


@st.fragment
def tables(rows: dict[str, tuple], kids: list[dict], depth_key: str) -> None:
    """The rows of table_rows and the community's sub-communities, in tabs inside an expander
    that draws them only while it is open (opening it reruns this fragment, not the page): the
    grid's scripts, fetched on a fresh browser's first page, held back the community's graph.
    Only the open tab's table is sent; this fragment keeps only these rows between runs."""
    box = st.expander(_tables_label(rows, kids), icon=":material/table_rows:", key="tables_open",
                      on_change="rerun")
    with box:
        if not box.open:
            return
        kinds = list(rows) + (["Sub-communities"] if kids else [])
        tabs = st.tabs([f"{k} ({len(kids) if k == 'Sub-communities' else rows[k][1]})" for k in kinds],
                       key="community_tab", on_change="rerun")
        picked = None
        for kind, tab in zip(kinds, tabs):
            if not tab.open:
                continue
            with tab:
                if kind == "Sub-communities":
                    _child_table(kids, depth_key)
                    continue
                data, total, order = rows[kind]
                picked = _table(pd.DataFrame(data), kind, [r["id"] for r in data],
                                f"tbl_{kind[0].lower()}", total, order)
                st.caption("Click a row to see where it comes from in the documents.")
    if picked is not None:  # the drill-down dialog belongs to the page: run all of it
        drill.open_ref(*picked)
        st.rerun(scope="app")


def _fetch(store: Store, table: str, column: str, values: list, select: str) -> list[dict]:
    return store.rows_in(table, column, values, select=select)


def main() -> None:
    store = ui.require_store()
    st.title("Communities")
    h = Hierarchy(store)
    n_comms, n_levels = store.count("communities"), len(store.distinct("communities", "level"))
    if not n_comms:
        st.info("No communities yet: add documents and index them on the Corpus page.",
                icon=":material/info:")
        st.page_link(links.page("corpus"), label="Go to the corpus", icon=":material/library_books:")
        return
    st.caption(f"{n_comms} communities on {n_levels} level{'s' if n_levels != 1 else ''}, "
               f"{store.count('community_reports')} reports \u00b7 area = entities, colour = rating")
    overview(h)
    jump = ui_trust.least_trusted(store)
    if jump is not None:
        st.session_state["nav_pending"] = jump_path(h, jump)
        st.rerun()
    path = navigator(h)
    cid = path[-1]
    c = store.rows("communities", "community = ?", [cid], order_by=None, limit=1)[0]
    # the columns the graph and the tables show (not the members' text unit lists)
    entities = _fetch(store, "entities", "id", list(dict.fromkeys(c.get("entity_ids") or [])),
                      "id, human_readable_id, title, type, degree, description")
    rels = _fetch(store, "relationships", "id", list(dict.fromkeys(c.get("relationship_ids") or [])),
                  "id, human_readable_id, source, target, weight, description, inferred")
    claims = _fetch(store, "claims", "subject", [e["title"] for e in entities],
                    "id, human_readable_id, subject, object, type, status, description")
    report = store.rows("community_reports", "community = ?", [cid], order_by=None, limit=1)
    # report and graph side by side; stacked on a narrow screen (assets/style.css)
    left, right = st.container(key="sm-report-graph").columns([1, 1.3], gap="large")
    # the graph column first: the browser builds the graph while the report's evidence is judged
    with right:
        groups, colour_note = _groups(h, c, entities)
        drawn = sorted(entities, key=lambda e: -(e.get("degree") or 0))[:MAX_GRAPH_NODES]
        view = community_graph(entities, rels, groups, max_nodes=MAX_GRAPH_NODES, height=GRAPH_HEIGHT,
                               evidence=entity_evidence(store, drawn, rels), colour_by=colour_note)
        st.markdown(f"**Graph** \u00b7 {view.shown} entities, {view.edges} relationships \u00b7 "
                    "click an entity for its evidence")
        st.iframe(view.html, height=GRAPH_HEIGHT + 110 + SIDE_HEIGHT)
        if view.note:
            st.caption(view.note)
        ui_downloads.graph_button(store, c)
        tables(table_rows(entities, rels, claims), child_rows(h, cid), nav_key(len(path), cid))
    with left:
        report_view(store, c, report[0] if report else None)
    drill.show(store)


navigation.ensure_routed()
with ui.guard():
    main()

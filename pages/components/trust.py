"""Report trust on the communities page (widgets layer): the trust line of the report shown, a
verdict badge per finding, and the list of reports least trusted first (all reports verified on
request, then kept for the session), filterable, a click opening the community."""
from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from core.store.references import Resolver
from core.store.db import Store
from core.verify.reports import report_trust, verify_reports
from pages.components import state as ui
from pages.components import verdicts as ui_verdicts

FILTERS = {"all": "All reports, least trusted first",
           "fabricated": "Naming what no document holds",
           "contradicted": "With contradicted findings",
           "flagged": "With any finding unsupported, contradicted or fabricated"}


def trust_parts(store: Store, report: dict, resolver: Resolver):
    """(trust line HTML, per finding a badge HTML or "") for one report."""
    t, verdicts = report_trust(store, report, resolver, ui_verdicts.names_for(resolver))
    badges = [ui_verdicts.badge_html(v, with_fact=False) if v is not None else "" for v in verdicts]
    return ui_verdicts.trust_html(t.counts, t.fabricated), badges, verdicts


def _result(store: Store):
    key = (str(store.workspace), store.count("community_reports"),
           store.newest("runs", "started_at"))
    cached = st.session_state.get("trust_all")
    if cached and cached[0] == key:
        return cached[1]
    with st.spinner("Checking every report's findings against their sources..."):
        result = verify_reports(store)
    st.session_state["trust_all"] = (key, result)
    return result


def least_trusted(store: Store) -> int | None:
    """The expander listing reports least trusted first; returns the community clicked."""
    box = st.expander("Least trusted reports", icon=":material/gpp_maybe:", key="trust_open",
                      on_change="rerun")
    with box:
        if not box.open:
            return None
        result = _result(store)
        which = st.selectbox("Show", list(FILTERS), format_func=FILTERS.get, key="trust_filter",
                             label_visibility="collapsed")
        rows = []
        for t in result.reports:
            c = t.counts
            if which == "fabricated" and not c["fabricated"]:
                continue
            if which == "contradicted" and not c["contradicted"]:
                continue
            if which == "flagged" and not (c["fabricated"] + c["contradicted"] + c["unsupported"]):
                continue
            # what is wrong first, the title after it: at 1,024 px the table shows four columns
            # before it scrolls, and the counts behind the title were out of sight
            flagged = ", ".join(f"{c[v]} {v}" for v in ("fabricated", "contradicted", "unsupported") if c[v])
            rows.append({"report": t.report, "trust": t.trust, "flagged": flagged or "none", "title": t.title,
                         "in no document": ", ".join(t.fabricated), "fabricated": c["fabricated"],
                         "contradicted": c["contradicted"], "unsupported": c["unsupported"],
                         "partial": c["partial"], "supported": c["supported"], "community": t.community})
        st.caption(ui.md(f"{result.summary()} \u00b7 order: the share of fabricated findings, then of "
                         "contradicted ones, then trust (supported findings plus half the partial ones), so a "
                         "report with a contradicted finding comes before a lower trust without one \u00b7 "
                         "click a row to open its community"))
        if not rows:
            st.caption("No report matches.")
            return None
        df = pd.DataFrame(rows)
        row = ui.selected_row(df, f"trust_tbl_{which}", height=min(38 + 35 * len(df), 320),
                              column_config={"report": st.column_config.NumberColumn(width="small"),
                                             "trust": st.column_config.ProgressColumn(
                                                 min_value=0, max_value=1, format="%.2f", width="small"),
                                             "flagged": st.column_config.TextColumn(width="medium")})
        return None if row is None else rows[row]["community"]


def finding_summary(summary_html: str, badge: str) -> str:
    return summary_html + (f" {badge}" if badge else "")


def escape(text: str) -> str:
    return html.escape(text)

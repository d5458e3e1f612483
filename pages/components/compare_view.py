"""The Compare page's widgets: the form (question, 2-4 methods, trials, judge), the answers side
by side (answer with its references, verdict counts, cost), the judge's verdicts with reasons,
and a saved run drawn as a win-rate heatmap with the cost per method."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.compare.judge import CRITERIA
from core.compare.run import AA_SUFFIX, CompareSpec, load_run, run_comparison
from core.compare.saved import judge_llm, list_runs, new_run_dir
from core.query.methods import METHODS
from core.store.references import Resolver
from core.store.db import Store
from core.viz.compare_charts import cost_figure, win_rate_figure
from pages.components import chips as ui_chips
from pages.components import state as ui

JUDGES = {"same": "The answering model", "other": "Another model or endpoint", "offline": "Offline judge (no model)"}


def default_methods(store: Store) -> list[str]:
    have_reports = bool(store.count("community_reports"))
    wanted = ["global", "lazy"] if "lazy" in METHODS else ["global", "local"]  # a pair; add more to compare
    return [m for m in wanted if m in METHODS and (have_reports or not METHODS[m].needs_reports)]


def form(store: Store) -> dict[str, Any] | None:
    """The comparison the user asked for, or None until they press Compare."""
    choices = [m for m in METHODS if m != "auto"]
    with st.form("compare", border=False):
        question = st.text_area("Question", key="cmp_question", height=80, label_visibility="collapsed",
                                placeholder="One question, answered by every method you pick")
        c = st.columns([3, 1])
        methods = c[0].multiselect("Methods (2-4)", choices, default=default_methods(store), key="cmp_methods",
                                   format_func=lambda m: METHODS[m].label, max_selections=4)
        trials = c[1].number_input("Trials", 1, 10, 2, key="cmp_trials",
                                   help="Each pair is judged in both orders, this many times each.")
        default_judge = "same" if ui.settings().resolved_engine == "llm" else "offline"
        judge = st.radio("Judge", list(JUDGES), format_func=JUDGES.get, horizontal=True, key="cmp_judge",
                         index=list(JUDGES).index(default_judge))
        c = st.columns(3)
        model = c[0].text_input("Judge model", key="cmp_judge_model", placeholder=ui.settings().chat_model,
                                help="Used with 'Another model or endpoint'.")
        url = c[1].text_input("Judge base URL", key="cmp_judge_url", placeholder="the answering endpoint")
        key = c[2].text_input("Judge API key", key="cmp_judge_key", type="password",
                              help="Only for another endpoint; never saved.")
        criteria = st.multiselect("Criteria", list(CRITERIA), default=list(CRITERIA), key="cmp_criteria")
        go = st.form_submit_button("Compare", type="primary", icon=":material/balance:")
    if not go:
        return None
    if not question.strip():
        st.warning("Type a question first.")
        return None
    if len(methods) < 2:
        st.warning("Pick at least two methods to compare.")
        return None
    if not criteria:
        st.warning("Pick at least one criterion.")
        return None
    return {"question": question.strip(), "methods": methods, "trials": int(trials), "judge": judge,
            "model": model.strip() or None, "url": url.strip() or None, "key": key.strip() or None,
            "criteria": criteria}


def run(store: Store, ask: dict[str, Any]) -> Path:
    settings = ui.settings()
    llm = ui.query_llm(store)
    if ask["judge"] == "offline":
        judge = None
    elif ask["judge"] == "same":
        judge = llm
    else:
        judge = judge_llm(settings, store, "llm", ask["model"], ask["url"], ask["key"])
    out = new_run_dir(store.workspace, ask["question"])
    spec = CompareSpec(methods=ask["methods"], trials=ask["trials"], criteria=ask["criteria"],
                       concurrency=settings.concurrency)
    with st.status("Answering with every method, then judging each pair...", expanded=True) as status:
        line = st.empty()
        run_comparison(store, [ask["question"]], spec, llm, settings, judge, out,
                       on_progress=lambda m: line.caption(ui.md(m)))
        status.update(label="Compared.", state="complete", expanded=False)
    return out


def _cost_line(c: dict) -> str:
    money = f" \u00b7 ${c['cost']:.4f}" if c.get("cost") else ""
    return (f"{c.get('llm_calls', 0)} LLM calls \u00b7 {c.get('prompt_tokens', 0):,} + "
            f"{c.get('completion_tokens', 0):,} tokens \u00b7 {c.get('seconds', 0):.1f} s{money}")


def answers_side_by_side(store: Store, summary: dict, answers: list[dict]) -> None:
    shown = [a for a in answers if not a["method"].endswith(AA_SUFFIX)]
    cols = st.columns(len(shown))
    resolver = Resolver(store)
    for col, a in zip(cols, shown):
        with col.container(border=True):
            label = METHODS[a["base_method"]].label if a["base_method"] in METHODS else a["method"]
            st.markdown(f"##### {ui.md(label)}")
            route = a.get("route")
            if route:
                st.caption(ui.md(f"auto chose {route['reason']}"))
            if a.get("error"):
                st.error(ui.md(a["error"]), icon=":material/error:")
            ui_chips.cited_text(store, a.get("answer") or "", resolver, viewer_key=f"cmp_{a['method']}")
            v = a.get("verdicts") or {}
            st.caption(ui.md(f"{len(a.get('references') or [])} references: {v.get('supported', 0)} supported, "
                             f"{v.get('weak', 0)} weak, {v.get('unsupported', 0)} unsupported, "
                             f"{v.get('dangling', 0)} missing"))
            st.caption(ui.md(_cost_line(summary["cost"].get(a["method"], {}))))


def verdicts(summary: dict, judgements: list[dict]) -> None:
    j = summary["judge"]
    st.markdown("#### The judge's verdicts")
    st.caption(ui.md(f"Judge: {j['model'] or 'offline (measurable features, no model)'}; each pair in both "
                     f"orders x {j['trials']} trial(s); {summary['judgements']} verdicts; judge cost: "
                     f"{summary['judge_cost'].get('llm_calls', 0)} calls, "
                     f"{summary['judge_cost'].get('cache_hits', 0)} from the cache."))
    aa = summary.get("aa") or {}
    if aa.get("ok") is False:
        st.warning(ui.md(aa["message"]), icon=":material/warning:")
    elif aa.get("ok"):
        st.success(ui.md(aa["message"]), icon=":material/check_circle:")
    rates = pd.DataFrame([{"method": w["a"], "against": w["b"], "criterion": w["criterion"],
                           "win rate": f"{w['rate']:.0%}", "95% interval": f"{w['low']:.0%}-{w['high']:.0%}",
                           "wins": w["wins"], "losses": w["losses"], "ties": w["ties"],
                           "significant": "yes" if w["significant"] else "no",
                           "questions won/lost": f"{w.get('questions_won', 0)}/{w.get('questions_lost', 0)} of "
                                                 f"{w.get('questions', 0)}"} for w in summary["win_rates"]])
    if not rates.empty:
        st.dataframe(rates, hide_index=True, width="stretch")
    rows = [{"pair": f"{x['a']} vs {x['b']}", "shown first": x["first"], "trial": x["trial"] + 1,
             "criterion": x["criterion"], "winner": x["winner"], "reason": x.get("reason") or x.get("error") or ""}
            for x in judgements if not x["b"].endswith(AA_SUFFIX)]
    with st.expander(f"Every verdict with the judge's reason ({len(rows)})", expanded=len(rows) <= 32):
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    pb = summary["position_bias"]
    st.caption(ui.md(f"Position bias: the answer shown first won {pb['first_wins']} and the second "
                     f"{pb['second_wins']} of the decisive verdicts (p = {pb['p_value']:.3f})."))


def saved_runs(store: Store) -> Path | None:
    runs = list_runs(store.workspace)
    if not runs:
        st.caption("Saved comparisons appear here.")
        return None
    current = st.session_state.get("cmp_run")
    names = [p.name for p in runs]
    index = names.index(Path(current).name) if current and Path(current).name in names else 0
    chosen = st.selectbox("Saved comparison", names, index=index, key="cmp_saved")
    return runs[names.index(chosen)]


def heatmap(summary: dict, key: str) -> None:
    methods = summary["methods"]
    crit = st.segmented_control("Criterion", ["all", *summary["judge"]["criteria"]], default="all",
                                key=f"cmp_crit_{key}")
    st.plotly_chart(win_rate_figure(summary["win_rates"], methods, None if crit in (None, "all") else crit),
                    width="stretch", config={"displaylogo": False}, key=f"cmp_heat_{key}")
    st.markdown("**Cost per method**")
    st.plotly_chart(cost_figure({m: summary["cost"][m] for m in methods if m in summary["cost"]}),
                    width="stretch", config={"displaylogo": False}, key=f"cmp_cost_{key}")


def show_run(store: Store, folder: Path) -> None:
    summary, answers, judgements = load_run(folder)
    qs = list(dict.fromkeys(a["question"] for a in answers))
    st.markdown(f"#### {ui.md(qs[0] if len(qs) == 1 else f'{len(qs)} questions')}")
    if len(qs) == 1:
        answers_side_by_side(store, summary, answers)
    verdicts(summary, judgements)
    st.markdown("#### Win rates")
    heatmap(summary, folder.name)

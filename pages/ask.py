"""Ask: a question by any registered method (core/query/methods.py: global map-reduce over community
reports, local from an entity's neighbourhood, lazy, basic, ...); the answer with clickable
references; how it was made; past questions."""
from __future__ import annotations


import streamlit as st

from core.query import methods as registry
from core.text.citations import Ref
from core.store.references import Resolver
from core.query.traces import TraceNotFound, list_traces, load_trace
from core.query.types import SearchResult
from core.store.db import Store
from core.textutil import counted
from pages.components import check_text as ui_check
from pages.components import chips as ui_chips, downloads as ui_downloads, drilldown as drill
from pages.components import links, method_views, navigation
from pages.components import state as ui

METHODS = {name: m.label for name, m in registry.METHODS.items()}
METHODS = {"auto": METHODS.pop("auto"), **METHODS}  # auto first: the default


def short_name(method: str) -> str:
    """The switch shows "Global", "DRIFT", ...: seven full labels do not fit in one row."""
    return METHODS[method].split(":")[0]


def _result() -> SearchResult | None:
    data = st.session_state.get("ask_result")
    return SearchResult.from_dict(data) if data else None


def _keep(result: SearchResult, reopened: bool = False) -> None:
    st.session_state["ask_result"] = result.to_dict()
    if reopened:  # the form shows the question as it was asked (set before the form is drawn):
        # with Auto when Auto chose its method, so the next question is routed again
        st.session_state["ask_pending"] = (_asked_with(result.method, result.params), result.question)
    drill.close()


def _asked_with(method: str, params: dict | None) -> str:
    """The method a question was asked with: "auto" when Auto routed it (its trace keeps the route)."""
    return "auto" if isinstance(params, dict) and params.get("route") else method


def _reopen_linked(store: Store) -> None:
    """A reload or a pasted link names a past question (?q=): open it as it was answered."""
    linked = links.incoming(links.QUESTION)
    if linked is None:
        return
    try:
        _keep(load_trace(store, linked), reopened=True)
    except TraceNotFound:
        st.warning(ui.md(f"The linked question {linked} is not in workspace {ui.workspace_name()}."),
                   icon=":material/link_off:")


def _keep_method() -> None:
    """A click on the method already chosen unselects the pill: keep that method (it used to
    fall back to Auto, and the next question went to another method than the one pressed)."""
    if st.session_state.get("ask_method") is None:
        st.session_state["ask_method"] = st.session_state.get("_ask_method_last", "auto")
    st.session_state["_ask_method_last"] = st.session_state["ask_method"]


def ask_form(store: Store) -> None:
    pending = st.session_state.pop("ask_pending", None)
    if pending:
        st.session_state["ask_method"] = pending[0] if pending[0] in METHODS else "auto"
        st.session_state["ask_question"] = pending[1]
    st.session_state.setdefault("ask_method", "auto")
    # set, not left unset: after a workspace switch dropped the key, the browser would send the
    # box's old text back and the next workspace would show the last one's question
    st.session_state.setdefault("ask_question", "")
    method = st.segmented_control("Method", list(METHODS), format_func=short_name, key="ask_method",
                                  label_visibility="collapsed", on_change=_keep_method)
    method = method or "auto"
    st.session_state["_ask_method_last"] = method
    st.caption(ui.md(f"{METHODS[method]} \u2014 {registry.METHODS[method].summary}"))
    with st.form("ask", border=False):
        question = st.text_area("Question", key="ask_question", height=90, max_chars=registry.MAX_QUESTION_CHARS,
                                placeholder=registry.METHODS[method].example,
                                label_visibility="collapsed")
        params = method_views.options(store, method)
        go = st.form_submit_button("Ask", type="primary", icon=":material/send:")
    if go:
        if not question.strip():
            st.warning("Type a question first.")
            return
        with ui.guard():  # a question too long to be one says so and keeps the form as it was
            registry.check_question(question)
            _keep(method_views.run(store, method, question, params))


def _headline(question: str, limit: int = 300) -> str:
    """The question as the answer's heading: one line, at most `limit` characters."""
    q = " ".join((question or "").split())
    return q if len(q) <= limit else q[:limit].rsplit(" ", 1)[0] + " \u2026"


def answer_view(store: Store, result: SearchResult) -> None:
    with st.container(border=True):
        st.markdown(f"#### {ui.md(_headline(result.question))}")
        engine = "offline engine" if result.engine == "offline" else f"LLM {result.model}"
        st.caption(f"{result.method} search \u00b7 {ui.md(engine)}"
                   + (f" \u00b7 level {result.level}" if result.level is not None else ""))
        if result.error:
            st.error(ui.md(result.error), icon=":material/error:")
        if result.no_data:
            st.info("Nothing in the data answers this question.", icon=":material/search_off:")
        resolver = Resolver(store)
        ui_check.use_setting_judge(store, resolver)
        n = ui_chips.cited_text(store, result.answer, resolver, viewer_key=f"ans_{result.trace_id}")
        missing = [o for o in ui_chips.chip_options(store, result.answer, resolver) if not o[3]]
        if missing:
            gone = [resolver.resolve(Ref(o[0], o[1])) for o in missing]
            names = ", ".join(dict.fromkeys(
                drill.ref_label(o[0], o[1]) + (f" (now {drill.ref_label(o[0], r.successor)})" if r.successor is not None else "")
                for o, r in zip(missing, gone)))
            changed = any(r.removed or r.rewritten for r in gone)
            replaced = [r for r in gone if r.removed and ui_chips.replaced(resolver, r.removed)]
            if replaced and len(replaced) == len(gone):
                st.info(f"Cited passages replaced since this answer: {names}. Their documents have new "
                        "versions; each sentence citing them is checked against the new version (its chip "
                        "says so). Ask again for an answer from the current index.", icon=":material/swap_horiz:")
            else:
                st.warning(f"Cited but not in this workspace: {names}. "
                           + ("Documents were removed or replaced since this answer: ask again for one from "
                              "the current index; " if changed else "These references are marked missing; ")
                           + "treat the sentences citing them as unverified"
                           + (" (those whose documents were replaced are checked against the new version)"
                              if replaced else "") + ".", icon=":material/link_off:")
        if n:
            st.caption(f"{counted(n, 'reference')} \u00b7 click one to see the source text behind it; the "
                       "evidence viewer shows every source and the whole document.")
        ui_downloads.answer_button(store, result)
    method_views.how(store, result)


def past_queries(store: Store) -> None:
    st.markdown("#### Past questions")
    traces = list_traces(store, 30)
    if not traces:
        st.caption("Your questions appear here; each can be opened again exactly as answered.")
        return
    current = (st.session_state.get("ask_result") or {}).get("trace_id")
    with st.container(key="sm-past"):
        for t in traces:
            # the method in the label: the same question asked twice is two answers to tell apart
            label = t["question"] if len(t["question"]) <= 60 else t["question"][:57] + "..."
            when = (t["created_at"] or "").replace("T", " ")[:16]  # "2026-12-01 19:00"
            how = t["method"] if _asked_with(t["method"], t.get("params")) == t["method"] else f"auto: {t['method']}"
            label = f"{label} \u00b7 {how}" + (f" \u00b7 {when[11:]}" if len(when) == 16 else "")
            if st.button(label, key=f"trace_{t['id']}", width="stretch",
                         type="primary" if t["id"] == current else "secondary",
                         help=f"{ui.md(t['question'])}\n\n{t['method']} search \u00b7 {when}"):
                _keep(load_trace(store, t["id"]), reopened=True)
                st.rerun()


def main() -> None:
    store = ui.require_store()
    st.title("Ask")
    if not store.count("community_reports"):
        st.info("There is nothing to ask yet: index a corpus on the Corpus page first.",
                icon=":material/info:")
        st.page_link(links.page("corpus"), label="Go to the corpus", icon=":material/library_books:")
        return
    st.caption(ui.md(f"Workspace {ui.workspace_name()} \u00b7 {ui.engine_label()}"))
    _reopen_linked(store)
    with st.container():
        with ui.guard():
            ask_form(store)
        with ui.guard():
            ui_check.box(store, ui.query_llm(store))
        result = _result()
        links.write(links.QUESTION, result.trace_id if result is not None else None)
        if result is not None:
            answer_view(store, result)
    # the past questions in the sidebar (a column beside the answer left it one or two words a
    # line at 1,024 px), drawn after the answer so that a question just asked is listed
    with st.sidebar:
        st.divider()
        past_queries(store)
    drill.show(store)


navigation.ensure_routed()
with ui.guard():
    main()

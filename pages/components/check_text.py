"""Check a text (widgets layer): an analyst pastes a paragraph of their own with `[Data: ...]`
markers (a draft memo) and gets every sentence's verdict, the fact that fails and the source
sentence it was checked against; the paragraph is shown with the flagged sentences marked and
its references as chips, like an answer."""
from __future__ import annotations

import html
import json
import time

import streamlit as st

from core.store.references import Resolver
from core.store.db import Store
from core.verify.judges import make_judge
from core.verify.reports import missing_text
from core.verify.text import check_text
from pages.components import chips as ui_chips
from pages.components import state as ui
from pages.components import verdicts as ui_verdicts

MAX_CHARS = 20_000  # a memo, not a book: beyond this the page of verdicts is no longer read
EXAMPLE = "Scrooge refused to give to the charity collectors [Data: Sources (3)]."
HOW = ("A marker cites records by their numbers: Sources (N) is text unit N of the documents (the "
       "number every chip shows as “Source N”), Reports (N), Entities (N) and Relationships (N) "
       "the community reports, entities and relationships; several at once: [Data: Sources (3, 7); "
       "Reports (1)]. A sentence without a marker cites nothing.")


def example(store: Store) -> str:
    """A placeholder from this workspace: the first sentence of one of its text units, cited to it
    (so the example is true here, and shows where the number comes from)."""
    from core.text.citations import sentence_spans
    # the second unit (the first is often a title page), else the first
    rows = [{"n": r["human_readable_id"], "text": r["text"]}
            for r in store.rows("text_units", "length(text) > 80", select="human_readable_id, text", limit=2)[-1:]]
    if not rows:
        return EXAMPLE
    text = " ".join(str(rows[0]["text"] or "").split())
    # a whole sentence: opening with a capital, its quotation marks closed (the first of a unit
    # may start inside a quotation: '…down there, Mercer."')
    spans = [(a, b) for a, b in sentence_spans(text) if 40 <= b - a <= 220 and text[a].isupper()
             and sum(text[a:b].count(q) for q in ('"', "\u201c", "\u201d")) % 2 == 0]
    if not spans:
        return EXAMPLE
    a, b = spans[0]
    sentence = text[a:b].rstrip(" .!?。")
    return f"{sentence} [Data: Sources ({rows[0]['n']})]."


def use_setting_judge(store: Store, resolver: Resolver) -> str:
    """The judge of the `judge` setting for every verdict drawn with resolver: the model judge
    when it is set and an LLM is configured, else the offline one. Returns its name."""
    if ui.settings().judge != "model":
        return "offline"
    llm = ui.query_llm(store)
    if llm is None:
        return "offline"
    ui_verdicts.set_judge(resolver, make_judge("model", llm), "model")
    return "model"


def results_html(results: list[dict]) -> str:
    """One line per sentence: its verdict badge, the sentence, why and the source sentence."""
    rows = []
    for r in results:
        why = r.get("failing") if r["verdict"] != "supported" else ""
        notes = [] if not r.get("dangling") or why == missing_text(r["dangling"]) else [missing_text(r["dangling"])]
        notes += [f"the marker {m} is not read whole: a marker names a kind and numbers, as in "
                  f"[Data: Sources (12)]" for m in r.get("malformed") or [] if m not in (why or "")]
        ev = r.get("evidence") or {}
        rows.append(
            f'<li class="sm-check {html.escape(r["verdict"])}">'
            f'{ui_verdicts.badge_html({"verdict": r["verdict"], "judge": r["judge"]}, with_fact=False)} '
            f'{html.escape(r["sentence"])}'
            + (f'<div class="sm-fail">{html.escape(why)}</div>' if why else "")
            + "".join(f'<div class="sm-fail">{html.escape(n)}</div>' for n in notes)
            + (f'<div class="sm-meta">source: \u201c{html.escape(ev["text"][:300])}\u201d</div>'
               if ev.get("text") else "")
            + "</li>")
    return f'<ul class="sm-checks">{"".join(rows)}</ul>'


SAVED = "last_text_check"  # the workspace's meta key of the last checked text and its judge


def _check(store: Store, text: str, judge_name: str, llm) -> dict:
    judge = make_judge(judge_name, llm if judge_name == "model" else None)
    return {"text": text, "judge": judge_name, "results": check_text(store, text, judge),
            "at": time.strftime("%Y-%m-%d %H:%M")}


def _restore(store: Store, llm) -> dict | None:
    """The workspace's last check, checked again against the index as it is now (a reload, a new
    tab or a colleague's link finds it; the verdicts follow documents replaced since)."""
    try:
        saved = json.loads(store.get_meta(SAVED) or "null")
    except (ValueError, TypeError):
        return None
    if not isinstance(saved, dict) or not str(saved.get("text") or "").strip():
        return None
    judge_name = saved.get("judge") if saved.get("judge") == "model" and llm is not None else "offline"
    again = _check(store, str(saved["text"])[:MAX_CHARS], judge_name, llm)
    # the time the analyst pressed Check stays; the verdicts are today's
    return dict(again, at=str(saved.get("at") or "an earlier session"), again=again["at"])


def _label(done: dict | None) -> str:
    """The expander's label: closed, it still says what the last check found."""
    if not done or not done.get("results"):
        return "Check a text"
    results = done["results"]
    flagged = {v: sum(r["verdict"] == v for r in results) for v in ("contradicted", "fabricated", "unsupported", "partial")}
    said = ", ".join(f"{n} {v}" for v, n in flagged.items() if n) or "all supported"
    return f"Check a text · last check: {len(results)} sentence{'s' * (len(results) != 1)}, {said}"


def box(store: Store, llm=None) -> None:
    """The "Check a text" expander of the Ask page."""
    # the last check is kept per workspace: back from another one, or after a reload, it is
    # still there
    res_key = f"check_result::{ui.workspace_name()}"
    if res_key not in st.session_state and f"{res_key}::restored" not in st.session_state:
        st.session_state[f"{res_key}::restored"] = True  # once per session: a cleared check stays cleared
        restored = _restore(store, llm)
        if restored:
            st.session_state[res_key] = restored
    if "check_text_in" not in st.session_state and res_key in st.session_state:
        st.session_state["check_text_in"] = st.session_state[res_key]["text"]
    with st.expander(_label(st.session_state.get(res_key)), icon=":material/fact_check:", key="check_open"):
        with st.form("check_text", border=False):
            text = st.text_area("Your text, with [Data: ...] markers", key="check_text_in", height=110,
                                placeholder=example(store), help=HOW)
            if llm is not None:
                judges = ["offline", "model"]
                if ui.settings().judge == "model":
                    judges.reverse()  # the setting's judge first
                judge_name = st.radio("Judge", judges, horizontal=True, key="check_judge",
                                      format_func={"offline": "offline (no model)",
                                                   "model": "model (entailment, exact quotes)"}.get)
            else:  # one judge: nothing to choose
                judge_name = "offline"
                st.caption("Judge: offline (no model is configured; for the model judge, choose \"LLM (OpenAI-compatible)\" under Engine in the sidebar).")
            go = st.form_submit_button("Check", icon=":material/fact_check:")
        if go:
            if not text.strip():
                st.warning("Paste a text with [Data: ...] markers first.")
                return
            from core.text.citations import parse_citations
            if not parse_citations(text):
                # nothing to check it against: say so, rather than list every sentence (and every
                # capitalised word no document holds) of a pasted page
                st.session_state.pop(res_key, None)
                st.warning("Nothing in this text cites a source: add a marker such as [Data: Sources (12)] "
                           "to each sentence to check.", icon=":material/link_off:")
                return
            cut = len(text) if len(text) > MAX_CHARS else 0
            text = text[:MAX_CHARS]
            st.session_state[res_key] = dict(_check(store, text, judge_name, llm), cut=cut)
            store.set_meta(SAVED, json.dumps({"text": text, "judge": judge_name,
                                              "at": st.session_state[res_key]["at"]}))
            st.rerun()  # the expander's label, drawn above, says what this check found (it said the last one's)
        done = st.session_state.get(res_key)
        if not done:
            st.caption("Every sentence is checked against what it cites: supported, partial, "
                       "unsupported, contradicted, or fabricated (names what no document holds). " + HOW)
            return
        results = done["results"]
        if done.get("cut"):
            st.warning(f"The text is {done['cut']:,} characters long; the first {MAX_CHARS:,} are checked.",
                       icon=":material/content_cut:")
        # the form sends the text only on Check: say which text these verdicts are for
        again = f", judged again against the index as it is now ({done['again']})" if done.get("again") else ""
        st.caption(f"Verdicts for the text as checked at {done.get('at', '?')}{again} (shown below with "
                   "its marks); an edit counts once you press Check.")
        counts = {v: sum(r["verdict"] == v for r in results) for v in
                  ("supported", "partial", "unsupported", "contradicted", "fabricated")}
        st.html(ui_verdicts.trust_html(counts, sorted({n for r in results for n in r["fabricated"]}),
                                       done["judge"]).replace("finding", "sentence"))
        st.html(results_html(results))
        resolver = Resolver(store)
        if done["judge"] == "model" and llm is not None:
            ui_verdicts.set_judge(resolver, make_judge("model", llm), "model")
        st.html(ui_chips.cited_html(store, done["text"], resolver, uncited=True))

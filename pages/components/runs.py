"""The index panel of the corpus page: estimate, start, live progress, cancel, failed items with
retry, run history. The run itself is a separate process (core.index.background); this panel only
reads the runs row, so leaving the page or reloading the browser finds the live run again."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.index.background import (current_run, estimate_run, failed_items, request_cancel,
                                   retry_failed, start_index)
from core.index.changes import describe, plain
from core.index.pipeline import STAGES, last_runs
from core.store.db import Store
from pages.components import state as ui

STAGE_NAMES = {"chunk": "Chunk documents", "extract": "Extract entities and relationships",
               "summarize": "Summarise descriptions", "graph": "Build the graph",
               "communities": "Find communities", "reports": "Write community reports",
               "embeddings": "Embed", "queued": "Queued for a worker"}
LIVE_EVERY = 1.0


def _age(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        t = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - t).total_seconds()


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def eta(stage: dict[str, Any]) -> float | None:
    """Seconds left in a stage from its own pace so far (None until there is a pace)."""
    done, total, secs = stage.get("done") or 0, stage.get("total") or 0, stage.get("seconds")
    if not secs or done <= 0 or total <= done:
        return None
    return secs / done * (total - done)


def estimate_panel(store: Store, workspace: Path, running: bool) -> None:
    cfg = ui.settings()
    est = estimate_run(store, cfg)
    n_docs = store.count("documents")
    has_reports = store.count("community_reports") > 0
    st.markdown("#### Index")
    if running:
        return  # the live panel below says what is happening
    if not n_docs:
        st.caption("Add documents first; the estimate appears here.")
        return
    if est["chunks"] == 0 and has_reports:
        from pages.components.run_outcome import indexed_panel
        indexed_panel(store, workspace, cfg)
        return
    # two tiles a row: four in the half-page column were cut to "C." and "LL..." at 1,024 px
    c = [*st.columns(2), *st.columns(2)]
    c[0].metric("Chunks", f"{est['chunks']:,}", help="Text chunks the next run will extract")
    offline = est["engine"] == "offline"  # no model: "~0" read as an estimate that failed
    c[1].metric("LLM calls", "none" if offline else f"~{est['llm_calls']:,}")
    c[2].metric("Tokens", "none" if offline else f"~{est['prompt_tokens'] + est['completion_tokens']:,}")
    c[3].metric("Cost", "free" if est["engine"] == "offline" else f"~${est['cost']:.2f}")
    if est["engine"] == "offline":
        st.caption("Offline engine: no model calls. Switch the engine in the sidebar to index "
                   "with an LLM.")
    else:
        st.caption(ui.md(f"Estimate for {est.get('model')} at the prices in the settings; "
                         "cached calls are free and not counted twice."))
    label = "Index the corpus" if not has_reports else "Index new documents"
    if st.button(label, type="primary", icon=":material/play_arrow:", disabled=running,
                 key="start_index"):
        with ui.guard():
            ui.check_engine(cfg)
            start_index(workspace, cfg, api_key=ui.api_key(), store=ui.store())
            st.session_state["watching_run"] = True
            st.rerun()


def live_panel(store: Store, workspace: Path) -> None:
    run = current_run(store)
    every = LIVE_EVERY if (run or st.session_state.get("watching_run")) else None

    @st.fragment(run_every=every)
    def panel() -> None:
        live = current_run(store)
        if live is None:
            if st.session_state.pop("watching_run", False):
                st.session_state["_run_ended"] = True  # run_outcome.ended_panel says how it ended
                st.rerun(scope="app")  # the run ended: refresh documents, estimate and history
            return
        st.session_state["watching_run"] = True
        _render_live(store, live)

    panel()


_TITLES = {"remove": "Removing documents", "replace": "Replacing a document", "reindex": "Indexing again"}


def run_title(run: dict[str, Any]) -> str:
    """What the running run does, in the live panel's heading: a removal's run says it is one
    (the first operation of a change that resumed another: "remove+index")."""
    return _TITLES.get((run.get("operation") or "index").split("+")[0], "Indexing")


def _render_live(store: Store, run: dict[str, Any]) -> None:
    with st.container(border=True):
        head, btn = st.columns([4, 1.3], vertical_alignment="center")
        elapsed = _age(run.get("started_at"))
        status = run.get("status")
        queued = run.get("stage") == "queued"
        head.markdown(f"**{run_title(run)}** \u00b7 {ui.md(STAGE_NAMES.get(run.get('stage'), run.get('stage') or 'starting'))}"
                      f" \u00b7 {'waiting' if queued else 'running'} for {_duration(elapsed)}"
                      + (" \u00b7 *cancelling...*" if status == "cancelling" else ""))
        if btn.button("Cancel", disabled=status == "cancelling", key="cancel_run",
                      width="stretch", help="Stop after the current items; finished work is kept "
                                            "and the next run resumes from there."):
            request_cancel(store, run["id"])
            st.rerun(scope="fragment")
        beat = _age(run.get("heartbeat_at"))
        if run.get("stage") == "queued" and beat is not None and beat > 30:
            st.warning(f"No worker has taken this run for {_duration(beat)}. On a team server the "
                       "runs are indexed by `sensemaker worker` processes: start one on a machine that "
                       "reaches the database and the model (README: Team server).")
        elif beat is not None and beat > 60:
            st.warning(f"No sign of life from the indexing process for {_duration(beat)}.")
        progress = run.get("progress") or {}
        waiting = [STAGE_NAMES.get(n, n).lower() for n in STAGES if not progress.get(n)]
        for name in STAGES:
            s = progress.get(name)
            if not s:
                continue
            done, total = s.get("done") or 0, s.get("total") or 0
            frac = min(1.0, done / total) if total else 1.0
            left = eta(s)
            text = f"{STAGE_NAMES.get(name, name)}: {done:,} / {total:,}"
            if left is not None:
                text += f" \u00b7 about {_duration(left)} left"
            elif total and done >= total:
                text += f" \u00b7 done in {_duration(s.get('seconds'))}"
            st.progress(frac, text=text)
            if s.get("message") and done < total:
                st.caption(ui.md(s["message"]))
        if waiting:
            st.caption("Next: " + ", ".join(waiting))
        server_notes(progress)
        if run.get("engine") == "offline":
            st.caption("Offline engine: no model calls, no cost.")
        else:
            st.markdown(
                f"**{run.get('llm_calls') or 0:,}** LLM calls \u00b7 "
                f"**{run.get('prompt_tokens') or 0:,}** prompt + "
                f"**{run.get('completion_tokens') or 0:,}** completion tokens \u00b7 "
                f"**{run.get('cache_hits') or 0:,}** cache hits \u00b7 "
                f"**${run.get('cost') or 0:.4f}**")


def server_notes(progress: dict[str, Any]) -> None:
    """What the run learnt about the model server ("the server answers one request at a time:
    concurrency 8 -> 1"), from core/llm/concurrency.py through the run's progress."""
    events = (progress.get("server") or {}).get("events") or []
    if events:
        st.info(ui.md("Model server: " + "; ".join(events[-3:])), icon=":material/dns:")


def failed_panel(store: Store, workspace: Path, running: bool) -> None:
    items = failed_items(store)
    last = last_runs(store, 1)
    if not running and last:
        server_notes(last[0].get("progress") or {})
    if not items:
        return
    with st.container(border=True):
        units = sum(i["kind"] == "text unit" for i in items)
        reasons = "; ".join(dict.fromkeys(str(i["error"] or "")[:160] for i in items[:3]))
        st.warning(f"**The last run lost {len(items)} item{'s' if len(items) != 1 else ''}** "
                   f"({units} text unit{'s' if units != 1 else ''}): what they hold is missing from "
                   f"the graph until they are retried. First reason: {ui.md(reasons)}",
                   icon=":material/error:")
        st.dataframe(pd.DataFrame([{"kind": i["kind"], "item": i["item"], "error": i["error"]}
                                   for i in items]),
                     hide_index=True, width="stretch", height=min(38 + 35 * len(items), 240))
        if st.button("Retry the failed items", icon=":material/refresh:", disabled=running,
                     key="retry_failed"):
            with ui.guard():
                ui.check_engine(ui.settings())
                retry_failed(workspace, ui.settings(), api_key=ui.api_key())
                st.session_state["watching_run"] = True
                st.rerun()


def history_panel(store: Store) -> None:
    runs = last_runs(store, 20)
    if not runs:
        return
    rows = []
    for r in runs:
        counts = r.get("counts") or {}
        rows.append({
            # the status second: at 1,024 px the columns after the first few are scrolled to
            "run": r["human_readable_id"], "status": r.get("status"),
            "started": (r.get("started_at") or "").replace("T", " ")[:19],
            "operation": r.get("operation") or "index",
            "documents": _named(r["changes"]) if isinstance(r.get("changes"), dict) else "",
            # what the run changed first, in words: at 1,024 px the columns after it are scrolled to
            "changes": (plain(r["changes"]).removeprefix("What changed: ")
                        if isinstance(r.get("changes"), dict) else ""),
            "engine": r.get("engine"),
            "took": _duration(_span(r.get("started_at"), r.get("finished_at"))),
            "LLM calls": r.get("llm_calls") or 0, "cache hits": r.get("cache_hits") or 0,
            "tokens": (r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0),
            "cost $": round(r.get("cost") or 0.0, 4),
            "entities": counts.get("entities"), "reports": counts.get("community_reports"),
            "summary": describe(r["changes"]) if isinstance(r.get("changes"), dict) else "",
            "error": r.get("error") or "",
        })
    with st.expander(f"Run history ({len(runs)})", icon=":material/history:"):
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                     column_config={"documents": st.column_config.TextColumn("documents", width="medium"),
                                    "changes": st.column_config.TextColumn("changes", width="large"),
                                    "summary": st.column_config.TextColumn("summary", width="medium")})


def _named(changes: dict) -> str:
    """The documents a run added, removed or replaced, by title: two, then how many more."""
    names = [str(n) for n in changes.get("documents_named") or []]
    if len(names) <= 2:
        return ", ".join(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


def _span(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return None

"""The Ask page's option widgets of global and local search, and global search run with its
map batches drawn live as they arrive."""
from __future__ import annotations

import queue
import threading
from typing import Any

import streamlit as st

from core.query.levels import report_levels
from core.query.methods import run_method
from core.query.types import SearchResult
from core.store.db import Store
from pages.components import state as ui
from pages.components import trace as ui_trace


def global_options(store: Store) -> dict[str, Any]:
    levels = report_levels(store)
    lv = sorted(levels)
    default = 1 if 1 in levels else lv[0]
    c = st.columns(3)
    level = c[0].selectbox("Community level", lv, index=lv.index(default),
                           format_func=lambda n: f"{n} ({levels[n]} reports)",
                           help="A level reads its own communities and those above it that "
                                "were not split further, so every level covers the whole "
                                "corpus; deeper levels read more, smaller reports.",
                           key="ask_level")
    threshold = c[1].slider("Minimum report rating", 0.0, 10.0, 0.0, 0.5, key="ask_rating")
    concurrency = c[2].number_input("Map calls at once", 1, 64, ui.settings().concurrency,
                                    key="ask_conc")
    d = st.columns(4)
    map_budget = d[0].number_input("Map context budget (tokens)", 500, 64000, 8000, 500,
                                   key="ask_map")
    choices: list = ["auto", 0, 1, 2, 3, 5, 10]
    chosen = ui.settings().map_max_reports
    per_map = d[1].selectbox(
        "Reports per map call", choices, key="ask_per_map",
        index=choices.index(chosen) if chosen in choices[1:] else 0,
        format_func=lambda n: "as many as fit" if n == 0 else str(n),
        help="How many community reports one map call reads. Auto: one for a model whose "
             "context window is 8,192 tokens or less (small local models answer from the "
             "first report of a batch and skip the rest), else as many as the map budget holds.")
    reduce_budget = d[2].number_input("Reduce context budget (tokens)", 500, 128000, 12000,
                                      500, key="ask_reduce")
    seed = d[3].number_input("Shuffle seed (0: a new one each time)", 0, 2 ** 31 - 1, 0,
                             key="ask_seed")
    return {"level": int(level), "rating_threshold": float(threshold), "seed": int(seed) or None,
            "map_max_tokens": int(map_budget), "map_max_reports": None if per_map == "auto" else int(per_map),
            "reduce_max_tokens": int(reduce_budget), "concurrency": int(concurrency)}


def local_options(store: Store) -> dict[str, Any]:
    c = st.columns(3)
    budget = c[0].number_input("Context budget (tokens)", 1000, 128000, 12000, 1000, key="ask_ctx")
    top_k = c[1].number_input("Entry entities", 1, 50, 10, key="ask_topk")
    text_prop = c[2].slider("Share for source text", 0.1, 0.9, 0.5, 0.05, key="ask_prop")
    return {"max_tokens": int(budget), "top_k_entities": int(top_k), "text_unit_prop": float(text_prop)}


def run_global(store: Store, question: str, options: dict[str, Any]) -> SearchResult:
    """Run the search in a worker thread and draw each map batch as it arrives."""
    llm, settings = ui.query_llm(store), ui.settings()
    live = st.empty()
    events: queue.Queue = queue.Queue()

    def work() -> None:
        try:
            events.put(("done", run_method("global", store, question, llm, settings, options,
                                           on_batch=lambda b: events.put(("batch", b)))))
        except BaseException as exc:  # noqa: BLE001 - handed to the page thread
            events.put(("error", exc))

    threading.Thread(target=work, name="sensemaker-global-search", daemon=True).start()
    batches: list = []
    with live.container():
        with st.status("Mapping community reports...", expanded=True):
            box = st.empty()
            ui_trace.live_batches(box, batches)
            while True:
                kind, value = events.get()
                if kind == "batch":
                    batches.append(value)
                    ui_trace.live_batches(box, batches)
                elif kind == "error":
                    live.empty()
                    raise value
                else:
                    break
    live.empty()  # the finished batches are shown under "How this answer was made"
    return value

"""Auto: choose the method from the question (core/query/route.py), say why, and answer with it.
Its options are passed on to the method it chooses."""
from __future__ import annotations

from core.query.methods.frame import METHODS, Method, run_method


def run(store, question, llm, settings, options, on_batch):
    from core.query.route import route
    chosen = route(store, question, [m for m in METHODS if m != "auto"])
    result = run_method(chosen.method, store, question, llm, settings, options, on_batch)
    if chosen.method == "local" and result.no_data and "basic" in METHODS:
        # "Who is Walter Pritchard?": a name the text writes (an analyst's label line) that the
        # graph holds no entity for: the passages that write it answer instead of a dead end
        result = run_method("basic", store, question, llm, settings, options, on_batch)
        chosen.method = "basic"
        chosen.reason += (" Local search found no entity of the graph it names, so basic search read the "
                          "passages instead.")
    result.params["route"] = chosen.to_dict()
    if result.trace_id:  # the stored trace says it was routed
        from core.query.traces import save_trace
        save_trace(store, result)
    return result


METHOD = Method("auto", "Auto: suggest the method",
                "choose the method from the question (named entities lean local, themes lean global) and "
                "say why", False, run, accepts_any_option=True,
                example="What are the main themes? Who is ...? Auto chooses the method from the question")

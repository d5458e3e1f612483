"""The search methods a question can be asked with, by name: one registry that the CLI
(`query --method`), the Ask page and comparisons share.

A Method's `run(store, question, llm, settings, options, on_batch)` returns a SearchResult;
`options` is a plain dict of the method's knobs (unknown keys are ignored, missing ones take
the method's defaults), so a comparison can run several methods with one call shape.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from core.query.types import SearchResult


@dataclass(frozen=True)
class Method:
    name: str
    label: str
    """Short label for the UI (the Ask page's method switch)."""
    summary: str
    """One line: what the method does, for --help and the UI."""
    needs_reports: bool
    """True when the method cannot answer without community reports."""
    run: Callable[..., SearchResult]


METHODS: dict[str, Method] = {}


def register(method: Method) -> Method:
    METHODS[method.name] = method
    return method


def run_method(name: str, store, question: str, llm=None, settings=None,
               options: dict[str, Any] | None = None, on_batch=None) -> SearchResult:
    from core.errors import UserError
    if name not in METHODS:
        raise UserError(f"unknown method {name!r}: choose one of {', '.join(METHODS)}")
    if settings is None:
        from core.settings import Settings
        settings = Settings()
    return METHODS[name].run(store, question, llm, settings, dict(options or {}), on_batch)


def _pick(options: dict[str, Any], cls, **fixed):
    """A params dataclass from the options that name its fields (None values skipped)."""
    import dataclasses
    names = {f.name for f in dataclasses.fields(cls)}
    kw = {k: v for k, v in options.items() if k in names and v is not None}
    kw.update({k: v for k, v in fixed.items() if v is not None and k not in kw})
    return cls(**kw)


def _global(store, question, llm, settings, options, on_batch):
    from core.query.global_search import global_search
    from core.query.types import GlobalParams
    params = _pick(options, GlobalParams, concurrency=settings.concurrency,
                   map_max_reports=settings.map_max_reports, language=settings.language)
    return global_search(store, question, params, llm, on_batch=on_batch)


def _local(store, question, llm, settings, options, on_batch):
    from core.query.local_search import local_search
    from core.query.types import LocalParams
    return local_search(store, question, _pick(options, LocalParams, language=settings.language), llm)


register(Method("global", "Global: the corpus as a whole",
                "map-reduce over the community reports of one level", True, _global))
register(Method("local", "Local: specific entities",
                "an answer from the neighbourhood of the entities the question names", False, _local))


def _lazy(store, question, llm, settings, options, on_batch):
    from core.query.lazy.params import LazyParams
    from core.query.lazy.search import lazy_search
    params = _pick(options, LazyParams, concurrency=settings.concurrency, language=settings.language)
    tester = options.get("relevance_llm")
    if tester is None and llm is not None and params.relevance_model and params.relevance_model != llm.model:
        from core.llm.openai import make_llm
        tester = make_llm(settings.with_changes(chat_model=params.relevance_model), getattr(llm, "store", None))
    return lazy_search(store, question, params, llm, relevance_llm=tester)


def _basic(store, question, llm, settings, options, on_batch):
    from core.query.basic_search import BasicParams, basic_search
    return basic_search(store, question, _pick(options, BasicParams, language=settings.language), llm)


register(Method("lazy", "Lazy: tested passages",
                "LazyGraphRAG: subqueries, a budget of yes/no relevance tests over the community "
                "hierarchy, claims from the relevant passages, one answer", False, _lazy))
register(Method("basic", "Basic: best passages",
                "vector RAG baseline: the question's best text units in one answer call", False, _basic))


def _drift(store, question, llm, settings, options, on_batch):
    from core.query.drift.search import DriftParams, drift_search
    params = _pick(options, DriftParams, concurrency=settings.concurrency, language=settings.language)
    return drift_search(store, question, params, llm)


def _ts(store, question, llm, settings, options, on_batch):
    from core.query.ts_search import ts_search
    from core.query.types import GlobalParams
    options = {k: v for k, v in options.items() if k != "level"}
    params = _pick(options, GlobalParams, concurrency=settings.concurrency, language=settings.language)
    return ts_search(store, question, params, llm, on_batch=on_batch)


def _auto(store, question, llm, settings, options, on_batch):
    from core.query.route import route
    chosen = route(store, question, [m for m in METHODS if m != "auto"])
    result = run_method(chosen.method, store, question, llm, settings, options, on_batch)
    result.params["route"] = chosen.to_dict()
    if result.trace_id:  # the stored trace says it was routed
        from core.query.traces import save_trace
        save_trace(store, result)
    return result


register(Method("drift", "DRIFT: primer and follow-ups",
                "a primer over the reports most like a hypothetical answer, then rounds of local "
                "search on its follow-up questions, then one reduce", True, _drift))
register(Method("ts", "TS: map-reduce over the text",
                "global map-reduce over shuffled source passages instead of reports (the paper's "
                "TS baseline)", False, _ts))
register(Method("auto", "Auto: suggest the method",
                "choose the method from the question (named entities lean local, themes lean "
                "global) and say why", False, _auto))

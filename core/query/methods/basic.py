"""Basic search, the vector-RAG baseline: the question's best text units in one answer call
(core/query/basic_search.py)."""
from __future__ import annotations

from core.query.methods.frame import Method, Option, pick
from core.query.methods.options import RESPONSE_TYPE, positive


def run(store, question, llm, settings, options, on_batch):
    from core.query.basic_search import BasicParams, basic_search
    return basic_search(store, question, pick(options, BasicParams, language=settings.language), llm)


def describe(result, engine: str, store=None) -> list[str]:
    ctx = result.context or {}
    return [f"- basic search ({engine}): {ctx.get('ranked', 0)} text units ranked by {ctx.get('ranking')}; "
            f"{len(ctx.get('sources', []))} in the context ({(ctx.get('tokens') or {}).get('sources', 0)} of "
            f"{ctx.get('budget')} tokens), {len(ctx.get('cut', []))} cut by the budget"]


METHOD = Method("basic", "Basic: best passages",
                "vector RAG baseline: the question's best text units in one answer call", False, run,
                options=(Option("max_tokens", "--context-budget",
                                "tokens of source text in the answer's context (default 8000)", positive, "TOKENS"),
                         RESPONSE_TYPE),
                describe=describe, example="What does the text say about the harbour authority?")

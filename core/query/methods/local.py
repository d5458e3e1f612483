"""Local search: an answer from the neighbourhood of the entities a question names
(core/query/local_search.py)."""
from __future__ import annotations

from core.query.methods.frame import Method, pick
from core.query.methods.options import RESPONSE_TYPE


def run(store, question, llm, settings, options, on_batch):
    from core.query.local_search import local_search
    from core.query.types import LocalParams
    return local_search(store, question, pick(options, LocalParams, language=settings.language), llm)


def describe(result, engine: str, store=None) -> list[str]:
    ctx = result.context
    names = []
    for hrid in ctx.get("entry_entities", []):
        row = store.by_hrid("entities", hrid) if store is not None else None
        names.append(row["title"] if row else str(hrid))
    tokens = ctx.get("tokens", {})
    kinds = ", ".join(f"{len(ctx.get(k, []))} {k}" for k in ("sources", "reports", "entities", "relationships", "claims"))
    return [f"- local search ({engine}); entry entities found by {ctx.get('entry_method')}: {', '.join(names) or 'none'}",
            f"- context: {kinds} ({sum(tokens.values())} of {result.params.get('max_tokens')} tokens)"]


METHOD = Method("local", "Local: specific entities",
                "an answer from the neighbourhood of the entities the question names", False, run,
                options=(RESPONSE_TYPE,), describe=describe,
                example="What do we know about the harbour authority?")

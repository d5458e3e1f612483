"""Basic search, the baseline lazy search is compared with: vector RAG as the paper's SS
condition and graphrag's basic_search. The question's best text units (embeddings where the
workspace has text-unit vectors, BM25 otherwise; core/query/unit_rank) are packed in rank
order into a token budget as a Sources table, and one call answers with
`[Data: Sources (...)]` references. Offline: the context sentences most like the question,
each with its reference.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from core.errors import UserError
from core.llm.client import LLM, LLMError
from core.prompts import render
from core.query import offline_answer as offline
from core.query.header_fields import authored_documents, header_answer
from core.query.howto import code_answer
from core.query.doc_scope import about_answer, document_units, named_documents, scope
from core.offline.definitions import fact_answer
from core.offline.sentence_rank import prose_text
from core.query.block_list import block_list
from core.query.steps import steps_list
from core.query.list_blocks import introduced_list
from core.query.mention_answer import mention_answer
from core.query.named_section import named_section_list
from core.query.lists import field_list, kind_list, section_list
from core.query.attribution import attribute_local
from core.query.budget import fit_budget
from core.query.context import Packed, language_instruction, pack_rows, source_row
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.query.types import SearchResult
from core.query.unit_rank import UnitIndex
from core.store.db import Store

SOURCES_HEADER = "id|text"


@dataclass
class BasicParams:
    max_tokens: int = 8000
    """Budget of the Sources table (8,000: the 8k-context vector RAG of the LazyGraphRAG post)."""
    top_k: int = 50
    """Units ranked at most; the budget usually binds first."""
    answer_tokens: int = 1500
    response_type: str = "multiple paragraphs"
    language: str = "auto"


def pack_sources(units: list[dict], budget: int) -> tuple[Packed, list[dict]]:
    """Units in rank order into one Sources table of at most budget tokens (header included);
    returns the table and the units that did not fit."""
    return pack_rows(SOURCES_HEADER, units, source_row, budget, title="Sources")


def basic_search(store: Store, question: str, params: BasicParams | None = None, llm: LLM | None = None,
                 record: bool = True) -> SearchResult:
    """Answer from the question's best text units. llm=None: offline (extractive)."""
    question = (question or "").strip()
    if not question:
        raise UserError("the question is empty")
    params = params or BasicParams()
    if store.count("text_units") == 0:
        raise UserError("this workspace has no text units yet: index a corpus first")
    t0 = time.perf_counter()
    before = usage_snapshot(llm)
    result = SearchResult(method="basic", question=question, engine="offline" if llm is None else "llm",
                          model=None if llm is None else llm.model, params=dataclasses.asdict(params))
    lang = language_instruction(params.language, question)
    budget, cap = params.max_tokens, params.answer_tokens
    if llm is not None:
        fixed = render("basic_search", store.workspace, context_data="", response_type=params.response_type,
                       language_instruction=lang) + question
        budget, cap = fit_budget(llm, budget, fixed, cap)
        result.params.update(max_tokens=budget, answer_tokens=cap)
    index = UnitIndex(store, llm)
    named = named_documents(store, question)  # "what does the visualization guide recommend": that guide's passages
    ranked = index.rank(question, limit=params.top_k * (20 if named else 1))
    units = scope([r.unit for r in ranked], named)[:params.top_k]
    if named and not units:  # none of its passages shares a word with the question: its opening ones
        units = document_units(store, named)[:params.top_k]
    packed, cut = pack_sources(units, budget)
    t1 = time.perf_counter()
    result.context = {"sources": [int(u["human_readable_id"]) for u in packed.records],
                      "cut": [int(u["human_readable_id"]) for u in cut], "ranking": index.method,
                      "ranked": len(units), "tokens": {"sources": packed.tokens}, "budget": budget,
                      "documents": [d["title"] for d in named],
                      "context_text": packed.text}
    listed = (mention_answer(store, question) or about_answer(store, question, named) or field_list(store, question, named)
              or header_answer(store, question, named) or authored_documents(store, question)
              or named_section_list(store, question) or section_list(store, question) or steps_list(question, packed.records)
              or block_list(question, packed.records)
              or kind_list(store, question, packed.records, named)) \
        if llm is None else None
    if listed:  # what a named document is about; a list question: the documents' own list, or the graph's entities of its kind
        result.answer = listed
    elif not packed.records:
        result.no_data = True
        result.answer = offline.no_data_answer(
            question, "没有段落与它的词语相符" if offline.has_cjk(question)
            else "no passage of the corpus matches its words")
    elif llm is None:
        # the passages that answer it (answer type, English stems and rare words: core/offline/fact_rank);
        # plain sentence BM25 (character bigrams) for a Chinese question, or when none shares a stem with it
        answer = ("" if offline.has_cjk(question) else fact_answer(question, packed.records, cap)) \
            or offline.extractive_local_answer(
            question, [("Sources", int(u["human_readable_id"]), prose_text(u)) for u in packed.records], cap)
        # a sentence introducing a list ("... modify the following config variables:") brings it
        result.answer = introduced_list(answer, packed.records) if answer else offline.no_data_answer(
            question, "no sentence of the best passages shares its words")
        code = code_answer(question, packed.records)  # a how-to: the commands the documents give, first
        if code:
            result.answer = code + ("\n\n" + result.answer if answer else "")
    else:
        system = render("basic_search", store.workspace, context_data=packed.text,
                        response_type=params.response_type, language_instruction=lang)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
        try:
            result.answer = (llm.chat(messages, max_tokens=cap, stage="basic").text or "").strip()
        except LLMError as exc:
            result.error = f"the answer call failed: {exc}"
        if result.answer:
            result.answer, added = attribute_local(result.answer, {"sources": packed.records})
            if added:
                result.context["attributed_markers"] = added
        elif not result.error:
            result.error = "the model returned an empty answer"
    t2 = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer and not result.no_data else []
    t3 = time.perf_counter()
    result.usage = usage_delta(before, llm)
    result.timings = {"context": round(t1 - t0, 4), "answer": round(t2 - t1, 4),
                      "citations": round(t3 - t2, 4), "total": round(t3 - t0, 4)}
    if record:
        save_trace(store, result)
    return result

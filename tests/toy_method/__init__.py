"""A toy search method, as a developer adds one: this folder and one `register` line. It quotes
the passage holding most of the question's words, `--passages N` of them."""
from __future__ import annotations

from core.query.methods import Control, Method, Option, pick
from core.query.resolve import resolve_answer
from core.query.traces import save_trace
from core.query.types import SearchResult
from core.text.lexical import terms
from dataclasses import dataclass


@dataclass
class ToyParams:
    passages: int = 1


def run(store, question, llm, settings, options, on_batch):
    params = pick(options, ToyParams)
    words = set(terms(question))
    units = store.query("select human_readable_id, text from text_units")
    ranked = sorted(units, key=lambda u: -len(words & set(terms(u["text"]))))[:params.passages]
    answer = " ".join(f"Toy quotes: {' '.join(u['text'].split()[:12])} [Data: Sources ({u['human_readable_id']})]."
                      for u in ranked)
    result = SearchResult(method="toy", question=question, answer=answer, params={"passages": params.passages})
    result.citations = resolve_answer(store, answer)
    save_trace(store, result)
    return result


def describe(result, engine, store=None):
    return [f"- toy search ({engine}): quoted {result.params['passages']} passage(s)"]


METHOD = Method("toy", "Toy: one quoted passage", "quotes the passage holding most of the question's words",
                False, run,
                options=(Option("passages", "--passages", "passages quoted (default 1)", int, "N",
                                Control("int", "Passages quoted", 1, 5), 1),),
                describe=describe, example="Ask the toy anything")

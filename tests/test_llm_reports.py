"""Community reports from a small model keep their references even when it files them in a
field of their own instead of ending the explanation with them."""
from __future__ import annotations

import json

from core.engine import ReportInput
from core.index.llm_engine import LLMEngine
from core.llm import LLM
from core.query.citations import parse_citations
from core.settings import Settings
from tests.fakes import FakeChat


def _report(findings):
    return json.dumps({"title": "The Paranormal Military Squad", "summary": "Agents at Dulce.", "rating": 8,
                       "rating_explanation": "Central.", "findings": findings})


def _write(findings):
    engine = LLMEngine(LLM(FakeChat(lambda m: _report(findings))), Settings(engine="llm"))
    inp = ReportInput(community=0, level=0, entities=[], relationships=[], claims=[], sub_reports=[],
                      context_text="-----Entities-----\nid|entity|description\n3|ALEX MERCER|An agent.")
    return engine.write_report(inp)["findings"]


def test_references_in_a_citations_field_are_folded_into_the_explanation():
    found = _write([
        {"summary": "Mercer leads", "explanation": "Alex Mercer leads the squad.",
         "citations": ["Data: Entities (3, 1); Relationships (7)"]},
        {"summary": "Hayes decodes", "explanation": "Jordan Hayes decodes the signal.", "references": "Entities (4)"},
        {"summary": "Already cited", "explanation": "Cruz gives orders [Data: Entities (5)].",
         "citations": ["[Data: Entities (5)]"]},
        {"summary": "No ids", "explanation": "Nothing to cite.", "citations": ["the text above"]},
    ])
    assert found[0]["explanation"] == "Alex Mercer leads the squad. [Data: Entities (3, 1); Relationships (7)]"
    assert found[1]["explanation"] == "Jordan Hayes decodes the signal. [Data: Entities (4)]"
    assert found[2]["explanation"] == "Cruz gives orders [Data: Entities (5)]."  # not doubled
    assert found[3]["explanation"] == "Nothing to cite."
    refs = [(r.kind, r.id) for c in parse_citations(found[0]["explanation"]) for r in c.refs]
    assert refs == [("Entities", 3), ("Entities", 1), ("Relationships", 7)]

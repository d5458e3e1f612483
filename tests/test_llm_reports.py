"""Community reports from a small model keep their references even when it files them in a
field of their own instead of ending the explanation with them."""
from __future__ import annotations

import json

from core.engine import ReportInput
from core.index.llm_engine import LLMEngine
from core.llm.client import LLM
from core.text.citations import parse_citations
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


ENTS = [{"human_readable_id": 0, "title": "ALEX MERCER", "description": "An agent.", "degree": 3},
        {"human_readable_id": 1, "title": "SAM RIVERA", "description": "An agent.", "degree": 2},
        {"human_readable_id": 2, "title": "DULCE", "description": "A base.", "degree": 1}]
NOBODY = {"title": "Paranormal Military Squad", "summary": "A group of related entities, including its key agents.",
          "rating": 8, "rating_explanation": "Central.",
          "findings": [{"summary": "The squad", "explanation": "Its members serve the squad at Dulce. [Data: Entities (2)]"}]}
NAMED = {**NOBODY, "summary": "Alex Mercer and Sam Rivera lead the squad at Dulce.",
         "findings": [{"summary": "Mercer leads", "explanation": "Mercer leads Rivera. [Data: Entities (0, 1)]"}]}


def _engine(answers):
    chat = FakeChat(lambda m: json.dumps(answers[min(len(chat.calls), len(answers)) - 1]))
    engine = LLMEngine(LLM(chat), Settings(engine="llm"))
    inp = ReportInput(community=4, level=0, entities=ENTS, relationships=[], claims=[], sub_reports=[],
                      context_text="-----Entities-----\nid|entity|description|degree\n0|ALEX MERCER|An agent.|3")
    return engine, chat, inp


def test_a_report_naming_none_of_its_entities_is_asked_again_with_their_names():
    engine, chat, inp = _engine([NOBODY, NAMED])
    report = engine.write_report(inp)
    assert len(chat.calls) == 2
    reminder = chat.calls[1][-1]["content"]
    assert "Alex Mercer, Sam Rivera, Dulce" in reminder and reminder.startswith(chat.calls[0][0]["content"])
    assert report["summary"] == "Alex Mercer and Sam Rivera lead the squad at Dulce."
    assert "[Data: Entities (0, 1)]" in report["findings"][0]["explanation"]


def test_the_first_report_is_kept_when_the_second_names_no_more():
    engine, chat, inp = _engine([NOBODY, {**NOBODY, "summary": "Still nobody."}])
    report = engine.write_report(inp)
    assert len(chat.calls) == 2
    assert report["summary"] == NOBODY["summary"]


def test_a_report_naming_its_entities_is_asked_once_even_by_surname():
    engine, chat, inp = _engine([{**NOBODY, "summary": "Mercer and Rivera lead the squad."}])
    report = engine.write_report(inp)
    assert len(chat.calls) == 1
    assert report["summary"] == "Mercer and Rivera lead the squad."

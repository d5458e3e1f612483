"""Questions a document's header answers ("Who wrote it?", "When was PEP 8 created?", "What is
its status?") get the header's own field, cited, one line per document; a question about a
thing the documents discuss ("Who created the match statement?") is not read as one."""
from __future__ import annotations

from core.query.header_fields import about_the_document, asked_field
from core.query.methods import run_method
from core.query.route import route_question
from core.store.db import Store

from conftest import build_workspace

SPEC = """PEP: 9101
Title: Harbour record exchange format
Author: Maria Okafor <maria@example.org>,
        Tanner Quay <tanner@example.org>
Status: Draft
Created: 04-Mar-2024

Abstract
========

This proposal defines how harbour authorities exchange berth records. The match statement of
the record reader was proposed by the port's software team.
"""
MEMO = """Title: Berth closures
Author: Owen Pike
Status: Final
Created: 11-Apr-2024

The memo lists the berths closed after the spill and when each reopens.
"""


def test_what_a_header_question_asks_for():
    assert asked_field("Who wrote it?")[1] == "author"
    assert asked_field("When was PEP 9101 created?")[1] == "date"
    assert asked_field("Is this PEP accepted?")[1] == "status"
    assert asked_field("What is the harbour's busiest berth?") is None
    assert about_the_document("Who wrote it?") and about_the_document("What is this proposal's status?")
    assert not about_the_document("Who created the match statement?")


def test_header_questions_get_the_fields_each_document_gives(tmp_path):
    path = build_workspace(tmp_path, "specs", [("pep-9101.rst", SPEC.encode()), ("memo.txt", MEMO.encode())])
    store = Store(path)
    try:
        who = run_method("auto", store, "Who wrote it?")
        assert who.method == "basic", who.method
        lines = who.answer.splitlines()
        assert lines[0] == "The author each document's header gives:", who.answer
        assert any("Author: Maria Okafor, Tanner Quay [Data: Sources (" in x for x in lines), who.answer
        assert any("Author: Owen Pike [Data: Sources (" in x for x in lines), who.answer
        assert "@" not in who.answer  # addresses left out
        status = run_method("auto", store, "What is its status?").answer
        assert "Status: Draft" in status and "Status: Final" in status, status
        # a thing the documents discuss is asked of the text, not of the headers
        match = run_method("auto", store, "Who proposed the match statement?").answer
        assert "Author:" not in match, match
    finally:
        store.close()


def test_a_header_question_routes_to_basic_unless_it_asks_about_a_thing():
    assert route_question("Who wrote it?", available=("global", "local", "basic")).method == "basic"
    assert "header" not in route_question("Who created Kafka?", available=("global", "local", "basic")).signals


def test_who_is_someone_a_header_names_gives_their_role_there_first(tmp_path):
    path = build_workspace(tmp_path, "specs", [("pep-9101.rst", SPEC.encode()), ("memo.txt", MEMO.encode())])
    store = Store(path)
    try:
        answer = run_method("auto", store, "Who is Owen Pike?").answer
    finally:
        store.close()
    assert answer.startswith("Owen Pike: Author of memo.txt (Berth closures) [Data: Sources ("), answer


def test_auto_falls_back_to_the_passages_when_local_search_finds_no_entity(tmp_path):
    """A name the text writes once, opening a sentence, is no entity of the graph (nothing tells it
    from a sentence's first word): Auto reads the passages that write it instead of answering "it
    names no entity". (An analyst's label line, "WALTER PRITCHARD, Citi:", names a person and a
    firm: tests/test_speaker_labels.py.)"""
    call = ("Operator: Our next question comes from the line of a caller.\n\n"
            "Pritchard asked about the phone business and when it breaks even.\n\n"
            "SATYA NADELLA: We expect the phone business to break even next year as costs come down.\n")
    path = build_workspace(tmp_path, "call", [("call.txt", call.encode())])
    store = Store(path)
    try:
        assert not store.query("select title from entities where title like '%PRITCHARD%'")
        result = run_method("auto", store, "Who is Pritchard?")
    finally:
        store.close()
    assert result.method == "basic" and "no entity of the graph" in result.params["route"]["reason"]
    assert not result.no_data and "phone business" in result.answer, result.answer


def test_a_transcript_s_speaker_labels_are_no_header():
    from core.query.header_fields import header_fields
    turns = ("JARON LANIER: My research partner Glen Weyl and I came up with the term MID.\n\n"
             "KEVIN SCOTT: That is a great term.\n")
    assert header_fields(turns) == []
    assert [k for k, _ in header_fields(SPEC)] == ["PEP", "Title", "Author", "Status", "Created"]


def test_the_documents_a_person_authored_are_those_whose_header_names_them(tmp_path):
    path = build_workspace(tmp_path, "specs", [("pep-9101.rst", SPEC.encode()), ("memo.txt", MEMO.encode())])
    store = Store(path)
    try:
        which = run_method("auto", store, "Which documents did Tanner Quay author?").answer
        what = run_method("auto", store, "What did Owen Pike write?").answer
    finally:
        store.close()
    assert which.startswith("1 document names Tanner Quay as an author in its header:"), which
    assert "- pep-9101.rst (Harbour record exchange format): Author: Maria Okafor, Tanner Quay [Data: Sources (" in which
    assert "memo.txt" not in which
    assert "- memo.txt (Berth closures): Author: Owen Pike [Data: Sources (" in what, what

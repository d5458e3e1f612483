"""A question about what the documents never name is answered with that first, by every method
and both through Auto and the CLI, and the trace keeps it; a question about what they do name
gets no such line."""
from __future__ import annotations

import json

import pytest

from conftest import build_workspace
from core.cli.main import main
from core.query.methods import run_method
from core.query.traces import load_trace
from core.store.db import Store


@pytest.fixture()
def store(indexed_home):
    return Store(indexed_home / "test")


@pytest.mark.parametrize("method", ["auto", "local", "basic", "global"])
def test_a_name_no_document_holds_is_said_first_once(store, method):
    r = run_method(method, store, "What did the Cedar Grove Clinic report about the hoses?")
    assert r.absent == ["Cedar Grove Clinic"]
    assert r.answer.startswith("The documents do not mention Cedar Grove Clinic.")
    assert r.answer.count("do not mention") == 1


def test_a_name_the_documents_hold_gets_no_such_line(store):
    name = store.rows("entities", order_by="degree desc", limit=1)[0]["title"].title()
    r = run_method("auto", store, f"What did {name} do?")
    assert r.absent == [] and "do not mention" not in r.answer


def test_the_cli_says_it_and_the_trace_keeps_it(home, capsys):
    main(["query", "Who runs the Cedar Grove Clinic?", "--workspace", str(home / "test"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["answer"].startswith("The documents do not mention Cedar Grove Clinic.")
    assert out["absent"] == ["Cedar Grove Clinic"]
    assert load_trace(Store(home / "test"), out["trace_id"]).absent == ["Cedar Grove Clinic"]


def test_a_number_of_a_series_the_documents_never_reach_is_said_first(tmp_path):
    # the documents name PEP 621 and RFC 822; a question about PEP 810 must not read "PEP" as present
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_files
    from core.settings import Settings
    from tests.test_rst_structure import PEP
    ws = Store(tmp_path / "ws")
    ingest_files(ws, [("pep-9999.rst", PEP.encode())], max_bytes=1_000_000)
    run_index(ws, Settings(engine="offline"))
    r = run_method("auto", ws, "What does PEP 810 propose for lazy imports?")
    assert r.absent == ["PEP 810"] and r.answer.startswith("The documents do not mention PEP 810.")
    assert run_method("auto", ws, "What does PEP 621 say about metadata?").absent == []
    from core.query.methods.frame import absent_series
    assert absent_series(ws, "What happened in FY 2024?") == []  # a year: no number of a series
    # the documents write "PEP", never its words: what they are is no name they fail to mention
    assert absent_series(ws, "What themes run through these Python Enhancement Proposals?") == []


def test_a_period_only_the_documents_title_holds_is_not_absent(tmp_path):
    """A call's text says "this quarter", never "FY17 Q3"; its file is TranscriptFY17Q3.txt. A
    question about FY17 Q3 is about that call, not about something the documents do not mention;
    a period no title holds still is."""
    text = ("Amy Hood: Our third quarter revenue was $23.6 billion, up 6 percent. Our innovation in Dynamics is "
            "driving strong revenue growth with Dynamics 365 up 82% in constant currency this quarter. "
            "Satya Nadella: Azure revenue grew 93 percent this quarter.")
    st = Store(build_workspace(tmp_path, "ws", [("TranscriptFY17Q3.txt", text.encode())]))
    r = run_method("auto", st, "How fast was Dynamics 365 revenue growing in FY17 Q3?")
    assert r.absent == [] and "do not mention" not in r.answer, r.answer
    assert "82%" in r.answer.split("\n\n")[0], r.answer
    assert run_method("auto", st, "How fast was Azure growing in FY19 Q2?").absent == ["FY19 Q2"]


def test_a_version_or_a_tool_no_document_holds_is_said_first(tmp_path):
    """The documents name Windows 8 and Surface Pro 3 and the tools pip and tomlkit; a question
    about Windows 10 or about isort asks about what they never mention."""
    text = ("Satya Nadella: Windows 8 sales grew this quarter, and Surface Pro 3 launched in June. "
            "Amy Hood: Developers install the tools with pip, and the config reader uses the tomlkit library.")
    st = Store(build_workspace(tmp_path, "ws", [("call.txt", text.encode())]))
    r = run_method("auto", st, "When will Windows 10 ship, and what did they say about it?")
    assert r.absent == ["Windows 10"] and r.answer.startswith("The documents do not mention Windows 10."), r.answer
    r = run_method("auto", st, "Does the guide tell me to sort my imports with isort?")
    assert r.absent == ["isort"], r.answer
    for q in ["What did they say about Windows 8?", "How did Surface Pro 3 do?", "Which tools use tomlkit or pip?"]:
        assert run_method("auto", st, q).absent == [], q


def test_a_name_typed_in_lower_case_or_of_common_words_is_said_first_when_absent(tmp_path):
    """A user types names in lower case ("did anyone talk about stable diffusion?") and names made
    of common words ("Second Life"): where the documents never write them, the answer says so
    first; what they do write, in whatever case, is not called absent."""
    text = ("Kevin Scott: We talked about Roblox and about second chances in life. The lab ran a diffusion "
            "experiment on stable isotopes, and the base is connected to the lake by a tunnel. "
            "Christina Warren: Project Natick put a datacenter under the sea.")
    st = Store(build_workspace(tmp_path, "ws", [("episode.txt", text.encode())]))
    r = run_method("auto", st, "did anyone talk about stable diffusion?")
    assert r.absent == [], r.answer  # both words are in the text, if not together: no lower-case name said absent
    r = run_method("auto", st, "how is the base connected to groom lake?")
    assert r.absent == ["groom lake"] and r.answer.startswith("The documents do not mention groom lake."), r.answer
    r = run_method("auto", st, "Does Kevin compare Roblox with Second Life?")
    assert r.absent == ["Second Life"], r.answer
    for q in ["what did they say about project natick?", "What did they say about Project Natick?",
              "what did they say about the stable isotopes?"]:
        assert run_method("auto", st, q).absent == [], q


def test_a_place_joined_by_of_or_a_thing_after_an_article_is_said_first_when_absent(tmp_path):
    text = ("Scrooge walked from his counting-house to the Bank of England and back through the street. "
            "He ate his dinner in the usual melancholy tavern and went home to bed by the fire.")
    st = Store(build_workspace(tmp_path, "ws", [("carol.txt", text.encode())]))
    r = run_method("auto", st, "Does Scrooge visit the Tower of London?")
    assert r.absent == ["Tower of London"], r.answer
    r = run_method("auto", st, "What does Scrooge do at the opera?")
    assert r.absent == ["opera"] and r.answer.startswith("The documents do not mention opera."), r.answer
    r = run_method("auto", st, "is there a scene in a railway station?")
    assert r.absent == ["railway station"], r.answer
    for q in ["Did Scrooge visit the Bank of England?", "What does Scrooge eat for his dinner?",
              "Who does Scrooge meet in the street?"]:
        assert run_method("auto", st, q).absent == [], q
    # a thing the question describes in its own words, whose noun the text holds: no absent line
    assert run_method("auto", st, "What did Scrooge eat in the abandoned tavern?").absent == []


def test_the_one_thing_a_yes_or_no_question_ends_on_is_said_absent_typed_in_lower_case(tmp_path):
    """"does it support milvus?": WordNet knows "milvus" (a genus of kites), so no rule for
    unknown words catches it; it is what the question asks about, and no unit holds it. A word of
    the family the documents write ("streaming": "stream") and one they write are not absent."""
    text = ("The vector store can be LanceDB or Azure AI Search. Results stream back to the caller, and the "
            "pipeline reads CSV and text files. You can run the indexer from the command line.")
    st = Store(build_workspace(tmp_path, "ws", [("store.txt", text.encode())]))
    r = run_method("auto", st, "does it support milvus?")
    assert r.absent == ["milvus"] and r.answer.startswith("The documents do not mention milvus."), r.answer
    assert run_method("auto", st, "can i run the indexing on a schedule with airflow?").absent == ["airflow"]
    assert run_method("auto", st, "does it support streaming?").absent == []
    assert run_method("auto", st, "does it support lancedb?").absent == []

"""A search method is one unit: a toy method (tests/toy_method/, one folder) registered with one
line shows up in `sensemaker query` (its own --help, its option, refused for other methods),
in run_method, and on the Ask page (its option as a widget, its answer with references)."""
from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.errors import UserError
from core.query.methods import METHODS, register, run_method, unregister
from core.store.db import Store
from test_app_pages import _app, _ask, _open, _viewers
from toy_method import METHOD as TOY


@pytest.fixture()
def toy():
    register(TOY)  # the one line a new method adds to core/query/methods/__init__.py
    yield TOY
    unregister("toy")



def _ws(home):
    return home / "test"  # conftest's indexed_home: one workspace, three sample documents


def test_the_cli_lists_the_new_method_and_its_own_options(toy, home, capsys):
    assert main(["query", "--method", "toy", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--passages" in text and "--budget" not in text and "--level" not in text
    assert main(["query", "--method", "lazy", "--help"]) == 0
    assert "--passages" not in capsys.readouterr().out
    ws = _ws(home)
    assert main(["query", "What happened at Tanner Quay?", "-w", str(ws), "--method", "toy", "--passages", "2",
                 "--engine", "offline", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "toy" and out["answer"].count("Toy quotes") == 2 and out["engine"] == "offline"
    assert main(["query", "What happened?", "-w", str(ws), "--method", "global", "--passages", "2"]) == 2
    assert "--passages is an option of --method toy, not global" in capsys.readouterr().err


def test_run_method_runs_the_new_method_through_the_frame(toy, home):
    store = Store(_ws(home))
    result = run_method("toy", store, "Tanner Quay", options={"passages": 1, "budget": 5})
    assert result.answer.startswith("Toy quotes") and result.citations and result.engine == "offline"
    with pytest.raises(UserError, match="give a question"):
        run_method("toy", store, "   ")


def test_the_ask_page_offers_the_new_method_with_its_option(toy, home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    assert "Toy" in at.get("button_group")[0].options
    at.get("button_group")[0].set_value("toy").run()
    at.number_input(key="ask_toy_passages").set_value(2)
    _ask(at, "What happened at Tanner Quay?")
    assert "Toy quotes" in at.markdown[0].value or any("Toy quotes" in m.value for m in at.markdown)
    assert _viewers(at, "ans_"), "the toy's answer has no reference chips"


def test_every_registered_method_declares_what_the_cli_and_app_need():
    for m in METHODS.values():
        assert m.summary and m.label and m.example
        flags = [o.flag for o in m.options]
        assert len(flags) == len(set(flags)), m.name


def test_a_stored_drift_trace_reads_back_as_its_typed_record():
    """DRIFT's trace is a typed record; one stored before (or by an older version, with fields
    missing) opens the same."""
    from core.query.drift.trace import DriftTrace
    from core.query.types import SearchResult
    stored = {"hypothetical_answer": "", "report_ranking": "bm25", "top_reports": [3, 1],
              "nodes": [{"id": 1, "query": "Q", "depth": 0, "parent": None, "answer": "A", "score": 60,
                         "follow_ups": ["F"], "reports": [3], "context": {}, "error": None, "seconds": 0.1},
                        {"id": 2, "query": "F", "depth": 1, "parent": 1, "score": 40}],
              "reduce": {"selected": [1], "cut": [2]}}
    result = SearchResult(method="drift", question="Q", context={"drift": stored})
    t = METHODS["drift"].trace(result)
    assert isinstance(t, DriftTrace) and [n.depth for n in t.nodes] == [0, 1] and t.rounds == []
    assert t.to_dict()["nodes"][0] == stored["nodes"][0] and t.reduce == stored["reduce"]
    assert any("2 reports ranked by bm25" in line for line in METHODS["drift"].describe(result, "offline", None))

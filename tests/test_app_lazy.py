"""Lazy and basic search on the Ask page (Streamlit AppTest, offline engine): the method switch
lists the registry's methods, the options reach the search, and the trace is drawn:
subqueries, the visited community path, the tests with yes/no, the claims; references are chips."""
from __future__ import annotations

from core.query.methods import METHODS
from tests.test_app_pages import _app, _ask, _open, _plain, _viewers

QUESTION = "What happened at Tanner Quay and who was responsible?"


def test_the_method_switch_lists_every_registered_method(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    switch = at.get("button_group")[0]
    shown = [o.content for o in switch.proto.options]
    assert sorted(shown) == sorted(m.label.split(":")[0] for m in METHODS.values())  # short names
    assert shown[0] == "Auto"  # auto comes first: the default (issue 21)


def test_lazy_question_draws_subqueries_path_tests_and_claims(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("lazy").run()
    at.selectbox(key="ask_lazy_budget").set_value(100)
    at.number_input(key="ask_lazy_z").set_value(2)
    _ask(at, QUESTION)
    captions = " ".join(_plain(c.value) for c in at.caption)
    assert "Offline: no model was called" in captions and "Budget 100 relevance tests" in captions
    assert "z 2" in captions and "Subquery 1:" in captions
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    subs = next(v for k, v in frames.items() if "subquery" in k and "concepts" in k)
    assert list(subs["subquery"]) == [QUESTION]
    visits = next(v for k, v in frames.items() if "went deeper" in k)
    assert len(visits) >= 2 and list(visits["order"]) == list(range(1, len(visits) + 1))
    tests = next(v for k, v in frames.items() if "passage read" in k)
    assert set(tests["relevant"]) <= {"yes", "no"} and "yes" in set(tests["relevant"])
    assert len(tests) <= 100
    claims = next(v for k, v in frames.items() if "claim" in k and "in context" in k)
    assert len(claims) and "yes" in set(claims["in context"])
    chips = _viewers(at, "ans_")
    assert chips and all(o.startswith("Source ") for c in chips for o in c.options)


def test_basic_question_shows_the_passages_it_read(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("basic").run()
    at.number_input(key="ask_basic_ctx").set_value(1500)
    _ask(at, QUESTION)
    captions = " ".join(_plain(c.value) for c in at.caption)
    assert "passages ranked by bm25" in captions and "of 1,500 tokens" in captions
    assert _viewers(at, "ans_")

"""The Ask page with DRIFT, TS and auto (its default): each answers, shows its trace and keeps
the references clickable; auto says which method it chose and why."""
from __future__ import annotations



from test_app_pages import _app, _ask, _open, _plain, _viewers



def test_auto_is_the_default_and_says_why_it_chose(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    assert at.get("button_group")[0].value == "auto"
    _ask(at, "Who is Maria Okafor?")
    said = " ".join(_plain(i.value) for i in at.info)
    assert "Auto chose local search" in said and "Maria Okafor" in said.title()
    assert _viewers(at, "ans_"), "the routed answer has no reference chips"
    _ask(at, "What are the main themes across these documents?")
    said = " ".join(_plain(i.value) for i in at.info)
    assert "Auto chose global search" in said
    assert any("best score" in d.value.columns for d in at.dataframe)  # global's own trace


def test_drift_shows_its_tree_of_follow_ups(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("drift").run()
    at.number_input(key="ask_drift_depth").set_value(1)
    at.number_input(key="ask_drift_k").set_value(3)
    _ask(at, "What happened at Tanner Quay?")
    tree = next(d.value for d in at.dataframe if "step" in d.value.columns)
    assert (tree["depth"] == 0).any() and (tree["depth"] == 1).any()
    assert (tree[tree["depth"] == 1]["score"] >= 0).all()
    assert at.get("plotly_chart"), "no tree figure"
    assert any("3 follow-ups per round, depth 1" in _plain(c.value) for c in at.caption)
    assert _viewers(at, "ans_")


def test_ts_maps_passages_not_reports(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("ts").run()
    _ask(at, "What are the main themes?")
    batches = next(d.value for d in at.dataframe if "passages" in d.value.columns)
    assert batches["passages"].sum() >= 1
    assert any("source passages (not reports)" in _plain(c.value) for c in at.caption)
    labels = [o for c in _viewers(at, "ans_") for o in c.options]
    assert labels and all(l.startswith("Source ") for l in labels)

"""The Compare page: one question, two methods side by side with references and cost, the
judge's verdicts with reasons, the A/A line, and the saved run as a heatmap."""
from __future__ import annotations



from test_app_pages import _app, _open, _plain, _viewers



def test_compare_two_methods_side_by_side_with_verdicts_and_heatmap(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/compare.py")
    assert any("Saved comparisons appear here" in c.value for c in at.caption)
    at.text_area(key="cmp_question").input("What are the main conflicts in the city?")
    at.multiselect(key="cmp_methods").set_value(["global", "local"])
    at.number_input(key="cmp_trials").set_value(1)
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception, at.exception
    heads = [_plain(m.value) for m in at.markdown if m.value.startswith("#####")]
    assert heads == ["##### Global: the corpus as a whole", "##### Local: specific entities"]
    assert _viewers(at, "cmp_global") and _viewers(at, "cmp_local")  # both answers keep their references
    captions = " ".join(_plain(c.value) for c in at.caption)
    assert "LLM calls" in captions and "references:" in captions
    verdicts = next(d.value for d in at.dataframe if "reason" in d.value.columns)
    assert set(verdicts["shown first"]) == {"global", "local"}  # both orders
    assert verdicts["reason"].str.contains("offline judge").all()
    rates = next(d.value for d in at.dataframe if "win rate" in d.value.columns)
    assert set(rates["criterion"]) == {"comprehensiveness", "diversity", "empowerment", "directness"}
    assert at.success and "A/A check passed" in _plain(at.success[0].value)
    assert len(at.get("plotly_chart")) == 2  # heatmap and cost
    saved = at.selectbox(key="cmp_saved")
    assert len(saved.options) == 1 and "what-are-the-main-conflicts" in saved.options[0]


def test_compare_asks_for_two_methods(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/compare.py")
    at.text_area(key="cmp_question").input("Who is Maria Okafor?")
    at.multiselect(key="cmp_methods").set_value(["local"])
    next(b for b in at.button if b.label == "Compare").click().run()
    assert any("at least two methods" in w.value for w in at.warning)

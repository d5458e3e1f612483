"""What a 1,024 px screen cuts: the run table's status (now its second column, before the ones
scrolled to) and the hierarchy treemap's labels (a cell's label is its title's first name, so
small cells are named; the hover keeps the whole title)."""
from __future__ import annotations



from core.store.db import Store
from core.viz.charts import hierarchy_figure
from test_app_pages import _app, _open



def test_the_run_table_shows_the_status_second(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/corpus.py")
    runs = next(d.value for d in at.dataframe if "operation" in d.value.columns)
    assert list(runs.columns[:2]) == ["run", "status"]


def test_treemap_cells_are_named_by_a_short_label_and_hover_the_whole_title(home):
    store = Store(home / "test")
    comms = store.rows("communities")
    reps = store.rows("community_reports")
    fig = hierarchy_figure(comms, reps)
    tree = fig.data[0]
    titles = {f"c{r['community']}": r["title"] for r in reps}
    for cid, label, hover in zip(tree.ids, tree.labels, tree.customdata):
        if cid in titles:
            assert len(label) <= 24 and titles[cid].startswith(label.rstrip("\u2026").strip())
            assert titles[cid][:60] in hover

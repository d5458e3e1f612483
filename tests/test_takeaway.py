"""Downloads (issue 19): an answer's Markdown quotes the source sentence behind each citation
with its verdict; a community's GraphML holds its entities; the workspace zip holds the CLI's
export files."""
from __future__ import annotations

import io
import zipfile

import networkx as nx

from core.interop.takeaway import answer_markdown, community_graphml, report_markdown, workspace_zip
from core.query.global_search import global_search
from core.query.types import GlobalParams
from core.store.db import Store


def test_answer_markdown_resolves_every_citation_to_a_quoted_sentence(indexed_home):
    store = Store(indexed_home / "test")
    result = global_search(store, "What happened at Tanner Quay?", GlobalParams(level=0))
    md = answer_markdown(store, result)
    assert md.startswith("# What happened at Tanner Quay?\n")
    assert "## Answer" in md and "## Evidence" in md
    verdicts = [l for l in md.splitlines() if "verdict: **" in l]
    assert verdicts and all(any(v in l for v in ("supported", "weak", "unsupported")) for l in verdicts)
    quotes = [l.strip() for l in md.splitlines() if l.strip().startswith("> ")]
    assert quotes
    # each quote is a sentence of a document of the workspace, and names where it comes from
    docs = " ".join(" ".join(d["text"].split()) for d in store.rows("documents", select="text"))
    for q in quotes:
        sentence = q[2:].rsplit(" (Source ", 1)[0]
        assert sentence in docs, sentence
        assert "(Source " in q


def test_report_markdown_and_community_graphml(indexed_home):
    store = Store(indexed_home / "test")
    report = store.rows("community_reports", limit=1)[0]
    md = report_markdown(store, report)
    assert md.startswith("# ") and "## Findings" in md and "verdict: **" in md
    c = store.rows("communities", "community = ?", [report["community"]], limit=1)[0]
    g = nx.read_graphml(io.BytesIO(community_graphml(store, c)))
    titles = {e["title"] for e in store.by_ids("entities", c["entity_ids"])}
    assert set(g.nodes) == titles and g.number_of_edges() > 0


def test_workspace_zip_holds_the_export_files(indexed_home):
    store = Store(indexed_home / "test")
    names = zipfile.ZipFile(io.BytesIO(workspace_zip(store, "csv"))).namelist()
    assert "entities.csv" in names and "relationships.csv" in names
    assert zipfile.ZipFile(io.BytesIO(workspace_zip(store, "graphml"))).namelist() == ["graph.graphml"]


def test_an_export_for_a_colleague_leaves_the_questions_out(indexed_home, tmp_path, monkeypatch, capsys):
    """The workspace export used to carry every question and answer without a word; the analyst
    now sees how many and leaves them out (the app's default), or keeps them."""
    import shutil

    from core.cli.main import main
    from core.query.methods import run_method
    from test_app_pages import _app, _open
    home = tmp_path / "home"
    shutil.copytree(indexed_home, home)
    store = Store(home / "test")
    run_method("local", store, "Who is Maria Okafor?")
    run_method("basic", store, "What happened at Tanner Quay?")
    asked = store.count("query_traces")
    assert asked >= 2
    kept = zipfile.ZipFile(io.BytesIO(workspace_zip(store, "csv"))).namelist()
    left = zipfile.ZipFile(io.BytesIO(workspace_zip(store, "csv", questions=False))).namelist()
    assert "query_traces.csv" in kept and "llm_cache.csv" in kept
    assert "query_traces.csv" not in left and "llm_cache.csv" not in left and "entities.csv" in left
    assert main(["export", "--workspace", str(home / "test"), "--format", "csv", "--out", str(tmp_path / "out"),
                 "--no-questions"]) == 0
    assert not (tmp_path / "out" / "query_traces.csv").exists() and (tmp_path / "out" / "entities.csv").exists()
    at = _open(_app(home, monkeypatch), "pages/corpus.py")
    box = at.checkbox(key="dl_ws_questions")
    assert box.value is False and f"Include the {asked} questions asked here and their answers" in box.label

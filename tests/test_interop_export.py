"""Exporting a workspace: graphrag parquet (and back in: a round trip), GraphML for Gephi, CSV."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import networkx as nx
import pyarrow.parquet as pq
import pytest

from core.cli.main import main
from core.interop.columns import EXPORT_COLUMNS
from core.interop.export import export_workspace
from core.interop.graphrag_import import import_graphrag
from core.store.schema import CITABLE, TABLES
from core.store.db import Store

CAROL = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / \
    "christmas_carol_graphrag_reference" / "parquet"
DATA = re.compile(r"\[Data:([^\]]*)\]")
PART = re.compile(r"(\w+)\s*\(([^)]*)\)")

TEXT = ("Alice founded Acme in Paris. Bob joined Acme as its engineer. "
        "Carol audits Acme for the Paris council. Alice and Bob argue about the budget.")


def citations(text: str) -> list[tuple[str, int]]:
    return [(kind, int(i)) for body in DATA.findall(text) for kind, ids in PART.findall(body)
            for i in (x.strip() for x in ids.split(",")) if i.isdigit()]


def build_index(store: Store) -> None:
    """A small index as our pipeline writes it: 1 document, 3 overlapping units, 5 entities,
    5 relationships, 2 claims, 3 communities on 2 levels, 3 reports citing each other."""
    spans = [(0, 62), (29, 102), (62, len(TEXT))]
    units = [{"id": f"tu{i}", "document_id": "doc1", "ordinal": i, "text": TEXT[a:b],
              "n_tokens": len(TEXT[a:b].split()), "char_start": a, "char_end": b}
             for i, (a, b) in enumerate(spans)]
    store.insert("documents", [{"id": "doc1", "title": "acme.txt", "source_name": "acme.txt",
                                "mime": "text/plain", "text": TEXT, "n_tokens": 30,
                                "metadata": {"source": "test"}, "status": "chunked"}])
    store.insert("text_units", units)
    ents = [("ALICE", "PERSON", ["tu0", "tu2"]), ("ACME", "ORGANIZATION", ["tu0", "tu1", "tu2"]),
            ("PARIS", "GEO", ["tu0", "tu2"]), ("BOB", "PERSON", ["tu1", "tu2"]),
            ("CAROL", "PERSON", ["tu2"])]
    store.insert("entities", [{"id": f"e-{t}", "title": t, "type": ty, "description": f"{t} desc",
                               "text_unit_ids": tus, "frequency": len(tus), "degree": 0}
                              for t, ty, tus in ents])
    rels = [("ALICE", "ACME", ["tu0"]), ("BOB", "ACME", ["tu1"]), ("CAROL", "ACME", ["tu2"]),
            ("CAROL", "PARIS", ["tu2"]), ("ALICE", "BOB", ["tu2"])]
    store.insert("relationships", [{"id": f"r-{s}-{t}", "source": s, "target": t,
                                    "description": f"{s} and {t}", "weight": 1.0 + i,
                                    "text_unit_ids": tus} for i, (s, t, tus) in enumerate(rels)])
    store.insert("claims", [
        {"id": "c1", "subject": "ALICE", "object": "ACME", "type": "FOUNDING", "status": "TRUE",
         "description": "Alice founded Acme", "source_text": "Alice founded Acme", "text_unit_id": "tu0"},
        {"id": "c2", "subject": "CAROL", "object": None, "type": "AUDIT", "status": "SUSPECTED",
         "description": "Carol audits Acme", "source_text": "Carol audits Acme", "text_unit_id": "tu2"}])
    all_e = [f"e-{t}" for t, _, _ in ents]
    store.insert("communities", [
        {"id": "com-0", "human_readable_id": 0, "community": 0, "level": 0, "parent": -1,
         "children": [1, 2], "title": "Community 0", "entity_ids": all_e,
         "relationship_ids": [f"r-{s}-{t}" for s, t, _ in rels], "text_unit_ids": ["tu0", "tu1", "tu2"],
         "size": 5},
        {"id": "com-1", "human_readable_id": 1, "community": 1, "level": 1, "parent": 0, "children": [],
         "title": "Community 1", "entity_ids": ["e-ALICE", "e-ACME", "e-BOB"],
         "relationship_ids": ["r-ALICE-ACME", "r-BOB-ACME"], "text_unit_ids": ["tu0", "tu1"], "size": 3},
        {"id": "com-2", "human_readable_id": 2, "community": 2, "level": 1, "parent": 0, "children": [],
         "title": "Community 2", "entity_ids": ["e-CAROL", "e-PARIS"],
         "relationship_ids": ["r-CAROL-PARIS"], "text_unit_ids": ["tu2"], "size": 2}])
    reports = [
        (0, 0, "Acme and Paris", "Acme joins everything [Data: Reports (1, 2)]."),
        (1, 1, "Acme founders", "Alice founded Acme [Data: Entities (0, 1); Relationships (0); Claims (0)]."),
        (2, 1, "Paris audit", "Carol audits in Paris [Data: Entities (4, 2); Relationships (3); Sources (2)]."),
    ]
    store.insert("community_reports", [{
        "id": f"rep-{n}", "human_readable_id": n, "community": n, "level": lv, "title": title,
        "summary": f"{title} summary", "rating": 6.0 - n, "rating_explanation": "why",
        "findings": [{"summary": title, "explanation": expl}],
        "full_content": f"# {title}\n\n{expl}", "rank": 6.0 - n, "engine": "offline"}
        for n, lv, title, expl in reports])


@pytest.fixture
def small(tmp_path):
    store = Store(tmp_path / "ws")
    build_index(store)
    return store


def counts(store: Store) -> dict[str, int]:
    return {t: store.count(t) for t in ("documents", "text_units", "entities", "relationships",
                                        "claims", "communities", "community_reports")}


def assert_citations_resolve(store: Store) -> int:
    n = 0
    for r in store.rows("community_reports"):
        for f in r["findings"]:
            for kind, hrid in citations(f["explanation"]):
                row = store.by_hrid(CITABLE[kind], hrid)
                assert row is not None, (r["community"], kind, hrid)
                if kind in ("Entities", "Relationships"):
                    assert row["text_unit_ids"] and all(store.get("text_units", u)
                                                        for u in row["text_unit_ids"])
                elif kind == "Claims":
                    assert store.get("text_units", row["text_unit_id"])
                n += 1
    return n


def test_parquet_round_trip_keeps_counts_and_citations(small, tmp_path):
    out = tmp_path / "parquet"
    export_workspace(small, "parquet", out)
    back = Store(tmp_path / "back")
    report = import_graphrag(out, back)
    assert counts(back) == counts(small) == report.counts
    assert assert_citations_resolve(small) == assert_citations_resolve(back) == 10
    for table in ("entities", "relationships", "claims", "community_reports", "communities"):
        assert [r["human_readable_id"] for r in back.rows(table)] == \
               [r["human_readable_id"] for r in small.rows(table)]
    assert back.by_hrid("community_reports", 1)["findings"] == small.by_hrid("community_reports", 1)["findings"]
    assert back.by_hrid("communities", 0)["children"] == [1, 2]
    assert [(u["char_start"], u["char_end"]) for u in back.rows("text_units")] == \
           [(u["char_start"], u["char_end"]) for u in small.rows("text_units")]
    assert back.rows("documents")[0]["text"] == TEXT
    assert back.by_hrid("claims", 1)["object"] is None


def test_parquet_has_graphrag_columns_and_real_lists(small, tmp_path):
    paths = export_workspace(small, "parquet", tmp_path / "p")
    assert sorted(p.name for p in paths) == sorted(f"{s}.parquet" for s in EXPORT_COLUMNS)
    for stem, cols in EXPORT_COLUMNS.items():
        assert pq.read_table(tmp_path / "p" / f"{stem}.parquet").column_names == list(cols)
    reports = pq.read_table(tmp_path / "p" / "community_reports.parquet").to_pylist()
    assert reports[0]["findings"][0]["explanation"].startswith("Acme joins everything")
    assert reports[0]["children"] == [1, 2] and reports[0]["rank"] == 6.0
    assert json.loads(reports[0]["full_content_json"])["title"] == "Acme and Paris"
    units = {u["id"]: u for u in pq.read_table(tmp_path / "p" / "text_units.parquet").to_pylist()}
    assert sorted(units["tu2"]["entity_ids"]) == sorted(["e-ALICE", "e-ACME", "e-PARIS", "e-BOB", "e-CAROL"])
    assert units["tu2"]["covariate_ids"] == ["c2"]
    rels = pq.read_table(tmp_path / "p" / "relationships.parquet").to_pandas()
    assert list(rels["text_unit_ids"][0]) == ["tu0"]  # an array, not a JSON string
    docs = pq.read_table(tmp_path / "p" / "documents.parquet").to_pylist()
    assert docs[0]["text_unit_ids"] == ["tu0", "tu1", "tu2"]


@pytest.mark.skipif(not CAROL.is_dir(), reason=f"reference index not found at {CAROL}")
def test_reference_index_exports_with_graphrags_own_columns(tmp_path):
    store = Store(tmp_path / "ws")
    import_graphrag(CAROL, store)
    export_workspace(store, "parquet", tmp_path / "p")
    for stem in EXPORT_COLUMNS:
        ours = pq.read_table(tmp_path / "p" / f"{stem}.parquet")
        theirs = pq.read_table(CAROL / f"{stem}.parquet")
        assert ours.column_names == theirs.column_names, stem
        assert ours.num_rows == theirs.num_rows, stem
    back = Store(tmp_path / "back")
    assert import_graphrag(tmp_path / "p", back).counts == counts(store)


def test_graphml_has_community_attributes_and_loads_back(small, tmp_path):
    (path,) = export_workspace(small, "graphml", tmp_path / "g")
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == 5 and g.number_of_edges() == 5
    alice = g.nodes["ALICE"]
    assert (alice["community"], alice["level"]) == (1, 1)
    assert (alice["community_level_0"], alice["community_level_1"]) == (0, 1)
    assert g.nodes["PARIS"]["community"] == 2 and g.nodes["PARIS"]["type"] == "GEO"
    assert g.edges["ALICE", "BOB"]["weight"] == 5.0
    assert g.edges["ALICE", "ACME"]["description"] == "ALICE and ACME"


def test_csv_of_every_table_with_header(small, tmp_path):
    paths = export_workspace(small, "csv", tmp_path / "c")
    assert sorted(p.stem for p in paths) == sorted(TABLES)
    for table, cols in TABLES.items():
        with (tmp_path / "c" / f"{table}.csv").open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        assert rows[0] == list(cols)
    with (tmp_path / "c" / "entities.csv").open(encoding="utf-8", newline="") as fh:
        ents = list(csv.DictReader(fh))
    assert len(ents) == 5 and json.loads(ents[0]["text_unit_ids"]) == ["tu0", "tu2"]


def test_cli_export_and_missing_workspace(small, tmp_path, capsys):
    ws = str(small.workspace)
    assert main(["export", "--workspace", ws, "--format", "graphml", "--out", str(tmp_path / "o")]) == 0
    assert (tmp_path / "o" / "graph.graphml").is_file()
    assert main(["export", "--workspace", str(tmp_path / "nope"), "--format", "csv",
                 "--out", str(tmp_path / "o2")]) == 2
    assert "no workspace at" in capsys.readouterr().err
    assert not (tmp_path / "nope").exists()


def test_round_trip_of_an_index_our_pipeline_built(tmp_path):
    pipeline = pytest.importorskip("core.index.pipeline")
    ingest = pytest.importorskip("core.ingest.documents")
    from core.settings import load_settings
    sample = Path(__file__).resolve().parents[1] / "sample_corpus"
    files = sorted(sample.glob("2024-03*"))[:4]
    if not files:
        pytest.skip(f"no sample corpus in {sample}")
    store = Store(tmp_path / "ws")
    ingest.ingest_paths(store, files, max_bytes=10 ** 7)
    pipeline.run_index(store, load_settings(tmp_path / "ws", engine="offline"))
    assert store.count("community_reports") > 0
    export_workspace(store, "parquet", tmp_path / "p")
    back = Store(tmp_path / "back")
    import_graphrag(tmp_path / "p", back)
    assert counts(back) == counts(store)
    cited = 0
    for table_store in (store, back):
        for r in table_store.rows("community_reports"):
            for kind, hrid in citations(r["full_content"]):
                assert table_store.by_hrid(CITABLE[kind], hrid) is not None, (kind, hrid)
                cited += 1
    assert cited > 0
    assert [(u["document_id"], u["ordinal"], u["char_start"], u["char_end"]) for u in back.rows("text_units")] == \
           [(u["document_id"], u["ordinal"], u["char_start"], u["char_end"]) for u in store.rows("text_units")]

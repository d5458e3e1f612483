"""Opening a Microsoft GraphRAG index: graphrag's own index of A Christmas Carol, its jsonl twins,
Operation Dulce (jsonl only) and a small index written with graphrag 1.x names."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from core.cli.main import main
from core.errors import UserError
from core.interop.graphrag_import import import_graphrag
from core.store.schema import CITABLE
from core.store.db import Store

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
CAROL = CORPORA / "christmas_carol_graphrag_reference"
DULCE = CORPORA / "operation_dulce_graphrag_reference"
needs_carol = pytest.mark.skipif(not (CAROL / "parquet").is_dir(),
                                 reason=f"reference index not found at {CAROL}")

DATA = re.compile(r"\[Data:([^\]]*)\]")
PART = re.compile(r"(\w+)\s*\(([^)]*)\)")


def citations(text: str) -> list[tuple[str, int]]:
    """(kind, human_readable_id) of every "[Data: Kind (1, 2, +more); ...]" reference."""
    return [(kind, int(i)) for body in DATA.findall(text) for kind, ids in PART.findall(body)
            for i in (x.strip() for x in ids.split(",")) if i.isdigit()]


@pytest.fixture(scope="module")
def carol(tmp_path_factory):
    if not (CAROL / "parquet").is_dir():
        pytest.skip(f"reference index not found at {CAROL}")
    store = Store(tmp_path_factory.mktemp("carol"))
    report = import_graphrag(CAROL / "parquet", store)
    return store, report


@needs_carol
def test_reference_index_imports_every_table(carol):
    store, report = carol
    assert report.counts == {"documents": 1, "text_units": 42, "entities": 529,
                             "relationships": 978, "claims": 406, "communities": 122,
                             "community_reports": 122}
    levels = [r[0] for r in store.db.execute("select distinct level from communities order by 1")]
    assert levels == [0, 1, 2, 3]
    assert store.count("community_reports") == 122
    for r in store.rows("community_reports"):
        assert r["human_readable_id"] == r["community"]
        assert r["findings"] and set(r["findings"][0]) == {"summary", "explanation"}
        assert r["rating"] is not None
    scrooge = store.rows("entities", "title = ?", ["EBENEZER SCROOGE"])[0]
    assert isinstance(scrooge["text_unit_ids"], list) and scrooge["degree"] > 0
    root = store.by_hrid("communities", 0)
    assert root["parent"] == -1 and root["children"] == [23, 24, 25, 26]
    assert "relationships: 32 endpoint names are not entity titles" in report.warnings[0]
    assert any(m.startswith("embeddings: not imported") for m in report.messages)


@needs_carol
def test_import_is_recorded_as_a_run(carol):
    store, report = carol
    run = store.get("runs", report.run_id)
    assert run["engine"] == "graphrag-import" and run["status"] == "finished"
    assert run["counts"]["entities"] == 529
    assert run["settings"]["source"].endswith("parquet")
    assert store.get_meta("imported_from") == run["settings"]["source"]


@needs_carol
def test_report_citations_resolve_to_text_units(carol):
    store, _ = carol
    units = {u["id"]: u for u in store.rows("text_units")}
    # a finding of the report on the Phantom cites entity 400: the Phantom, found in the text
    report = next(r for r in store.rows("community_reports")
                  if r["title"] == "Scrooge and the Phantom: Visions of Redemption")
    finding = report["findings"][0]
    assert finding["summary"] == "The Phantom as a Central Supernatural Entity"
    assert citations(finding["explanation"]) == [("Entities", 400)]
    phantom = store.by_hrid("entities", 400)
    assert "PHANTOM" in phantom["title"]
    assert any("Phantom" in units[u]["text"] for u in phantom["text_unit_ids"])
    # across all reports: every cited relationship exists; entities all but a handful that the
    # model invented (real LLM output), and every resolved record leads to text units
    resolved, dangling = 0, []
    for r in store.rows("community_reports"):
        for kind, hrid in citations(r["full_content"]):
            row = store.by_hrid(CITABLE[kind], hrid)
            if row is None:
                dangling.append((r["community"], kind, hrid))
                continue
            resolved += 1
            assert row["text_unit_ids"] and all(u in units for u in row["text_unit_ids"])
    assert resolved > 3700
    assert len(dangling) < 10 and all(kind == "Entities" for _, kind, _ in dangling)


@needs_carol
def test_text_units_keep_title_line_and_get_their_span(carol):
    store, _ = carol
    doc = store.rows("documents")[0]
    assert doc["title"] == "a-christmas-carol.txt" and len(doc["text"]) == 185067
    units = store.rows("text_units", order_by="ordinal")
    assert [u["human_readable_id"] for u in units] == list(range(42))
    for u in units:
        assert u["text"].startswith("title: a-christmas-carol.txt.\n")
        body = u["text"].split("\n", 1)[1]
        assert doc["text"][u["char_start"]:u["char_end"]] == body
    assert units[1]["char_start"] < units[0]["char_end"]  # chunks overlap


@needs_carol
def test_refuses_a_workspace_that_holds_an_index_unless_replace(carol, tmp_path):
    store = Store(tmp_path)
    import_graphrag(CAROL / "parquet", store)
    with pytest.raises(UserError, match="already holds an index.*--replace"):
        import_graphrag(CAROL / "parquet", store)
    report = import_graphrag(CAROL / "parquet", store, replace=True)
    assert store.count("entities") == 529 and report.counts["entities"] == 529
    assert store.count("runs") == 2


def test_rejects_a_directory_without_the_required_tables(tmp_path):
    pq.write_table(pa.table({"id": ["a"], "title": ["A"]}), tmp_path / "entities.parquet")
    with pytest.raises(UserError) as err:
        import_graphrag(tmp_path, Store(tmp_path / "ws"))
    msg = str(err.value)
    assert "not a GraphRAG index" in msg
    for name in ("relationships", "communities", "community_reports", "text_units"):
        assert name in msg
    assert Store(tmp_path / "ws").count("entities") == 0


@needs_carol
def test_jsonl_twins_rebuild_the_document_text(tmp_path):
    store = Store(tmp_path)
    report = import_graphrag(CAROL, store)
    assert report.counts["communities"] == 122 and report.counts["claims"] == 406
    assert any("rebuilt their text from their text units" in m for m in report.messages)
    original = pq.read_table(CAROL / "parquet" / "documents.parquet").column("text")[0].as_py()
    assert store.rows("documents")[0]["text"] == original


@pytest.mark.skipif(not DULCE.is_dir(), reason=f"reference index not found at {DULCE}")
def test_operation_dulce_without_covariates(tmp_path):
    src = tmp_path / "dulce"
    src.mkdir()
    for f in DULCE.glob("*.jsonl"):
        if f.name != "covariates.jsonl":
            shutil.copy(f, src / f.name)
    store = Store(tmp_path / "ws")
    report = import_graphrag(src, store)
    assert report.counts["entities"] == 39 and report.counts["community_reports"] == 10
    assert report.counts["claims"] == 0
    assert "covariates (claims): not in this index (optional), imported none" in report.messages
    answer = (DULCE / "global_search_example_output.md").read_text(encoding="utf-8")
    cited = {i for kind, i in citations(answer) if kind == "Reports"}
    assert cited and all(store.by_hrid("community_reports", i) for i in cited)


def write_legacy_index(folder: Path) -> None:
    """A tiny index as graphrag 1.x named it: create_final_* files, entities without degree,
    relationships with `rank`, communities without children, `rank_explanation`,
    text units with `document_ids`, no documents table."""
    folder.mkdir(parents=True)
    tu = ["tu1", "tu2"]
    tables = {
        "create_final_entities": {"id": ["e1", "e2", "e3"], "human_readable_id": [0, 1, 2],
                                  "name": ["ALICE", "BOB", "ACME"], "type": ["PERSON"] * 2 + ["ORG"],
                                  "description": ["a", "b", "c"], "text_unit_ids": [tu, ["tu1"], ["tu2"]]},
        "create_final_relationships": {"id": ["r1", "r2"], "human_readable_id": [0, 1],
                                       "source": ["ALICE", "BOB"], "target": ["BOB", "ACME"],
                                       "description": ["x", "y"], "weight": [2.0, 1.0], "rank": [3, 3],
                                       "text_unit_ids": [["tu1"], ["tu2"]]},
        "create_final_communities": {"id": ["c-0", "c-1"], "human_readable_id": [0, 1],
                                     "community": [0, 1], "level": [0, 1], "parent": [-1, 0],
                                     "title": ["Community 0", "Community 1"],
                                     "entity_ids": [["e1", "e2", "e3"], ["e1", "e2"]],
                                     "relationship_ids": [["r1", "r2"], ["r1"]],
                                     "text_unit_ids": [tu, ["tu1"]]},
        "create_final_community_reports": {
            "id": ["rep0", "rep1"], "community": [0, 1], "level": [0, 1], "title": ["All", "Pair"],
            "summary": ["s0", "s1"], "full_content": ["# All [Data: Reports (1)]", "# Pair"],
            "rank": [7.5, 5.0], "rank_explanation": ["big", "small"],
            "findings": [[{"summary": "f", "explanation": "Alice knows Bob [Data: Relationships (0)]"}],
                         [{"summary": "g", "explanation": "Bob [Data: Entities (1)]"}]]},
        "create_final_text_units": {"id": tu, "text": ["Alice met Bob.", "Bob runs ACME."],
                                    "n_tokens": [4, 4], "document_ids": [["d1"], ["d1"]]},
    }
    for stem, cols in tables.items():
        pq.write_table(pa.table(cols), folder / f"{stem}.parquet")


def test_graphrag_1x_names_are_accepted(tmp_path):
    write_legacy_index(tmp_path / "index" / "output")
    store = Store(tmp_path / "ws")
    report = import_graphrag(tmp_path / "index", store)
    assert report.counts == {"documents": 1, "text_units": 2, "entities": 3, "relationships": 2,
                             "claims": 0, "communities": 2, "community_reports": 2}
    bob = store.rows("entities", "title = 'BOB'")[0]
    assert bob["degree"] == 2 and bob["frequency"] == 1
    assert store.by_hrid("relationships", 0)["combined_degree"] == 3
    assert store.by_hrid("communities", 0)["children"] == [1]
    rep = store.by_hrid("community_reports", 0)
    assert rep["rating"] == 7.5 and rep["rating_explanation"] == "big"
    assert [u["document_id"] for u in store.rows("text_units")] == ["d1", "d1"]
    assert store.rows("documents")[0]["text"] == "Alice met Bob.Bob runs ACME."
    assert store.by_hrid("text_units", 1)["char_start"] == len("Alice met Bob.")


def test_cli_imports_and_refuses_twice(tmp_path, capsys):
    write_legacy_index(tmp_path / "index")
    ws = str(tmp_path / "ws")
    assert main(["import-graphrag", str(tmp_path / "index"), "--workspace", ws]) == 0
    out = capsys.readouterr().out
    assert "entities" in out and "3" in out and "covariates (claims): not in this index" in out
    assert main(["import-graphrag", str(tmp_path / "index"), "--workspace", ws]) == 2
    assert "already holds an index" in capsys.readouterr().err
    assert main(["import-graphrag", str(tmp_path / "index"), "--workspace", ws, "--replace"]) == 0


def test_cli_rejects_a_folder_that_is_not_an_index(tmp_path, capsys):
    ws = tmp_path / "ws"
    assert main(["import-graphrag", str(tmp_path), "--workspace", str(ws)]) == 2
    err = capsys.readouterr().err
    assert "is not a GraphRAG index: missing entities, relationships" in err
    assert not ws.exists()

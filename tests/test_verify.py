"""`sensemaker verify`: every report's findings checked, dangling references and unsupported
findings listed, a summary line; on a hand-built store and on Microsoft GraphRAG's own index."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main
from core.query.citations import parse_citations
from core.query.resolve import Resolver
from core.query.support import judge
from core.query.verify import report_findings, verify_reports
from core.store.db import Store
from tests.test_resolve import CAROL, build

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
REFERENCE = CORPORA / "christmas_carol_graphrag_reference" / "parquet"


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "ws")
    build(s)
    s.update("community_reports", "rep7", findings=[
        {"summary": "Scrooge refuses charity",
         "explanation": "Scrooge refused to give money to the charity collectors "
                        "[Data: Entities (0, 3); Relationships (1)]."},
        {"summary": "Banking", "explanation": "Scrooge founded a bank in Paris [Data: Sources (0)]."},
        {"summary": "Marley", "explanation": "Marley was dead [Data: Entities (1, 77); Claims (40)]."},
        {"summary": "Uncited", "explanation": "Nothing here is cited."},
    ])
    # a report stored without a findings list: its "## " sections are the findings
    s.update("community_reports", "rep9", findings=None, full_content=(
        "# GraphRAG 社区\n\n概述。\n\n## 社区划分\n\n"
        "然后用 Leiden 算法把图划分为社区【Data: Entities (4, 5)】。\n\n"
        "## 报告\n\n每个社区都会生成一份社区报告 [Data: Reports (9)]。"))
    return s


def test_verify_counts_and_lists(store):
    result = verify_reports(store)
    assert (result.reports_checked, result.findings_checked) == (2, 6)
    assert (result.supported_count, result.weak_count, result.unsupported_count,
            result.uncited_count) == (4, 0, 1, 1)
    assert result.dangling == [
        {"report": 7, "finding": 3, "marker": "[Data: Entities (1, 77); Claims (40)]",
         "kind": "Entities", "id": 77},
        {"report": 7, "finding": 3, "marker": "[Data: Entities (1, 77); Claims (40)]",
         "kind": "Claims", "id": 40}]
    (bad,) = result.unsupported
    assert bad["report"] == 7 and bad["finding"] == 2 and bad["verdict"] == "unsupported"
    assert bad["sentence"] == "Scrooge founded a bank in Paris." and bad["title"] == "Scrooge and his circle"
    assert bad["best_sentence"] in CAROL
    assert result.summary() == ("verified 2 reports, 6 findings: 4 supported, 0 weak, "
                                "1 unsupported, 2 dangling references, 1 without citations")


def test_findings_come_from_full_content_when_not_stored():
    report = {"findings": None, "full_content": "# T\n\nintro\n\n## One\n\nBody one.\n\n## Two\n\nBody two."}
    assert report_findings(report) == [{"summary": "One", "explanation": "Body one."},
                                       {"summary": "Two", "explanation": "Body two."}]
    assert report_findings({"findings": '[{"summary": "s", "explanation": "e"}]'}) == \
        [{"summary": "s", "explanation": "e"}]


def test_cli_prints_dangling_unsupported_and_summary(store, capsys):
    assert main(["verify", "--workspace", str(store.workspace)]) == 0
    out = capsys.readouterr().out
    assert "report 7 finding 3: Entities (77) does not exist" in out
    assert "report 7 finding 2 (score 0.25): Scrooge founded a bank in Paris." in out
    assert out.rstrip().splitlines()[-1].startswith("verified 2 reports, 6 findings: 4 supported")


def test_cli_json_is_one_object(store, capsys):
    assert main(["verify", "--workspace", str(store.workspace), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reports_checked"] == 2 and data["unsupported_count"] == 1
    assert len(data["dangling"]) == 2 and data["summary"].startswith("verified 2 reports")


def test_cli_refuses_a_missing_workspace(tmp_path, capsys):
    assert main(["verify", "--workspace", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["verify", "--workspace", str(tmp_path / "empty")]) == 2
    assert "not a Sensemaker workspace" in capsys.readouterr().err
    assert not (tmp_path / "empty" / "sensemaker.db").exists()  # nothing created


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    if not REFERENCE.is_dir():
        pytest.skip(f"Microsoft GraphRAG reference index not found at {REFERENCE}")
    from core.interop.graphrag_import import import_graphrag
    store = Store(tmp_path_factory.mktemp("carol"))
    import_graphrag(REFERENCE, store)
    return store


def test_graphrag_reference_index_verifies(reference):
    result = verify_reports(reference)
    assert (result.reports_checked, result.findings_checked) == (122, 847)
    judged = result.supported_count + result.weak_count + result.unsupported_count
    assert judged + result.uncited_count == 847 and result.supported_count > 0
    # graphrag's model cited entity ids that do not exist (e.g. Entities 759 of 529)
    assert {"report": 3, "kind": "Entities", "id": 759} in \
        [{k: d[k] for k in ("report", "kind", "id")} for d in result.dangling]
    for d in result.dangling:
        assert reference.by_hrid("entities" if d["kind"] == "Entities" else "relationships", d["id"]) is None
    assert all(u["sentence"] and u["verdict"] == "unsupported" for u in result.unsupported)


def test_graphrag_reference_highlights_are_document_text(reference):
    doc = reference.rows("documents")[0]["text"]
    resolver = Resolver(reference)
    checked = 0
    for rep in reference.rows("community_reports", limit=20):
        for f in report_findings(rep):
            for c in parse_citations(f["explanation"]):
                for ref in c.refs:
                    res = resolver.resolve(ref)
                    if res.record is None:
                        continue
                    s = judge(f["explanation"][:c.start], res.text_units, res.record_texts())
                    if s.best_sentence:
                        assert doc[s.char_start:s.char_end] == s.best_sentence
                        checked += 1
    assert checked > 100

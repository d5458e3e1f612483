"""`sensemaker verify`: every report's findings checked, dangling references and unsupported
findings listed, a summary line; on a hand-built store and on Microsoft GraphRAG's own index."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main
from core.text.citations import parse_citations
from core.store.references import Resolver
from core.verify.offline import judge
from core.verify.reports import report_findings, verify_reports
from core.store.backends import store_at
from core.store.db import Store
from tests.test_resolve import CAROL, build

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
REFERENCE = CORPORA / "christmas_carol_graphrag_reference" / "parquet"


@pytest.fixture
def store(tmp_path, backend):
    s = store_at(tmp_path / "ws")
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
    assert result.counts == {"supported": 4, "partial": 0, "unsupported": 0, "contradicted": 0,
                             "fabricated": 1} and result.uncited_count == 1
    assert result.dangling == [
        {"report": 7, "finding": 3, "marker": "[Data: Entities (1, 77); Claims (40)]",
         "kind": "Entities", "id": 77},
        {"report": 7, "finding": 3, "marker": "[Data: Entities (1, 77); Claims (40)]",
         "kind": "Claims", "id": 40}]
    (bad,) = result.unsupported
    assert bad["report"] == 7 and bad["finding"] == 2 and bad["verdict"] == "fabricated"
    assert bad["sentence"] == "Scrooge founded a bank in Paris." and bad["title"] == "Scrooge and his circle"
    assert bad["fabricated"] == ["Paris"] and "Paris" in bad["failing"]  # no document mentions Paris
    assert bad["best_sentence"] in CAROL
    # the report naming Paris comes first, with its trust line
    first, second = result.reports
    assert (first.report, first.fabricated, second.report) == (7, ["Paris"], 9)
    assert first.line() == "3 findings checked: 2 supported, 1 fabricated; in no document: Paris"
    assert result.summary() == ("verified 2 reports, 6 findings: 4 supported, 0 partial, "
                                "0 unsupported, 0 contradicted, 1 fabricated, 2 dangling references, "
                                "1 without citations (offline judge)")


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
    assert "report 7 finding 2 fabricated: Scrooge founded a bank in Paris." in out
    assert "report 7 (Scrooge and his circle): 3 findings checked: 2 supported, 1 fabricated; " \
           "in no document: Paris" in out
    assert out.rstrip().splitlines()[-1].startswith("verified 2 reports, 6 findings: 4 supported")


def test_cli_json_lists_reports_least_supported_first(store, capsys):
    assert main(["verify", "--workspace", str(store.workspace), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reports_checked"] == 2 and data["counts"]["fabricated"] == 1
    assert len(data["dangling"]) == 2 and data["summary"].startswith("verified 2 reports")
    first = data["reports"][0]
    assert (first["report"], first["title"], first["fabricated"]) == (7, "Scrooge and his circle", ["Paris"])
    assert first["counts"]["supported"] == 2 and first["counts"]["fabricated"] == 1
    assert data["reports"][1]["report"] == 9


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
    judged = sum(result.counts.values())
    assert judged + result.uncited_count == 847 and result.supported_count > 0
    # graphrag's model cited entity ids that do not exist (e.g. Entities 759 of 529)
    assert {"report": 3, "kind": "Entities", "id": 759} in \
        [{k: d[k] for k in ("report", "kind", "id")} for d in result.dangling]
    for d in result.dangling:
        assert reference.by_hrid("entities" if d["kind"] == "Entities" else "relationships", d["id"]) is None
    assert all(u["sentence"] and u["verdict"] in ("unsupported", "contradicted", "fabricated")
               for u in result.unsupported)
    # community 21 describes a clinic and a doctor that are nowhere in the book: it comes first
    first = result.reports[0]
    assert first.community == 21 and first.counts["fabricated"] >= 5
    assert any("Cedar Grove" in n for n in first.fabricated) and any("Lila Chen" in n for n in first.fabricated)
    others = [t for t in result.reports if t.community != 21]
    flagged = sum(t.counts["fabricated"] + t.counts["contradicted"] for t in others)
    assert flagged <= 0.10 * sum(t.judged for t in others)


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

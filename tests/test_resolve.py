"""Resolution chains on a small hand-built store: report -> community -> members -> text units ->
documents; entity / relationship / claim / source -> text units -> documents; dangling ids."""
from __future__ import annotations

import pytest

from core.text.citations import Ref
from core.store.references import Resolver, resolve
from core.query.resolve import resolve_answer
from core.store.db import Store

CAROL = ("Marley was dead, to begin with. Scrooge signed the register of his burial.\n\n"
         "Scrooge refused to give money to the charity collectors. The gentlemen withdrew.\n\n"
         "Bob Cratchit warmed his hands at the candle. His salary was fifteen shillings a week.")
ZH = "GraphRAG 先从文本中抽取实体和关系。然后用 Leiden 算法把图划分为社区。每个社区都会生成一份社区报告。"


def build(store: Store) -> None:
    store.insert("documents", [{"id": "d-carol", "title": "carol.txt", "text": CAROL},
                               {"id": "d-zh", "title": "zh.txt", "text": ZH}])
    units, pos = [], 0
    for i, para in enumerate(CAROL.split("\n\n")):
        start = CAROL.index(para, pos)
        units.append({"id": f"u{i}", "document_id": "d-carol", "ordinal": i, "text": para,
                      "char_start": start, "char_end": start + len(para)})
        pos = start + len(para)
    units.append({"id": "u3", "document_id": "d-zh", "ordinal": 0, "text": ZH,
                  "char_start": 0, "char_end": len(ZH)})
    store.insert("text_units", units)  # human_readable_ids 0..3
    store.insert("entities", [
        {"id": "e-scrooge", "title": "SCROOGE", "description": "A miser.", "text_unit_ids": ["u0", "u1"]},
        {"id": "e-marley", "title": "MARLEY", "description": "Scrooge's dead partner.", "text_unit_ids": ["u0"]},
        {"id": "e-bob", "title": "BOB CRATCHIT", "description": "Scrooge's clerk.", "text_unit_ids": ["u2"]},
        {"id": "e-coll", "title": "CHARITY COLLECTORS", "description": "Gentlemen.", "text_unit_ids": ["u1"]},
        {"id": "e-graphrag", "title": "GRAPHRAG", "description": "图谱检索方法。", "text_unit_ids": ["u3"]},
        {"id": "e-leiden", "title": "LEIDEN", "description": "社区划分算法。", "text_unit_ids": ["u3"]},
    ])
    store.insert("relationships", [
        {"id": "r0", "source": "SCROOGE", "target": "MARLEY", "description": "partners", "text_unit_ids": ["u0"]},
        {"id": "r1", "source": "SCROOGE", "target": "CHARITY COLLECTORS",
         "description": "Scrooge refused the collectors.", "text_unit_ids": ["u1"]},
        {"id": "r2", "source": "SCROOGE", "target": "BOB CRATCHIT", "description": "employer", "text_unit_ids": ["u2"]},
        {"id": "r3", "source": "GRAPHRAG", "target": "LEIDEN", "description": "uses", "text_unit_ids": ["u3"]},
    ])
    store.insert("claims", [
        {"id": "c0", "subject": "SCROOGE", "object": "CHARITY COLLECTORS", "type": "REFUSAL",
         "description": "Scrooge refused to donate.", "text_unit_id": "u1"},
        {"id": "c1", "subject": "BOB CRATCHIT", "type": "SALARY",
         "description": "Bob earns fifteen shillings.", "text_unit_id": "u2"},
    ])
    # community numbers differ from row order: citations use the number
    store.insert("communities", [
        {"id": "k7", "community": 7, "level": 0, "entity_ids": ["e-scrooge", "e-marley", "e-coll", "e-bob"],
         "relationship_ids": ["r0", "r1", "r2"], "text_unit_ids": []},
        {"id": "k9", "community": 9, "level": 0, "entity_ids": ["e-graphrag", "e-leiden"],
         "relationship_ids": ["r3"], "text_unit_ids": ["u3"]},
    ])
    store.insert("community_reports", [
        {"id": "rep7", "human_readable_id": 7, "community": 7, "level": 0, "title": "Scrooge and his circle",
         "summary": "Scrooge, Marley and Bob.",
         "findings": [{"summary": "Scrooge refuses charity",
                       "explanation": "Scrooge refused to give money to the collectors [Data: Entities (0, 3); Relationships (1)]."}]},
        {"id": "rep9", "human_readable_id": 9, "community": 9, "level": 0, "title": "GraphRAG 社区",
         "summary": "GraphRAG 与 Leiden。", "findings": []},
    ])


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path)
    build(s)
    return s


def test_report_resolves_through_its_community_to_text_units_and_documents(store):
    res = resolve(store, Ref("Reports", 7))
    assert not res.dangling and res.record["title"] == "Scrooge and his circle"
    # the community lists no text units: they come from its entities and relationships
    assert res.text_unit_ids == ["u0", "u1", "u2"]
    assert res.document_ids == ["d-carol"]
    assert res.members == {"Entities": [0, 1, 2, 3], "Relationships": [0, 1, 2], "Claims": [0, 1]}
    for u in res.text_units:  # spans locate each unit in its document
        assert CAROL[u["char_start"]:u["char_end"]] == u["text"]
    assert "text" not in res.documents[0]  # a document can be a whole book


def test_report_with_listed_text_units_uses_them(store):
    res = resolve(store, Ref("Reports", 9))
    assert res.text_unit_ids == ["u3"] and res.document_ids == ["d-zh"]
    assert res.members["Entities"] == [4, 5]


@pytest.mark.parametrize("ref,units,docs", [
    (Ref("Entities", 0), ["u0", "u1"], ["d-carol"]),
    (Ref("Entities", 4), ["u3"], ["d-zh"]),
    (Ref("Relationships", 1), ["u1"], ["d-carol"]),
    (Ref("Claims", 1), ["u2"], ["d-carol"]),
    (Ref("Sources", 2), ["u2"], ["d-carol"]),
])
def test_records_resolve_to_their_text_units(store, ref, units, docs):
    res = resolve(store, ref)
    assert (res.dangling, res.text_unit_ids, res.document_ids) == (False, units, docs)


def test_titles_name_what_was_cited(store):
    r = Resolver(store)
    assert r.resolve(Ref("Relationships", 1)).title == "SCROOGE -> CHARITY COLLECTORS"
    assert r.resolve(Ref("Entities", 2)).title == "BOB CRATCHIT"
    assert r.resolve(Ref("Sources", 3)).title == "text unit 3"


@pytest.mark.parametrize("kind", ["Reports", "Entities", "Relationships", "Claims", "Sources"])
def test_missing_ids_come_back_dangling(store, kind):
    res = resolve(store, Ref(kind, 999))
    assert res.dangling and res.record is None and res.text_units == [] and not res.more


def test_report_whose_community_is_missing_is_not_dangling(store):
    store.insert("community_reports", [{"id": "rep12", "human_readable_id": 12, "community": 12,
                                        "title": "orphan", "findings": []}])
    res = resolve(store, Ref("Reports", 12))
    assert not res.dangling and res.text_units == [] and res.record["title"] == "orphan"


def test_answer_rows_keep_dangling_and_more(store):
    answer = ("Scrooge refused to give money to the charity collectors "
              "[Data: Entities (0, 99, +more); Sources (1)]. Unrelated words here.")
    rows = resolve_answer(store, answer)
    assert [(r["kind"], r["id"], r["resolved"], r["dangling"], r["more"]) for r in rows] == [
        ("Entities", 0, True, False, False), ("Entities", 99, False, True, False),
        ("Entities", None, False, False, True), ("Sources", 1, True, False, False)]
    for r in rows:
        assert answer[r["start"]:r["end"]] == r["marker"]
        assert r["sentence"] == answer[r["sentence_start"]:r["sentence_end"]]
        assert r["sentence"].startswith("Scrooge refused")
    ent, dangling, more, src = rows
    assert ent["text_unit_ids"] == ["u0", "u1"] and ent["sources"] == [0, 1]
    assert ent["support"]["verdict"] == "supported"
    assert ent["support"]["best_sentence"] == "Scrooge refused to give money to the charity collectors."
    assert src["support"]["text_unit_id"] == "u1"
    assert dangling["support"] is None and more["support"] is None


def test_answer_is_resolved_with_few_queries(store):
    """Batching: 54 references cost a handful of queries, not one or more per reference."""
    ids = ", ".join(str(i) for i in range(6))
    answer = " ".join(f"Sentence {k} about Scrooge [Data: Reports (7, 9); Entities ({ids}); "
                      f"Relationships (0, 1, 2, 3); Claims (0, 1); Sources (0, 1, 2, 3)]." for k in range(3))
    queries: list[str] = []
    store.db.conn.set_trace_callback(queries.append)
    try:
        rows = resolve_answer(store, answer)
    finally:
        store.db.conn.set_trace_callback(None)
    assert len(rows) == 3 * 18
    selects = [q for q in queries if q.lstrip().lower().startswith("select") and "sqlite_master" not in q]
    assert len(selects) <= 12, selects

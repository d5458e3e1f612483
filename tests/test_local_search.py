"""Local search over a small hand-built index: entry entities, the four kinds of context within
their token shares, offline and LLM answers, Chinese questions, embeddings."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from core.llm.client import LLM
from core.query.local_search import entry_entities, local_search
from core.query.types import LocalParams
from core.store.backends import store_at
from core.store.db import Store
from core.tokens import count_tokens
from tests.fakes import FakeChat

UNITS = [
    ("carol", "Marley was dead: to begin with. Scrooge and Marley were partners for many years. "
              "Scrooge was Marley's sole executor and his sole mourner."),
    ("carol", "Marley's ghost visited Scrooge on Christmas Eve. The ghost wore a chain of cash-boxes "
              "and warned Scrooge that three spirits would come."),
    ("carol", "Bob Cratchit was Scrooge's clerk and worked in a cold office. Cratchit earned fifteen "
              "shillings a week."),
    ("carol", "Tiny Tim was the youngest son of Bob Cratchit. Tiny Tim carried a little crutch and "
              "said God bless us every one."),
    ("carol", "Fezziwig was a kind old merchant. Young Scrooge was an apprentice at Fezziwig's "
              "warehouse, where Fezziwig gave a Christmas ball."),
    ("zh", "微软研究院在2024年提出了GraphRAG方法。GraphRAG先从文本中抽取实体和关系，构建知识图谱。"),
    ("zh", "GraphRAG使用Leiden算法把知识图谱划分为层次化的社区。每个社区都会生成一份社区报告。"),
]

ENTITIES = [  # title, type, description, text units
    ("SCROOGE", "person", "Ebenezer Scrooge is a miserly businessman, Marley's former partner and "
                          "Cratchit's employer.", [0, 1, 2, 4]),
    ("MARLEY", "person", "Jacob Marley was Scrooge's business partner; his ghost warns Scrooge.", [0, 1]),
    ("BOB CRATCHIT", "person", "Bob Cratchit is Scrooge's underpaid clerk and the father of Tiny Tim.", [2, 3]),
    ("TINY TIM", "person", "Tiny Tim is Bob Cratchit's ill youngest son.", [3]),
    ("FEZZIWIG", "person", "Fezziwig is a kind merchant who employed young Scrooge.", [4]),
    ("微软研究院", "organization", "微软研究院提出了GraphRAG方法。", [5]),
    ("GRAPHRAG", "other", "GraphRAG是一种基于知识图谱的检索增强生成方法。", [5, 6]),
    ("LEIDEN", "other", "Leiden是一种社区发现算法，GraphRAG用它划分社区。", [6]),
]

RELATIONSHIPS = [  # source, target, description, weight, text units
    ("SCROOGE", "MARLEY", "Scrooge and Marley were business partners.", 3, [0, 1]),
    ("SCROOGE", "BOB CRATCHIT", "Bob Cratchit works as Scrooge's clerk.", 2, [2]),
    ("BOB CRATCHIT", "TINY TIM", "Tiny Tim is Bob Cratchit's son.", 2, [3]),
    ("SCROOGE", "FEZZIWIG", "Young Scrooge was apprenticed to Fezziwig.", 1, [4]),
    ("微软研究院", "GRAPHRAG", "微软研究院提出了GraphRAG。", 1, [5]),
    ("GRAPHRAG", "LEIDEN", "GraphRAG使用Leiden算法划分社区。", 2, [6]),
]

COMMUNITIES = [  # community, level, parent, entity indexes, relationship indexes
    (0, 0, -1, [0, 1, 4], [0, 3]), (1, 0, -1, [2, 3], [1, 2]), (2, 0, -1, [5, 6, 7], [4, 5]),
    (3, 1, 0, [0, 1], [0]), (4, 1, 1, [2, 3], [2]), (5, 1, 2, [6, 7], [5]),
]


def _f(summary: str, explanation: str) -> dict:
    return {"summary": summary, "explanation": explanation}


REPORTS = {  # community: title, summary, rating, findings
    0: ("Scrooge, Marley and Fezziwig",
        "The community around Ebenezer Scrooge: his late partner Marley and his old master Fezziwig.", 8,
        [_f("Marley was Scrooge's partner", "Scrooge and Marley were partners for many years "
            "[Data: Entities (0, 1); Relationships (0)]."),
         _f("Marley's ghost warns Scrooge", "Marley's ghost visited Scrooge on Christmas Eve and warned "
            "him that three spirits would come [Data: Entities (1); Claims (0)]."),
         _f("Fezziwig's kindness", "Fezziwig was a kind merchant who gave a Christmas ball "
            "[Data: Entities (4); Relationships (3)].")]),
    1: ("The Cratchit family", "Bob Cratchit, Scrooge's clerk, and his son Tiny Tim.", 6,
        [_f("Cratchit is poorly paid", "Bob Cratchit earned fifteen shillings a week as Scrooge's clerk "
            "[Data: Entities (2); Relationships (1)]."),
         _f("Tiny Tim", "Tiny Tim, Cratchit's youngest son, carried a little crutch "
            "[Data: Entities (3); Relationships (2)].")]),
    2: ("GraphRAG 与 Leiden 社区", "微软研究院提出的GraphRAG方法使用Leiden算法划分社区。", 7,
        [_f("GraphRAG 的来源", "微软研究院在2024年提出了GraphRAG方法 [Data: Entities (5, 6); Relationships (4)]。"),
         _f("Leiden 算法的作用", "GraphRAG使用Leiden算法把知识图谱划分为层次化的社区 "
            "[Data: Entities (6, 7); Relationships (5)]。")]),
    3: ("Scrooge and Marley", "Scrooge and his dead partner Marley, whose ghost visits him.", 7,
        [_f("Partners", "Scrooge and Marley were partners for many years [Data: Entities (0, 1); Relationships (0)]."),
         _f("The warning", "Marley's ghost warned Scrooge that three spirits would come "
            "[Data: Entities (1); Claims (0)].")]),
    4: ("Bob Cratchit and Tiny Tim", "The Cratchit household.", 5,
        [_f("A poor clerk", "Bob Cratchit earned fifteen shillings a week [Data: Entities (2); Relationships (1)]."),
         _f("Tiny Tim's crutch", "Tiny Tim carried a little crutch [Data: Entities (3); Relationships (2)].")]),
    5: ("GraphRAG 与 Leiden", "GraphRAG使用Leiden算法划分社区。", 6,
        [_f("Leiden 划分社区", "GraphRAG使用Leiden算法把知识图谱划分为层次化的社区 "
            "[Data: Entities (6, 7); Relationships (5)]。")]),
}


def build_store(path) -> Store:
    """A small index written by hand: two documents (English, Chinese), 7 text units, 8 entities,
    6 relationships, 1 claim, communities and reports on levels 0 and 1."""
    store = store_at(path)
    docs = {}
    for doc in ("carol", "zh"):
        parts = [t for d, t in UNITS if d == doc]
        docs[doc] = "\n\n".join(parts)
        store.insert("documents", [{"id": f"doc-{doc}", "title": f"{doc}.txt", "text": docs[doc],
                                    "source_name": f"{doc}.txt", "mime": "text/plain"}])
    units, pos = [], {"carol": 0, "zh": 0}
    for i, (doc, text) in enumerate(UNITS):
        start = docs[doc].index(text, pos[doc])
        pos[doc] = start + len(text)
        units.append({"id": f"tu-{i}", "human_readable_id": i, "document_id": f"doc-{doc}",
                      "ordinal": i, "text": text, "n_tokens": count_tokens(text),
                      "char_start": start, "char_end": start + len(text)})
    store.insert("text_units", units)
    degree = {t: sum(t in (s, o) for s, o, *_ in RELATIONSHIPS) for t, *_ in ENTITIES}
    store.insert("entities", [{"id": f"e-{i}", "human_readable_id": i, "title": t, "type": ty,
                               "description": d, "text_unit_ids": [f"tu-{u}" for u in tus],
                               "frequency": len(tus), "degree": degree[t]}
                              for i, (t, ty, d, tus) in enumerate(ENTITIES)])
    store.insert("relationships", [{"id": f"r-{i}", "human_readable_id": i, "source": s, "target": o,
                                    "description": d, "weight": w, "combined_degree": degree[s] + degree[o],
                                    "text_unit_ids": [f"tu-{u}" for u in tus]}
                                   for i, (s, o, d, w, tus) in enumerate(RELATIONSHIPS)])
    store.insert("claims", [{"id": "c-0", "human_readable_id": 0, "subject": "MARLEY", "object": "SCROOGE",
                             "type": "WARNING", "status": "TRUE",
                             "description": "Marley's ghost warned Scrooge that three spirits would come.",
                             "source_text": "warned Scrooge that three spirits would come",
                             "text_unit_id": "tu-1"}])
    store.insert("communities", [{"id": f"com-{c}", "human_readable_id": c, "community": c, "level": lv,
                                  "parent": p, "children": [], "title": f"Community {c}",
                                  "entity_ids": [f"e-{e}" for e in es],
                                  "relationship_ids": [f"r-{r}" for r in rs],
                                  "text_unit_ids": sorted({f"tu-{u}" for e in es for u in ENTITIES[e][3]}),
                                  "size": len(es)} for c, lv, p, es, rs in COMMUNITIES])
    levels = {c: lv for c, lv, *_ in COMMUNITIES}
    store.insert("community_reports", [
        {"id": f"rep-{c}", "human_readable_id": c, "community": c, "level": levels[c], "title": t,
         "summary": s, "rating": r, "rating_explanation": "", "findings": f, "rank": r,
         "full_content": f"# {t}\n\n{s}"} for c, (t, s, r, f) in REPORTS.items()])
    return store


@pytest.fixture
def store(tmp_path, backend):
    return build_store(tmp_path / "ws")


def _ids(citations, kind):
    return [c["id"] for c in citations if c["kind"] == kind]


def test_offline_answer_cites_the_sentences_about_the_named_entities(store):
    result = local_search(store, "What did Marley's ghost warn Scrooge about?")
    assert result.engine == "offline" and result.usage["llm_calls"] == 0
    ctx = result.context
    assert {0, 1} <= set(ctx["entry_entities"])  # SCROOGE, MARLEY
    assert ctx["sources"][:2] == [0, 1]  # the units mentioning both entry entities come first
    assert 0 in ctx["claims"] and 0 in ctx["relationships"]
    assert set(ctx["reports"]) >= {0, 3}  # the communities holding Scrooge and Marley
    assert "three spirits would come" in result.answer
    assert "[Data: Sources (1)]" in result.answer or "Claims (0)" in result.answer
    assert result.citations and not any(c["dangling"] for c in result.citations)
    assert result.trace_id


def test_each_kind_of_context_stays_within_its_token_share(store):
    params = LocalParams(max_tokens=240)
    result = local_search(store, "Tell me about Scrooge, Marley, Cratchit and Fezziwig", params)
    t = result.context["tokens"]
    assert 0 < t["sources"] <= 120
    assert 0 < t["reports"] <= 36
    assert 0 < t["entities"] + t["relationships"] + t["claims"] <= 84
    assert count_tokens(result.context["context_text"]) <= 240 + 10  # plus the blank lines
    # with room for everything, every unit of the entry entities is used
    full = local_search(store, "Tell me about Scrooge, Marley, Cratchit and Fezziwig", record=False)
    assert len(full.context["sources"]) > len(result.context["sources"])


def test_llm_answer_gets_all_tables_and_its_citations_resolve(store):
    seen = {}

    def respond(messages):
        seen["system"] = messages[0]["content"]
        return ("Marley's ghost warned Scrooge that three spirits would come "
                "[Data: Sources (1); Claims (0); Entities (1, 99)].")

    fake = FakeChat(respond)
    result = local_search(store, "What did Marley warn Scrooge about?", llm=LLM(fake))
    for table in ("-----Sources-----", "-----Entities-----", "-----Relationships-----",
                  "-----Reports-----", "-----Claims-----"):
        assert table in seen["system"]
    assert "three spirits would come" in seen["system"]
    assert result.engine == "llm" and result.model == "fake-model"
    assert result.usage["llm_calls"] == 1 and result.usage["by_stage"]["local"]["llm_calls"] == 1
    dangling = [c for c in result.citations if c["dangling"]]
    assert [(c["kind"], c["id"]) for c in dangling] == [("Entities", 99)]
    assert _ids(result.citations, "Sources") == [1]


def test_chinese_question_finds_its_entities_and_cites_the_chinese_source(store):
    result = local_search(store, "Leiden 算法在 GraphRAG 中起什么作用？")
    assert {6, 7} <= set(result.context["entry_entities"])  # GRAPHRAG, LEIDEN
    assert 6 in result.context["sources"]
    assert "Leiden算法把知识图谱划分为层次化的社区" in result.answer
    cited = [c for c in result.citations if c["kind"] == "Sources"]
    assert cited and all(c["resolved"] for c in cited)
    assert "tu-6" in {u for c in cited for u in c["text_unit_ids"]}


def test_question_naming_no_entity_says_so_without_making_anything_up(store):
    fake = FakeChat(lambda m: "should not be called")
    result = local_search(store, "What is the airspeed velocity of an unladen swallow?", llm=LLM(fake))
    assert result.no_data and "does not answer" in result.answer
    assert fake.calls == [] and result.citations == []


class FakeEmbedder:
    model = "fake-embed"

    def __init__(self, vectors):
        self.vectors = vectors

    def embed(self, texts):
        return [self.vectors[t] for t in texts]


def test_entry_entities_by_embedding_when_vectors_exist(store):
    dim = 8
    rows = []
    for i in range(len(ENTITIES)):
        v = np.zeros(dim, dtype=np.float32)
        v[i] = 1.0
        rows.append({"id": f"emb-{i}", "owner_table": "entities", "owner_id": f"e-{i}",
                     "model": "fake-embed", "vector": v.tobytes()})
    store.insert("embeddings", rows)
    q = np.zeros(dim, dtype=np.float32)
    q[4], q[3] = 1.0, 0.5  # nearest: FEZZIWIG, then TINY TIM
    question = "Who threw the party at the warehouse?"
    llm = LLM(FakeChat(lambda m: "ok"), embedder=FakeEmbedder({question: q.tolist()}))
    found, how = entry_entities(store, question, LocalParams(top_k_entities=2), llm)
    assert how == "embedding"
    assert [e["title"] for e in found] == ["FEZZIWIG", "TINY TIM"]
    # without vectors for this model: full-text search
    llm.embedder.model = "other-model"
    found, how = entry_entities(store, "Fezziwig warehouse", LocalParams(top_k_entities=2), llm)
    assert how == "title+text" and found[0]["title"] == "FEZZIWIG"
    found, how = entry_entities(store, "a kind merchant", LocalParams(top_k_entities=2), llm)
    assert how == "text" and found[0]["title"] == "FEZZIWIG"


def test_title_matches_are_whole_words(store):
    found, _ = entry_entities(store, "Is Timothy related to Tiny Tim?", LocalParams())
    assert found[0]["title"] == "TINY TIM"
    assert not re.search(r"\bMARLEY\b", " ".join(e["title"] for e in found[:1]))


CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


@pytest.mark.skipif(not (CORPORA / "graphrag_articles_zh").is_dir(), reason="../shared/corpora/graphrag_articles_zh is absent")
def test_chinese_corpus_offline_global_and_local(tmp_path):
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.query.global_search import global_search
    from core.settings import Settings
    store = Store(tmp_path / "zh")
    ingest_paths(store, sorted((CORPORA / "graphrag_articles_zh").glob("*.txt")), max_bytes=50_000_000)
    run_index(store, Settings(engine="offline"))
    broad = global_search(store, "这些文章主要讨论了哪些主题？")
    assert broad.points and all(p.score > 0 for p in broad.reduce["selected"])
    # the offline themes quote their text units (issue 17): every quote's source resolves
    quoted = [c for c in broad.citations if c["kind"] == "Sources"]
    assert quoted and all(c["resolved"] for c in quoted)
    assert re.search(r"[\u4e00-\u9fff]", broad.answer)
    local = local_search(store, "Leiden 算法在 GraphRAG 中起什么作用？")
    titles = [store.by_hrid("entities", i)["title"] for i in local.context["entry_entities"]]
    assert "LEIDEN" in titles
    sources = [c for c in local.citations if c["kind"] == "Sources"]
    assert sources and all(c["resolved"] for c in sources)
    cited = " ".join(store.by_hrid("text_units", c["id"])["text"] for c in sources)
    assert "Leiden" in cited and "社区" in cited
    assert any((c["support"] or {}).get("verdict") == "supported" for c in sources)


def test_local_context_shrinks_to_the_models_context_window(store):
    seen = {}

    def respond(messages):
        seen["system"] = messages[0]["content"]
        return "Marley warned Scrooge [Data: Sources (1)]."

    llm = LLM(FakeChat(respond))
    wide = local_search(store, "What did Marley warn Scrooge about?", llm=llm)
    wide_tokens = count_tokens(seen["system"])
    window = wide_tokens + 200  # the full context and a 300-token answer would not fit
    llm.context_window = window
    params = LocalParams(answer_tokens=300)
    result = local_search(store, "What did Marley warn Scrooge about?", params, llm=llm)
    cap = result.params["answer_tokens"]
    assert count_tokens(seen["system"]) + count_tokens(result.question) + cap <= window and cap >= 200
    assert result.params["asked"]["max_tokens"] == 12000 and result.params["max_tokens"] < 12000
    assert result.context["context_text"] and len(result.context["context_text"]) < len(wide.context["context_text"])


def test_an_uncited_answer_paragraph_copying_a_context_record_gets_its_reference(store):
    """The chunk-1200 real-model local answer copied Mercer's description and cited nothing; a
    paragraph that copies a record of the context (8+ words) gets that record's reference, one
    that copies nothing gets none."""
    seen = {}

    def respond(messages):
        seen["system"] = messages[0]["content"]
        return f"In short: {seen['copied']}\n\nNothing else is known about the warning in general."

    marley = next(e for e in store.rows("entities") if e["title"] == "MARLEY")
    seen["copied"] = marley["description"]
    assert len(marley["description"].split()) >= 8
    result = local_search(store, "What did Marley warn Scrooge about?", llm=LLM(FakeChat(respond)))
    first, second = result.answer.split("\n\n")
    assert f"[Data: Entities ({marley['human_readable_id']}" in first
    assert "[Data:" not in second
    assert result.context["attributed_markers"] == 1
    assert ("Entities", marley["human_readable_id"]) in [(c["kind"], c["id"]) for c in result.citations]


def test_a_lower_case_alias_names_its_entity_unless_it_is_an_english_word(tmp_path):
    """Users type "what does cruz think ...": the alias "Cruz" of TAYLOR CRUZ names her, so the
    question is about her; "mark" is no mention of an analyst aliased "Mark" (only "Mark" is)."""
    from core.query.entity_match import title_matches
    s = Store(tmp_path / "ws")
    s.insert("entities", [
        {"id": "e1", "human_readable_id": 0, "title": "TAYLOR CRUZ", "type": "person", "degree": 3,
         "aliases": ["Taylor Cruz", "Cruz", "Agent Cruz"]},
        {"id": "e2", "human_readable_id": 1, "title": "MARK MOERDLER", "type": "person", "degree": 2,
         "aliases": ["Mark Moerdler", "Mark"]},
    ])
    assert [e["title"] for e in title_matches(s, "what does cruz think protocol will mark them as?")] == ["TAYLOR CRUZ"]
    assert [e["title"] for e in title_matches(s, "What did Mark ask Cruz?")] == ["TAYLOR CRUZ", "MARK MOERDLER"]

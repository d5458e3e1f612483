"""Chinese end to end (issue 10): the five Chinese GraphRAG articles indexed offline and asked in
Chinese; a document mixing English and Chinese paragraphs; the LLM engine on Chinese text with a
deterministic fake model (names kept as written, answers asked for in the question's language,
full-width citation markers)."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from core.index.chunking import chunk_text
from core.index.llm_engine import LLMEngine
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files, ingest_paths
from core.llm.client import LLM, ContextOverflowError
from core.text.citations import parse_citations
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.types import GlobalParams
from core.settings import Settings
from core.store.db import Store
from core.tokens import count_tokens, get_encoding
from fake_model import respond as english_model
from fakes import FakeChat

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
ZH = CORPORA / "graphrag_articles_zh"
CJK = re.compile(r"[\u4e00-\u9fff]")
BROAD = "这些文章主要讨论了哪些主题？"
LEIDEN_Q = "Leiden 算法在 GraphRAG 中起什么作用？"


@pytest.fixture(scope="module")
def zh(tmp_path_factory) -> Store:
    """The five Chinese articles, indexed offline (about 3 s)."""
    if not ZH.is_dir():
        pytest.skip(f"Chinese corpus absent: {ZH}")
    store = Store(tmp_path_factory.mktemp("zh") / "zh")
    report = ingest_paths(store, sorted(ZH.glob("*.txt")), max_bytes=50_000_000)
    assert len(report.added) == 5 and not report.rejected
    summary = run_index(store, Settings(engine="offline"))
    assert summary["status"] == "finished", summary
    return store


def _names(store: Store) -> set[str]:
    out = set()
    for e in store.rows("entities"):
        out.add(e["title"])
        out.update(a.upper() for a in e.get("aliases") or [])
    return out


def _check_span(store: Store, support: dict) -> str:
    """The supporting sentence, checked to be exactly the document's characters at its span."""
    unit = store.get("text_units", support["text_unit_id"])
    doc = store.get("documents", unit["document_id"])
    sentence = support["best_sentence"]
    assert doc["text"][support["char_start"]:support["char_end"]] == sentence
    assert unit["text"][support["unit_start"]:support["unit_end"]] == sentence
    return sentence


# -- the Chinese corpus, offline --------------------------------------------------------------

def test_offline_index_names_organisations_and_systems(zh):
    names = _names(zh)
    assert {"微软", "微软研究院"} & names
    assert {"GRAPHRAG", "LEIDEN"} <= names
    assert {"TUGRAPH", "蚂蚁集团"} & names
    assert not {"论文", "索引", "我们"} & names  # common words are not entities
    assert zh.count("communities") >= 5
    reports = zh.rows("community_reports")
    assert len(reports) == zh.count("communities")
    chinese = [r for r in reports if CJK.search(r["summary"] or "")]
    assert len(chinese) >= 2 * len(reports) // 3, [r["summary"][:40] for r in reports]


def test_chunks_of_chinese_text_have_exact_spans(zh):
    units = zh.rows("text_units", order_by="document_id, ordinal")
    assert len(units) >= 10
    for u in units:
        doc = zh.get("documents", u["document_id"])
        assert doc["text"][u["char_start"]:u["char_end"]] == u["text"]
        assert "\ufffd" not in u["text"]
        assert abs(count_tokens(u["text"]) - u["n_tokens"]) <= 1
    # small windows cut through multi-byte characters: each chunk widens to whole characters
    text = (ZH / "article_3.txt").read_text(encoding="utf-8")
    chunks = chunk_text(text, 37, 7)
    assert len(chunks) > 100
    for a, b in zip(chunks, chunks[1:]):
        assert text[a.char_start:a.char_end] == a.text and "\ufffd" not in a.text
        assert a.char_start <= b.char_start < a.char_end  # overlapping, in order, no gap
    assert chunks[0].char_start == 0 and chunks[-1].char_end == len(text)


def test_chinese_queries_find_chinese_rows(zh):
    assert "蚂蚁集团" in [e["title"] for e in zh.search("entities", "蚂蚁集团", 5)]
    units = zh.search("text_units", "社区摘要", 5)
    assert units and all("社区摘要" in u["text"] or "社区" in u["text"] for u in units)
    assert zh.search("entities", "Leiden", 3)[0]["title"] == "LEIDEN"


def test_global_question_in_chinese_cites_chinese_sentences(zh):
    result = global_search(zh, BROAD, GlobalParams(seed=7))
    assert result.batches and not any(b.failed for b in result.batches)
    assert len(result.points) >= 3 and all(p.score > 0 for p in result.points)
    assert CJK.search(result.answer) and result.trace_id
    assert result.citations and all(c["resolved"] for c in result.citations)
    supported = [c["support"] for c in result.citations
                 if (c.get("support") or {}).get("verdict") == "supported"]
    assert supported
    for s in supported:
        assert CJK.search(_check_span(zh, s))


def test_local_question_in_chinese_finds_leiden_and_cites_it(zh):
    result = local_search(zh, LEIDEN_Q)
    titles = [zh.by_hrid("entities", i)["title"] for i in result.context["entry_entities"]]
    assert "LEIDEN" in titles[:3]
    sources = [c for c in result.citations if c["kind"] == "Sources"]
    assert sources and all(c["resolved"] for c in sources)
    assert any("Leiden" in zh.by_hrid("text_units", c["id"])["text"] for c in sources)
    quoted = [_check_span(zh, c["support"]) for c in sources
              if (c.get("support") or {}).get("verdict") == "supported"]
    assert any("Leiden" in q and CJK.search(q) for q in quoted), quoted


# -- a document mixing English and Chinese ------------------------------------------------------

MIXED = (
    "Harbour inquiry, English notes.\n\n"
    "Maria Okafor inspected Berth 2 at Tanner Quay on Monday. Maria Okafor told the Port Authority "
    "that Calloway Chemicals had not replaced the hose.\n\n"
    "中文部分。\n\n"
    "微软研究院在2024年提出了GraphRAG方法。GraphRAG使用Leiden算法把知识图谱划分为层次化的社区。"
    "蚂蚁集团开源的DB-GPT也支持GraphRAG。\n\n"
    "Thomas Whitlock of Calloway Chemicals said the hose was replaced in January. The Port "
    "Authority asked Thomas Whitlock for the maintenance log.\n"
)


def test_mixed_language_document_ingests_chunks_extracts_and_searches(tmp_path):
    store = Store(tmp_path / "mixed")
    report = ingest_files(store, [("mixed.md", MIXED.encode("utf-8"))], max_bytes=1_000_000)
    assert len(report.added) == 1
    summary = run_index(store, Settings(engine="offline", chunk_size=100, chunk_overlap=50))
    assert summary["status"] == "finished"
    doc = store.rows("documents")[0]
    units = store.rows("text_units", order_by="ordinal")
    assert len(units) >= 2
    for u in units:
        assert doc["text"][u["char_start"]:u["char_end"]] == u["text"]
    names = _names(store)
    assert {"MARIA OKAFOR", "CALLOWAY CHEMICALS", "THOMAS WHITLOCK"} <= names
    assert {"微软研究院", "GRAPHRAG", "LEIDEN", "蚂蚁集团", "DB-GPT"} <= names
    assert "社区" in store.search("text_units", "层次化的社区", 1)[0]["text"]
    assert "Tanner Quay" in store.search("text_units", "Tanner Quay", 1)[0]["text"]
    english = local_search(store, "What did Maria Okafor find at Berth 2?")
    assert "Maria Okafor" in english.answer and not CJK.search(english.answer)
    chinese = local_search(store, LEIDEN_Q)
    assert "Leiden" in chinese.answer and CJK.search(chinese.answer)
    assert all(c["resolved"] for c in english.citations + chinese.citations)


# -- the LLM engine on Chinese text, with a fake model --------------------------------------

ZH_TEXT = ("微软研究院在2024年提出了GraphRAG方法。GraphRAG使用Leiden算法把知识图谱划分为层次化的社区。"
           "蚂蚁集团开源的DB-GPT与TuGraph也支持GraphRAG。每个社区都会生成一份社区报告。")
ZH_ENTITIES = {"微软研究院": "organization", "GraphRAG": "other", "Leiden": "other",
               "蚂蚁集团": "organization", "TuGraph": "other"}


def _first_sentence_with(name: str, text: str) -> str:
    return next((s + "。" for s in text.split("。") if name in s), name)


def chinese_model(messages: list[dict]) -> str:
    """fake_model's well-behaved LLM, answering Chinese input in Chinese: names as written in
    the text (plus one invented name, which grounding must reject), Chinese reports and answers
    with full-width citation markers."""
    first, _last = messages[0]["content"], messages[-1]["content"]
    if first.startswith("-Goal-\nRead the text below") and len(messages) == 1:
        text = first.split("-Text-\n", 1)[1]
        if CJK.search(text):
            found = [n for n in ZH_ENTITIES if n in text]
            ents = [{"name": n, "type": ZH_ENTITIES[n], "description": _first_sentence_with(n, text)}
                    for n in found]
            ents.append({"name": "谷歌", "type": "organization", "description": "谷歌也参与了。"})
            rels = [{"source": a, "target": b, "description": f"{a}与{b}在文中一同出现。", "strength": 6}
                    for a, b in zip(found, found[1:])]
            return json.dumps({"entities": ents, "relationships": rels}, ensure_ascii=False)
    if "writing a report about one community" in first:
        data = first.split("-----Entities-----\n", 1)[1].split("-----")[0]
        rows = [r for r in csv.reader(io.StringIO(data)) if r][1:]
        ids, names = [r[0] for r in rows], [r[1] for r in rows]
        findings = [{"summary": f"{n} 是社区的一部分",
                     "explanation": f"{n} 出现在文本中【Data: Entities ({i})】。"} for i, n in zip(ids, names)]
        findings.append({"summary": "社区成员", "explanation": f"这些实体互相关联【数据：实体（{'，'.join(ids[:3])}）】。"})
        return json.dumps({"title": "、".join(names[:2]) + " 社区", "summary": "一个关于 GraphRAG 的社区。",
                           "rating": 6, "rating_explanation": "中等重要。", "findings": findings},
                          ensure_ascii=False)
    if "---Data table---" in first and "community" in first.split("---Goal---")[0]:  # map
        table = first.split("---Data table---", 1)[1]
        ids = [int(m) for m in re.findall(r"^(\d+)\|", table, re.M)][:3]
        return json.dumps({"points": [{"description": f"报告 {i} 讨论了 GraphRAG 的社区【Data: Reports ({i})】",
                                       "score": 60 + i} for i in ids]}, ensure_ascii=False)
    if "---Analyst reports---" in first:  # reduce
        points = first.split("---Analyst reports---", 1)[1]
        ids = sorted({r.id for c in parse_citations(points) for r in c.refs if r.kind == "Reports"})[:3]
        return f"这些文章讨论了 GraphRAG 的社区与报告【数据：报告（{'，'.join(map(str, ids))}）】。"
    if "entities the question is about" in first:  # local
        m = re.search(r"-----Sources-----\n(.*?)(?:\n-----|$)", first, re.S)
        rows = re.findall(r"^(\d+)\|(.*)$", m.group(1) if m else "", re.M)
        # a well-behaved model cites the sources that hold what it says (the first rows need not)
        ids = [int(i) for i, t in rows if "Leiden" in t][:2] or [int(i) for i, _ in rows][:2]
        return f"GraphRAG 使用 Leiden 算法把知识图谱划分为层次化的社区【Data: Sources ({'，'.join(map(str, ids))})】。"
    return english_model(messages)


@pytest.fixture(scope="module")
def llm_zh(tmp_path_factory):
    """A Chinese document indexed by the LLM engine with chinese_model; returns (store, chat)."""
    store = Store(tmp_path_factory.mktemp("llm-zh") / "ws")
    ingest_files(store, [("zh.txt", (ZH_TEXT * 3).encode("utf-8"))], max_bytes=1_000_000)
    settings = Settings(engine="llm", chunk_size=80, chunk_overlap=10, max_gleanings=0,
                        extract_claims=False, concurrency=2)
    chat = FakeChat(chinese_model)
    llm = LLM(chat, store)
    summary = run_index(store, settings, engine=LLMEngine(llm, settings, store.workspace), llm=llm)
    assert summary["status"] == "finished", summary
    return store, chat


def test_llm_extraction_keeps_chinese_names_as_written(llm_zh):
    store, chat = llm_zh
    titles = {e["title"]: e for e in store.rows("entities")}
    assert {"微软研究院", "GRAPHRAG", "LEIDEN", "蚂蚁集团", "TUGRAPH"} <= set(titles)
    assert titles["微软研究院"]["description"].startswith("微软研究院在2024年提出了GraphRAG方法")
    rejected = [r for e in store.rows("extractions") for r in e["rejected"] if r["kind"] == "entity"]
    assert "谷歌" not in titles and {r["name"] for r in rejected} == {"谷歌"}
    prompts = [c[0]["content"] for c in chat.calls if c[0]["content"].startswith("-Goal-\nRead the text")]
    assert prompts and all("Write names and descriptions in the language of the text." in p for p in prompts)


def test_llm_reports_are_asked_for_in_chinese_and_their_citations_resolve(llm_zh):
    store, chat = llm_zh
    asked = [c[0]["content"] for c in chat.calls if "writing a report about one community" in c[0]["content"]]
    assert asked and all("Write the report in the language of the data (Chinese)." in p for p in asked)
    reports = store.rows("community_reports")
    assert reports and all(r["title"].endswith("社区") for r in reports)
    for r in reports:
        cited = [ref for f in r["findings"] for c in parse_citations(f["explanation"]) for ref in c.refs]
        assert len({ref.id for ref in cited}) >= 2
        assert all(ref.kind == "Entities" and store.by_hrid("entities", ref.id) for ref in cited)


def test_llm_answers_are_asked_for_in_the_questions_language(llm_zh):
    store, chat = llm_zh
    llm = LLM(chat, store)
    before = len(chat.calls)
    result = global_search(store, BROAD, GlobalParams(level=0), llm=llm)
    sent = [c[0]["content"] for c in chat.calls[before:]]
    assert len(sent) >= 2 and all("Write in Chinese, the language of the user's question." in p for p in sent)
    assert result.points and all(p.score >= 60 for p in result.points)
    reports = [c for c in result.citations if c["kind"] == "Reports"]
    assert reports and all(c["resolved"] for c in reports) and "【数据：报告（" in result.answer

    before = len(chat.calls)
    local = local_search(store, LEIDEN_Q, llm=llm)
    assert "Write in Chinese, the language of the user's question." in chat.calls[before][0]["content"]
    sources = [c for c in local.citations if c["kind"] == "Sources"]
    assert sources and all(c["resolved"] for c in sources)
    assert any((c["support"] or {}).get("verdict") == "supported" and "Leiden" in c["support"]["best_sentence"]
               for c in sources)

    before = len(chat.calls)
    global_search(store, "What are the main themes?", GlobalParams(level=0), llm=llm)
    english = chat.calls[before][0]["content"]
    assert "Write in the language of the user's question." in english and "Chinese" not in english


def _garbled_by_halving(text: str) -> bool:
    enc = get_encoding()
    toks = enc.encode_ordinary(text)
    return "\ufffd" in enc.decode(toks[:len(toks) // 2]) + enc.decode(toks[len(toks) // 2:])


def test_llm_split_of_an_oversized_chinese_unit_keeps_whole_characters(tmp_path):
    long = ZH_TEXT * 4
    # a text whose middle token falls inside a character (decoding each half would garble it)
    text = next(long[:n] for n in range(200, len(long)) if _garbled_by_halving(long[:n]))
    store = Store(tmp_path / "split")
    ingest_files(store, [("zh.txt", text.encode("utf-8"))], max_bytes=1_000_000)

    def small_context(messages):
        unit = messages[0]["content"].split("-Text-\n", 1)[-1]
        if messages[0]["content"].startswith("-Goal-\nRead the text below") and count_tokens(unit) > 90:
            raise ContextOverflowError("maximum context length exceeded")
        return chinese_model(messages)

    settings = Settings(engine="llm", chunk_size=300, chunk_overlap=0, max_gleanings=0,
                        extract_claims=False)
    chat = FakeChat(small_context)
    llm = LLM(chat, store)
    summary = run_index(store, settings, engine=LLMEngine(llm, settings, store.workspace), llm=llm)
    assert summary["status"] == "finished"
    parts = [c[0]["content"].split("-Text-\n", 1)[1] for c in chat.calls
             if c[0]["content"].startswith("-Goal-\nRead the text below")]
    assert store.rows("text_units")[0]["text"] == text
    assert len(parts) >= 3 and not any("\ufffd" in p for p in parts)
    halves = [p.removesuffix("\n") for p in parts[1:]]
    assert any(a + b == text for a in halves for b in halves)  # cut between two characters
    assert {"微软研究院", "蚂蚁集团", "LEIDEN"} <= {e["title"] for e in store.rows("entities")}

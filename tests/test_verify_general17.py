"""Session 17's fixes to what the verdicts read (issue 16): an English sentence followed by a
Chinese one in a pasted memo or an answer is two sentences, each judged against what it cites."""
from __future__ import annotations

from conftest import build_workspace
from core.query.citations import sentence_spans, sentences_with_citations
from core.store.db import Store
from core.verify.text import check_text


def test_an_english_sentence_before_a_chinese_one_is_a_sentence_of_its_own():
    text = ("Azure revenue grew 29% [Data: Sources (3)]. 微软云的收入超过了 350 亿美元 [Data: Sources (4)]。"
            " Dr. 陈 wrote it down [Data: Sources (5)].")
    said = [s for s, _, _ in sentences_with_citations(text)]
    assert said == ["Azure revenue grew 29% [Data: Sources (3)].", "微软云的收入超过了 350 亿美元 [Data: Sources (4)]。",
                    "Dr. 陈 wrote it down [Data: Sources (5)]."], said
    plain = "GraphRAG builds communities. 社区摘要在查询时使用。"
    assert [plain[a:b] for a, b in sentence_spans(plain)] == ["GraphRAG builds communities.", "社区摘要在查询时使用。"]


def test_a_mixed_memo_gets_a_verdict_per_sentence(tmp_path):
    """Before, the two sentences were one claim citing both sources, and the Chinese half's
    changed figure hid behind the English half's support."""
    en = "The harbour board approved the new quay in March after a long debate."
    zh = "港务局在三月批准了新码头的建设，预算为 1200 万元。"
    path = build_workspace(tmp_path, "mixed", [("board.txt", (en + "\n\nThe mayor attended.").encode()),
                                               ("zh.txt", (zh + "\n\n会议持续了两个小时。").encode())])
    store = Store(path)
    en_unit = next(u for u in store.rows("text_units") if "new quay" in u["text"])
    zh_unit = next(u for u in store.rows("text_units") if "新码头" in u["text"])
    memo = (f"The harbour board approved the new quay in March after a long debate "
            f"[Data: Sources ({en_unit['human_readable_id']})]. 港务局在三月批准了新码头的建设，预算为 1500 万元 "
            f"[Data: Sources ({zh_unit['human_readable_id']})]。")
    results = check_text(store, memo)
    assert [r["verdict"] for r in results] == ["supported", "contradicted"], results
    assert "1500" in results[1]["sentence"] and "1200" in results[1]["failing"], results[1]

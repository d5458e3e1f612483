"""Session 17's fixes to what the verdicts read (issue 16): an English sentence followed by a
Chinese one in a pasted memo or an answer is two sentences, each judged against what it cites."""
from __future__ import annotations

from conftest import build_workspace
from core.text.citations import sentence_spans, sentences_with_citations
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


# a newcomer's earnings memo (session 17): true sentences written the way analysts write them ----
import pytest  # noqa: E402

from tests.verify_corpus import CORPORA, read_doc  # noqa: E402

CALLS = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"


@pytest.fixture(scope="module")
def call(tmp_path_factory):
    """The FY24 Q3 call indexed offline, beside a chapter of another book (a mixed workspace)."""
    if not CALLS.exists():
        pytest.skip("../shared/corpora is not available")
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import Settings
    tmp = tmp_path_factory.mktemp("call")
    path = tmp / "TranscriptFY24Q3.txt"
    path.write_text(read_doc(CALLS, "TranscriptFY24Q3.txt"), encoding="utf-8")
    carol = tmp / "carol_stave_one.txt"
    carol.write_text(read_doc(CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt")[:60_000], encoding="utf-8")
    store = Store(tmp / "ws")
    ingest_paths(store, [path, carol], max_bytes=10_000_000)
    run_index(store, Settings(engine="offline"))
    return store


def _say(store, sentence: str, holding: str):
    from core.verify.names import Names
    from core.verify.offline import judge
    unit = next(u for u in store.rows("text_units") if holding in u["text"] and u["text"].find(holding) >= 0
                and u["text"].find(holding) >= (len(u["text"]) - (u["char_end"] - u["char_start"])))
    return judge(f"{sentence} [Data: Sources ({unit['human_readable_id']})].", [unit], names=Names(store)), unit


def test_the_company_in_the_place_of_its_speakers_we_is_found(call):
    """"Microsoft also expects ..." for "we expect ...": was contradicted, "the source names AI
    here" (AI, a thing, read as who expects)."""
    v, _ = _say(call, "Microsoft also expects FY25 capital expenditures to be higher than FY24",
                "we expect FY25 capital expenditures to be higher than FY24")
    assert v.verdict == "supported", (v.reason, v.facts)
    f = next(f for f in v.facts if f.text == "Microsoft")
    assert f.status == "found" and "the company its speakers speak for" in f.note and f.evidence.text == "we"
    # and the reversal is still caught, headed by what it reverses
    v, _ = _say(call, "Microsoft also expects FY25 capital expenditures to be lower than FY24",
                "we expect FY25 capital expenditures to be higher than FY24")
    assert v.verdict == "contradicted" and v.failing.kind == "polarity", v.reason


def test_a_possessive_ends_a_name(call):
    """"Microsoft's AI services": was fabricated, 'name "Microsoft's AI": nowhere in the documents'."""
    v, _ = _say(call, "Microsoft's AI services contributed 7 points of Azure growth in the quarter",
                "our AI services contributed 7 points of growth")
    assert v.verdict == "supported", (v.reason, v.facts)
    assert not v.fabricated


def test_the_speaker_of_a_turn_that_began_in_an_earlier_unit(call):
    """A unit that opens mid-turn: the turn's label is in a unit before it. "Satya Nadella said
    ..." of Amy Hood's words was partial ("not in the cited text"); now contradicted, with the
    label as its evidence, exact in the document; Amy Hood's own sentence is supported."""
    doc = read_doc(CALLS, "TranscriptFY24Q3.txt")
    holding = "Capital expenditures including finance leases were $14 billion"
    v, unit = _say(call, "Satya Nadella said capital expenditures including finance leases were $14 billion", holding)
    assert "AMY HOOD:" not in unit["text"][:unit["text"].find(holding)]  # the label is in an earlier unit
    assert v.verdict == "contradicted" and v.reason == "name \u201cSatya Nadella\u201d: the source gives Amy Hood as the speaker"
    ev = v.failing.evidence
    assert ev.text == "AMY HOOD" and doc[ev.char_start:ev.char_end] == "AMY HOOD" and ev.text_unit_id != unit["id"]
    v, _ = _say(call, "Amy Hood said capital expenditures including finance leases were $14 billion", holding)
    assert v.verdict == "supported", (v.reason, v.facts)
    # a company or a customer a speaker names is what he speaks of, not a rival speaker
    v, _ = _say(call, "Satya Nadella said more than 65% of the Fortune 500 now use Azure OpenAI Service",
                "More than 65% of the Fortune 500 now use Azure OpenAI Service")
    assert not any(f.status == "contradicted" for f in v.facts if f.kind == "name"), (v.verdict, v.reason)


def test_a_figure_is_highlighted_where_the_passage_gives_it(call):
    """"Azure grew 31%" was supported beside "server products and cloud services revenue grew 24%"."""
    v, _ = _say(call, "Azure grew 31%", "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "supported" and "31%" in v.best_sentence, v.best_sentence


def test_another_quarter_than_the_documents_is_contradicted(call):
    v, _ = _say(call, "In FY23 Q3, Azure and other cloud services revenue grew 31%",
                "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "contradicted" and v.reason == "name \u201cFY23 Q3\u201d: the cited passage is from TranscriptFY24Q3.txt"
    v, _ = _say(call, "In FY24 Q3, Azure and other cloud services revenue grew 31%",
                "Azure and other cloud services revenue grew 31%")
    assert v.verdict == "supported", (v.reason, v.facts)


def test_a_wrong_figure_heads_the_reason(call):
    """"In FY23 Q3 Microsoft said it had more than 5,000 ..." was headed 'name "FY23 Q3 Microsoft":
    the source names Coursera here'; the figure is what is wrong."""
    v, _ = _say(call, "Microsoft said 50,000 customers across every industry have used Copilot Studio",
                "customers across every industry have used Copilot Studio")
    assert v.verdict == "contradicted" and v.failing.kind == "number", (v.reason, v.facts)


def test_subtracted_against_contributed_is_a_reversal(call):
    """"AI services subtracted 7 points" of a passage where they "contributed 7 points of
    growth" was partial (a clause not found): the opposite is now in the antonym list."""
    v, _ = _say(call, "Microsoft's AI services subtracted 7 points of Azure growth in the quarter",
                "our AI services contributed 7 points of growth")
    assert v.verdict == "contradicted" and v.reason == "polarity \u201csubtracted\u201d: the source says \u201ccontributed\u201d", v.reason

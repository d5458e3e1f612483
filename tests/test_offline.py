"""The offline engine: names, types, co-occurrence, extractive summaries and reports, on small
texts and on the real corpora (A Christmas Carol; five Chinese articles about GraphRAG)."""
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from core.index.chunking import chunk_text
from core.engine import ReportInput
from core.offline.corpus_names import corpus_names
from core.offline.engine import OfflineEngine
from core.settings import Settings
from core.textutil import normalize_title, split_sentences

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
ZH = CORPORA / "graphrag_articles_zh"

ENGINE = OfflineEngine()


def entities(text):
    """The unit's names (not the tentative ones, which the corpus decides)."""
    return {normalize_title(e["title"]): e for e in ENGINE.extract({"id": "u1", "text": text}).entities
            if not e.get("tentative")}


def test_english_names_keep_titles_and_get_types():
    text = ("Mr. Fezziwig kept a warehouse in London. The Bank of England lent money to Mr. Fezziwig. "
            "But the clerk said nothing. 'Well,' said Belle, 'we shall see.' "
            "They all went to the Christmas Festival. What a night!")
    ents = entities(text)
    assert ents["MR. FEZZIWIG"]["type"] == "person"
    assert ents["BANK OF ENGLAND"]["type"] == "organization"
    assert ents["LONDON"]["type"] == "geo"
    assert ents["BELLE"]["type"] == "person"
    assert ents["CHRISTMAS FESTIVAL"]["type"] == "event"
    for word in ("THE", "BUT", "THEY", "WHAT", "WELL", "MR", "MR."):
        assert word not in ents
    # the description is the sentence that mentions the entity
    assert ents["BANK OF ENGLAND"]["description"] == "The Bank of England lent money to Mr. Fezziwig."


def test_a_capitalised_word_needs_evidence_to_be_a_name():
    ents = entities("Nonsense was all he heard. He left early and did not return.")
    assert ents == {}
    # the unit cannot tell; it leaves the word to the corpus (core.offline.corpus_names)
    ex = ENGINE.extract({"id": "u1", "text": "Nonsense was all he heard. He left early and did not return."})
    assert [(e["title"], e.get("tentative")) for e in ex.entities] == [("Nonsense", True)]
    # a word more often lower case in the unit is a common word, even when capitalised twice
    ents = entities("Spirit of the age. Spirit, he said. The spirit moved; the spirit stayed; spirit again.")
    assert "SPIRIT" not in ents


def test_relationships_are_sentence_co_occurrences_weighted_by_sentences():
    text = ("Alice Walker met Bob Stone in Paris Square. Alice Walker thanked Bob Stone. "
            "Bob Stone left alone.")
    ex = ENGINE.extract({"id": "u", "text": text})
    rels = {frozenset((normalize_title(r["source"]), normalize_title(r["target"]))): r for r in ex.relationships}
    r = rels[frozenset(("ALICE WALKER", "BOB STONE"))]
    assert r["weight"] == 2.0
    assert r["description"] == "Alice Walker met Bob Stone in Paris Square. Alice Walker thanked Bob Stone."
    assert rels[frozenset(("BOB STONE", "PARIS SQUARE"))]["weight"] == 1.0
    titles = {e["title"] for e in ex.entities}
    assert all(r["source"] in titles and r["target"] in titles for r in ex.relationships)
    assert ex.claims == [] and ex.llm_calls == 0


def test_code_urls_and_inline_code_are_not_names():
    text = ("const Leiden = require('Leiden');\n"
            "See https://Example.com/GraphRag and `MyClass` for details.\n\n"
            "Mary Smith wrote the Leiden Report.")
    ents = entities(text)
    assert set(ents) == {"MARY SMITH", "LEIDEN REPORT"}


def test_sentences_cut_by_a_chunk_boundary_are_left_to_the_neighbouring_chunk():
    unit = {"id": "u", "char_start": 5000,
            "text": "ziwig and Old Bailey laughed. Mr. Topper sang to Mary Smith. Bob Cratchit smiled at "
                    "Mary Smith. Then Mrs. Fezzi"}
    ents = {normalize_title(e["title"]) for e in ENGINE.extract(unit).entities}
    assert ents == {"MR. TOPPER", "MARY SMITH", "BOB CRATCHIT"}
    assert ENGINE.extract({"id": "e", "text": ""}).entities == []


def test_a_sentence_initial_verb_is_not_part_of_the_name():
    text = "Require Calloway Chemicals to report. The council wrote to Calloway Chemicals again."
    assert set(entities(text)) == {"CALLOWAY CHEMICALS"}


def test_salient_noun_phrases_sparingly():
    text = ("The community reports are written first. Each of the community reports cites entities. "
            "Readers trust community reports. The city council met.")
    ents = entities(text)
    assert ents["COMMUNITY REPORTS"]["type"] == "other"
    assert "CITY COUNCIL" not in ents  # said once: not salient


def test_chinese_names_from_jieba_and_latin_names_in_chinese_text():
    text = ("微软研究院在 2024 年提出了 GraphRAG，它使用 Leiden 算法做社区检测。"
            "蚂蚁集团开源的 DB-GPT 与 TuGraph 也支持 GraphRAG。我们在北京市测试了它。")
    ex = ENGINE.extract({"id": "zh", "text": text})
    ents = {normalize_title(e["title"]): e for e in ex.entities}
    assert ents["微软研究院"]["type"] == "organization"
    assert ents["蚂蚁集团"]["type"] == "organization"
    assert ents["北京市"]["type"] == "geo"
    assert {"GRAPHRAG", "LEIDEN", "DB-GPT", "TUGRAPH"} <= set(ents)
    assert ents["LEIDEN"]["description"] == "微软研究院在 2024 年提出了 GraphRAG，它使用 Leiden 算法做社区检测。"
    pairs = {frozenset((normalize_title(r["source"]), normalize_title(r["target"]))) for r in ex.relationships}
    assert frozenset(("微软研究院", "GRAPHRAG")) in pairs
    assert frozenset(("蚂蚁集团", "TUGRAPH")) in pairs


def test_chinese_text_writes_a_foreign_name_in_parts_joined_by_a_middle_dot():
    """News in Chinese names foreign people by their parts and a middle dot ("拉里·佩奇"): one
    person, not its first part alone or nothing; a name jieba cuts in two is one name."""
    text = ("拉里·佩奇和谢尔盖·布林在加州创立了谷歌。萨姆·奥尔特曼随后宣布 OpenAI 将与微软合作。"
            "在荷马史诗中，奥德修斯离开了家乡。")
    ex = ENGINE.extract({"id": "zh", "text": text})
    types = {normalize_title(e["title"]): e["type"] for e in ex.entities}
    assert all(types.get(n) == "person" for n in ("拉里·佩奇", "谢尔盖·布林", "萨姆·奥尔特曼", "奥德修斯")), types
    assert not {"谢尔盖", "奥尔特曼", "奥德修"} & set(types), types


def test_a_chinese_line_ending_with_a_semicolon_is_prose_not_code():
    """An indented walkthrough line of a Chinese article ends with ";" as prose does: its names
    are read (a line of C is still code)."""
    from core.offline.mentions import skip_sentence
    assert not skip_sentence("          成品讲三层:伊萨卡家务事(密涅瓦引导、求婚者盘踞);")
    assert skip_sentence("    int total = count + 1;")
    text = "          (示例要点:女神引导忒勒马科斯寻父——92 分;\n          成品讲三层:伊萨卡家务事(密涅瓦引导、求婚者盘踞);"
    titles = {normalize_title(e["title"]) for e in ENGINE.extract({"id": "zh", "text": text}).entities}
    assert {"忒勒马科斯", "密涅瓦"} <= titles, titles


def test_chinese_text_spells_foreign_names_by_sound_with_characters_of_their_own():
    """"忒勒马科斯" (jieba: 忒 / 勒 / 马科斯), "阿喀琉斯", "马克龙" (马克 / 龙): one name each, written
    with the characters Chinese spells foreign sounds with; "哈希" (hash) and "加密" (encrypt),
    tagged as a name and a place by jieba, are words."""
    text = "忒勒马科斯寻找父亲。阿喀琉斯在特洛伊战死。默克尔和马克龙在会上发言。我们利用文本和哈希来加密东西，这很普通。"
    titles = {normalize_title(e["title"]) for e in ENGINE.extract({"id": "zh", "text": text}).entities}
    assert {"忒勒马科斯", "阿喀琉斯", "马克龙", "默克尔"} <= titles, titles
    assert not {"勒马科斯", "马克", "哈希", "加密", "东西", "文本"} & titles, titles


def test_same_input_same_output_and_entity_types_follow_settings():
    text = "Mr. Fezziwig danced in London. Mr. Fezziwig laughed at the Acme Company."
    a = OfflineEngine().extract({"id": "u", "text": text})
    b = OfflineEngine(Settings()).extract({"id": "u", "text": text})
    assert a == b
    custom = OfflineEngine(entity_types=("character", "place"))
    types = {normalize_title(e["title"]): e["type"] for e in custom.extract({"id": "u", "text": text}).entities}
    assert types == {"MR. FEZZIWIG": "character", "LONDON": "place", "ACME COMPANY": "other"}


def test_summarize_picks_distinct_central_sentences_under_the_budget():
    descs = ["Scrooge is a miser who runs a counting-house in London. Scrooge said bah.",
             "Scrooge is a miser who runs a counting-house in London.",
             "Scrooge keeps the counting-house cold and his clerk poor. The clerk is Bob Cratchit."] + [
        f"On night {i} Scrooge met a ghost who showed him the counting-house of his youth and a lost love."
        for i in range(12)]
    out = ENGINE.summarize("entity", "SCROOGE", descs)
    assert out == ENGINE.summarize("entity", "SCROOGE", list(descs))
    assert len(out.split()) <= 125
    assert out.count("Scrooge is a miser who runs a counting-house in London.") == 1
    assert out.startswith("Scrooge is a miser")  # the defining sentence, in its original order
    assert ENGINE.summarize("relationship", "A -> B", ["A met B.", "A met B."]) == "A met B."


# ---- reports ---------------------------------------------------------------------------------
CITE = re.compile(r"\[Data: ([^\]]*)\]")


def citations(text):
    out = {}
    for block in CITE.findall(text):
        for part in block.split(";"):
            label, ids = re.match(r"\s*(\w+) \(([^)]*)\)", part).groups()
            out.setdefault(label, set()).update(int(i) for i in ids.split(","))
    return out


def quotes(explanation, description):
    """The explanation repeats at least six consecutive words (or ten CJK characters) of it."""
    if re.search(r"[\u4e00-\u9fff]", description):
        flat = " ".join(description.split())
        return any(flat[i:i + 10] in explanation for i in range(max(1, len(flat) - 9)))
    words = description.replace("\u2026", " ").split()
    if any(" ".join(words[i:i + 6]) in explanation for i in range(max(1, len(words) - 5))):
        return True
    return any(len(s.split()) >= 3 and s in explanation
               for s in (description[a:b] for a, b in split_sentences(description)))


def check_report(rep, inp):
    ids = {"Entities": {e["human_readable_id"]: e for e in inp.entities},
           "Relationships": {r["human_readable_id"]: r for r in inp.relationships},
           "Claims": {c["human_readable_id"]: c for c in inp.claims},
           "Reports": {r["community"]: r for r in inp.sub_reports}}
    assert set(rep) >= {"title", "summary", "rating", "rating_explanation", "findings"}
    assert 0 <= rep["rating"] <= 10 and rep["title"] and rep["summary"]
    for f in rep["findings"]:
        assert f["summary"] and f["explanation"].rstrip().endswith("]")
        cited = citations(f["explanation"])
        assert cited, f
        for label, hrids in cited.items():
            for h in hrids:
                row = ids[label][h]  # KeyError: a citation to a row not in the input
                text = row.get("summary") if label == "Reports" else row.get("description")
                assert quotes(f["explanation"], text), (label, h, f["explanation"])


def row_ents(names_descs):
    return [{"human_readable_id": 10 + i, "title": t, "description": d, "degree": 10 - i}
            for i, (t, d) in enumerate(names_descs)]


def small_community():
    ents = row_ents([
        ("SCROOGE", "Scrooge is a covetous old man who runs a counting-house in the City of London."),
        ("BOB CRATCHIT", "Bob Cratchit is the poorly paid clerk who works in Scrooge's counting-house."),
        ("TINY TIM", "Tiny Tim is the youngest son of Bob Cratchit and walks with a crutch."),
        ("MARLEY", "Marley was Scrooge's partner and died seven years before the story begins."),
        ("FRED", "Fred is Scrooge's cheerful nephew who invites him to Christmas dinner every year."),
        ("BELLE", "Belle was engaged to the young Scrooge and released him when money came first.")])
    pairs = [("SCROOGE", "BOB CRATCHIT", "Scrooge watches Bob Cratchit copy letters in a cold dismal cell."),
             ("BOB CRATCHIT", "TINY TIM", "Bob Cratchit carries Tiny Tim home from church upon his shoulder."),
             ("SCROOGE", "MARLEY", "Scrooge and Marley were partners for many years in the old firm."),
             ("SCROOGE", "FRED", "Fred wishes Scrooge a merry Christmas and is told that it is humbug."),
             ("SCROOGE", "BELLE", "Belle tells young Scrooge that another idol, a golden one, has displaced her."),
             ("SCROOGE", "TINY TIM", "Scrooge asks the Spirit whether Tiny Tim will live through the winter.")]
    rels = [{"human_readable_id": 40 + i, "source": a, "target": b, "description": d, "combined_degree": 12 - i}
            for i, (a, b, d) in enumerate(pairs)]
    return ReportInput(community=3, level=0, entities=ents, relationships=rels, claims=[], sub_reports=[],
                       context_text="")


def test_report_findings_cite_only_rows_they_quote():
    inp = small_community()
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert 5 <= len(rep["findings"]) <= 10
    assert rep["title"] == "Scrooge, Bob Cratchit and Tiny Tim"
    assert rep == ENGINE.write_report(small_community())  # deterministic
    assert "Offline rating" in rep["rating_explanation"]


def test_higher_level_report_cites_sub_reports_by_community_number():
    subs = [{"community": 7, "title": "Scrooge and Marley", "rating": 8.0,
             "summary": "Scrooge and Marley ran a counting-house together for many years in London."},
            {"community": 9, "title": "The Cratchit family", "rating": 6.5,
             "summary": "The Cratchit family keeps Christmas with a small goose and a pudding."}]
    inp = ReportInput(community=1, level=0, entities=[], relationships=[], claims=[], sub_reports=subs,
                      context_text="")
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert citations(" ".join(f["explanation"] for f in rep["findings"]))["Reports"] == {7, 9}
    assert rep["rating"] >= 8.0


def test_tiny_community_gets_few_findings_and_a_low_rating():
    inp = ReportInput(community=5, level=2, entities=row_ents([("HAMLET", "Hamlet's father died before the play.")]),
                      relationships=[], claims=[], sub_reports=[], context_text="")
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert len(rep["findings"]) == 1 and rep["rating"] < 4 and rep["title"] == "Hamlet"


def test_a_data_reference_written_in_the_source_is_not_a_citation():
    ents = row_ents([("GRAPHRAG", "GraphRAG answers cite sources like [Data: Reports (99)] after each claim "
                                  "that the answer makes about the corpus.")])
    inp = ReportInput(community=1, level=0, entities=ents, relationships=[], claims=[], sub_reports=[],
                      context_text="")
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert "99" not in str(citations(rep["findings"][0]["explanation"]))


def test_chinese_community_gets_a_chinese_report():
    ents = row_ents([("GRAPHRAG", "GraphRAG 先用 LLM 从文本块中抽取实体和关系，再构建知识图谱。"),
                     ("LEIDEN", "Leiden 算法把图按连接紧密程度层次化地划分成社区。"),
                     ("微软研究院", "微软研究院在 2024 年提出了 GraphRAG 方法。")])
    rels = [{"human_readable_id": 1, "source": "GRAPHRAG", "target": "LEIDEN",
             "description": "GraphRAG 使用 Leiden 算法对图进行社区检测，生成层次化社区。"},
            {"human_readable_id": 2, "source": "微软研究院", "target": "GRAPHRAG",
             "description": "微软研究院在 2024 年提出了 GraphRAG 方法。"}]
    inp = ReportInput(community=2, level=0, entities=ents, relationships=rels, claims=[], sub_reports=[],
                      context_text="")
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert rep["title"] == "GraphRAG、Leiden与微软研究院"
    assert rep["summary"].startswith("该社区以") and "离线评分" in rep["rating_explanation"]


# ---- real corpora ----------------------------------------------------------------------------
def extract_all(paths):
    """Every chunk extracted; entities merged by normalised title as the pipeline does, a
    tentative one kept when the whole corpus writes it as a name (as the graph stage does)."""
    freq, ents, rels, t = Counter(), {}, {}, time.perf_counter()
    chunks = [(path, c) for path in paths for c in chunk_text(path.read_text(encoding="utf-8-sig"), 600, 100)]
    corpus = corpus_names(path.read_text(encoding="utf-8-sig") for path in paths)
    for path, c in chunks:
        ex = ENGINE.extract({"id": f"{path.name}-{c.ordinal}", "text": c.text, "char_start": c.char_start})
        kept = set()
        for e in ex.entities:
            key = normalize_title(e["title"])
            if e.get("tentative") and not corpus.named(e["title"]):
                continue
            kept.add(key)
            freq[key] += 1
            ents.setdefault(key, []).append(e["description"])
        for r in ex.relationships:
            if r.get("tentative") and not {normalize_title(r["source"]), normalize_title(r["target"])} <= kept:
                continue
            key = tuple(sorted((normalize_title(r["source"]), normalize_title(r["target"]))))
            g = rels.setdefault(key, {"weight": 0.0, "descriptions": []})
            g["weight"] += r["weight"]
            g["descriptions"].append(r["description"])
    return freq, ents, rels, time.perf_counter() - t


@pytest.fixture(scope="module")
def carol():
    if not CAROL.exists():
        pytest.skip(f"corpus not found: {CAROL}")
    return extract_all([CAROL])


def test_christmas_carol_main_characters_are_the_top_entities(carol):
    freq, _, _, seconds = carol
    top = [k for k, _ in freq.most_common(40)]
    for name in ("SCROOGE", "MARLEY", "BOB CRATCHIT", "FRED", "FEZZIWIG", "TINY TIM", "MRS. CRATCHIT"):
        assert name in top, name
    assert "BELLE" in freq  # named twice in the whole book, once in the cast list
    for word in ("THE", "BUT", "AND", "THEY", "WHAT", "I", "OH", "MR.", "MRS."):
        assert word not in freq
    assert seconds < 10, f"extraction took {seconds:.1f} s"


def test_christmas_carol_report_on_real_descriptions(carol):
    freq, ents, rels, _ = carol
    names = [k for k, _ in freq.most_common(12)]
    erows = [{"human_readable_id": i, "title": k, "degree": sum(1 for p in rels if k in p),
              "description": ENGINE.summarize("entity", k, ents[k])} for i, k in enumerate(names)]
    rrows = [{"human_readable_id": 100 + i, "source": a, "target": b, "weight": g["weight"],
              "description": ENGINE.summarize("relationship", f"{a} -> {b}", g["descriptions"])}
             for i, ((a, b), g) in enumerate(sorted(rels.items())) if a in names and b in names]
    inp = ReportInput(community=0, level=0, entities=erows, relationships=rrows, claims=[], sub_reports=[],
                      context_text="")
    rep = ENGINE.write_report(inp)
    check_report(rep, inp)
    assert 5 <= len(rep["findings"]) <= 10
    assert rep["title"].startswith("Scrooge")
    assert all(len(e["description"].split()) <= 130 for e in erows)


def test_chinese_articles_name_their_organisations_and_systems():
    paths = sorted(ZH.glob("*.txt"))
    if not paths:
        pytest.skip(f"corpus not found: {ZH}")
    freq, ents, _, _ = extract_all(paths)
    assert {"GRAPHRAG", "LEIDEN"} <= set(freq)
    assert {"微软", "微软研究院"} & set(freq)
    assert {"蚂蚁集团", "LIGHTRAG", "TUGRAPH"} & set(freq)
    for common in ("论文", "索引", "关联", "MAP", "THE"):
        assert common not in freq or common == "MAP" and freq[common] < freq["GRAPHRAG"]

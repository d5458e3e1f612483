"""The app's pages under Streamlit's AppTest, on workspaces indexed by the real offline pipeline."""
from __future__ import annotations

import html
import json
import re
import shutil
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.errors import UserError
from core.index.background import current_run
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.offline.engine import OfflineEngine
from core.query.traces import save_trace
from core.query.types import SearchResult
from core.settings import load_settings, save_settings
from core.store.db import Store
from core.store.workspace import create_workspace

from conftest import HOSTILE, sample_files
from tests.evidence_marks import assert_document_marks, assert_panel_marks

APP = str(Path(__file__).resolve().parent / "app_entry.py")  # AppTest: see tests/app_entry.py


def _app(home: Path, monkeypatch, workspace: str | None = None) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(APP, default_timeout=60)
    if workspace:
        at.query_params["ws"] = workspace
    return at


def _open(at: AppTest, page: str) -> AppTest:
    at.run()
    at.switch_page("../" + page).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def _plain(markdown: str) -> str:
    """Markdown escaped by the app (backslashes before punctuation) as the user reads it."""
    return re.sub(r"\\(.)", r"\1", markdown)


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _frame_html(at: AppTest, marker: str = "vis.Network") -> str:
    """The HTML of the page's iframe holding marker (the graph by default)."""
    frames = [f.proto.srcdoc for f in at.get("iframe") if marker in f.proto.srcdoc]
    assert frames, f"no iframe with {marker!r} on the page"
    return frames[0]


def _viewers(at: AppTest, prefix: str) -> list:
    """The evidence viewers (select boxes of the references that open the drill-down dialog)."""
    return [b for b in at.selectbox if str(b.key).startswith(prefix)]


def _html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


# -- corpus ---------------------------------------------------------------------------------

def test_corpus_page_shows_documents_and_that_all_is_indexed(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/corpus.py")
    assert at.title[0].value == "Corpus"
    assert _metric(at, "Documents") == "3" and int(_metric(at, "Entities")) > 10
    docs = at.dataframe[0].value
    assert list(docs.columns[:6]) == ["#", "title", "type", "tokens", "chunks", "status"]
    assert len(docs) == 3 and set(docs["status"]) == {"indexed"} and (docs["chunks"] > 0).all()
    assert any("Everything is indexed" in s.value for s in at.success)
    assert any(f.type == "file_uploader" for f in at.get("file_uploader"))
    history = at.dataframe[1].value
    assert history.iloc[0]["status"] == "finished" and history.iloc[0]["engine"] == "offline"


def test_upload_names_each_rejected_file_and_estimates(tmp_path, monkeypatch):
    create_workspace("fresh", tmp_path)
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    at.get("file_uploader")[0].set_value([
        ("minutes.txt", b"Maria Okafor met the Harbour Board at Tanner Quay. Maria Okafor spoke.",
         "text/plain"),
        ("empty.txt", b"", "text/plain"),
        ("tool.exe", b"MZ\x90\x00\x03\x00\x00\x00binary", "application/octet-stream"),
    ]).run()
    assert not at.exception
    assert any("Added 1 document" in s.value for s in at.success)
    errors = [_plain(e.value) for e in at.error]
    assert len(errors) == 2
    assert any(e.startswith("Not added: empty.txt: the file is empty") for e in errors), errors
    assert any(e.startswith("Not added: tool.exe: ") for e in errors), errors
    assert _metric(at, "Documents") == "1"
    assert _metric(at, "Chunks") == "1" and _metric(at, "Cost") == "free"
    # the offline engine calls no model: "none", not an estimate of "~0" (a newcomer read that
    # as a failed estimate)
    assert _metric(at, "LLM calls") == "none" and _metric(at, "Tokens") == "none"
    assert at.dataframe[0].value.iloc[0]["status"] == "waiting to be indexed"
    assert any(b.label == "Index the corpus" for b in at.button)


# -- communities ----------------------------------------------------------------------------

def test_communities_page_shows_hierarchy_report_graph_and_tables(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/communities.py")
    assert at.expander[0].label == "Hierarchy overview"
    assert not at.get("plotly_chart"), "the overview is drawn only when it is opened"
    at.session_state["overview_open"] = True  # the user opens the expander
    assert at.run().get("plotly_chart"), "no hierarchy overview"
    assert at.selectbox[0].label == "Level 0 community"
    assert at.subheader, "no report title"
    graph = _frame_html(at)
    nodes = json.loads(re.search(r"new vis\.DataSet\((\[.*?\])\);\s*var edges", graph, re.S).group(1))
    assert len(nodes) > 3 and not re.search(r"https?://", graph)
    label = at.expander[-1].label
    assert re.fullmatch(r"Tables: [\d,]+ entit(y|ies), [\d,]+ relationships?, [\d,]+ claims?"
                        r"(, \d+ sub-communit(y|ies))?", label), label
    assert not at.dataframe, "the tables are drawn only when they are opened"
    _open_tables(at)
    entities = next(d.value for d in at.dataframe if str(d.key).startswith("tbl_e"))
    assert {"entity", "type", "degree", "description"} <= set(entities.columns)
    assert len(_viewers(at, "refs_")) == 1  # the report's evidence viewer


def test_a_report_changed_since_it_was_shown_is_shown_as_it_is_now(home, monkeypatch):
    first = _open(_app(home, monkeypatch), "pages/communities.py")
    shown = first.subheader[0].value
    store = Store(home / "test")
    report = next(r for r in store.rows("community_reports") if r["title"] == _plain(shown))
    findings = report["findings"]
    findings[0]["summary"] = "A finding rewritten since"
    store.update("community_reports", report["id"], summary="The summary as it reads now.",
                 findings=findings)
    again = _open(_app(home, monkeypatch), "pages/communities.py")  # another session, same server
    assert "The summary as it reads now." in _html(again)
    assert "A finding rewritten since" in _html(again)


def test_the_evidence_viewer_opens_the_source_text_highlighted(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/communities.py")
    chip = _viewers(at, "refs_")[0]
    chip.set_value(chip.options[0]).run()
    assert not at.exception
    body = _html(at)
    assert "<mark>" in body and "sm-verdict" in body
    store = Store(indexed_home / "test")
    # each highlighted excerpt is exactly a sentence of the source it names
    assert assert_panel_marks(store, body) >= 1
    first_source = int(re.search(r"Source (\d+) \u00b7", body).group(1))
    assert any(b.label == "Open the whole document" for b in at.button)
    next(b for b in at.button if b.label == "Open the whole document").click().run()
    doc = _frame_html(at, 'id="doc"')
    assert '<mark class="chunk">' in doc and "scrollIntoView" in doc
    # the chunk highlight is exactly the unit's span, the sentence one a sentence of it
    assert_document_marks(store, first_source, doc)


def _panels(at: AppTest) -> list[str]:
    """The evidence panels of the page's reference chips (<details> elements)."""
    return re.findall(r'<details class="sm-ev[^"]*">.*?</details>', _html(at), re.S)


def test_a_chip_holds_its_evidence_in_the_page(indexed_home, monkeypatch):
    """Opening a chip is the browser's work: its panel (verdict, source excerpt with the
    supporting sentence in <mark>) is already in the page, and the same references are in the
    evidence viewer, which opens the dialog."""
    at = _open(_app(indexed_home, monkeypatch), "pages/communities.py")
    panels = _panels(at)
    labels = [re.search(r"<summary[^>]*>(.*?)(?: <span class=\"sm-chip-verdict|</summary>)", p).group(1) for p in panels]
    viewer = [o for c in _viewers(at, "refs_") for o in c.options]
    assert panels and set(labels) == set(viewer)
    assert any("<mark>" in p and "sm-verdict" in p for p in panels)
    store = Store(indexed_home / "test")
    assert sum(assert_panel_marks(store, p) for p in panels) >= len([p for p in panels if "<mark>" in p])
    # each panel's highlight is the sentence the verdict rests on (core.verify's best sentence)
    for p in panels:
        if "<mark>" in p:
            marked = html.unescape(re.search(r"<mark>(.*?)</mark>", p, re.S).group(1))
            assert marked.strip() and "\n\n" not in marked


def test_the_style_sheet_survives_the_browsers_sanitizer():
    """st.html passes the style sheet through DOMPurify in the browser, which drops a <style>
    whose text holds anything like a tag (even in a comment): then no rule applies at all."""
    css = (Path(__file__).resolve().parents[1] / "assets" / "style.css").read_text(encoding="utf-8")
    assert not re.search(r"<[/!?\w]", css)


def test_evidence_panels_keep_document_text_as_text(tmp_path):
    """Document and model text in a chip's panel is escaped: a hostile title, record name or
    source sentence stays text, and the highlight is the only markup in the excerpt."""
    from core.store.references import Resolved
    from pages.components.chips import chips_html, paragraph_html
    from pages.components.drilldown import evidence_html

    text = f"Owen Pike saw {HOSTILE} at Berth 2.</div><script>alert(3)</script>"
    unit = {"id": "u1", "human_readable_id": 3, "document_id": "d1", "ordinal": 0,
            "char_start": 0, "char_end": len(text), "text": text}
    res = Resolved("Entities", 5, record={"title": HOSTILE, "description": f"{HOSTILE} at Berth 2"},
                   text_units=[unit], documents=[{"id": "d1", "title": f"notes {HOSTILE}"}])
    panel = evidence_html(res, f"{HOSTILE} was seen at Berth 2 [Data: Entities (5)].")
    assert "<img" not in panel and "<script" not in panel and "</div><script" not in panel
    assert panel.count("&lt;img src=x onerror=alert(1)&gt;") == 3  # title, document, excerpt
    assert re.search(r"<mark>[^<]*&lt;img[^<]*</mark>", panel)  # the cited sentence, as text
    assert "&lt;/div&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in panel

    class OneResolver:
        def resolve(self, ref):
            return res

    row = chips_html(OneResolver(), [("Entities", 5, "A sentence [Data: Entities (5)].", True)])
    # the chip says its verdict: nothing of the cited sentence is in the record's source
    # (its record's title on hover, escaped like everything else)
    assert row.startswith('<div class="sm-chips"><details class="sm-ev unsupported"><summary title="'
                          + html.escape(HOSTILE, quote=True) + '">Entity 5 '
                          '<span class="sm-chip-verdict unsupported">unsupported</span></summary>'), row[:300]
    assert "<img" not in row and "<script" not in row
    # a report's text: model markdown keeps **bold** only, markers become badges
    para = paragraph_html(f"**{HOSTILE}** met <b>Owen</b> [Data: Entities (5, 7)].")
    assert para == ('<p class="sm-para"><strong>&lt;img src=x onerror=alert(1)&gt;</strong> met '
                    '&lt;b&gt;Owen&lt;/b&gt;. <span class="sm-badge">Entities 5, 7</span></p>')


def test_navigating_to_a_sub_community(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/communities.py")
    assert any(":gray-badge[level 0]" in m.value for m in at.markdown)
    level1 = at.selectbox[1]
    assert level1.options[0].startswith("(all")  # the parent itself until a child is picked
    child = level1.options[1]
    level1.select_index(1).run()
    assert not at.exception
    title = at.subheader[0].value
    assert any(":gray-badge[level 1]" in m.value for m in at.markdown)
    assert child.split(" \u00b7 ")[0] == _plain(title)


# -- ask ------------------------------------------------------------------------------------

def _ask(at: AppTest, question: str) -> AppTest:
    at.text_area(key="ask_question").input(question)
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception, at.exception
    return at


def test_global_question_shows_map_rows_scores_and_viewers(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("global").run()  # the default is auto
    at = _ask(at, "What happened at Tanner Quay and who was responsible?")
    batches = next(d.value for d in at.dataframe if "best score" in d.value.columns)
    assert len(batches) >= 1 and (batches["status"] == "ok").all()
    assert batches["best score"].max() > 0
    assert at.get("plotly_chart"), "no score chart"
    # the default keeps every report: said so, not "rated at least 0"
    how = next(c.value for c in at.caption if c.value.startswith("Level "))
    assert "(no rating threshold)" in how and "rated at least 0" not in how, how
    chips = _viewers(at, "ans_")
    labels = [o for c in chips for o in c.options]
    # a source cited again by a later sentence adds that sentence's opening words (chips.py)
    assert labels and all(re.fullmatch(r"(Report|Entity|Relationship|Claim|Source) \d+(?: · “[^”]+”)?", l)
                          for l in labels), labels
    chips[0].set_value(chips[0].options[0]).run()
    assert "<mark>" in _html(at)


def test_reports_per_map_call_option_gives_each_report_its_own_batch(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("global").run()  # the default is auto
    at.selectbox(key="ask_per_map").set_value(1)  # in the form: sent with the Ask click
    _ask(at, "What happened at Tanner Quay and who was responsible?")
    batches = next(d.value for d in at.dataframe if "best score" in d.value.columns)
    assert len(batches) >= 2 and (batches["reports"] == 1).all()
    assert any("1 report per call" in c.value for c in at.caption)


def test_the_trace_says_what_a_small_models_answer_left_out(indexed_home, tmp_path, monkeypatch):
    """A stored answer of a small-window model that named none of the people of the best points:
    reopened from Past questions, it shows the points added in their own words and the trace
    says what was left out, that the model was asked again and which answer was kept."""
    from core.llm.client import LLM
    from core.query.global_search import global_search
    from core.query.types import GlobalParams
    from tests.fakes import FakeChat
    from tests.test_global_search import batch_ids
    home = tmp_path / "home"
    shutil.copytree(indexed_home, home)
    store = Store(home / "test")
    summaries = {r["human_readable_id"]: r["summary"] for r in store.rows("community_reports")}

    def respond(messages):
        system = messages[0]["content"]
        if "---Analyst reports---" in system:
            return "The documents describe several events [Data: Reports (0)]."
        return json.dumps({"points": [{"description": f"{summaries[i]} [Data: Reports ({i})]", "score": 90}
                                      for i in batch_ids(system)]})

    llm = LLM(FakeChat(respond))
    llm.context_window = 8192
    result = global_search(store, "Who is involved?", GlobalParams(seed=1, level=0), llm)
    assert result.reduce["left_out"]["points_added"] >= 1
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    next(b for b in at.button if b.label.startswith("Who is involved? \u00b7 global")).click().run()
    assert not at.exception, at.exception
    assert "**Also among the best-scored points**" in _plain(" ".join(m.value for m in at.markdown))
    said = " ".join(c.value for c in at.caption)
    assert "first answer left out" in said and "asked once more" in said and "added to the answer" in said
    assert "Reports per map call: auto: 1 for a context window of 8,192 tokens" in said


def test_local_question_shows_the_four_kinds_of_context(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("local").run()
    _ask(at, "What did Calloway Chemicals do?")
    tabs = [t.label for t in at.tabs]
    for kind in ("Source text", "Community reports", "Relationships", "Entities"):
        assert any(t.startswith(kind) for t in tabs), tabs
    assert _viewers(at, "ans_"), "the local answer has no reference chips"


def test_past_question_reopens_from_its_trace(indexed_home, monkeypatch):
    question = "Who met at Lantern Wharf?"
    at = _ask(_open(_app(indexed_home, monkeypatch), "pages/ask.py"), question)
    shown = [m.value for m in at.markdown]
    chips = [c.options for c in _viewers(at, "ans_")]
    assert any(_plain(m) == f"#### {question}" for m in shown) and chips
    again = _open(_app(indexed_home, monkeypatch), "pages/ask.py")  # a new browser session
    assert not any(_plain(m.value) == f"#### {question}" for m in again.markdown)
    next(b for b in again.button if (b.key or "").startswith("trace_") and b.label.startswith(question)).click().run()
    assert [m.value for m in again.markdown if m.value in shown] == \
        [m for m in shown if m in {x.value for x in again.markdown}]
    assert any(_plain(m.value) == f"#### {question}" for m in again.markdown)
    assert [c.options for c in _viewers(again, "ans_")] == chips


# -- sidebar, errors, untrusted text ----------------------------------------------------------

def test_connection_test_says_what_is_wrong_and_the_key_is_never_saved(tmp_path, monkeypatch):
    create_workspace("llm", tmp_path)
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    at.sidebar.radio[0].set_value("llm").run()
    at.sidebar.text_input(key="llm_base_url").input("http://127.0.0.1:9/v1")
    at.sidebar.text_input(key="api_key_typed").input("sk-test-secret-123").run()
    next(b for b in at.sidebar.button if b.label == "Test connection").click().run()
    assert not at.exception
    errors = [e.value for e in at.sidebar.error]
    assert errors and "127.0.0.1:9" in _plain(errors[0])
    next(b for b in at.sidebar.button if b.label == "Save to workspace").click().run()
    saved = (tmp_path / "llm" / "settings.json").read_text()
    assert "sk-test-secret-123" not in saved and json.loads(saved)["llm_base_url"] == "http://127.0.0.1:9/v1"


def test_empty_workspace_pages_explain_what_to_do(tmp_path, monkeypatch):
    create_workspace("empty", tmp_path)
    for page, words in (("pages/communities.py", "No communities yet"),
                        ("pages/ask.py", "nothing to ask yet")):
        at = _open(_app(tmp_path, monkeypatch), page)
        assert any(words in i.value for i in at.info), page


def test_new_workspace_from_the_sidebar(tmp_path, monkeypatch):
    create_workspace("first", tmp_path)
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    at.sidebar.text_input[0].input("../../Case Files")
    at.sidebar.button[0].click().run()
    assert not at.exception
    assert (tmp_path / "Case-Files" / "sensemaker.db").exists()
    assert at.sidebar.selectbox[0].value == "Case-Files"


def _unescaped(markdown: str) -> bool:
    """True when markdown holds a raw '<' (one not escaped with a backslash)."""
    return re.search(r"(?<!\\)<", markdown) is not None


def test_hostile_names_stay_text_on_every_page(hostile_home, monkeypatch):
    at = _open(_app(hostile_home, monkeypatch), "pages/communities.py")
    texts = [m.value for m in at.markdown] + [s.value for s in at.subheader]
    assert any("img src" in t for t in texts), "the hostile report title is not shown"
    assert not any(_unescaped(t) for t in texts)
    assert "<img" not in _frame_html(at).lower()
    page_html = _html(at)  # the report's text and the chips' evidence, before any click
    assert "<details" in page_html and "&lt;img src=x onerror=alert(1)&gt;" in page_html
    assert "<img" not in page_html.lower() and "<script" not in page_html.lower()
    chip = _viewers(at, "refs_")[0]
    chip.set_value(chip.options[0]).run()
    body = _html(at)
    assert "&lt;img src=x onerror=alert(1)&gt;" in body and "<img" not in body.lower()
    ask = _ask(_open(_app(hostile_home, monkeypatch), "pages/ask.py"), "What is in the harbour records?")
    assert not any(_unescaped(m.value) for m in ask.markdown)
    assert any("img src" in m.value for m in ask.markdown)
    assert HOSTILE not in _html(ask)


def test_a_dangling_reference_is_flagged_not_dropped(indexed_home, tmp_path, monkeypatch):
    shutil.copytree(indexed_home / "test", tmp_path / "copy")
    store = Store(tmp_path / "copy")
    save_trace(store, SearchResult(
        method="global", question="Which reports say so?", level=0,
        answer="The harbour was closed [Data: Reports (999); Entities (0)]."))
    store.close()
    at = _open(_app(tmp_path, monkeypatch), "pages/ask.py")
    next(b for b in at.button if b.label.startswith("Which reports say so? \u00b7 global")).click().run()
    chips = _viewers(at, "ans_")[0]
    assert chips.options == ["Report 999 (missing)", "Entity 0"]
    assert any("Cited but not in this workspace: Report 999." in w.value for w in at.warning)
    chips.set_value("Report 999 (missing)").run()
    assert any("Report 999 does not exist in this workspace" in e.value for e in at.error)


def test_a_topic_answer_says_in_its_trace_what_it_quoted(indexed_home, tmp_path, monkeypatch):
    shutil.copytree(indexed_home / "test", tmp_path / "copy")
    store = Store(tmp_path / "copy")
    save_trace(store, SearchResult(
        method="global", question="What do they say about <b>tides</b>?", level=0,
        answer='"tides" comes up in 3 sentences of 2 passages.\n\n1. **Tides** \u2014 The tide turned [Data: Sources (0)].',
        reduce={"topic": {"topic": "<b>tides</b>", "units": 2, "sentences": 3, "quoted": [0, 0]}}))
    store.close()
    at = _open(_app(tmp_path, monkeypatch), "pages/ask.py")
    next(b for b in at.button if b.label.startswith("What do they say about <b>tides</b>? \u00b7 global")).click().run()
    said = [c.value for c in at.caption if "asks about one topic" in c.value]
    assert said and _plain(said[0]).startswith('The question asks about one topic, "<b>tides</b>": the answer quotes 2 '
                                               "of the 3 sentences naming it in 2 passages"), said


def test_the_llm_engine_without_an_endpoint_says_what_to_set(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.sidebar.radio[0].set_value("llm").run()
    _ask(at, "What happened?")
    assert any("needs an endpoint" in e.value for e in at.error)


def _open_tables(at: AppTest, tab: str | None = None) -> AppTest:
    """The user opens the expander of the community's tables (and a tab of it)."""
    at.session_state["tables_open"] = True
    at.run()
    if tab is not None:
        at.session_state["community_tab"] = next(t.label for t in at.tabs if t.label.startswith(tab))
        at.run()
    return at


def _click_row(at: AppTest, key_prefix: str, row: int) -> AppTest:
    key = next(d.key for d in at.dataframe if str(d.key).startswith(key_prefix))
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    return at.run()


def test_clicking_an_entity_row_opens_its_evidence(indexed_home, monkeypatch):
    at = _open_tables(_open(_app(indexed_home, monkeypatch), "pages/communities.py"))
    first = next(d.value for d in at.dataframe if str(d.key).startswith("tbl_e")).iloc[0]
    _click_row(at, "tbl_e", 0)
    assert not at.exception
    heading = next(m.value for m in at.markdown if m.value.startswith("### Entity "))
    assert _plain(heading) == f"### Entity {first['id']} \u00b7 {first['entity']}"
    assert "<mark>" in _html(at)
    assert assert_panel_marks(Store(indexed_home / "test"), _html(at)) >= 1
    again = _open_tables(_open(_app(indexed_home, monkeypatch), "pages/communities.py"), "Sub-communities")
    _click_row(again, "kids_", 0)
    assert any(":gray-badge[level 1]" in m.value for m in again.markdown)


def _use_llm(at: AppTest, server, key: str) -> AppTest:
    at.sidebar.radio[0].set_value("llm").run()
    at.sidebar.text_input(key="llm_base_url").input(server.url)
    at.sidebar.text_input(key="chat_model").input(server.models[0])
    at.sidebar.text_input(key="embedding_model").input("")
    at.sidebar.text_input(key="api_key_typed").input(key).run()
    return at


def test_llm_engine_from_the_sidebar_connection_and_question(indexed_home, monkeypatch):
    from fake_model import respond
    from openai_server import FakeOpenAIServer

    with FakeOpenAIServer(lambda messages, request: respond(messages), api_key="sk-right") as server:
        at = _use_llm(_open(_app(indexed_home, monkeypatch), "pages/ask.py"), server, "sk-wrong")
        next(b for b in at.sidebar.button if b.label == "Test connection").click().run()
        assert at.sidebar.error and "key" in _plain(at.sidebar.error[0].value).lower()
        at.sidebar.text_input(key="api_key_typed").input("sk-right").run()
        next(b for b in at.sidebar.button if b.label == "Test connection").click().run()
        assert at.sidebar.success and server.models[0] in _plain(at.sidebar.success[0].value)
        at.get("button_group")[0].set_value("global").run()  # the default is auto
        _ask(at, "What happened at Tanner Quay?")
        assert not at.error, [e.value for e in at.error]
        batches = next(d.value for d in at.dataframe if "best score" in d.value.columns)
        assert len(batches) >= 1 and (batches["status"] == "ok").all()
        assert int(_metric(at, "LLM calls")) == server.count("chat") >= 2  # map + reduce
        assert [o for c in _viewers(at, "ans_") for o in c.options][0].startswith("Report ")
        assert any("LLM " + server.models[0] in _plain(c.value) for c in at.caption)


def test_llm_index_run_in_the_background(tmp_path, monkeypatch):
    from fake_model import respond
    from openai_server import FakeOpenAIServer

    path = create_workspace("llm", tmp_path)
    store = Store(path)
    ingest_files(store, sample_files(1), max_bytes=10_000_000)
    with FakeOpenAIServer(lambda messages, request: respond(messages)) as server:
        at = _use_llm(_open(_app(tmp_path, monkeypatch), "pages/corpus.py"), server, "sk-test")
        assert int(_metric(at, "LLM calls").lstrip("~")) > 0 and _metric(at, "Cost").startswith("~$")
        next(b for b in at.button if b.label == "Index the corpus").click().run()
        assert not at.exception and not at.error
        deadline = time.time() + 60
        while current_run(store) is not None and time.time() < deadline:
            time.sleep(0.3)
        at.run()
        assert any("Everything is indexed" in s.value for s in at.success)
        history = next(d.value for d in at.dataframe if "LLM calls" in d.value.columns)
        assert history.iloc[0]["status"] == "finished" and history.iloc[0]["engine"] != "offline"
        assert history.iloc[0]["LLM calls"] == server.count("chat") > 0
    assert "sk-test" not in (path / "settings.json").read_text()


class _FailingEngine(OfflineEngine):
    """The offline engine, except that it cannot read text units that mention Tanner Quay."""

    def extract(self, unit):
        if "Tanner Quay" in (unit.get("text") or ""):
            raise UserError("the model returned unreadable JSON twice")
        return super().extract(unit)


def test_failed_items_are_listed_and_retried(tmp_path, monkeypatch):
    path = create_workspace("flaky", tmp_path)
    store = Store(path)
    ingest_files(store, sample_files(3), max_bytes=10_000_000)
    settings = load_settings(path, env={}, engine="offline")
    save_settings(path, settings)
    failing = _FailingEngine(settings)
    failing.name = "offline"  # the retry below runs the real offline engine on the same items
    summary = run_index(store, settings, engine=failing)
    assert summary["status"] == "finished with failures"
    at = _open(_app(tmp_path, monkeypatch), "pages/corpus.py")
    failed = next(d.value for d in at.dataframe if "error" in d.value.columns and "kind" in d.value.columns)
    assert len(failed) == summary["counts"]["failed_units"] > 0
    assert set(failed["error"]) == {"the model returned unreadable JSON twice"}
    lost = [w.value for w in at.warning if "The last run lost" in w.value]  # said prominently
    assert lost and f"lost {len(failed)} items" in lost[0] and "unreadable JSON twice" in lost[0]
    docs = next(d.value for d in at.dataframe if "chunks" in d.value.columns)
    assert any(str(v).endswith("failed") for v in docs["status"]), list(docs["status"])
    next(b for b in at.button if b.label == "Retry the failed items").click().run()
    deadline = time.time() + 60
    while current_run(store) is not None and time.time() < deadline:
        time.sleep(0.3)
    at.run()
    assert not any(b.label == "Retry the failed items" for b in at.button)
    assert store.count("extractions", "status = 'failed'") == 0
    assert any("Everything is indexed" in s.value for s in at.success)

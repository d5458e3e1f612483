"""DRIFT, TS and auto (routing) on a sample workspace indexed offline: with the prompt-aware fake
model (the calls each method makes, what its trace holds, that references resolve) and offline;
through the registry and the CLI."""
from __future__ import annotations

import json
import shutil

import pytest

from core.cli.main import main
from core.errors import UserError
from core.llm.client import LLM
from core.query.drift.search import DriftParams, drift_search
from core.query.methods import METHODS, run_method
from core.query.route import route, route_question
from core.query.ts_search import ts_search
from core.query.types import GlobalParams
from core.store.db import Store
from tests.conftest import build_workspace, sample_files
from tests.fake_model import respond
from tests.fakes import FakeChat


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    return build_workspace(tmp_path_factory.mktemp("m21"), "m21", sample_files(4))


def fake_llm(store, window=None):
    chat = FakeChat(respond)
    llm = LLM(chat, store=None)
    if window:
        llm.context_window = window
    return llm, chat


def kinds(chat):
    from bench.sim_server import prompt_kind
    return [prompt_kind(m) for m in chat.calls]


def test_drift_primer_folds_follow_up_rounds_and_one_reduce(ws):
    store = Store(ws)
    llm, chat = fake_llm(store)
    r = drift_search(store, "What are the main conflicts in Port Aldermere?",
                     DriftParams(k_followups=3, folds=2, depth=2, seed=1), llm)
    d = r.context["drift"]
    folds = [n for n in d["nodes"] if n["depth"] == 0]
    follow = [n for n in d["nodes"] if n["depth"] > 0]
    assert len(folds) == 2 and len(d["top_reports"]) == 3  # the 3 best reports in 2 folds
    assert sorted(sum((f["reports"] for f in folds), [])) == sorted(d["top_reports"])
    assert follow and all(n["depth"] in (1, 2) for n in follow)
    assert all(r_["asked"] <= 3 for r_ in d["rounds"])
    assert len({n["query"].lower() for n in follow}) == len(follow)  # nothing asked twice
    assert all(n["parent"] is not None for n in follow)
    got = kinds(chat)
    assert got.count("drift_hyde") == 1 and got.count("drift_primer") == 2 and got.count("drift_reduce") == 1
    # one local call per follow-up that names an entity of the index (one that names none is
    # recorded with that reason and costs no call)
    asked = [n for n in follow if not n.get("error")]
    assert asked and got.count("drift_local") == len(asked)
    assert all(n["error"] == "no entity of the index is named in this follow-up" for n in follow if n.get("error"))
    assert r.answer and r.citations and not any(c["dangling"] for c in r.citations)
    assert r.usage["llm_calls"] == len(chat.calls)


def test_drift_takes_smaller_defaults_for_a_small_window_and_says_so(ws):
    store = Store(ws)
    llm, _ = fake_llm(store, window=4096)
    r = drift_search(store, "What happened at Berth 2?", DriftParams(seed=2), llm, record=False)
    assert (r.params["k_followups"], r.params["folds"], r.params["depth"]) == (5, 2, 2)
    assert "small context window" in r.params["defaults"]
    big, _ = fake_llm(store)
    r2 = drift_search(store, "What happened at Berth 2?", DriftParams(seed=2), big, record=False)
    assert (r2.params["k_followups"], r2.params["folds"], r2.params["depth"]) == (20, 5, 3)


def test_drift_offline_answers_with_resolving_references(ws):
    store = Store(ws)
    r = drift_search(store, "What do we know about Maria Okafor?", DriftParams(k_followups=4, folds=2, depth=1))
    assert r.engine == "offline" and r.answer
    assert r.citations and not any(c["dangling"] for c in r.citations)
    assert any(n["depth"] == 1 for n in r.context["drift"]["nodes"])


def test_ts_maps_every_text_unit_once_and_cites_sources(ws):
    store = Store(ws)
    llm, chat = fake_llm(store)
    r = ts_search(store, "What are the main themes?", GlobalParams(map_max_tokens=1500, seed=3), llm)
    ids = [i for b in r.batches for i in b.report_ids]
    assert sorted(ids) == sorted(u["human_readable_id"] for u in store.rows("text_units", select="human_readable_id"))
    assert len(r.batches) > 1 and kinds(chat).count("ts_map") == len(r.batches)
    assert kinds(chat).count("ts_reduce") == 1
    kinds_cited = {c["kind"] for c in r.citations}
    assert kinds_cited == {"Sources"} and not any(c["dangling"] for c in r.citations)
    again = ts_search(store, "What are the main themes?", GlobalParams(map_max_tokens=1500, seed=3), None)
    assert again.engine == "offline" and again.answer and {c["kind"] for c in again.citations} == {"Sources"}


def test_routing_reads_the_question_and_the_graph(ws):
    store = Store(ws)
    broad = route(store, "What are the main themes across these documents?")
    assert broad.method == "global" and "as a whole" in broad.reason
    narrow = route(store, "Who is Maria Okafor?")
    assert narrow.method == "local" and "Maria Okafor" in narrow.reason.title()
    # a workspace without reports is never sent to global
    assert route_question("What are the main themes?", [], has_reports=False,
                          available=("global", "local", "drift", "lazy")).method == "lazy"
    assert route_question("What are the main themes?", [], has_reports=False,
                          available=("global", "local")).method == "local"


def test_auto_in_a_workspace_without_reports_answers_without_global(ws, tmp_path):
    copy = tmp_path / "noreports"
    shutil.copytree(ws, copy)
    store = Store(copy)
    store.db.execute("delete from community_reports")
    store.db.conn.commit()
    r = run_method("auto", store, "What are the overall trends?")
    assert r.params["route"]["method"] not in ("global", "drift") and r.answer
    with pytest.raises(UserError, match="no community reports"):
        run_method("global", store, "What are the overall trends?")


@pytest.mark.parametrize("method", ["drift", "ts", "auto"])
def test_query_cli_runs_the_method_and_prints_its_trace(ws, capsys, method):
    assert method in METHODS
    extra = ["--depth", "1", "--followups", "3"] if method in ("drift", "auto") else []
    code = main(["query", "What are the main conflicts?", "-w", str(ws), "--method", method, "--engine", "offline",
                 *extra, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["answer"]
    if method == "drift":
        assert out["method"] == "drift" and out["context"]["drift"]["nodes"]
        assert out["params"]["depth"] == 1 and out["params"]["k_followups"] == 3
    elif method == "ts":
        assert out["method"] == "ts" and out["map"]["batches"]
    else:
        assert out["params"]["route"]["method"] == out["method"] and out["params"]["route"]["reason"]
    main(["query", "What are the main conflicts?", "-w", str(ws), "--method", method, "--engine", "offline", *extra])
    text = capsys.readouterr().out
    assert {"drift": "DRIFT search", "ts": "TS: map-reduce", "auto": "auto chose"}[method] in text


def test_a_concept_the_offline_engine_took_for_an_entity_does_not_make_a_question_narrow(tmp_path):
    """The offline engine extracts "Revenue Growth" from earnings calls; the calls write it in
    lower case. "What were the main drivers of revenue growth?" asks about the corpus and goes to
    global, and so does one naming the company most of the units name; a name the documents
    capitalise that few units hold still sends its question to local."""
    from core.ingest.documents import ingest_paths
    from core.index.pipeline import run_index
    from core.settings import Settings
    calls = tmp_path / "calls"
    calls.mkdir()
    for q, (pct, area) in enumerate([(12, "cloud"), (9, "gaming"), (15, "search"), (7, "devices")], 1):
        (calls / f"call_q{q}.txt").write_text(
            f"Contoso reported quarterly results. Our revenue growth was {pct} percent, driven by {area}. "
            f"Amy Hood said revenue growth in {area} beat expectations.\n\n"
            f"We expect revenue growth to continue. Contoso Cloud grew faster than revenue growth overall. "
            f"Operating margins expanded as revenue growth outpaced costs.\n", encoding="utf-8")
    store = Store(tmp_path / "ws")
    ingest_paths(store, sorted(calls.iterdir()), max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    titles = {e["title"].lower() for e in store.rows("entities", select="title")}
    assert "revenue growth" in titles, titles  # the offline engine's concept entity
    broad = route(store, "What were the main drivers of revenue growth?")
    assert broad.method == "global", broad.reason
    assert broad.signals["concepts"] and not broad.signals["entities"]
    # the company every call is about names nothing narrower than the corpus
    theme = route(store, "What are the main drivers of Contoso's revenue growth, and what risks did management mention?")
    assert theme.method == "global", theme.reason
    # naming it alone does not make a thematic question narrow (a newcomer's "What are the main
    # growth drivers Microsoft discusses?" went to local search "because it names microsoft")
    from core.query.route import route_question
    q = "What are the main growth drivers Microsoft discusses?"
    assert route_question(q, ["Microsoft"], background_titles=["Microsoft"]).method == "global"
    assert route_question(q, ["Microsoft"]).method == "local"  # a name few units hold: narrow
    assert route_question("Who is Microsoft?", ["Microsoft"], background_titles=["Microsoft"]).method == "local"
    assert route_question("Who is Microsoft?", ["Microsoft"], available=("global", "local", "basic"),
                          background_titles=["Microsoft"]).method == "local"  # a graph to walk, not passages
    narrow = route(store, "What did Amy Hood say about the quarter?")
    assert narrow.method == "local" and "Amy Hood" in narrow.reason.title(), narrow.reason


def test_chinese_fact_questions_periods_and_main_characters_route_as_analysts_mean_them():
    from core.query.route import route_question
    everything = ("global", "local", "basic")
    # a Chinese question asking for one list or one figure is narrow (it went to global themes)
    for q in ("生成社区报告的提示要求报告包含哪五个部分？", "论文实验中采用的文本块大小是多少？"):
        assert route_question(q, [], available=everything).family == "narrow", q
    assert route_question("GraphRAG 的主要主题是什么？", [], available=everything).method == "global"
    # a fiscal period the graph holds dates a themes question; it does not make it narrow
    q = "What were the main themes of Microsoft's FY22 Q2 earnings call?"
    assert route_question(q, ["FY22", "Q2", "Microsoft"], background_titles=["Microsoft"]).method == "global"
    # the main character every unit names, asked about with a word like "evolving": still narrow
    q = "How does Sam Rivera describe the evolving alien signals?"
    assert route_question(q, ["Sam Rivera"], available=everything, background_titles=["Sam Rivera"]).method == "local"
    assert route_question("How do the characters' views of Sam Rivera evolve overall?", ["Sam Rivera"],
                          available=everything, background_titles=["Sam Rivera"]).method == "global"


def test_why_and_how_does_it_end_questions_are_narrow_and_themes_of_a_named_talk_are_broad():
    """"Why did revenue fall?" and "How does the story end?" ask one fact of the passages; the main
    themes of a conversation the question names are still its themes, however many names it gives."""
    avail = ("global", "local", "basic")
    assert route_question("Why did revenue fall?", available=avail).family == "narrow"
    assert route_question("How does the story end?", available=avail).method == "basic"
    assert route_question("How does Scrooge change over the whole story?", available=avail).family == "broad"
    themes = route_question("What are the main themes of Kevin Scott's conversation with Irma Olguin?",
                            entity_titles=["KEVIN SCOTT", "IRMA OLGUIN"], available=avail)
    assert themes.method == "global", themes.reason


def test_what_the_story_is_about_and_its_moral_are_broad_for_a_reason_that_says_so():
    avail = ("global", "local", "basic")
    for q in ["What's the story about?", "What\u2019s the moral of the story?", "What lessons does it teach?"]:
        r = route_question(q, available=avail)
        assert r.method == "global" and "as a whole" in r.reason, (q, r.reason)


def test_two_words_few_passages_write_together_make_a_fact_question_narrow(tmp_path):
    """"Should I use single or double quotes for strings?" names nothing, and went to global's
    themes; "double quotes" is in one passage of the style guide, so the question is about that.
    A broad word inside a capitalised name ("the Entity & Relationship Summarization step") is the
    name's, while "What are the main themes?" stays global."""
    from core.ingest.documents import ingest_files
    from core.index.pipeline import run_index
    from core.settings import Settings
    parts = {
        "quotes.md": "# String quotes\n\nIn Python, single-quoted strings and double-quoted strings are the same. "
                     "This guide does not make a recommendation. Pick a rule and stick to it. When a string holds "
                     "double quotes, use single quotes to avoid backslashes.\n",
        "indent.md": "# Indentation\n\nUse four spaces per indentation level. Continuation lines align with the "
                     "opening delimiter. Tabs are for code already indented with tabs.\n",
        "names.md": "# Naming\n\nModules have short, all-lowercase names. Class names use the CapWords convention. "
                    "Function names are lowercase, with words separated by underscores.\n",
        "steps.md": "# Pipeline\n\nThe Entity & Relationship Summarization step merges the descriptions of each entity "
                    "into one description. Community detection comes after it.\n",
    }
    store = Store(tmp_path / "ws")
    ingest_files(store, [(n, t.encode()) for n, t in parts.items()], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    avail = ("global", "local", "basic")
    quotes = route(store, "Should I use single or double quotes for strings?", avail)
    assert quotes.method == "basic" and '"double quotes"' in quotes.reason, quotes.reason
    step = route(store, "What does the Entity & Relationship Summarization step do?", avail)
    assert step.family == "narrow", step.reason
    assert route(store, "What are the main themes?", avail).family == "broad"


def test_a_question_about_something_the_graph_does_not_name_goes_to_the_passages_unless_it_asks_about_the_work():
    """"what does the alien writing seem to be asking for?" names no entity, and went to global's
    themes, which quoted the team's mission; the passages about the writing answer it. A question
    about the story, the book or these proposals as a whole, or one with nothing to ask about
    ("What happened?"), stays global."""
    avail = ("global", "local", "basic")
    narrow = route_question("what does the alien writing seem to be asking for?", available=avail)
    assert narrow.method == "basic" and "does not name" in narrow.reason, narrow.reason
    assert route_question("what are they spending their money on?", available=avail).method == "basic"
    for q in ["What part does laughter play in the story?", "What do these proposals say about readability?",
              "how does the book deal with death?", "What happened?", "What is in the harbour records?"]:
        assert route_question(q, available=avail).method == "global", q
    assert '("the story")' in route_question("What part does laughter play in the story?", available=avail).reason


def test_kinds_of_a_thing_and_someones_counted_list_are_list_questions():
    """"what kinds of cache can I use?" asks for the cache types the docs list, not the corpus's
    themes; "what are chase's three principles?" counts what one person names."""
    from core.query.lists import list_kind
    avail = ("global", "local", "basic")
    assert list_kind("what kinds of cache can I use?") == "cache"
    assert list_kind("what are chase's three principles about creativity?") == "principles"
    assert list_kind("What kind of man was he?") is None  # what he was like
    assert list_kind("What kinds of changes do these proposals make to Python?") is None  # sensemaking
    for q in ["what kinds of cache can I use?", "what are chase's three principles about creativity?"]:
        r = route_question(q, available=avail)
        assert r.method == "basic" and "list" in r.reason, (q, r.reason)


def test_a_yes_or_no_about_what_i_can_do_or_about_one_thing_is_narrow_despite_a_broad_word():
    """"can I run just some of the indexing steps instead of the whole pipeline?" asks one fact of
    the docs ("whole" is the pipeline's); "are community ids unique across all the levels?" too.
    "Are there any security concerns ...?" and an overview of the whole corpus stay global."""
    avail = ("global", "local", "basic")
    assert route_question("can I run just some of the indexing steps instead of the whole pipeline?",
                          available=avail).method == "basic"
    assert route_question("are community ids unique across all the levels?", available=avail,
                          phrases=["community ids"]).method == "basic"
    for q in ["Are there any security concerns with these proposals?", "Can I get an overview of the whole corpus?",
              "Can you summarize the documents?"]:
        assert route_question(q, available=avail).method == "global", q

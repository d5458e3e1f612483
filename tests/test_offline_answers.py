"""Offline answers as an analyst would give them (issue 17), on the Operation Dulce novella and A
Christmas Carol from ../shared/corpora indexed by the real offline pipeline: a global question is
answered with a list of themes, each titled and quoting a cited sentence; "who is X" starts with
who X is; the four agents are one entity each; the pages and `sensemaker query` show the same."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.offline.definitions import definition_score
from core.offline.sentence_rank import is_boilerplate, name_pattern
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.offline_answer import cite, split_refs
from core.store.db import Store

from conftest import ROOT, build_workspace

_HERE = ROOT.parent / "shared" / "corpora"
CORPORA = _HERE if _HERE.exists() else ROOT.parent.parent / "shared" / "corpora"  # from a worktree
DULCE = CORPORA / "operation_dulce" / "dulce.txt"
CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
needs_corpora = pytest.mark.skipif(not (DULCE.exists() and CAROL.exists()),
                                   reason="../shared/corpora is not available")
ITEM = re.compile(r"^(\d+)\. \*\*(?P<title>[^*]+)\*\* \(community report \d+\) — (?P<body>.+)$")


def theme_items(answer: str) -> list[re.Match]:
    return [m for m in (ITEM.match(p) for p in answer.split("\n\n")) if m]


def first_sentence(answer: str) -> str:
    return split_refs(answer.split("\n\n")[0])[0]


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> Path:
    """A SENSEMAKER_HOME with the novella (`dulce`) and the Carol (`carol`) indexed offline."""
    if not (DULCE.exists() and CAROL.exists()):
        pytest.skip("../shared/corpora is not available")
    home = tmp_path_factory.mktemp("books")
    build_workspace(home, "dulce", [(DULCE.name, DULCE.read_bytes())])
    build_workspace(home, "carol", [(CAROL.name, CAROL.read_bytes())])
    return home


# -- small pieces ------------------------------------------------------------------------------

def test_a_closing_curly_quote_keeps_an_english_full_stop():
    said = cite("\u201cI assume, Agent Mercer, you\u2019re not having second thoughts?\u201d", {"Sources": [0]})
    assert said.endswith("[Data: Sources (0)].") and "\u3002" not in said
    assert cite("他说：\u201c我们明天出发。\u201d", {"Sources": [1]}).endswith("\u3002")


def test_memo_headers_and_licence_lines_are_never_quoted():
    assert is_boilerplate("Date of report: Monday 4 March 2024, 09:30\nPrepared by: Maria Okafor, Harbour Master\n"
                          "Copied to: Mayor Helen Varga")
    assert is_boilerplate("This eBook is for the use of anyone anywhere under the terms of the Project Gutenberg License.")
    assert is_boilerplate("EP-9_ Behind_the_Tech_Kevin Scott_Podcast_with_Reid_Hoffman.txt")
    assert not is_boilerplate("Maria Okafor, the Harbour Master, inspected Berth 2 on Monday.")
    # a PEP's notice and the continued line of its author field: no theme or answer quotes them
    assert is_boilerplate("This document has been placed in the public domain.")
    assert is_boilerplate("Tim Peters <tim.peters@gmail.com>, Guido van Rossum <guido@python.org>")
    assert not is_boilerplate("Write to Maria Okafor <maria@example.org> with any questions about the berths.")
    # a documentation site's directive block: "what is graphrag?" quoted it
    assert is_boilerplate("::: mkdocs-typer :module: graphrag.cli.main :prog_name: graphrag :command: app :depth: 0")


def test_a_cast_list_line_defines_better_than_a_mention():
    pat = name_pattern(["Bob Cratchit", "Bob"])
    cast = definition_score("Bob Cratchit, clerk to Ebenezer Scrooge.", pat)
    said = definition_score("'A merry Christmas, Bob!' said Scrooge, with an earnestness.", pat)
    assert cast > definition_score("Bob Cratchit went down a slide on Cornhill.", pat) and cast > said


def test_what_a_guest_is_defines_better_than_the_line_introducing_them():
    """Behind the Tech, episode with Stevie Bathiche: "Our guest today is Stevie Bathiche" gives a
    role the show gives him; "Stevie is a technical fellow at Microsoft" says who he is, under his
    first name. "Cruz was the first to react" says what she did, not what she is."""
    pat = name_pattern(["Stevie Bathiche", "Stevie"])
    intro = definition_score("Our guest today is Stevie Bathiche.", pat)
    assert definition_score("Stevie is a technical fellow at Microsoft.", pat) > intro
    cruz = name_pattern(["Taylor Cruz", "Cruz"])
    assert definition_score("Taylor Cruz, stepping firmly into the role of de facto leader, set a brisk pace.", cruz) > \
        definition_score("Cruz was the first to react, all business despite the shadow.", cruz)


# -- the engine on real books -------------------------------------------------------------------

@needs_corpora
def test_the_four_agents_are_one_entity_each(books):
    store = Store(books / "dulce")
    people = {e["title"] for e in store.rows("entities", "type = 'person'")}
    assert {"ALEX MERCER", "TAYLOR CRUZ", "JORDAN HAYES", "SAM RIVERA"} <= people
    assert not [p for p in people if "MERCER" in p and p != "ALEX MERCER"], people
    assert store.rows("entities", "title = 'DULCE'")[0]["type"] == "geo"


@needs_corpora
def test_a_themes_question_gets_three_titled_cited_themes(books):
    result = global_search(Store(books / "carol"), "What are the top themes in this story?")
    head = result.answer.split("\n\n")[0]
    assert re.match(r"\d+ themes found in \d+ community reports", head) and "extractive" in head
    items = theme_items(result.answer)
    assert len(items) >= 3 and len({m["title"] for m in items}) == len(items)
    for m in items:
        assert "[Data: Sources (" in m["body"]
    assert "Scrooge" in result.answer and not re.search(r"linked to|Project Gutenberg|STAVE", result.answer)
    assert not any(c["dangling"] for c in result.citations)


@needs_corpora
def test_who_is_starts_with_who_they_are(books):
    carol, dulce = Store(books / "carol"), Store(books / "dulce")
    assert "clerk" in first_sentence(local_search(carol, "Who is Bob Cratchit?").answer)
    assert "sweetheart" in first_sentence(local_search(carol, "Who is Belle?").answer)
    assert "Agent Alex Mercer" in first_sentence(local_search(dulce, "Who is Alex Mercer?").answer)
    wage = local_search(carol, "What is the name of Scrooge's clerk, and what is he paid?").answer
    assert first_sentence(wage).startswith("Bob Cratchit, clerk to Ebenezer Scrooge")  # the name asked for
    assert "fifteen shillings" in wage or "fifteen 'Bob'" in wage
    sentences = [split_refs(s)[0] for s in re.split(r"(?<=\]\.)\s+|\n+", wage) if s.strip()]
    assert len(sentences) == len(set(sentences))  # no sentence twice


@needs_corpora
def test_sensemaker_query_gives_the_same_answers(books):
    out = subprocess.run([sys.executable, "-m", "core.cli", "query", "--workspace", str(books / "dulce"),
                          "--method", "local", "--engine", "offline", "Who is Taylor Cruz?"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Taylor Cruz, stepping firmly into the role of de facto leader" in out.stdout


# -- the Ask page -------------------------------------------------------------------------------

def _ask_page(home: Path, monkeypatch, workspace: str) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(str(ROOT / "tests" / "app_entry.py"), default_timeout=60)
    at.query_params["ws"] = workspace
    at.run()
    at.switch_page("../pages/ask.py").run()
    assert not at.exception, at.exception
    return at


def _ask(at: AppTest, question: str) -> str:
    at.text_area(key="ask_question").input(question)
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception, at.exception
    return "\n\n".join(re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)


@needs_corpora
def test_the_ask_page_shows_themes_and_who_is(books, monkeypatch):
    at = _ask_page(books, monkeypatch, "dulce")
    shown = _ask(at, "What are the main themes of the story?")
    assert re.search(r"\d+ themes found in \d+ community report", shown)
    titles = re.findall(r"^\d+\. \*\*([^*]+)\*\*", shown, re.MULTILINE)
    assert len(titles) >= 3 and any("Alex Mercer" in t for t in titles)
    chips = [o for b in at.selectbox if str(b.key).startswith("ans_") for o in b.options]
    assert len([o for o in chips if o.startswith("Source ")]) >= 3
    at.get("button_group")[0].set_value("local").run()
    shown = _ask(at, "Who is Alex Mercer?")
    assert "Agent Alex Mercer, unfailingly determined on paper" in shown


def test_a_compound_what_is_question_starts_with_what_it_is(tmp_path):
    """A newcomer's workspace of two earnings calls and David Kirtley's episode: "What is Helion,
    who founded it, and what is its relationship with Microsoft?" was answered with sentences
    sharing "found" and "relationship" ("he found the right mentor", "the long relationship with
    fans"); it opens a what-is question, so the answer starts with what Helion is."""
    import zipfile
    calls = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"
    pods = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
    if not (calls.exists() and pods.exists()):
        pytest.skip("../shared/corpora is not available")
    docs = tmp_path / "docs"
    docs.mkdir()
    for z, pick in ((calls, ("TranscriptFY20Q4.txt", "TranscriptFY22Q1.txt")), (pods, ("David_Kirtley",))):
        with zipfile.ZipFile(z) as zf:
            for name in zf.namelist():
                if any(p in name for p in pick) and name.endswith(".txt"):
                    (docs / Path(name).name).write_bytes(zf.read(name))
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import Settings
    store = Store(tmp_path / "ws")
    ingest_paths(store, sorted(docs.iterdir()), max_bytes=10_000_000)
    run_index(store, Settings(engine="offline"))
    r = local_search(store, "What is Helion, who founded it, and what is its relationship with Microsoft?")
    first = first_sentence(r.answer)
    assert "Helion" in first and "Kirtley" in first and "fusion" in first, r.answer[:400]
    assert "Microsoft" in r.answer and "found the right mentor" not in r.answer.split("\n\n")[0]


def test_a_legal_disclaimer_is_never_quoted():
    """Every call and filing carries the same disclaimer; it says nothing the corpus is about, so
    no answer or theme quotes it, while a sentence about results is quoted."""
    from core.offline.sentence_rank import is_boilerplate
    assert is_boilerplate("The non-GAAP financial measures provided should not be considered as a substitute for, "
                          "or superior to, the measures of financial performance prepared in accordance with GAAP.")
    assert is_boilerplate("Actual results could differ materially because of factors discussed in today's remarks.")
    assert not is_boilerplate("Operating income increased 8 percent, driven by growth in the commercial cloud.")

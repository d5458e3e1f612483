"""A global themes answer names each theme in the corpus's own words: the section its community's
text sits under in a structured document, else a phrase its sentences repeat; never a chapter's
label or the document's own title, which name no topic."""
from __future__ import annotations

import re

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from collections import Counter

from core.offline.sentence_rank import Sentence
from core.offline.themes import _phrase_topic, _section
from core.query.methods import run_method
from core.settings import Settings
from core.store.db import Store

SECTION = ("Harbourline keeps its vectors in LanceDB by default. LanceDB stores the embeddings next to "
           "the output tables. Qdrant and Milvus can hold the vectors instead, and Harbourline writes "
           "the embeddings to Qdrant or Milvus when the vector store setting names them.")
QUERY = ("Harbourline answers global questions with a map step over the community reports. The map "
         "step scores each report, and Harbourline keeps the reports whose map score is above zero. "
         "Harbourline then reduces the kept reports into one answer.")
SOURCES = ("Harbourline reads PDF files through Docling and Word files through Pandoc. Docling keeps the "
           "tables of a PDF file, and Pandoc keeps the headings of a Word file, so the readers keep the "
           "structure of the documents.")


def test_a_section_heading_names_the_theme_and_a_chapter_label_does_not(tmp_path):
    page = (f"# Harbourline guide\n\n## Vector stores\n\n{SECTION}\n\n## Global questions\n\n{QUERY}\n\n"
            f"## Document readers\n\n{SOURCES}\n")
    store = Store(tmp_path / "ws")
    ingest_files(store, [("guide.md", page.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline", chunk_size=60, chunk_overlap=0))
    answer = run_method("global", store, "What are the main topics of the guide?").answer
    titles = re.findall(r"^\d+\. \*\*(.+?)\*\*", answer, re.M)
    assert titles, answer
    assert any(t.startswith(("Vector stores", "Global questions", "Document readers")) for t in titles), titles
    assert not any(t.startswith("Harbourline guide") for t in titles), titles


def test_part_labels_are_no_topic():
    assert _section(["Operation Dulce", "Chapter 4"]) == "Operation Dulce"
    assert _section(["Chapter 4: The Descent"]) == "The Descent"
    assert _section(["STAVE THREE."]) == ""
    assert _section(["Language Model Selection", "Fields"]) == "Language Model Selection: Fields"
    # a step's number is no part of its topic; a name opening with a digit keeps it
    assert _section(["Visualizing", "2. Locate the Knowledge Graph"]) == "Locate the Knowledge Graph"
    assert _section(["3D Printing"]) == "3D Printing"


def test_a_phrase_of_judgement_or_size_names_no_theme_where_a_phrase_of_kind_does():
    said = ["They saw a huge number of fusion reactions in the chamber.",
            "A huge number of people asked about the fusion reactions.",
            "Medical monitoring began after the spill; medical monitoring costs money."]
    sents = [Sentence(text=t, unit=i, unit_id=str(i), order=i) for i, t in enumerate(said)]
    df = Counter({"huge": 1, "number": 1, "fusion": 1, "reaction": 1, "medical": 1, "monitoring": 1})
    topic = _phrase_topic(sents, set(), df, 100)
    assert topic in ("fusion reactions", "medical monitoring")  # not "huge number", repeated as often
    only_judged = [Sentence(text="A huge number came. A huge number left.", unit=0, unit_id="0", order=0),
                   Sentence(text="Then a huge number stayed.", unit=1, unit_id="1", order=1)]
    assert _phrase_topic(only_judged, set(), df, 100) is None
    assert _phrase_topic(only_judged, set(), df, 100, judged=True) == "huge number"  # where no other phrase is


def test_a_headline_over_several_themes_titles_none_of_them(tmp_path):
    """A news story's headline sits over all of its communities: a heading that would title several
    themes is the document's, so those themes are named by their names and words instead (the
    sample corpus's answer titled seven of eight themes with one headline)."""
    story = (f"# Harbourline ships version two\n\n{SECTION} {SECTION}\n\n{QUERY}\n\n{SOURCES} {SOURCES}\n")
    other = ("The harbour council met on Monday. Councillor Ada Brook asked about the ferry timetable, "
             "and Councillor Ada Brook and Mayor Tom Reed agreed to review the ferry timetable. " * 6)
    store = Store(tmp_path / "ws")
    ingest_files(store, [("story.md", story.encode()), ("minutes.txt", other.encode()),
                         ("notes.txt", other.replace("ferry", "bus").encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline", chunk_size=40, chunk_overlap=0))
    answer = run_method("global", store, "What are the main topics?").answer
    titles = re.findall(r"^\d+\. \*\*(.+?)\*\*", answer, re.M)
    assert titles, answer
    assert len(titles) >= 3 and not any(t.startswith("Harbourline ships version two") for t in titles), titles


def test_the_running_order_of_a_call_or_show_is_no_theme_sentence():
    from core.offline.themes import meta_share
    names = {"mark", "moerdler", "sanford", "bernstein", "satya", "nadella", "amy", "hood"}
    for running in ["That wraps up the Q&A portion of today's earnings call [Data: Sources (35)].",
                    "MARK MOERDLER, Sanford Bernstein: Thank you very much [Data: Sources (17)].",
                    "On the call with me are Satya Nadella, chief executive officer, Amy Hood, chief financial officer."]:
        assert meta_share(running, names) >= 0.2, running
    for theme in ["Azure revenue grew 93 percent this quarter, driven by cloud adoption [Data: Sources (3)].",
                  "Scrooge's niece played well upon the harp, a simple little air he remembered."]:
        assert meta_share(theme, names) < 0.2, theme


def test_a_phrase_one_passage_repeats_is_no_topic():
    said = [Sentence(text="We had a small dog. The small dog barked at the vector store.", unit=0, unit_id="0", order=0),
            Sentence(text="The small dog slept.", unit=0, unit_id="0", order=1),
            Sentence(text="Each vector store keeps its embeddings.", unit=1, unit_id="1", order=2),
            Sentence(text="A second vector store holds the rest.", unit=2, unit_id="2", order=3)]
    df = Counter({"small": 1, "dog": 1, "vector": 1, "store": 1})
    assert _phrase_topic(said, set(), df, 100) == "vector store"  # in three passages; "small dog" in one


def test_a_theme_of_greetings_or_running_order_gives_way_to_one_that_says_something():
    from core.offline.themes import Theme, _says_nothing
    names = {"heather", "bellini", "goldman", "sachs", "chris", "suh"}
    greeting = Theme(title="Chris Suh and Heather Bellini", sentences=[
        "HEATHER BELLINI, Goldman Sachs: Great [Data: Sources (28)].", "CHRIS SUH: Thanks, Heather [Data: Sources (29)]."])
    running = Theme(title="Q&A", sentences=["With that, let's move to the Q&A portion of the call [Data: Sources (17)]."])
    real = Theme(title="Cloud growth", sentences=[
        "Azure revenue grew 93 percent this quarter, driven by cloud adoption [Data: Sources (3)]."])
    assert _says_nothing(greeting, names) and _says_nothing(running, names)
    assert not _says_nothing(real, names)
    chinese = Theme(title="Map、Reduce", sentences=["查询时，系统对每个社区摘要独立生成部分答案，再汇总成全局答案 [Data: Sources (13)]。"])
    assert not _says_nothing(chinese, names)  # no spaces, and a sentence all the same


def test_a_documents_back_matter_is_no_theme_of_it():
    from core.offline.sentence_rank import heading_of
    from core.offline.themes import _BACK_MATTER
    text = "Rationale\n\nThe operator binds names in expressions.\n\nAcknowledgements\n\nThe authors thank Ada Brook."
    at = text.index("Acknowledgements")
    unit = {"text": text, "headings": ["Rationale"], "structure": {"headings": [[0, 9], [at, at + 16]]}}
    assert heading_of(unit, "The authors thank Ada Brook.") == "Acknowledgements"
    assert heading_of(unit, "The operator binds names in expressions.") == "Rationale"
    assert _BACK_MATTER.match("Acknowledgements") and _BACK_MATTER.match("10. References")
    assert not _BACK_MATTER.match("Rationale")


CALL = """OPERATOR: Welcome to the quarterly call. Our first question comes from the line of Keith Weiss.

SATYA NADELLA: Azure grew faster than the market this quarter. Azure Arc and Azure Synapse brought new customers to Azure, and Azure Synapse doubled its usage. Customers moved databases to Azure Arc.

AMY HOOD: Teams passed 75 million daily users. Teams and Outlook drove Office 365 seats, and Office 365 commercial revenue grew. Teams calls tripled, and Outlook usage rose with Teams.

SATYA NADELLA: Xbox content and services grew with Xbox Game Pass. Xbox Game Pass passed ten million members, and Xbox hardware sold out.

AMY HOOD: LinkedIn sessions grew, and LinkedIn Marketing Solutions slowed as advertisers paused. LinkedIn Talent Solutions saw fewer hires.
"""


def test_a_transcripts_speakers_title_no_theme_where_it_speaks_of_something(tmp_path):
    """The call's speakers (their labels, "AMY HOOD:") are in every theme's passages; a theme is
    titled by the products its community speaks of, not "Satya Nadella and Amy Hood"."""
    store = Store(tmp_path / "ws")
    ingest_files(store, [("call.txt", (CALL * 3).encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline", chunk_size=120, chunk_overlap=0))
    r = run_method("global", store, "What were the main themes of the call?", None)
    titles = re.findall(r"^\d+\. \*\*(.+?)\*\*", r.answer, re.M)
    assert titles, r.answer
    assert not any(re.search(r"Amy Hood|Satya Nadella", t, re.I) for t in titles), titles
    assert any(re.search(r"Azure|Teams|Xbox|LinkedIn|Office 365", t) for t in titles), titles

"""A question that asks for the members of a kind of thing gets the list: Auto sends it where
lists are found whole (basic), and the offline answer is the documents' own list (a structured
document's items or rows, with the sentence introducing them) or the graph's entities of that
kind, each line cited. Sensemaking questions (themes, trends) stay global."""
from __future__ import annotations

import re

import pytest

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.query.lists import list_kind
from core.query.methods import run_method
from core.query.route import route_question
from core.settings import Settings
from core.store.db import Store
from tests.test_structure import PAGE
from conftest import build_workspace


def _listed(answer: str) -> list[str]:
    """The names an entity-list answer gives, one line each or several sharing a line ("- Brazil, China: ...")."""
    return [n for line in re.findall(r"^- ([^:]+):", answer, re.M) for n in line.split(", ")]


def _page_unit(markdown: str, hrid: int) -> dict:
    """A text unit holding a Markdown page, with the structure the ingest reads from it."""
    from core.ingest.structure import markdown_to_text
    md, structure = markdown_to_text(markdown)
    return {"human_readable_id": hrid, "text": md, "structure": structure.to_dict()}


def _indexed(tmp_path, name: str, text: str) -> Store:
    """A workspace holding one document, indexed offline."""
    store = Store(tmp_path / "ws")
    ingest_files(store, [(name, text.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    return store


@pytest.mark.parametrize("question, kind", [
    ("What vector databases does it support?", "vector databases"),
    ("What are the key metrics?", "key metrics"),
    ("Which ghosts visit Scrooge?", "ghosts"),
    ("List the supported stores", "supported stores"),
    ("Which companies did Microsoft mention?", "companies"),
    ("What are the main themes?", None),
    ("Which trends recur across the calls?", None),
    ("Who is Bob Cratchit?", None),
    ("What is Harbourline?", None),
    ("Which is the best?", None),
    ("Which conflicts drive the plot?", None),
    # "kinds of X", "X types": the kind is X (asked as "Which vector store types ..." and "What
    # kinds of input files ..." of the GraphRAG documentation, these went to global themes)
    ("Which vector store types can GraphRAG write its embeddings to?", "vector stores"),
    ("What kinds of input files can the indexing pipeline ingest?", "input files"),
    ("What kinds of themes recur?", None),
    ("Which types does it define?", None),
    # a word ending in s is no plural: the kind goes on to the plural after it
    ("Which three Christmas spirits visit Scrooge after Marley's ghost?", "christmas spirits"),
    # an opening phrase before "which"
    ("Besides id, text and title, which columns does the documents table have?", "columns"),
])
def test_what_a_list_question_asks_for(question, kind):
    assert list_kind(question) == kind


def test_auto_sends_a_list_question_to_basic_and_themes_to_global():
    listing = route_question("What vector databases does it support?", available=("global", "local", "basic"))
    assert listing.method == "basic" and "list" in listing.reason
    themes = route_question("What are the main themes?", available=("global", "local", "basic"))
    assert themes.method == "global"
    # the kinds of a concrete thing are its members; the kinds of themes are still themes
    kinds = route_question("What kinds of input files can the indexing pipeline ingest?",
                           available=("global", "local", "basic"))
    assert kinds.method == "basic" and '"input files"' in kinds.reason
    assert route_question("What kinds of themes recur?", available=("global", "local", "basic")).method == "global"


def test_a_list_question_gets_the_documents_list_each_item_cited(tmp_path):
    store = _indexed(tmp_path, "harbourline.md", PAGE)
    r = run_method("auto", store, "Which stores does Harbourline keep its schedules in?")
    assert r.method == "basic"
    lines = r.answer.splitlines()
    assert lines[0].startswith("Harbourline keeps its schedules in one of these stores [Data: Sources (")
    items = [l for l in lines if l.startswith("- ")]
    assert [re.sub(r" \[Data: .*", "", i) for i in items] == [
        "- ChromaDB, for vector lookups", "- Neo4j, for the berth graph", "- Redis, for the live queue",
        "- Additionally, a log of every crane move"]
    assert all("[Data: Sources (" in i for i in items)
    metrics = run_method("auto", store, "What are the metrics?")
    assert "Berth Wait" in metrics.answer and "Crane Idle" in metrics.answer


def test_a_list_of_a_kind_the_graph_types_lists_those_entities(indexed_home):
    store = Store(indexed_home / "test")
    places = {e["human_readable_id"] for e in store.rows("entities", "type = 'geo'")}
    assert len(places) >= 2
    r = run_method("auto", store, "Which places are named?")
    assert r.method == "basic"
    items = [l for l in r.answer.splitlines() if l.startswith("- ")]
    cited = [int(m) for i in items for m in re.findall(r"Entities \((\d+)\)", i)]
    assert len(items) >= 2 and set(cited) <= places


@pytest.mark.parametrize("question, kind", [
    ("Who are the members of the Paranormal Military Squad?", "members"),
    ("Who were the guests?", "guests"),
    ("Which of Bob Cratchit's children are named in the book?", "children"),
    ("In which countries did she live as a child?", "countries"),
    ("Who are the Cratchits?", None),  # a name, not a kind of people
    ("Who is Bob?", None),
])
def test_people_of_a_kind_are_asked_for_as_lists(question, kind):
    assert list_kind(question) == kind


SQUAD = """Operation Lantern

Agent Alex Mercer led the squad through the gate of the northern base. Agent Jordan Hayes decoded
the signal on the main console while Agent Taylor Cruz gave the orders. Sam Rivera, the youngest
agent, worked the relay beside Jordan Hayes. Alex Mercer trusted Taylor Cruz and Sam Rivera with
the night watch, and Jordan Hayes briefed Alex Mercer at dawn.

Far away in Geneva, Dr. Elena Park and Dr. Victor Lund studied old radio records. Elena Park wrote
to Victor Lund every week, and Victor Lund answered Elena Park from the archive.
"""


def test_the_people_of_a_kind_tied_to_what_the_question_names_are_listed(tmp_path):
    store = _indexed(tmp_path, "lantern.txt", SQUAD)
    result = run_method("auto", store, "Which agents are on Alex Mercer's team?")
    assert result.method == "basic"
    listed = _listed(result.answer)
    assert {"Jordan Hayes", "Taylor Cruz", "Sam Rivera"} <= set(listed), result.answer
    assert "Elena Park" not in listed and "Victor Lund" not in listed and "Alex Mercer" not in listed


# a call's paragraph in the shape of ../shared/corpora/msft_earnings_calls (FY22 Q2): the members a
# question asks for are named in one sentence with what it says of them, beside other companies
CALL = """Satya Nadella: We saw strong demand across our cloud this quarter, and Contoso Inc., Fabrikam
Corp and Northwind Bank renewed their agreements with us. Contoso Inc. and Northwind Bank also
signed new Teams contracts, and Fabrikam Corp joined Northwind Bank in a security pilot.

Our commercial cloud is the platform of choice. This quarter, Acme Health Inc., Globex Corp,
Initech Inc. and Umbrella Bank all chose Azure as their preferred cloud provider.

Amy Hood: Revenue grew 20% this quarter, driven by Azure and by Teams at Contoso Inc., Fabrikam
Corp and Northwind Bank. Contoso Inc. and Fabrikam Corp expanded their use of Dynamics.
"""


def test_a_list_question_that_says_more_than_its_kind_gets_the_sentence_that_says_it(tmp_path):
    store = _indexed(tmp_path, "call.txt", CALL)
    result = run_method("auto", store, "Which customers chose Azure as their preferred cloud provider?")
    assert result.method == "basic"
    for name in ("Acme Health", "Globex", "Initech", "Umbrella Bank"):
        assert name in result.answer, result.answer
    assert "Northwind" not in result.answer and "Fabrikam" not in result.answer, result.answer
    assert not result.answer.startswith("The customers the documents name"), result.answer


# a podcast's opening in the shape of ../shared/corpora/behind_the_tech_podcasts (episode 14)
SHOW = """CHRISTINA WARREN: Hello and welcome to the show. I'm Christina Warren.
KEVIN SCOTT: And I'm Kevin Scott. Today our guest is Neha Narkhede, cofounder of Confluent.
CHRISTINA WARREN: Neha is on the Lumen list of the top self-made women in America. It is an amazing
list. Beyonce is on this list, Serena Williams and Oprah are on it. It also has women in tech like
Sheryl Sandberg and Safra Catz.
KEVIN SCOTT: Neha and I worked together, and Jay Kreps and Jun Rao built Kafka with her.
CHRISTINA WARREN: Neha talked with Kevin Scott about Kafka and about Confluent.
KEVIN SCOTT: Jay Kreps, Jun Rao and Neha Narkhede started Confluent together.
"""


def test_the_people_a_list_question_describes_are_those_named_where_the_text_says_it(tmp_path):
    store = _indexed(tmp_path, "show.txt", SHOW)
    result = run_method("auto", store, "Which women on the Lumen list of self-made women does Christina Warren name?")
    listed = _listed(result.answer)
    assert {"Serena Williams", "Sheryl Sandberg"} <= set(listed), result.answer
    assert not {"Jay Kreps", "Jun Rao", "Kevin Scott"} & set(listed), result.answer


def test_a_sentence_that_introduces_a_list_brings_the_list():
    from core.query.list_blocks import introduced_list
    # a Markdown page's list (structure items) and a plain-text block of short lines after a colon
    # (the shape of ../shared/corpora/graphrag_articles_zh/article_3.txt)
    unit = _page_unit("Harbourline reads three kinds of files:\n\n- CSV tables\n- JSON lines\n"
                      "- plain text\n\nIt writes Parquet.\n", 4)
    answer = "Harbourline reads three kinds of files [Data: Sources (4)]. It writes Parquet [Data: Sources (4)]."
    got = introduced_list(answer, [unit])
    assert got.splitlines()[1:4] == ["- CSV tables [Data: Sources (4)].", "- JSON lines [Data: Sources (4)].",
                                     "- plain text [Data: Sources (4)]."], got
    assert got.endswith("It writes Parquet [Data: Sources (4)].")
    plain = {"human_readable_id": 9, "text": "从入口实体出发,沿图收集四类材料:\n\n相关的原文块\n相关社区报告\n"
                                               "实体间的摘要关系\n入口实体的摘要\n\n四类材料组装成一个数据表。"}
    got = introduced_list("从入口实体出发,沿图收集四类材料 [Data: Sources (9)]。", [plain])
    assert "- 相关社区报告" in got and "- 入口实体的摘要" in got, got
    # a sentence that introduces nothing: the answer as it was
    assert introduced_list("It writes Parquet [Data: Sources (4)].", [unit]) == "It writes Parquet [Data: Sources (4)]."


def test_a_list_the_answer_quoted_one_row_of_still_comes_whole_and_the_row_once():
    """A table's row is a quotable sentence now; an answer that ranked one row before the sentence
    introducing the table still gets the whole table after that sentence, and the row once."""
    from core.query.list_blocks import introduced_list
    unit = _page_unit("Each document has these columns:\n\n| name | type |\n| --- | --- |\n"
                      "| id | str |\n| creation_date | str |\n| raw_data | dict |\n", 2)
    answer = ("Each document has these columns [Data: Sources (2)]. name: raw_data; type: dict [Data: Sources (2)]. "
              "It is read once [Data: Sources (5)].")
    got = introduced_list(answer, [unit])
    assert got.splitlines()[1:4] == ["- name: id; type: str [Data: Sources (2)].",
                                     "- name: creation_date; type: str [Data: Sources (2)].",
                                     "- name: raw_data; type: dict [Data: Sources (2)]."], got
    assert got.count("raw_data") == 1 and got.endswith("It is read once [Data: Sources (5)].")


def test_a_sentence_announcing_points_brings_the_sentences_that_enumerate_them():
    """A call or a spec enumerates in prose: "the following three principles ... First, ...
    Second, ... Third, ..." (FY14 Q4's shape), "a combination of three techniques ... The first
    is ... The other two are ..." (PEP 703's); the answer lists them after the announcing
    sentence, once, and a sentence announcing nothing brings nothing."""
    from core.query.list_blocks import introduced_list
    text = ("We reviewed the fleet this quarter. More specifically, we used the following three principles to guide "
            "our terminal investments.  First, focus investments on the berths.  Cranes were moved north as a "
            "result.  Second, consolidate overlapping depots.  Third, run every terminal in an economically sound "
            "way.\n\nOur tug contracts renew next year.")
    unit = {"human_readable_id": 6, "text": text}
    answer = ("More specifically, we used the following three principles to guide our terminal investments "
              "[Data: Sources (6)]. Our tug contracts renew next year [Data: Sources (6)]. First, focus investments "
              "on the berths [Data: Sources (6)].")
    got = introduced_list(answer, [unit])
    assert got.splitlines()[1:4] == ["- First, focus investments on the berths [Data: Sources (6)].",
                                     "- Second, consolidate overlapping depots [Data: Sources (6)].",
                                     "- Third, run every terminal in an economically sound way [Data: Sources (6)]."], got
    assert got.count("focus investments") == 1 and got.endswith("Our tug contracts renew next year [Data: Sources (6)].")
    spec = {"human_readable_id": 2, "text": "This PEP proposes a combination of three techniques. The first is biased "
            "reference counting. It is cheap. The other two techniques are immortalization and deferred counting."}
    got = introduced_list("This PEP proposes a combination of three techniques [Data: Sources (2)].", [spec])
    assert "- The first is biased reference counting" in got and "- The other two techniques" in got, got
    plain = {"human_readable_id": 3, "text": "We met three analysts. It rained. The first question was on margins."}
    said = "We met three analysts [Data: Sources (3)]."
    assert introduced_list(said, [plain]) == said  # one ordinal sentence is no enumeration


SPEC = """# Build backends

A build backend is the library a frontend calls to build a package.

## Mandatory hooks

Every backend defines these hooks.

### build_wheel

It builds a wheel in the given directory and returns its file name.

### build_sdist

It builds a source distribution in the given directory.

## Optional hooks

A backend may define these hooks too.

### get_requires_for_build_wheel

It returns extra requirements for building a wheel.

### prepare_metadata_for_build_wheel

It writes the wheel's metadata without building it.

### build_editable

It builds an editable wheel.
"""


def test_a_list_question_gets_the_subsections_of_the_section_its_kind_names(tmp_path):
    """The members of a list may be a section's subsections, no list at all ("Mandatory hooks":
    build_wheel, build_sdist); "must" asks for the required ones, "may" for the optional ones."""
    store = _indexed(tmp_path, "spec.md", SPEC)
    must = run_method("auto", store, "Which hooks must every build backend implement?").answer
    assert must.startswith("Mandatory hooks:"), must
    assert re.findall(r"^- (\w+)", must, re.M) == ["build_wheel", "build_sdist"], must
    assert "[Data: Sources (" in must
    may = run_method("auto", store, "Which hooks may a build backend define optionally?").answer
    assert may.startswith("Optional hooks:") and "build_editable" in may and "build_sdist" not in may, may


INPUTS = """# Inputs

GraphRAG supports several input formats.

## Input schema

Every document gets an id, a text and a title.

## Formats

We support multiple file formats out-of-the-box. Anything else needs a reader of your own.

### Plain Text

Plain text files (typically ending in .txt) are read whole.

### Comma-delimited

CSV files (typically ending in a .csv extension) give a document per row.

### Parquet

Parquet files are loaded as structured rows.

# Dataflow

## Phase 1: Chunking

Documents become text units.

## Phase 2: Extraction

Entities come out of the units.
"""


def test_a_section_titled_with_the_kind_s_head_word_lists_its_subsections_with_their_openings(tmp_path):
    """"Which input file formats ...": the section "Formats" under "Inputs" opening with "file
    formats", each subsection with its first sentence; "the phases of a DRIFT search" are not
    the phases of the dataflow, which never names DRIFT."""
    store = _indexed(tmp_path, "inputs.md", INPUTS)
    answer = run_method("auto", store, "Which input file formats can it read out of the box?").answer
    assert answer.startswith("Formats:"), answer
    assert re.findall(r"^- ([^:\[]+)", answer, re.M) == ["Plain Text", "Comma-delimited", "Parquet"], answer
    assert "- Comma-delimited: CSV files (typically ending in a .csv extension) give a document per row" in answer
    other = run_method("auto", store, "What are the three phases of a DRIFT search?").answer
    assert "Phase 1" not in other and "Phase 2" not in other, other


def test_a_list_the_kind_s_word_leads_is_the_answer_whatever_case_its_members_are(tmp_path):
    """PEP 484: "the builtin decorators ``@property``, ``@staticmethod`` and ``@classmethod``",
    lower case, rather than another list of the page about something else."""
    md = ("# Decorators\n\nType checkers are expected to infer as much as they can. The minimum requirement "
          "is to handle the builtin decorators `@property`, `@staticmethod` and `@classmethod`.\n\n"
          "## Rejected\n\nSeveral things are wrong with the double colon, however:\n\n"
          "- It is ugly, unlike other decorators.\n- It is new syntax.\n- It is hard to read.\n")
    store = _indexed(tmp_path, "pep.md", md)
    answer = run_method("auto", store, "Which built-in decorators must a type checker handle?").answer
    assert answer.startswith("The minimum requirement is to handle the builtin decorators"), answer
    assert "ugly" not in answer


def test_names_wordnet_knows_as_ones_of_the_kind_answer_which_countries(tmp_path):
    """The engine types "in Azure" a place, as it types "in Brazil"; a country is one WordNet
    knows as one. Names one sentence gives together share its line."""
    text = ("Revenue grew in Azure and in Office 365 this quarter. The challenging macro conditions in Brazil, "
            "China, Japan and Russia persisted this quarter. We opened datacenters in India. "
            "Azure grew again, and Office 365 grew in Azure regions.")
    store = _indexed(tmp_path, "call.txt", text)
    answer = run_method("auto", store, "Which countries were a drag on results?").answer
    listed = _listed(answer)
    assert {"Brazil", "China", "Japan", "Russia"} <= set(listed), answer
    assert "Azure" not in listed and "Office 365" not in listed, answer
    assert "- Brazil, China, Japan, Russia: The challenging macro conditions" in answer


@pytest.mark.parametrize("question, kind", [
    # a count of the members makes a list question whatever follows (spent blind sets' wording)
    ("What three problems with distutils and setuptools does PEP 517 describe?", "problems"),
    ("Into which three parts was PEP 622 split?", "parts"),
    ("PEP 703: what are the three techniques it combines to make reference counting thread-safe?", "techniques"),
    ("What are the three major factors Amy Hood says drive the tax rate?", "major factors"),
    ("What use cases for stub files does PEP 484 list?", "use cases"),
    ("What goods made the Grocers' shops such a sight?", "goods"),
    # what they are like is no list of them
    ("What are the two children hidden in the Ghost of Christmas Present's robe like?", None),
    # counted themes are still themes
    ("What are the three main themes of the calls?", None),
    ("Which two themes recur?", None),
])
def test_counted_and_qualified_kinds_are_list_questions(question, kind):
    assert list_kind(question) == kind


def test_a_later_sentence_of_the_answer_that_introduces_a_list_brings_it():
    from core.query.list_blocks import introduced_list
    unit = _page_unit("Stub files are files of type hints. There are several use cases for stub "
                      "files:\n\n- Extension modules\n- Third-party modules\n- Standard library "
                      "modules\n\nStubs have the .pyi extension.\n", 3)
    answer = ("Stubs have the .pyi extension [Data: Sources (3)]. There are several use cases for stub files "
              "[Data: Sources (3)].")
    got = introduced_list(answer, [unit])
    lines = got.splitlines()
    assert lines[0] == answer and lines[1:4] == ["- Extension modules [Data: Sources (3)].",
                                                 "- Third-party modules [Data: Sources (3)].",
                                                 "- Standard library modules [Data: Sources (3)]."], got


def test_the_kind_s_other_words_and_its_kinds_say_which_entities_a_list_names(tmp_path):
    """"Which Christmas spirits ...": the Ghost of Christmas Past and Present (a ghost is a kind of
    spirit, WordNet says), not "Evil Spirit"; "which gaming services" names no "Cognitive
    Services", whose text says nothing of gaming."""
    text = ("Ghost of Christmas Past, a phantom showing things past. Ghost of Christmas Present, a spirit of a "
            "kind, generous, and hearty nature. Scrooge met the Ghost of Christmas Past at one. The Ghost of "
            "Christmas Present came at two. If the good St. Dunstan had nipped the Evil Spirit's nose, he would "
            "have roared. Customers use Cognitive Services and Bot Framework for AI. Enterprise Services revenue "
            "declined. Cognitive Services grew. Enterprise Services fell.")
    store = _indexed(tmp_path, "carol.txt", text)
    spirits = run_method("auto", store, "Which Christmas spirits visit Scrooge?").answer
    assert spirits.startswith("The Christmas spirits the documents name"), spirits
    listed = _listed(spirits)
    assert {"Ghost of Christmas Past", "Ghost of Christmas Present"} <= set(listed), spirits
    assert "Evil Spirit" not in listed
    gaming = run_method("auto", store, "Which new gaming services did they launch?").answer
    assert "the documents name" not in gaming and not re.search(r"^- (?:Cognitive|Enterprise)", gaming, re.M), gaming


def test_a_member_quoted_before_the_sentence_introducing_its_list_comes_once_in_the_list():
    from core.query.list_blocks import introduced_list
    unit = _page_unit("Harbourline reads three kinds of files:\n\n- CSV tables\n- JSON lines\n"
                      "- plain text\n\nIt writes Parquet.\n", 4)
    answer = ("JSON lines [Data: Sources (4)]. Harbourline reads three kinds of files [Data: Sources (4)]. "
              "It writes Parquet [Data: Sources (4)].")
    got = introduced_list(answer, [unit])
    assert got.splitlines()[0] == "Harbourline reads three kinds of files [Data: Sources (4)].", got
    assert got.count("JSON lines") == 1, got


STYLE = """PEP: 9102
Title: Harbour code style
Author: Maria Okafor
Status: Active

# Harbour code style

This guide covers layout and names for the harbour's code.

## Code Lay-out

Use four spaces per indentation level. Limit lines to 79 characters.

## Naming Conventions

The naming conventions of the harbour's code are a little messy, so new code follows these.

### Berth Names

Berth names use CapWords, like NorthQuay.

### Crane Names

Crane names are lower case with underscores, like crane_seven.

### Shift Names

Shift names are upper case, like NIGHT.
"""


def test_a_list_question_naming_the_document_gets_the_section_its_kind_titles_there(tmp_path):
    store = Store(tmp_path / "ws")
    ingest_files(store, [("pep-9102.md", STYLE.encode()),
                         ("pep-9103.md", STYLE.replace("9102", "9103").replace("Naming Conventions", "Layout").encode())],
                 max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    r = run_method("auto", store, "Which naming conventions does PEP 9102 recommend?", None)
    assert r.answer.splitlines()[0] == "Naming Conventions:", r.answer
    assert [i.split(":")[0] for i in _listed(r.answer)] == ["Berth Names", "Crane Names", "Shift Names"], r.answer


def test_a_sentence_of_a_list_member_quoted_after_the_list_is_not_quoted_again():
    from core.query.list_blocks import introduced_list
    unit = _page_unit("Harbourline reads two kinds of files:\n\n- CSV tables. Each row is one berth record.\n"
                      "- JSON lines. Each line is one crane log.\n\nIt writes Parquet.\n", 4)
    answer = ("Harbourline reads two kinds of files [Data: Sources (4)]. Each line is one crane log [Data: Sources (4)]. "
              "It writes Parquet [Data: Sources (4)].")
    got = introduced_list(answer, [unit])
    assert got.count("Each line is one crane log") == 1, got
    assert got.endswith("It writes Parquet [Data: Sources (4)].")


CONFIG_MD = b"""# Configuration

Settings live in settings.yaml.

## Workflow Configurations

### prune_graph

Parameters for manual graph pruning, which removes overly-connected or rare nodes.

#### Fields

- `min_node_freq` **int** - The minimum node frequency to allow.
- `min_node_degree` **int** - The minimum node degree to allow.
- `lcc_only` **bool** - Only use largest connected component.

### cluster_graph

#### Fields

- `max_cluster_size` **int** - The maximum cluster size to export.
- `use_lcc` **bool** - Only use the largest connected component.
- `seed` **int** - The randomization seed.

## Reference Counting

Objects keep a count of their references.

- `ob_ref_local` - the owning thread's count.
- `ob_ref_shared` - the other threads' count.
"""


def test_a_list_question_naming_a_section_gets_that_section_s_list(tmp_path):
    """"Which settings can I use in the prune_graph section?": the items under that heading (its
    Fields subsection's too), not a neighbour section's; a question that only mentions a phrase
    some heading also is ("reference counting") is not sent to that section."""
    from core.query.basic_search import basic_search
    from core.query.named_section import named_section_list
    path = build_workspace(tmp_path, "cfg", [("config.md", CONFIG_MD)])
    store = Store(path)
    answer = basic_search(store, "Which settings can I use in the prune_graph section?").answer
    named = named_section_list(store, "Which fields does reference counting use in the objects?")
    store.close()
    lines = [line for line in answer.splitlines() if line.startswith("- ")]
    assert len(lines) == 3 and all(k in answer for k in ("min_node_freq", "min_node_degree", "lcc_only")), answer
    assert "max_cluster_size" not in answer and "**" not in answer and "`" not in answer, answer
    assert named is None, named

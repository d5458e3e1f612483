"""Names as any corpus writes them, not only English fiction: accented names ("Alonso Guevara
Fernández", "Sébastien Eustace"), an acronym with its number ("PEP 621", "GPT-4"; not "FY 2024"),
and no job title written after a name taken for a name of its own ("Ha Trinh, Senior Data
Scientist")."""
from __future__ import annotations

from core.offline.engine import OfflineEngine

BYLINE = """The GraphRAG team

The library was written by Alonso Guevara Fernández, Principal Software Architect, with Jonathan
Larson, Senior Principal Data Architect, and Sébastien Eustace, Senior Data Scientist. Alonso
Guevara Fernández later moved the prompts to PEP 621 metadata files encoded in UTF-8, and Jonathan
Larson compared GPT-4 with the older models. Sébastien Eustace checked the FY 2024 budget with
Jonathan Larson and Alonso Guevara Fernández."""


def _titles(text: str) -> set[str]:
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0})
    return {e["title"].upper() for e in got.entities if not e.get("tentative")}


def test_accented_names_numbered_names_and_no_job_titles():
    titles = _titles(BYLINE)
    assert {"ALONSO GUEVARA FERNÁNDEZ", "SÉBASTIEN EUSTACE", "JONATHAN LARSON", "PEP 621", "UTF-8", "GPT-4"} <= titles, titles
    assert not titles & {"PRINCIPAL SOFTWARE ARCHITECT", "SENIOR PRINCIPAL DATA ARCHITECT", "SENIOR DATA SCIENTIST",
                         "FY 2024", "FERN", "FY"}, titles


def test_names_listed_with_a_person_are_people():
    text = ("The report was signed by Dr. Ines Okafor <ines@example.org>, Tomas Lindqvist <tomas@example.org>, "
            "Aino Virtanen and Kwame Mensah.")
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0})
    types = {e["title"]: e["type"] for e in got.entities}
    assert all(types.get(n) == "person" for n in ("Tomas Lindqvist", "Aino Virtanen", "Kwame Mensah")), types


CALL = """Revenue from Windows 10 devices grew, and Office 365 commercial seats rose 20 percent. In the
U.S. we signed AT&T and Marks & Spencer, while Surface Pro 4 sold out in March 2016. On March 15 the
team met to review Chapter 4 of the plan; sales in Japan grew 12 percent."""


def test_versioned_products_initials_and_ampersand_names():
    """A product with its version number, initials with their stops and a name across an
    ampersand are whole names; a month, a chapter and a count take no number."""
    titles = _titles(CALL)
    assert {"WINDOWS 10", "OFFICE 365", "SURFACE PRO 4", "U.S.", "AT&T", "MARKS & SPENCER"} <= titles, titles
    assert not any(t.startswith(("MARCH", "CHAPTER")) or t in ("AT", "T", "MARKS", "SPENCER") for t in titles), titles


def test_a_heading_the_text_repeats_is_a_term():
    """A two-word heading that the section says again in lower case ("the global search method")
    is a term of the corpus, titled as the heading writes it; a heading the text never repeats is
    not."""
    from core.ingest.structure import markdown_to_text
    md = ("# Global Search\n\nThe global search method reads every community report. It answers questions "
          "about the whole dataset, so global search costs more than local lookups.\n\n"
          "## Getting Started\n\nInstall the package first.\n")
    text, structure = markdown_to_text(md)
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0,
                                   "structure": structure.to_dict()})
    titles = {e["title"] for e in got.entities if not e.get("tentative")}
    assert "Global Search" in titles, titles
    assert not any("Getting" in t for t in titles), titles


def test_a_word_wordnet_names_first_as_a_place_is_a_name_once():
    from core.offline.corpus_names import corpus_names
    names = corpus_names(["Sales in Japan grew. The box was red, and the queens of the pack were missing."])
    assert names.named("Japan")
    assert not names.named("Box") and not names.named("Queens")


def test_a_heading_naming_a_part_of_the_page_is_no_term_even_repeated():
    from core.ingest.structure import markdown_to_text
    md = ("# Core Benefits\n\nThe core benefits are speed and cost. Users list the core benefits first.\n\n"
          "## Global Search\n\nThe global search method reads every report, and global search costs more.\n")
    text, structure = markdown_to_text(md)
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0, "structure": structure.to_dict()})
    titles = {e["title"].upper() for e in got.entities if not e.get("tentative")}
    assert "GLOBAL SEARCH" in titles and "CORE BENEFITS" not in titles, titles


def test_fillers_and_titles_joined_by_an_ampersand_are_no_names():
    titles = _titles("KEVIN SCOTT: Yeah. Irma Olguin, CEO & Co-Founder of Bitwise Industries, met Johnson & Johnson. "
                     "Okay, so Irma Olguin and Bitwise Industries moved on. Yeah, Johnson & Johnson agreed.")
    assert {"IRMA OLGUIN", "BITWISE INDUSTRIES", "JOHNSON & JOHNSON"} <= titles, titles
    assert not titles & {"YEAH", "OKAY", "CEO & CO-FOUNDER"}, titles


def test_a_title_line_runs_into_no_name_and_a_stressed_word_is_no_term():
    """A call's title line ("... Earnings Conference Call") over its speakers' line keeps them apart
    (hard-wrapped prose still joins a name across its line end); "**First**, because ..." stresses a
    word and defines no term (shapes of FY19 Q2's transcript and PEP 517)."""
    call = ("Harbourline FY 2025 Second Quarter Earnings Conference Call\nNiall Ortega, Marta Voss, Dev Kapoor\n"
            "Wednesday, January 29, 2025\n\nMARTA VOSS: Thank you. With me are Niall Ortega and Dev Kapoor, and the "
            "crane plan was reviewed by Paweł\nJurgielewicz and Niall Ortega.")
    titles = _titles(call)
    assert "NIALL ORTEGA" in titles and "PAWEŁ JURGIELEWICZ" in titles, titles
    assert not [t for t in titles if "CONFERENCE CALL" in t and "NIALL" in t], titles
    from core.ingest.rst import rst_to_text
    text, structure = rst_to_text("Rationale\n=========\n\n**First**, because there will be few backends, "
                                  "the Tidewater Loader and the Tidewater Loader team keep them.\n")
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0, "structure": structure.to_dict()})
    assert "FIRST" not in {e["title"].upper() for e in got.entities if not e.get("tentative")}


def test_a_middle_initial_keeps_its_stop():
    """The entity is written as the text writes the name: "Nathaniel J. Smith" (PEP 517's header),
    not "Nathaniel J Smith"."""
    titles = _titles("The proposal was written by Nathaniel J. Smith and Thomas Kluyver, and Nathaniel J. Smith "
                     "later revised it with Paul E. McKenney.")
    assert {"NATHANIEL J. SMITH", "PAUL E. MCKENNEY"} <= titles, titles


SPEC = """The authors are Tzu-ping Chung and Brett Cannon. The generated tarball should use the modern
POSIX.1-2001 pax tar format. When an extension module written in C or C++ has an accompanying
Python module, list it. Generics are written in languages like C++, Java, C# and Swift. A CPython
implementation is available. Appendix C lists the class C of the example. It is a Python-based tool."""


def test_a_specification_s_names_languages_standards_and_romanised_given_names():
    """PEP-shaped text: a given name of two romanised syllables ("Tzu-ping"), a standard with its
    part and year, the languages C, C++ and C#, and a name capitalised as "CPython" are names;
    an appendix's letter and a variable are not, nor is "Python-based" a name of its own."""
    titles = _titles(SPEC)
    assert {"TZU-PING CHUNG", "POSIX.1-2001", "C", "C++", "C#", "CPYTHON"} <= titles, titles
    assert not titles & {"TZU", "POSIX", "APPENDIX C", "PYTHON-BASED"}, titles
    got = OfflineEngine().extract({"id": "u1", "text": "Appendix C: the class C. Type C is fine.", "human_readable_id": 0})
    assert "C" not in {e["title"] for e in got.entities}


def test_a_capitalised_link_text_names_what_it_links_to():
    """PEP 723's list of tools ("`Mypy <...>`__ and `Ruff <...>`__: support", one link
    "`Pantsbuild and Pex <...>`__") and PEP 703's "libraries like `Pillow`_": each a name,
    a common English word too (Ruff, Pillow) where the list or the sentence shows it is one."""
    from core.ingest.rst import rst_to_text
    src = ("Tools\n=====\n\n"
           "* `Pantsbuild and Pex <https://example.org/1>`__:  expressed support for any way.\n"
           "* `Mypy <https://example.org/2>`__ and\n  `Ruff <https://example.org/3>`__: strongly expressed support.\n\n"
           "It may use Python libraries like `Pillow <https://example.org/4>`_.  It runs.\n\n"
           "Requirements\n============\n\n`Python 3.10-3.12 <https://example.org/5>`_ is needed; "
           "create a python virtual environment.\n\nSee `Here <https://example.org/6>`_ for more.\n")
    text, st = rst_to_text(src)
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0, "structure": st.to_dict()})
    titles = {e["title"].upper() for e in got.entities if not e.get("tentative")}
    assert {"PANTSBUILD", "PEX", "MYPY", "RUFF", "PILLOW", "PYTHON"} <= titles, titles
    assert "HERE" not in titles


def test_an_organisation_s_name_keeps_its_and():
    """Every earnings call's safe-harbour line: "filings with the Securities and Exchange
    Commission"; two names joined by "and" stay two ("Scrooge and Marley", "Alex and Jordan")."""
    titles = _titles("Actual results could differ because of factors in our filings with the Securities and Exchange "
                     "Commission. The Food and Drug Administration approved it. Scrooge and Marley were partners. "
                     "Alex and Jordan Agency met.")
    assert {"SECURITIES AND EXCHANGE COMMISSION", "FOOD AND DRUG ADMINISTRATION"} <= titles, titles
    assert "ALEX AND JORDAN AGENCY" not in titles and "SCROOGE AND MARLEY" not in titles, titles


def test_latin_names_in_chinese_text_by_how_the_writer_sets_them():
    from core.offline.zh_mentions import zh_mentions

    def found(s: str) -> dict[str, bool]:
        return {m.surface: m.strong for m in zh_mentions(s)}
    # a capitalised word no English dictionary holds, alone among Chinese words: a name
    assert found("他的摘要关系(父亲 Laertes、儿子忒勒马科斯)")["Laertes"] is True
    # an English term of two lower-case words the writer chose over a Chinese one
    assert "global search" in found("这一章讲三件事: global search 的 map-reduce 两步各自怎么转")
    assert "story revolves" not in found("原文写的是 story revolves 这句")  # a clause, not a term
    # a known organisation before its product: two names
    ms = {m.surface: m.votes for m in zh_mentions("深入解析 Microsoft GraphRAG 全局检索中的流程")}
    assert ms["Microsoft"] == {"organization": 3.0} and "GraphRAG" in ms and "Microsoft GraphRAG" not in ms


RELEASES = """Revenue from Xbox One consoles grew, and we launched Office 2016 and Windows Server 2016 this
quarter. Sales of the Lumia 950 rose, and customers ran our apps on iOS, the iPad and the iPhone, while eBay
joined the program. Between 2015 and 2016 the Summer 2016 budget held."""


def test_names_with_a_release_year_or_a_lower_case_opening_are_whole_names():
    """A product with the year of its release ("Office 2016"), "Xbox One", and a name its maker
    opens in lower case ("iOS", "eBay") are names; a sentence's opening word is no part of "the
    Lumia 950"; a season or a range takes no year."""
    titles = _titles(RELEASES)
    assert {"XBOX ONE", "OFFICE 2016", "WINDOWS SERVER 2016", "LUMIA 950", "IOS", "IPAD", "IPHONE", "EBAY"} <= titles, titles
    assert not any(t.startswith("SALES") or t.startswith("SUMMER") for t in titles), titles


def test_a_capital_standing_alone_after_a_preposition_is_a_name_once():
    """"runs on Windows", "the discussion on Discourse", "written in Rust": a word written
    capitalised once, alone, after a preposition and with no article, is named so; "the Ghost"
    and "set it to True" are not."""
    from core.offline.corpus_names import corpus_names
    names = corpus_names(["The tool runs on Windows, see the discussion on Discourse. It was written in Rust. "
                          "We met the Ghost in the yard, and you set the flag to True."])
    assert names.named("Windows") and names.named("Discourse") and names.named("Rust")
    assert not names.named("Ghost") and not names.named("True")


def test_code_blocks_and_headings_do_not_count_how_the_prose_writes_a_name():
    """"ruff check ." in code blocks is a command, and a Title Case heading capitalises every
    word: neither tells whether the prose writes Ruff as a name ("the Ruff linter", "written in
    Ruff style"), so the corpus's names are counted in its prose alone."""
    from core.index.graph_stage import prose_of
    from core.ingest.structure import markdown_to_text
    from core.offline.corpus_names import corpus_names
    md = ("# Linting\n\nThe project is checked by the Ruff linter on each push.\n\n```\nruff check .\nruff format .\n"
          "ruff check --fix\n```\n\n## Use Ruff Rules\n\nIts rules are written in Ruff style.\n\n```\nruff rule E501\n```\n")
    text, structure = markdown_to_text(md)
    doc = {"text": text, "metadata": {"structure": structure.to_dict()}}
    assert not corpus_names([text]).named("Ruff")  # the commands outnumber the prose
    assert corpus_names([prose_of(doc)]).named("Ruff")


def test_an_office_before_a_full_name_is_not_part_of_the_name():
    """"President Joe Biden", "Senate Majority Leader Andrea Stewart-Cousins": the person is named
    without the office; a novel's forms of address stay ("Mr. Fezziwig", "Agent Alex Mercer")."""
    titles = _titles("The bill was signed by President Joe Biden on Monday. Senate Majority Leader Andrea "
                     "Stewart-Cousins praised it. Mr. Fezziwig laughed, and Agent Alex Mercer nodded.")
    assert {"JOE BIDEN", "ANDREA STEWART-COUSINS", "MR. FEZZIWIG", "AGENT ALEX MERCER"} <= titles, titles
    assert not any(t.startswith(("PRESIDENT", "SENATE")) for t in titles), titles


def test_a_capital_the_inside_a_sentence_is_part_of_the_name():
    """"told The Associated Press": the writer capitalised "The" as the name's own; at a
    sentence's start, or before an acronym ("The LLM"), it is no part of a name."""
    titles = _titles("Dr. Ashish Jha told The Associated Press on Monday. The Associated Press ran it first. "
                     "Note that The LLM API is called twice.")
    assert "THE ASSOCIATED PRESS" in titles, titles
    assert not any(t.startswith("THE LLM") for t in titles), titles

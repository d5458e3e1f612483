"""A question that names one of the documents ("the visualization guide", "PEP 9999") is answered
from that document: Auto reads it as a narrow question, the offline answer quotes that document's
passages and not another page's on the same words, "what is X about" gets its title and opening,
and "who are the authors of X" lists the people X names."""
from __future__ import annotations

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.query.doc_scope import name_words, named_documents
from core.query.methods import run_method
from core.settings import Settings
from core.store.db import Store
from tests.test_rst_structure import PEP

GUIDE = """# Visualizing the berth graph

After indexing, open the folder named output and look for berth.graphml.
We recommend opening berth.graphml in Gephi, a desktop application for graphs.
Choose the Force Atlas layout and run it until the graph settles.
"""
OTHER = """# Exporting the berth graph

The exporter writes berth.graphml for any tool that reads GraphML.
Some teams open berth.graphml in Cytoscape to print wall charts for the harbour office.
Others load berth.graphml in a notebook.
"""
NOTES = """# Harbour notes

Cranes are scheduled by hand at Berth 2, and the harbour office prints charts every Monday.
"""


def _workspace(tmp_path) -> Store:
    store = Store(tmp_path / "ws")
    report = ingest_files(store, [("visualization_guide.md", GUIDE.encode()), ("export_page.md", OTHER.encode()),
                                  ("harbour_notes.md", NOTES.encode()), ("pep-9999.rst", PEP.encode())],
                          max_bytes=1_000_000)
    assert not report.rejected
    run_index(store, Settings(engine="offline"))
    return store


def test_document_names_read_as_words_and_numbers():
    assert name_words("visualization_guide.md") == ["visualization", "guide", "md"]
    assert name_words("pep-0750.rst") == ["pep", "750", "rst"]
    assert name_words("TranscriptFY24Q4.txt") == ["transcript", "fy", "24", "q", "4", "txt"]


def test_a_question_naming_a_document_is_answered_from_it(tmp_path):
    store = _workspace(tmp_path)
    assert [d["title"] for d in named_documents(store, "Which application does the visualization guide "
                                                       "recommend for opening berth.graphml?")] == ["visualization_guide.md"]
    assert named_documents(store, "Which application opens berth.graphml?") == []

    result = run_method("auto", store, "Which application does the visualization guide recommend for opening berth.graphml?")
    assert "it names the document visualization_guide.md" in result.params["route"]["reason"]
    assert "Gephi" in result.answer.split("\n\n")[0] and "Cytoscape" not in result.answer, result.answer

    about = run_method("auto", store, "What is PEP 9999 about?").answer
    assert about.startswith("**Storing harbour schedules in berth.toml**:"), about
    assert "Status: Final" not in about and "[Data: Sources (" in about


def test_how_it_was_made_says_which_document_was_read(tmp_path):
    from core.cli.query import render_text
    store = _workspace(tmp_path)
    result = run_method("basic", store, "What does the visualization guide say about layouts?")
    text = render_text(result, store)
    assert "- read only visualization_guide.md, the document the question names" in text
    assert "Force Atlas" in result.answer

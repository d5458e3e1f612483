"""A reStructuredText document (a PEP, a Sphinx page) keeps its structure as Markdown does: plain
text without reST markup, section titles as headings that are never entities, list items and
table rows as items, a leading "Key: value" header read as plain fields; its names are found as
a reader finds them: the tools a list links to, "PEP 621", "UTF-8". Markup docutils cannot read
keeps its words, and nothing outside the document is ever read into it."""
from __future__ import annotations

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.ingest.rst import rst_to_text
from core.settings import Settings
from core.store.db import Store

PEP = """PEP: 9999
Title: Storing harbour schedules in berth.toml
Author: Ines Okafor <ines@example.org>,
        Tomas Lindqvist <tomas@example.org>, Jukka Lehtosalo <jukka.lehtosalo@example.org>
BDFL-Delegate:
Status: Final
Type: Standards Track
Post-History: `09-Aug-2024 <https://example.org/t/1>`__

Abstract
========

This PEP specifies how a port writes its schedules in a ``berth.toml`` file, encoded as UTF-8,
for the tools that plan cranes, following :pep:`621` and :rfc:`822`. See :class:`Berth` too.

Tools
-----

Each tool names the field in its own way:

- Harbourline_: ``name``
- Quaywise_: ``title``
- Format: string

.. _Harbourline: https://example.org/harbourline
.. _Quaywise: https://example.org/quaywise

.. include:: /etc/passwd

.. raw:: html

   <script>alert(1)</script>

=========  ===========================
Tool       What it plans
=========  ===========================
Cranewise  the cranes of a berth
=========  ===========================

.. code-block:: python

   schedule = load("berth.toml")
"""


def test_rst_becomes_plain_text_with_headings_items_and_links_recorded():
    text, st = rst_to_text(PEP)
    for markup in ("====", "``", ":pep:", ".. _", "code-block", "<script>", "root:"):
        assert markup not in text
    assert "PEP 621" in text and "RFC 822" in text and "See Berth too." in text
    headings = [text[a:b] for a, b, _ in st.headings]
    assert headings == ["Abstract", "Tools"]
    items = [text[a:b] for a, b in st.items]
    assert "Harbourline: name" in items and "Tool: Cranewise; What it plans: the cranes of a berth" in "\n".join(
        text.split("\n\n")) and "Cranewise" in items
    assert "Final" not in items  # the header's fields are no list of names
    assert {"Harbourline", "Quaywise", "PEP 621"} <= {text[a:b] for a, b in st.links}
    assert text.startswith("PEP: 9999\n\nTitle: Storing harbour schedules in berth.toml\n\nAuthor: Ines Okafor")
    assert "Post-History: 09-Aug-2024\n" in text  # a header's link, as its text
    assert any(text[a:b].startswith('schedule = load("berth.toml")') for a, b in st.skip)


def test_a_pep_names_its_tools_and_standards_and_never_its_headings_or_field_labels(tmp_path):
    store = Store(tmp_path / "ws")
    report = ingest_files(store, [("pep-9999.rst", PEP.encode())], max_bytes=1_000_000)
    assert not report.rejected
    run_index(store, Settings(engine="offline"))
    titles = {e["title"] for e in store.rows("entities")}
    assert {"HARBOURLINE", "QUAYWISE", "PEP 621", "UTF-8", "INES OKAFOR"} <= titles, titles
    assert not titles & {"ABSTRACT", "TOOLS", "FORMAT", "FINAL", "STATUS", "TYPE", "STANDARDS TRACK", "POST-HISTORY",
                         "BDFL-DELEGATE", "AUTHOR", "PEP", "AUG"}, titles
    assert "JUKKA LEHTOSALO" in titles  # his address writes his name in lower case; the text does not
    doc = store.rows("documents")[0]
    assert "root:" not in doc["text"] and "<script>" not in doc["text"]


def test_text_docutils_cannot_read_stays_readable():
    text, _ = rst_to_text("Title\n=====\n\n.. unknown-directive:: x\n\n   body\n\nA line with `unclosed markup.\n")
    assert "A line with" in text and "unclosed markup" in text


def test_the_authors_of_a_named_pep_are_its_header_s(tmp_path):
    from core.query.methods import run_method
    store = Store(tmp_path / "ws")
    ingest_files(store, [("pep-9999.rst", PEP.encode()), ("notes.md", b"# Notes\n\nAnna Berg wrote the notes.\n")],
                 max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    answer = run_method("auto", store, "Who are the authors of PEP 9999?").answer
    assert answer.splitlines()[0] == "The authors of pep-9999.rst, as its header gives them:"
    assert [line.split(" [Data:")[0] for line in answer.splitlines()[1:]] == \
        ["- Ines Okafor", "- Tomas Lindqvist", "- Jukka Lehtosalo"], answer


def test_an_escaped_space_leaves_no_nul_byte_that_hides_the_rest_of_the_unit(tmp_path):
    """reST writes "``setup.py``\\ -style"; docutils holds the escape as a NUL byte, at which SQLite's
    LIKE and length() stopped reading, so a name later in the unit was "in no document" (PEP 517's
    PYTHONPATH)."""
    from core.ingest.rst import rst_to_text
    from core.verify.names import Names
    src = ("Title\n=====\n\nWe call it the ``setup.py``\\ -style of source tree.\n\n"
           "The backend is found on sys.path, e.g. because it is specified in PYTHONPATH.\n")
    text, _ = rst_to_text(src)
    assert "\x00" not in text and "setup.py-style" in text
    from conftest import build_workspace
    store = Store(build_workspace(tmp_path, "ws", [("pep-9.rst", src.encode())]))
    assert Names(store).absent(("PYTHONPATH",)) == []


def test_a_table_row_is_one_quotable_sentence_whole():
    """A table row reads "Header: cell; Header: cell" (PEP 668's use-case table): one sentence,
    quoted whole from its first header on, not dropped as a header's field list nor cut after it."""
    from core.offline.sentence_rank import unit_sentences
    src = ("Title\n=====\n\nThis table summarizes the cases:\n\n"
           "==== ======================== =========================\nCase Description              pip install permitted\n"
           "==== ======================== =========================\n"
           "1    Unpatched CPython        Currently yes; stays yes\n"
           "2    Distro python in Docker  Currently yes; becomes no\n"
           "==== ======================== =========================\n")
    text, structure = rst_to_text(src)
    unit = {"id": "u", "human_readable_id": 0, "text": text, "structure": structure.to_dict()}
    said = [s.text for s in unit_sentences([unit])]
    assert "Case: 2; Description: Distro python in Docker; pip install permitted: Currently yes; becomes no" in said, said

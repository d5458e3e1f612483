""""Does PEP 621 mention Poetry?": yes or no first, where, and the sentences naming it, cited;
Auto sends it to the passages; a question about what someone said, or about a topic, is no such
question. Documents in the shape of ../shared/corpora/python_peps, written for this test."""
from __future__ import annotations

import pytest

from conftest import build_workspace
from core.query.mention_answer import asked_mention
from core.query.methods import run_method
from core.store.db import Store

PEP_A = """PEP: 9101
Title: Declaring build metadata
Author: Ada Lovelace <ada@example.org>
Status: Draft

Abstract
========

This PEP specifies how to write a project's metadata in a table of the project file.

Prior art
=========

Flit keeps its metadata in the same file, and Poetry reads its dependencies from its own table.
Tools like Poetry and Flit would both read the new table.
"""

PEP_B = """PEP: 9102
Title: A build backend interface
Author: Grace Hopper <grace@example.org>
Status: Final

Abstract
========

This PEP specifies the hooks a build frontend calls on a build backend, such as setuptools.
"""


@pytest.mark.parametrize("question,thing", [
    ("Does PEP 9101 mention Poetry?", "Poetry"), ("Is Flit mentioned in the documents?", "Flit"),
    ("Do the documents discuss the Global Interpreter Lock?", "Global Interpreter Lock"),
    ("Does it say anything about setuptools?", "setuptools"),
    ("Did Ada talk about Poetry?", None), ("Do any guests mention trends in startup funding?", None),
    ("What does PEP 9101 say about Poetry?", None)])
def test_what_a_mention_question_asks_about(question, thing):
    assert asked_mention(question) == thing


def test_a_mention_question_is_answered_yes_or_no_with_where(tmp_path):
    store = Store(build_workspace(tmp_path, "peps", [("pep-9101.rst", PEP_A.encode()),
                                                     ("pep-9102.rst", PEP_B.encode())]))
    r = run_method("auto", store, "Does PEP 9101 mention Poetry?")
    assert r.method == "basic" and "mention" in r.params["route"]["reason"], r.params["route"]
    assert r.answer.startswith("Yes: pep-9101.rst mentions Poetry (2 times in 1 passage)."), r.answer
    assert "Poetry reads its dependencies from its own table [Data: Sources (" in r.answer
    r = run_method("auto", store, "Does PEP 9102 mention Poetry?")
    assert r.answer.startswith("No: pep-9102.rst does not mention Poetry. pep-9101.rst does:"), r.answer
    r = run_method("auto", store, "Does PEP 9101 mention Hatch?")
    assert r.answer.startswith("The documents do not mention Hatch."), r.answer

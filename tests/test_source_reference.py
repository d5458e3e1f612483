"""A question that names the documents themselves ("What does the podcast say about GitHub
Copilot?") is about its subject: the word for the documents is where to look, not what to look
for. On a podcast, whose every episode says "podcast", the answer quotes what was said about
Copilot, not the show's greetings."""
from __future__ import annotations

import pytest

from core.query.local_search import local_search
from core.store.db import Store
from core.text.lexical import without_source

from conftest import build_workspace


@pytest.mark.parametrize("question, topic", [
    ("What does the podcast say about GitHub Copilot?", "What does say about GitHub Copilot?"),
    ("According to the book, who is Marley?", ", who is Marley?"),
    ("What did Satya Nadella say during the call about Azure?", "What did Satya Nadella say about Azure?"),
    ("What do the documents say about vector stores?", "What do say about vector stores?"),
    # the subject, a speaker, or a place in the story stays
    ("What does Amy Hood say about margins?", "What does Amy Hood say about margins?"),
    ("What happened in the warehouse?", "What happened in the warehouse?"),
    ("What did the guests say about AI?", "What did the guests say about AI?"),
    ("What is the podcast about?", "What is the podcast about?"),
])
def test_the_words_naming_the_documents_are_left_out(question, topic):
    assert without_source(question) == topic


def _episode(n: int, guest: str, middle: str) -> tuple[str, bytes]:
    text = (f"KEVIN SCOTT: Welcome to Behind the Tech. This podcast is where we talk with the people "
            f"behind the technology. Today on the podcast my guest is {guest}.\n\n"
            f"{guest.upper()}: Thanks for having me on the podcast, I listen to every episode.\n\n"
            f"{middle}\n\n"
            f"KEVIN SCOTT: Thank you so much for being on the podcast today, {guest}.\n")
    return f"episode_{n}.txt", text.encode()


def test_a_question_naming_the_podcast_is_answered_about_its_subject(tmp_path):
    files = [
        _episode(1, "Tobi Lutke", "TOBI LUTKE: Friends at GitHub gave me early access to GitHub Copilot, and "
                                  "it writes the boring parts of the code while I think about the design."),
        _episode(2, "Lisa Su", "LISA SU: Chips are designed years before anyone buys them, so we bet early on "
                               "what the data centre will need."),
        _episode(3, "Fei-Fei Li", "FEI-FEI LI: ImageNet was a dataset of millions of labelled pictures that "
                                  "changed how vision research was done."),
        _episode(4, "Bill Gates", "BILL GATES: Software was the thing that made the personal computer useful "
                                  "at home and at work."),
    ]
    store = Store(build_workspace(tmp_path, "show", files))
    result = local_search(store, "What does the podcast say about GitHub Copilot?", record=False)
    first = result.answer.split("[Data:")[0]
    assert "Copilot" in first and "podcast" not in first, result.answer
    # the search starts from Copilot alone, not from every guest the word "podcast" is written beside
    entry = {e["human_readable_id"]: e["title"] for e in store.rows("entities")}
    assert {entry[i] for i in result.context["entry_entities"]} <= {"GITHUB COPILOT", "GITHUB"}

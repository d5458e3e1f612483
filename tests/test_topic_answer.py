"""A broad question about one topic ("How do these notes deal with backwards compatibility?")
gets, offline, the sentences that name the topic, grouped under the sections (or communities)
where they stand, each cited; not the corpus's themes. A topic named in every passage, or in passing,
keeps the themes answer (or, named nowhere, the answer that says it is absent)."""
from __future__ import annotations

import re

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.offline.topic import asked_topic
from core.query.methods import run_method
from core.settings import Settings
from core.store.db import Store

FILLER = ("The harbour office keeps its ledgers in the east wing, where the clerks sort cargo manifests by date. "
          "Each morning the tide tables are posted beside the door and the pilots check them before leaving. ") * 6


def _sec(title: str, body: str) -> str:
    return f"## {title}\n\n{body}\n\n"


NOTES = ("# Harbour Notes\n\n" + _sec("Ledgers", FILLER)
         + _sec("Old Formats", "The new ledger keeps backwards compatibility with the paper forms, so old entries "
                "still read. " + FILLER + " Keeping backwards compatibility cost the clerks a second column for "
                "the old codes.")
         + _sec("Pilots", FILLER)
         + _sec("Migration", "Backwards compatibility ends next spring, when the paper forms are retired. " + FILLER
                + " The pilots asked whether backwards compatibility could last another season.")
         + _sec("Tides", FILLER) + "".join(_sec(f"Berth {i}", FILLER) for i in range(1, 7)))


def test_a_broad_question_about_one_topic_gets_the_sentences_naming_it_under_their_sections(tmp_path):
    store = Store(tmp_path / "ws")
    ingest_files(store, [("harbour.md", NOTES.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    r = run_method("auto", store, "How do these notes deal with backwards compatibility?", None)
    assert r.method == "global", r.route
    assert r.answer.startswith('"backwards compatibility" comes up in 4 sentences'), r.answer
    items = re.findall(r"^\d+\. \*\*(.+?)\*\* \u2014 (.+)$", r.answer, re.M)
    assert [t for t, _ in items] == ["Old Formats", "Migration"], r.answer
    assert "second column for the old codes [Data: Sources (" in items[0][1]
    assert "ends next spring" in items[1][1]
    assert r.reduce["topic"]["topic"] == "backwards compatibility" and r.reduce["topic"]["sentences"] == 4
    # named in every passage: what the notes are about, which their themes answer
    r = run_method("auto", store, "What do these notes say about cargo?", None)
    assert "comes up in" not in r.answer.splitlines()[0]


def test_the_topic_is_what_the_question_asks_about_not_where():
    assert asked_topic("What part does laughter play in the story?") == [["laughter"]]
    assert asked_topic("what did people think about the metaverse?") == [["metaverse"]]
    assert asked_topic("What did they say about AI on the call?") == [["ai"]]
    assert asked_topic("What part do food and feasting play in the story?") == [["food"], ["feasting"]]
    assert asked_topic("How does it fit with Azure?") == [["azure"]]
    assert asked_topic("What are the main themes of the book?") == []  # no one topic
    assert asked_topic("What did they say about the way the team handled the outage at the plant?") == []  # too long


INN = ("# The Inn\n\n" + _sec("Arrival", FILLER)
       + _sec("Supper", "The cook set out a pudding and a jug of cider for the pilots. " + FILLER
              + " Later the landlord carried in a goose pie with a bowl of punch, and the clerks cheered.")
       + _sec("Morning", FILLER + " At breakfast there was porridge and tea for anyone still awake.")
       + _sec("Berths", FILLER) + "".join(_sec(f"Room {i}", FILLER) for i in range(1, 7)))


def test_a_topic_that_is_a_kind_of_thing_counts_what_the_text_names_as_kinds_of_it(tmp_path):
    """"What part does food play in the story?": the book never writes "food", but its dinners,
    puddings and punch are food (WordNet's kinds of it, in the sense each word first has), and
    those sentences answer it, saying which words were counted."""
    store = Store(tmp_path / "ws")
    ingest_files(store, [("inn.md", INN.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    r = run_method("auto", store, "What part does food play in the story?", None)
    head = r.answer.splitlines()[0]
    assert head.startswith('"food" comes up in 3 sentences') and "kinds of it: " in head, r.answer
    for words in ("pudding", "punch", "porridge"):
        assert words in r.answer
    assert "tide tables" not in r.answer

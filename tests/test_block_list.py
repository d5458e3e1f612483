"""A question whose words stand around a list (its headings, its lead, the paragraph before) gets
that list, even when it names no kind of thing ("What does Full Sync use the scheduler for?"):
Auto's answer is the list, each item cited, and not a sentence near it or the corpus's themes.
A question for one thing, one member of the list, or a name the list's context never gives,
gets no list."""
from __future__ import annotations

import re

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.query.block_list import block_list
from core.query.methods import run_method
from core.settings import Settings
from core.store.db import Store

GUIDE = """# Harbourline Guide

Harbourline keeps a searchable copy of a shipping company's paperwork. This guide covers its two
sync methods and how to tune them.

## Full Sync

This is the method most sites run. Full Sync uses the scheduler for every maintenance task:

- index compaction: the scheduler rewrites small segments into large ones overnight.
- snapshot export: the scheduler copies each snapshot to cold storage.
- cache warming: the scheduler replays the previous day's queries before opening hours.

### settings

These settings tune how Full Sync splits an archive into batches. Most sites keep the defaults.

#### Fields

- `batch_size` **int** - The number of documents per batch.
- `parallelism` **int** - How many batches run at once.
- `retry_limit` **int** - Attempts before a batch is marked failed.

## QuickSync

QuickSync is a method that trades some accuracy for speed. It is a lighter alternative for
nightly loads:

- deduplication: skipped.
- spell correction: not needed.
- language detection: only the first page is read.

## Storage

Harbourline writes its segments to local disk by default. Operators at the Rotterdam office moved
theirs to a network share in spring, and the Lisbon office followed a month later.
"""


def _ws(tmp_path) -> Store:
    store = Store(tmp_path / "ws")
    ingest_files(store, [("harbourline.md", GUIDE.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    return store


def _items(answer: str) -> list[str]:
    return re.findall(r"^- (.+?) \[Data: Sources \(\d+\)\]", answer, re.M)


def test_a_question_whose_words_stand_around_a_list_gets_that_list(tmp_path):
    store = _ws(tmp_path)
    r = run_method("auto", store, "What does Full Sync use the scheduler for?", None)
    items = _items(r.answer)
    assert [i.split(":")[0] for i in items] == ["index compaction", "snapshot export", "cache warming"], r.answer
    assert r.answer.splitlines()[0].startswith("This is the method most sites run. Full Sync uses the scheduler")
    # the heading split at its capitals ("QuickSync": quick, sync) says which method's list it is
    r = run_method("auto", store, "Which steps does the quick sync method skip?", None)
    assert [i.split(":")[0] for i in _items(r.answer)] == ["deduplication", "spell correction", "language detection"], \
        r.answer


def test_a_list_under_a_heading_with_no_lead_sentence_is_titled_by_its_headings(tmp_path):
    store = _ws(tmp_path)
    r = run_method("auto", store, "What Full Sync settings can I change?", None)
    assert r.method != "global", r.route  # "can I change" is no question of how things changed
    assert r.answer.splitlines()[0] == "settings \u203a Fields:", r.answer
    assert [i.split()[0] for i in _items(r.answer)] == ["batch_size", "parallelism", "retry_limit"]


def _unit(text: str, headings: list[str], hrid: int = 1) -> dict:
    return {"human_readable_id": hrid, "text": text, "headings": headings, "structure": None}


RUNTIME = ("Removing the global interpreter lock requires changes to the runtime, but few to its public API.\n\n"
           "The changes to the runtime fall into three groups:\n\n"
           "* Reference counting\n* Memory management\n* Locking and atomic APIs\n")


def test_an_acronym_of_the_question_counts_where_the_context_spells_it_out():
    answer = block_list("Which parts of the runtime change to remove the GIL?", [_unit(RUNTIME, ["Runtime Changes"])])
    assert answer is not None and _items(answer) == ["Reference counting", "Memory management", "Locking and atomic APIs"]
    # the same question about a lock the context never names: no list
    assert block_list("Which parts of the runtime change to remove the BKL?", [_unit(RUNTIME, ["Runtime Changes"])]) \
        is None


def test_no_list_for_one_thing_one_member_or_a_name_the_context_lacks():
    units = [_unit(RUNTIME, ["Runtime Changes"])]
    assert block_list("What is the runtime change that removes the GIL?", units) is None  # one thing
    assert block_list("How does the runtime change memory management to remove the GIL?", units) is None  # one member
    assert block_list("Which parts of the Tokio runtime change to remove the GIL?", units) is None  # a name it lacks
    assert block_list("Who changes the runtime to remove the GIL?", units) is None  # a person


PIPELINE = ("Pipelines are configurable and made of workflows. Our default pipeline is designed to:\n\n"
            "* split the input into passages\n* extract the names each passage gives\n* write a summary of each group\n")


def test_what_a_thing_is_built_to_do_is_the_list_its_purpose_leads():
    units = [_unit(PIPELINE, ["Indexing Overview"])]
    answer = block_list("what is the indexing pipeline built to do?", units)
    assert answer is not None, answer
    assert _items(answer) == ["split the input into passages", "extract the names each passage gives",
                              "write a summary of each group"]
    assert answer.splitlines()[0].endswith("designed to [Data: Sources (1)]:")
    # what the pipeline is (one thing) still gets no list
    assert block_list("what is the indexing pipeline?", units) is None

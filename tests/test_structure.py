"""A Markdown document keeps its structure: plain text without Markdown syntax, headings that
title the text units under them and are never entities or descriptions, list items and table
rows as sentences of their own, and the heading path in the model's extraction prompt."""
from __future__ import annotations

import json
import re

from core.index.llm_engine import LLMEngine
from core.llm.client import LLM
from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.ingest.structure import markdown_to_text
from core.settings import Settings
from core.store.db import Store
from core.textutil import split_sentences
from tests.fakes import FakeChat

PAGE = """# Harbourline

**Harbourline** is a [routing service](https://example.org/routing) for container ports.
Harbourline was written by Ines Okafor at Tidewater Labs.

## PROBLEM STATEMENT

Ports schedule cranes by hand, and ships wait at anchor while Tidewater Labs counts berths.

## Supported stores

Harbourline keeps its schedules in one of these stores:

- ChromaDB, for vector lookups
- Neo4j, for the berth graph
- Redis, for the live queue
- Additionally, a log of every crane move

| Metric | What it measures |
|---|---|
| Berth Wait | hours a ship waits for a berth |
| Crane Idle | minutes a crane stands still |

```python
harbourline.schedule(port="Rotterdam")
```

<h6>Published by Tidewater Labs</h6>
"""


def test_markdown_becomes_plain_text_with_its_headings_and_bold_terms_recorded():
    text, s = markdown_to_text(PAGE)
    assert not re.search(r"^#|\*\*|\]\(|\|---|<h6>|```", text, re.M), text
    assert [text[a:b] for a, b, _ in s.headings] == ["Harbourline", "PROBLEM STATEMENT", "Supported stores"]
    assert [lvl for *_, lvl in s.headings] == [1, 2, 2]
    assert text[s.strong[0][0]:s.strong[0][1]] == "Harbourline"
    assert "routing service for container ports" in text  # a link keeps its words
    sentences = [text[a:b] for a, b in split_sentences(text)]
    assert "Neo4j, for the berth graph" in sentences  # a list item is a sentence of its own
    assert "Metric: Crane Idle; What it measures: minutes a crane stands still" in sentences  # a table row
    assert "Published by Tidewater Labs" in sentences  # HTML in Markdown: its text, no tags
    assert any("schedule(" in text[a:b] for a, b in s.skip)  # the code block is marked


def test_inline_code_is_marked_in_markdown_and_restructuredtext():
    from core.ingest.rst import rst_to_text
    text, s = markdown_to_text("Set `vector_store` to **lancedb** in `settings.yaml`.\n")
    assert [text[a:b] for a, b in s.code] == ["vector_store", "settings.yaml"]
    text, s = rst_to_text("Title\n=====\n\nRun ``pip install tomlkit`` with **care**.\n")
    assert [text[a:b] for a, b in s.code] == ["pip install tomlkit"]
    assert [text[a:b] for a, b in s.strong] == ["care"]


def test_an_html_page_keeps_where_its_headings_are(tmp_path):
    page = ("<html><head><title>Harbourline</title></head><body><h1>Harbourline</h1>"
            "<p>Harbourline routes ships for Tidewater Labs.</p><h2>PROBLEM STATEMENT</h2>"
            "<p>Ports schedule cranes by hand.</p></body></html>")
    store = Store(tmp_path / "w")
    ingest_files(store, [("page.html", page.encode())], max_bytes=1_000_000)
    doc = store.rows("documents")[0]
    spans = doc["metadata"]["structure"]["headings"]
    assert [(doc["text"][a:b], lvl) for a, b, lvl in spans] == [("Harbourline", 1), ("PROBLEM STATEMENT", 2)]
    assert spans[0][0] == 0  # the heading, not the same word in the paragraph below it


def _indexed(tmp_path) -> Store:
    store = Store(tmp_path / "w")
    report = ingest_files(store, [("harbourline.md", PAGE.encode())], max_bytes=1_000_000)
    assert report.added, report.rejected
    run_index(store, Settings(engine="offline"))
    return store


def test_headings_title_the_units_and_are_never_entities_or_descriptions(tmp_path):
    store = _indexed(tmp_path)
    titles = {e["title"] for e in store.rows("entities")}
    assert "PROBLEM STATEMENT" not in titles and "SUPPORTED STORES" not in titles
    assert {"HARBOURLINE", "TIDEWATER LABS", "CHROMADB", "REDIS"} <= titles, titles
    assert "ADDITIONALLY" not in titles  # an item's opening adverb is no name
    for e in store.rows("entities"):
        assert "PROBLEM STATEMENT" not in (e["description"] or "")
        assert not re.search(r"\*\*|^#|\]\(", e["description"] or "", re.M), e["description"]
    unit = store.rows("text_units", order_by="ordinal")[0]
    assert unit["structure"]["headings"][0] == [0, len("Harbourline")]
    doc = store.rows("documents")[0]
    assert doc["metadata"]["structure"]["headings"], "the document keeps where its headings are"


def test_a_unit_under_headings_carries_its_path_into_the_extraction_prompt(tmp_path):
    settings = Settings(engine="llm", chunk_size=60, chunk_overlap=0)
    store = Store(tmp_path / "w")
    ingest_files(store, [("harbourline.md", PAGE.encode())], max_bytes=1_000_000)
    from core.index.chunk_stage import run_chunk
    run_chunk(store, settings)
    units = store.rows("text_units", order_by="ordinal")
    later = next(u for u in units if u["headings"])
    assert later["headings"][0] == "Harbourline"
    chat = FakeChat(lambda messages: json.dumps({"entities": [], "relationships": [], "claims": []}))
    llm = LLM(chat, store)
    LLMEngine(llm, settings).extract(later)
    prompt = chat.calls[0][0]["content"]
    assert "-Section-\n" + " > ".join(later["headings"]) + "\n" in prompt
    LLMEngine(llm, settings).extract({"id": "plain", "text": "Ines Okafor wrote Harbourline."})
    assert any("-Section-\n(none)\n" in c[0]["content"] for c in chat.calls[1:])


def test_a_heading_is_never_the_sentence_a_verdict_quotes(tmp_path):
    from core.verify.offline import judge
    text = "Supported stores\n\nHarbourline keeps its schedules in ChromaDB, a vector store."
    unit = {"id": "u1", "text": text, "char_start": 0, "char_end": len(text),
            "structure": {"headings": [[0, 16]], "skip": [], "strong": [], "items": []}}
    v = judge("Harbourline has supported stores.", [unit])
    assert v.best_sentence != "Supported stores", v
    assert "Harbourline keeps" in (v.best_sentence or "")


def test_units_are_cut_before_headings_where_a_cut_falls_near_one():
    from core.index.chunk_stage import unit_rows
    sections = [f"## {name}\n\n" + " ".join(
        f"The {name.lower()} team at Harbourline logs event {j} of section {i} with its own count of ships."
        for j in range(4)) for i, name in enumerate(["Berths", "Cranes", "Pilots", "Tugs", "Customs", "Weather"])]
    text, s = markdown_to_text("# Harbourline\n\n" + "\n\n".join(sections))
    settings = Settings(chunk_size=120, chunk_overlap=0)
    heads = {text[a:b] for a, b, _ in s.headings}
    rows = unit_rows("d", text, settings, {"structure": s.to_dict()})
    assert all(r["text"].split("\n")[0] in heads for r in rows), [r["text"][:30] for r in rows]
    assert [r["headings"] for r in rows][1:3] == [["Harbourline", "Cranes"], ["Harbourline", "Pilots"]]
    plain = unit_rows("d", text, settings)  # the same text without its structure
    assert not all(r["text"].split("\n")[0] in heads for r in plain)

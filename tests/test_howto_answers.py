"""How-to questions ("How do I install it?") get the command the documents give for it: the code
block whose heading or introducing sentence says what the question asks, quoted whole and cited,
before the sentences; Auto sends them to basic search, where passages are read whole."""
from __future__ import annotations

from core.ingest.structure import markdown_to_text
from core.query.howto import code_answer, is_howto
from core.query.methods import run_method
from core.query.route import route_question
from core.store.db import Store

from conftest import build_workspace

GUIDE = """# Harbourline

Harbourline indexes harbour records into a graph.

## Install Harbourline

Harbourline needs Python 3.11 or later.

```sh
python -m pip install harbourline
```

## Run the indexer

Point the indexer at a folder of records and run:

```sh
harbourline index --root ./records
```

## How the pipeline works

```mermaid
flowchart LR
    records --> chunks --> graph
```

The pipeline chunks each record, extracts entities and writes the graph.
"""


def _unit(text: str = GUIDE) -> dict:
    md, structure = markdown_to_text(text)
    return {"human_readable_id": 5, "text": md, "structure": structure.to_dict(), "headings": []}


def test_a_how_to_question_is_told_apart_from_other_questions():
    assert is_howto("How do I install it?") and is_howto("How to run the indexer?")
    assert is_howto("What command runs a query?")
    assert not is_howto("How does the pipeline work?") and not is_howto("What is Harbourline?")


def test_the_command_under_the_heading_that_says_it_is_quoted_and_cited():
    got = code_answer("How do I install it?", [_unit()])
    assert got is not None and got.startswith("**Install Harbourline**"), got
    assert "```\npython -m pip install harbourline\n```\n[Data: Sources (5)]" in got
    run = code_answer("How do I run the indexer?", [_unit()])
    assert run is not None and "harbourline index --root ./records" in run, run
    assert "Point the indexer at a folder of records and run [Data: Sources (5)]:" in run
    # a diagram draws steps, it is nothing to run; a question no heading speaks of gets no block
    assert code_answer("How do I draw the pipeline?", [_unit()]) is None
    assert code_answer("How do I export a report?", [_unit()]) is None


def test_auto_sends_a_how_to_question_to_basic_and_answers_with_the_command(tmp_path):
    route = route_question("How do I install it?", available=("global", "local", "basic"))
    assert route.method == "basic" and "how to" in route.reason
    path = build_workspace(tmp_path, "guide", [("guide.md", GUIDE.encode())])
    store = Store(path)
    try:
        answer = run_method("auto", store, "How do I install it?").answer
    finally:
        store.close()
    assert answer.startswith("**Install Harbourline**") and "python -m pip install harbourline" in answer, answer


def test_the_quoted_command_is_one_claim_the_verifier_finds_word_for_word(tmp_path):
    """The fenced block with its marker is one sentence of the answer, and the cited unit holds its
    lines as they are: supported (a block's lines are never sentences of the text, so word overlap
    alone would say "check this")."""
    from core.text.citations import sentences_with_citations
    from core.verify.offline import judge
    path = build_workspace(tmp_path, "guide", [("guide.md", GUIDE.encode())])
    store = Store(path)
    try:
        answer = run_method("auto", store, "How do I install it?").answer
        claims = [(s, c) for s, _, c in sentences_with_citations(answer) if s.startswith("```")]
        assert claims and "pip install harbourline" in claims[0][0], answer
        hrid = claims[0][1][0].ids("Sources")[0]
        unit = store.rows("text_units", "human_readable_id = ?", [hrid])
        assert judge(claims[0][0], unit).verdict == "supported"
        assert judge("```\npip install something-else\n```", unit).verdict != "supported"
    finally:
        store.close()


def test_a_section_whose_heading_says_more_of_the_question_wins_over_another_sections_code():
    """"How do I write a multi-line docstring?": the section "Multi-line docstrings" (prose, no
    code) answers, not the example under "One-line docstrings"."""
    page = ("# Docstrings\n\n## One-line docstrings\n\nFor example:\n\n```python\ndef root():\n"
            "    \"\"\"Return the root.\"\"\"\n```\n\n## Multi-line docstrings\n\nMulti-line docstrings "
            "consist of a summary line, a blank line and a longer description.\n")
    assert code_answer("How do I write a multi-line docstring?", [_unit(page)]) is None
    assert code_answer("How do I write a one-line docstring?", [_unit(page)]) is not None

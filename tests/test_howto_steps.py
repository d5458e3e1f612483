"""A how-to question ("how do I color the communities in gephi?") gets the numbered steps, in order,
under the heading that names its task ("Color the Graph by Clusters"), each cited; not the
sentences of other sections that share its words, and not steps under a heading naming another task."""
from __future__ import annotations

import re

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.query.methods import run_method
from core.query.steps import steps_list
from core.settings import Settings
from core.store.db import Store

GUIDE = """# Viewing the Graph

Export the graph first; Gephi opens the graphml file.

## 1. Open the Graph in Gephi

1. Install and open Gephi.
2. Import the graph.graphml file into Gephi.

## 2. Color the Graph by Clusters

1. Go to the Appearance pane in the upper left side of Gephi.
2. Select Nodes, then Partition.
3. Choose Cluster from the dropdown.
4. Click Apply to color the graph.

## 3. Resize Nodes by Degree

1. In the Appearance pane, select Nodes and then Ranking.
2. Choose Degree and click Apply.
"""


def _steps(answer: str) -> list[str]:
    return re.findall(r"^\d+\. (.+?) \[Data: Sources \(\d+\)\]", answer, re.M)


def test_a_how_to_question_gets_the_steps_under_the_heading_naming_its_task(tmp_path):
    store = Store(tmp_path / "ws")
    ingest_files(store, [("viewing.md", GUIDE.encode())], max_bytes=1_000_000)
    run_index(store, Settings(engine="offline"))
    r = run_method("auto", store, "how do I color the communities in gephi?", None)
    assert r.answer.splitlines()[0] == "**Color the Graph by Clusters**:", r.answer
    assert _steps(r.answer) == ["Go to the Appearance pane in the upper left side of Gephi",
                                "Select Nodes, then Partition", "Choose Cluster from the dropdown",
                                "Click Apply to color the graph"], r.answer
    r = run_method("auto", store, "what are the steps to resize nodes by degree?", None)
    assert r.method == "basic" and _steps(r.answer)[0] == "In the Appearance pane, select Nodes and then Ranking", r.answer


def test_no_steps_where_no_heading_names_the_task():
    unit = {"human_readable_id": 1, "text": "Open the Graph\n\nInstall Gephi.\n\nImport the file.\n",
            "headings": ["Viewing"], "structure": {"headings": [[0, 14]], "items": [[16, 30], [32, 48]]}}
    assert steps_list("how do I color the graph in gephi?", [unit]) is None
    assert steps_list("how do I open the graph?", [unit]) is not None
    assert steps_list("what does the graph show?", [unit]) is None  # no how-to

"""The community graph reads (issue 19): the tooltip does not repeat the type, the legend says
what size, width and colour mean, and a node carries its evidence (description, relationships,
the source sentences naming it) as data the page puts on screen as text."""
from __future__ import annotations

import json
import re

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.settings import load_settings
from core.store.db import Store
from core.store.workspace import create_workspace
from core.viz.entity_evidence import entity_evidence
from core.viz.graph import community_graph

HOSTILE = "<img src=x onerror=alert(1)>"
TEXT = ("Keeper Ingrid Solberg lit the Skerry Lighthouse at dusk.\n"
        "Ingrid Solberg wrote to the Northern Lights Board that the lens was cracked.\n"
        "The Northern Lights Board sent Pavel Novak to the Skerry Lighthouse.\n")


def _details(page: str) -> dict:
    return json.loads(re.search(r"var details = (\{.*?\});\n", page, re.S).group(1))


def test_tooltip_names_the_type_once_and_the_legend_explains_the_marks():
    ents = [{"id": "a", "title": "ALEX MERCER", "type": "person", "degree": 8, "description": "an agent"},
            {"id": "b", "title": "TAYLOR CRUZ", "type": "person", "degree": 3, "description": ""}]
    page = community_graph(ents, [{"source": "ALEX MERCER", "target": "TAYLOR CRUZ", "weight": 2}],
                           {"a": "person", "b": "person"}, colour_by="entity type").html
    node = json.loads(re.search(r"new vis\.DataSet\((\[.*?\])\);\s*var edges", page, re.S).group(1))[0]
    assert node["title"].startswith("ALEX MERCER\nperson \u00b7 8 connections")
    assert node["title"].lower().count("person") == 1
    for words in ("size: connections (degree)", "line width: relationship weight",
                  "colour: entity type"):
        assert words in page


def test_a_node_carries_its_evidence_as_text(tmp_path):
    path = create_workspace("w", tmp_path)
    store = Store(path)
    ingest_files(store, [("log.txt", TEXT.encode())], max_bytes=10**6)
    run_index(store, load_settings(path, env={}, engine="offline"))
    ents = store.rows("entities", select="id, human_readable_id, title, type, degree, description")
    rels = store.rows("relationships")
    ev = entity_evidence(store, ents, rels)
    solberg = next(v for v in ev.values() if "SOLBERG" in v["title"].upper())
    assert solberg["sentences"] and all("Solberg" in s["text"] for s in solberg["sentences"])
    assert solberg["sentences"][0]["document"]  # which document it comes from
    assert solberg["relationships"]
    # hostile text in the evidence stays inside the script's JSON, never live HTML
    ev[ents[0]["id"]]["description"] = HOSTILE
    page = community_graph(ents, rels, evidence=ev).html
    assert "<img" not in page
    assert _details(page)[ents[0]["id"]]["description"] == HOSTILE
    assert "textContent" in page and "innerHTML" not in page.rsplit("<script>", 1)[1]

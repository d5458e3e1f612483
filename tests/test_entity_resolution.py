"""Near-duplicate names merge when the graph supports it; merges are recorded and can be undone."""
from __future__ import annotations

from core.engine import Extraction
from core.index.entity_resolution import split_title, undo_merge
from core.index.pipeline import run_index
from core.settings import Settings
from core.store import Store


class ScriptedEngine:
    """Returns fixed extractions per text unit ordinal: isolates the merge logic."""
    name = "scripted"

    def __init__(self, script):
        self.script = script

    def extract(self, unit):
        ents, rels = self.script[unit["ordinal"] % len(self.script)]
        return Extraction(entities=[{"title": e, "type": "person", "description": f"{e} is named."} for e in ents],
                          relationships=[{"source": a, "target": b, "description": f"{a} with {b}", "weight": 1}
                                         for a, b in rels])

    def summarize(self, kind, name, descriptions):
        return " ".join(descriptions)

    def write_report(self, inp):
        return {"title": "t", "summary": "s", "rating": 1, "rating_explanation": "r",
                "findings": [{"summary": "f", "explanation": "e [Data: Entities (0)]"}]}


SCRIPT = [
    (["Dr. Jordan Hayes", "Alex Mercer"], [("Dr. Jordan Hayes", "Alex Mercer")]),
    (["Jordan Hayes", "Alex Mercer", "Taylor Cruz"], [("Jordan Hayes", "Alex Mercer"), ("Taylor Cruz", "Alex Mercer")]),
    (["Taylor Crus", "Alex Mercer"], [("Taylor Crus", "Alex Mercer")]),
    (["Taylor Cruz", "Sam Rivera"], [("Taylor Cruz", "Sam Rivera")]),
    (["Mrs. Cratchit", "Cratchit", "Mr. Jordan Vale", "Mrs. Jordan Vale"], [("Cratchit", "Mrs. Cratchit")]),
    (["Pat Lowe", "Pat Love"], []),
    (["Rosa Delgado", "Delgado", "Harbour Union"], [("Rosa Delgado", "Harbour Union")]),
    (["Delgado", "Harbour Union", "Martha Cratchit", "Bob Cratchit", "Cratchit"], [("Delgado", "Harbour Union")]),
    (["Agent Alex Mercer", "Agent Rivera", "Alex Mercer"], [("Agent Rivera", "Alex Mercer")]),
    (["Alex Mercer", "Sam Rivera", "Rivera"], [("Sam Rivera", "Alex Mercer")]),
]


def _index(tmp_path):
    store = Store(tmp_path)
    store.insert("documents", [{"id": "d", "text": "x " * 100 * len(SCRIPT), "status": "new"}])
    run_index(store, Settings(engine="offline", chunk_size=100, chunk_overlap=0), engine=ScriptedEngine(SCRIPT))
    return store


def titles(store):
    return {r["title"] for r in store.rows("entities")}


def test_titles_and_spelling_variants_merge_with_evidence(tmp_path):
    store = _index(tmp_path)
    t = titles(store)
    assert "JORDAN HAYES" in t and "DR. JORDAN HAYES" not in t
    assert "TAYLOR CRUZ" in t and "TAYLOR CRUS" not in t
    hayes = store.rows("entities", "title = 'JORDAN HAYES'")[0]
    assert "Dr. Jordan Hayes" in hayes["aliases"] and len(hayes["text_unit_ids"]) >= 2
    merges = {m["merged"]: m for m in store.rows("entity_merges")}
    assert merges["DR. JORDAN HAYES"]["into"] == "JORDAN HAYES"
    assert "shared neighbour" in merges["TAYLOR CRUS"]["reason"]
    assert "DELGADO" not in t and "surname" in merges["DELGADO"]["reason"]
    assert "AGENT ALEX MERCER" not in t and merges["AGENT ALEX MERCER"]["into"] == "ALEX MERCER"
    assert "AGENT RIVERA" not in t and merges["AGENT RIVERA"]["into"] == "SAM RIVERA"


def test_one_name_joins_the_only_full_name_it_fits_titles_aside(tmp_path):
    from collections import Counter
    from core.index.entity_resolution import find_merges
    g = lambda *units: {"types": Counter(person=1), "units": list(units), "descriptions": [], "aliases": Counter()}
    ents = {"DR. JORDAN HAYES": g("u1"), "JORDAN HAYES": g("u2"), "AGENT HAYES": g("u1"), "JORDAN": g("u2"),
            "ALEX": g("u3"), "ALEX MERCER": g("u3"), "BOB": g("u4"), "BOB CRATCHIT": g("u4"), "BOB SMITH": g("u4")}
    merges = {m["from"]: m["into"] for m in find_merges(ents, {}, set())}
    assert merges["DR. JORDAN HAYES"] == "JORDAN HAYES"
    assert merges["AGENT HAYES"] == "JORDAN HAYES" and merges["JORDAN"] == "JORDAN HAYES"
    assert merges["ALEX"] == "ALEX MERCER"
    assert "BOB" not in merges  # two full names start with BOB


def test_ambiguous_names_stay_apart(tmp_path):
    t = titles(_index(tmp_path))
    assert {"MRS. CRATCHIT", "CRATCHIT"} <= t          # a bare surname is ambiguous
    assert {"BOB CRATCHIT", "MARTHA CRATCHIT"} <= t     # several full names end in CRATCHIT
    assert {"MR. JORDAN VALE", "MRS. JORDAN VALE"} <= t  # titles of opposite gender
    assert {"PAT LOWE", "PAT LOVE"} <= t                # similar, but nothing in the graph links them


def test_an_undone_merge_is_not_made_again(tmp_path):
    store = _index(tmp_path)
    undo_merge(store, "TAYLOR CRUS")
    run_index(store, Settings(engine="offline", chunk_size=100, chunk_overlap=0), engine=ScriptedEngine(SCRIPT))
    assert {"TAYLOR CRUS", "TAYLOR CRUZ"} <= titles(store)
    assert store.rows("entity_merges", "merged = 'TAYLOR CRUS'")[0]["status"] == "undone"
    assert "DR. JORDAN HAYES" not in titles(store)  # other merges stand


def test_split_title():
    assert split_title("DR. JORDAN HAYES") == ("", "JORDAN HAYES")
    assert split_title("MRS. CRATCHIT") == ("f", "CRATCHIT")
    assert split_title("AGENT") == ("", "AGENT")


def test_a_titled_full_name_merges_without_graph_evidence_but_a_spelling_variant_does_not():
    from collections import Counter
    from core.index.entity_resolution import find_merges
    g = lambda unit: {"types": Counter(person=1), "units": [unit], "descriptions": [], "aliases": Counter()}
    ents = {"AGENT ALEX MERCER": g("u1"), "ALEX MERCER": g("u2"), "PAT LOWE": g("u3"), "PAT LOVE": g("u4")}
    merges = {m["from"]: m for m in find_merges(ents, {}, set())}
    assert merges["AGENT ALEX MERCER"]["into"] == "ALEX MERCER"
    assert "the full name is the same" in merges["AGENT ALEX MERCER"]["reason"]
    assert "PAT LOWE" not in merges and "PAT LOVE" not in merges


def test_a_short_name_joins_the_full_name_written_in_its_own_text_unit():
    """A small model extracted "AGENT HAYES" and "TAYLOR" from passages that write "Jordan Hayes"
    and "Taylor Cruz" out, without extracting the full names there: the text is the evidence."""
    from collections import Counter
    from core.index.entity_resolution import find_merges
    g = lambda unit, t="person": {"types": Counter({t: 1}), "units": [unit], "descriptions": [], "aliases": Counter()}
    ents = {"JORDAN HAYES": g("u1"), "AGENT HAYES": g("u2"), "TAYLOR CRUZ": g("u1"), "TAYLOR": g("u3"),
            "RIVERA": g("u4"), "SAM RIVERA": g("u1")}
    texts = {"u1": "", "u2": "Agent Hayes nodded; Jordan  Hayes had seen it before.",
             "u3": "TAYLOR-CRUZ? No: Taylor Cruz, the leader, spoke.", "u4": "Rivera worked alone."}
    merges = {m["from"]: m for m in find_merges(ents, {}, set(), texts.get)}
    assert merges["AGENT HAYES"]["into"] == "JORDAN HAYES"
    assert "Jordan Hayes is written in its text unit" in merges["AGENT HAYES"]["reason"]
    assert merges["TAYLOR"]["into"] == "TAYLOR CRUZ"
    assert "RIVERA" not in merges  # the full name is not written where RIVERA was found
    assert "AGENT HAYES" not in {m["from"] for m in find_merges(ents, {}, set())}  # no text, no evidence

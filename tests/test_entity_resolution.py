"""Near-duplicate names merge when the graph supports it; merges are recorded and can be undone."""
from __future__ import annotations

from core.engine import Extraction
from core.index.entity_resolution import split_title, undo_merge
from core.index.pipeline import run_index
from core.settings import Settings
from core.store.db import Store


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


def _person(*units, t="person"):
    from collections import Counter
    return {"types": Counter({t: 1}), "units": list(units), "descriptions": [], "aliases": Counter()}


def test_evidence_counts_neighbours_and_units_through_the_merges_made_so_far_in_any_order():
    """A small model wrote TAYLOR next to ALEX and TAYLOR CRUZ next to ALEX MERCER; ALEX joins ALEX
    MERCER in the same run, so the two share a neighbour. JORDAN shares a text unit only with HAYES,
    which joins JORDAN HAYES. The merges do not depend on the order the names come in."""
    from core.index.entity_resolution import find_merges
    ents = {"TAYLOR": _person("u1"), "ALEX": _person("u1"), "TAYLOR CRUZ": _person("u2"),
            "ALEX MERCER": _person("u2"), "SAM RIVERA": _person("u3"),
            "JORDAN": _person("u5"), "HAYES": _person("u5"), "JORDAN HAYES": _person("u6"), "DULCE": _person("u6")}
    rels = {("ALEX", "TAYLOR"): {}, ("ALEX MERCER", "TAYLOR CRUZ"): {},
            ("ALEX", "SAM RIVERA"): {}, ("ALEX MERCER", "SAM RIVERA"): {},
            ("DULCE", "HAYES"): {}, ("DULCE", "JORDAN HAYES"): {}}
    expected = {"ALEX": "ALEX MERCER", "TAYLOR": "TAYLOR CRUZ", "HAYES": "JORDAN HAYES", "JORDAN": "JORDAN HAYES"}
    for order in (list(ents), list(reversed(ents))):
        merges = find_merges({k: ents[k] for k in order}, rels, set())
        assert {m["from"]: m["into"] for m in merges} == expected
        why = {m["from"]: m["reason"] for m in merges}
        assert "shared neighbour (ALEX MERCER)" in why["TAYLOR"]
        assert "shared text unit" in why["JORDAN"] or "shared neighbour (DULCE)" in why["JORDAN"]
    # the graph alone, without ALEX's merge, links nothing: an undone ALEX merge leaves TAYLOR apart
    from core.index.entity_resolution import merge_id
    merges = {m["from"] for m in find_merges(ents, rels, {merge_id("ALEX", "ALEX MERCER")})}
    assert "ALEX" not in merges and "TAYLOR" not in merges


def _adjacent_case(full_name_at, doc_of_full="d"):
    """AGENT HAYES and JORDAN taken from passage d#1; JORDAN HAYES extracted from, and written out
    in, the passage `full_name_at` of document `doc_of_full`."""
    from core.index.entity_resolution import adjacent_units
    rows = [{"id": f"d{i}", "document_id": "d", "ordinal": i} for i in range(5)] + \
           [{"id": f"e{i}", "document_id": "e", "ordinal": i} for i in range(3)]
    full_unit = f"{doc_of_full}{full_name_at}"
    texts = {r["id"]: "The corridor was quiet." for r in rows}
    texts[full_unit] = "Jordan Hayes studied the console, and then the blind man's-buff began."
    texts["d1"] = "Agent Hayes looked up. Jordan nodded; Man and machine were one."
    ents = {"JORDAN HAYES": _person(full_unit), "AGENT HAYES": _person("d1"), "JORDAN": _person("d1"),
            "DULCE": _person("d1", t="geo"), "MAN": _person("d1"), "BLIND MAN": _person(full_unit)}
    rels = {("AGENT HAYES", "DULCE"): {}, ("DULCE", "JORDAN"): {}}
    return ents, rels, texts.get, adjacent_units(rows)


def test_a_one_name_joins_the_full_name_written_in_the_passage_next_to_its_own():
    """Writers name a person in full once, then by one name in the next passages: "Jordan Hayes"
    in passage #0, "Agent Hayes" and "Jordan" in #1, as Qwen 1.5B extracted Operation Dulce."""
    from core.index.entity_resolution import find_merges
    for at in (0, 2):
        ents, rels, text, nearby = _adjacent_case(at)
        merges = {m["from"]: m for m in find_merges(ents, rels, set(), text, nearby)}
        assert merges["AGENT HAYES"]["into"] == "JORDAN HAYES" and merges["JORDAN"]["into"] == "JORDAN HAYES"
        assert "Jordan Hayes is written in the passage next to its text unit" in merges["AGENT HAYES"]["reason"]
        assert "MAN" not in merges  # "blind man" next door is a phrase, not a name written out
        assert "AGENT HAYES" not in {m["from"] for m in find_merges(ents, rels, set(), text)}  # no adjacency given


def test_a_full_name_two_passages_away_or_in_another_document_is_no_evidence():
    from core.index.entity_resolution import find_merges
    for at, doc in ((3, "d"), (4, "d"), (0, "e"), (1, "e"), (2, "e")):
        ents, rels, text, nearby = _adjacent_case(at, doc)
        merged = {m["from"] for m in find_merges(ents, rels, set(), text, nearby)}
        assert not merged & {"AGENT HAYES", "JORDAN", "MAN"}, (at, doc)


def test_a_spelling_variant_needs_its_short_words_equal():
    """Microsoft GraphRAG's Christmas Carol has BOY CRATCHIT beside BOB CRATCHIT (similarity 0.92,
    shared neighbours): a different child. Bob/Boy, Tom/Tim are names, not misspellings; a one-letter
    variant of a longer word still merges."""
    from core.index.entity_resolution import find_merges
    ents = {"BOB CRATCHIT": _person("u1", "u2"), "BOY CRATCHIT": _person("u3"), "MRS. CRATCHIT": _person("u1"),
            "TOM SMITH": _person("u4"), "TIM SMITH": _person("u4"),
            "TAYLOR CRUZ": _person("u5", "u6"), "TAYLOR CRUS": _person("u7"), "ALEX MERCER": _person("u5")}
    rels = {("BOB CRATCHIT", "MRS. CRATCHIT"): {}, ("BOY CRATCHIT", "MRS. CRATCHIT"): {},
            ("ALEX MERCER", "TAYLOR CRUZ"): {}, ("ALEX MERCER", "TAYLOR CRUS"): {}}
    merges = {m["from"]: m for m in find_merges(ents, rels, set())}
    assert not {"BOY CRATCHIT", "BOB CRATCHIT", "TOM SMITH", "TIM SMITH"} & set(merges)
    assert merges["TAYLOR CRUS"]["into"] == "TAYLOR CRUZ" and "spelling variant" in merges["TAYLOR CRUS"]["reason"]

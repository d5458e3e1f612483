"""What keeps a 100k-entity workspace fast (issue 8), on small inputs: map batches packed while
the first calls are out, community relationships found per level, report element lines counted
once per run, a hierarchy overview capped for the browser, and a communities page that reads only
the communities it shows."""
from __future__ import annotations

import json
import random
import threading
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.viz.charts import overview_plan
from core.index import report_context
from core.index.communities_stage import run_communities
from core.index.graph_stage import entity_id
from core.llm.client import LLM
from core.query import context
from core.query.global_search import global_search
from core.query.types import GlobalParams
from core.settings import Settings
from core.store.db import Store
from core.store.workspace import create_workspace
from tests.fakes import FakeChat
from tests.test_global_search import map_answer, batch_ids, synthetic_store

APP = str(Path(__file__).resolve().parent / "app_entry.py")  # AppTest: see tests/app_entry.py


# -- global search: batches stream into the map calls ---------------------------------------

def test_streamed_batches_are_full_and_in_order(tmp_path):
    store = synthetic_store(tmp_path, n=120)
    reports = store.rows("community_reports")
    random.Random(3).shuffle(reports)
    pulled = []

    def source():
        for r in reports:
            pulled.append(r["human_readable_id"])
            yield r

    stream = context.iter_report_batches(source(), 300)
    first = next(stream)
    assert len(pulled) < len(reports) // 2  # the first batch did not read every report
    batches = [first, *stream]
    assert [r["human_readable_id"] for b in batches for r in b.records] == \
        [r["human_readable_id"] for r in reports]  # each report once, in the given order
    for b, nxt in zip(batches, batches[1:]):
        assert b.tokens <= 300
        # full: the next report would not have fitted
        assert b.tokens + context.line_tokens(context.report_row(nxt.records[0])) > 300


def test_first_map_call_goes_out_before_the_level_is_packed(tmp_path, monkeypatch):
    store = synthetic_store(tmp_path, n=150)
    rows_made = []
    first_call_saw: list[int] = []
    real_row = context.report_row

    def slow_row(report):  # packing a level of thousands of reports takes this long
        threading.Event().wait(0.004)
        rows_made.append(1)
        return real_row(report)

    monkeypatch.setattr(context, "report_row", slow_row)

    def respond(messages):
        system = messages[0]["content"]
        if "---Data table---" in system:
            if not first_call_saw:
                first_call_saw.append(len(rows_made))
            return map_answer(batch_ids(system))
        return "The facts are many [Data: Reports (1, 2)]."

    result = global_search(store, "what is in the ledger?",
                           GlobalParams(level=0, seed=1, map_max_tokens=400, concurrency=4),
                           llm=LLM(FakeChat(respond)), record=False)
    assert len(result.batches) > 10 and not result.failed_batches
    assert first_call_saw[0] < 150 // 2, first_call_saw  # the call went out early
    assert sorted(i for b in result.batches for i in b.report_ids) == list(range(150))


# -- communities: relationships of each community at each level ------------------------------

def _planted(store: Store, groups: int = 12, size: int = 14, seed: int = 5) -> None:
    rng = random.Random(seed)
    names = [f"E{i}" for i in range(groups * size)]
    store.insert("entities", [{"id": entity_id(n), "title": n, "type": "person", "description": n,
                               "text_unit_ids": [f"tu-{i % 7}"], "degree": 0} for i, n in enumerate(names)])
    rels, k = [], 0
    for g in range(groups):
        ms = names[g * size:(g + 1) * size]
        for a in ms:
            for b in rng.sample(ms, 4):
                if a != b:
                    rels.append({"id": f"rel-{k}", "source": a, "target": b, "weight": rng.randint(1, 5)})
                    k += 1
    for _ in range(groups * 2):  # cross links, one duplicate pair in reverse, one unknown end
        a, b = rng.sample(names, 2)
        rels.append({"id": f"rel-{k}", "source": a, "target": b, "weight": 1})
        k += 1
    rels.append({"id": f"rel-{k}", "source": rels[0]["target"], "target": rels[0]["source"], "weight": 9})
    rels.append({"id": f"rel-{k + 1}", "source": "E0", "target": "NOBODY", "weight": 1})
    store.insert("relationships", rels)


def test_each_community_lists_exactly_the_relationships_inside_it(tmp_path):
    store = Store(tmp_path)
    _planted(store)
    run_communities(store, Settings(engine="offline", max_cluster_size=6))
    comms = store.rows("communities")
    title = {e["id"]: e["title"] for e in store.rows("entities")}
    rels = store.rows("relationships", order_by="human_readable_id")
    first_of_pair: dict[frozenset, str] = {}
    for r in rels:
        first_of_pair.setdefault(frozenset((r["source"], r["target"])), r["id"])
    assert len({c["level"] for c in comms}) >= 2
    for c in comms:
        inside = {title[i] for i in c["entity_ids"]}
        want = sorted({first_of_pair[frozenset((r["source"], r["target"]))] for r in rels
                       if r["source"] in inside and r["target"] in inside})
        assert c["relationship_ids"] == want, c["community"]
        assert c["size"] == len(c["entity_ids"])


# -- reports: each element line counted once per run -------------------------------------------

def test_report_lines_are_counted_once_and_pack_the_same(monkeypatch):
    ents = [{"id": f"e{i}", "human_readable_id": i, "title": f"E{i}", "description": "word " * (i % 9),
             "degree": i % 4} for i in range(40)]
    rels = [{"id": f"r{i}", "human_readable_id": i, "source": f"E{i}", "target": f"E{(i * 7) % 40}",
             "description": "links " * (i % 5), "combined_degree": i % 6} for i in range(40)]
    claims = {"E3": [{"id": "c1", "human_readable_id": 1, "subject": "E3", "description": "a claim"}]}
    counted = []
    real = report_context.count_tokens
    monkeypatch.setattr(report_context, "count_tokens", lambda t: counted.append(t) or real(t))
    plain = report_context.pack_elements(ents, rels, claims, 300)
    n_plain = len(counted)
    costs = report_context.LineCosts()
    for _ in range(3):
        assert report_context.pack_elements(ents, rels, claims, 300, costs) == plain
    assert len(counted) - n_plain <= n_plain  # three packings, lines counted once


# -- the communities page on many communities ------------------------------------------------

def test_overview_plan_draws_whole_levels_or_the_largest():
    assert overview_plan({0: 10, 1: 40, 2: 200}, 100) == ([0, 1], None, (
        "The overview draws 50 of 250 communities (levels 0-1); the selectors below reach every "
        "community."))
    levels, limit, note = overview_plan({0: 300, 1: 900}, 100)
    assert levels == [0] and limit == 100 and "100 of 1,200" in note and "the largest" in note
    assert overview_plan({0: 3, 1: 5}, 100) == ([0, 1], None, None)


def test_communities_page_caps_the_overview_and_the_tables(tmp_path, monkeypatch):
    path = create_workspace("many", tmp_path)
    store = Store(path)
    n, big = 1200, list(range(1200, 3300))  # community 77 holds 2,100 entities
    store.insert("entities", [{"id": f"ent-{i}", "title": f"PERSON {i}", "type": "person",
                               "description": f"Person {i} keeps the ledger.", "degree": i % 50}
                              for i in range(3300)])
    store.insert("communities", [{"id": f"com-{i}", "community": i, "level": 0, "parent": -1,
                                  "children": [], "title": f"Community {i}",
                                  "entity_ids": [f"ent-{k}" for k in (big if i == 77 else [i])],
                                  "relationship_ids": [], "text_unit_ids": [],
                                  "size": len(big) if i == 77 else 1} for i in range(n)])
    store.insert("community_reports", [{"id": f"rep-{i}", "community": i, "level": 0,
                                        "title": f"Ledger keeper {i}", "summary": "About a ledger.",
                                        "rating": float(i % 10), "findings": []} for i in range(n)])
    store.close()
    monkeypatch.setenv("SENSEMAKER_HOME", str(tmp_path))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ws"] = "many"
    at.run()
    at.switch_page("../pages/communities.py").run()
    assert not at.exception, at.exception
    at.session_state["overview_open"] = True  # the overview is drawn when it is opened
    at.run()
    ids = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["ids"]
    assert len(ids) == 1 + 1000 and "c77" in ids  # the root box and the 1,000 largest
    assert any("draws 1,000 of 1,200 communities" in c.value for c in at.caption)
    roots = at.selectbox[0]
    assert len(roots.options) == n and roots.options[0].startswith("Ledger keeper 77")
    assert at.subheader[0].value == "Ledger keeper 77"
    at.session_state["tables_open"] = True  # the user opens the tables
    at.run()
    entities = next(d.value for d in at.dataframe if str(d.key).startswith("tbl_e"))
    assert len(entities) == 1000 and entities["degree"].iloc[0] == 49  # best-connected first
    assert any(c.value.startswith("The first 1,000 of 2,100 entities by degree") for c in at.caption)
    assert not any(str(d.key).startswith(("tbl_r", "tbl_c")) for d in at.dataframe)  # closed tabs


# -- drill-down: a report resolves without its members' text unit lists ------------------------

def test_member_unit_lists_are_read_when_a_community_lists_no_units(tmp_path):
    from core.text.citations import Ref
    from core.store.references import Resolver
    from tests.test_resolve import build

    store = Store(tmp_path)
    build(store)  # community 7 lists no text units; community 11 (below) lists its own
    store.insert("communities", [{"id": "k11", "community": 11, "level": 1, "parent": 7,
                                  "entity_ids": ["e-scrooge", "e-marley"], "relationship_ids": ["r0"],
                                  "text_unit_ids": ["u0"]}])
    store.insert("community_reports", [{"id": "rep11", "human_readable_id": 11, "community": 11,
                                        "level": 1, "title": "Scrooge and Marley", "findings": []}])
    resolver = Resolver(store)
    first = resolver.resolve(Ref("Reports", 11))  # members read without their unit lists
    assert first.text_unit_ids == ["u0"] and first.members["Entities"] == [0, 1]
    second = resolver.resolve(Ref("Reports", 7))  # the same members, now with them
    assert second.text_unit_ids == ["u0", "u1", "u2"]
    assert second.members == {"Entities": [0, 1, 2, 3], "Relationships": [0, 1, 2], "Claims": [0, 1]}


# -- writes: a table rewrite rebuilds its full-text indexes once -------------------------------

def test_rewritten_table_is_searchable_and_its_triggers_come_back(tmp_path):
    from core.store.check import check_workspace

    store = Store(tmp_path)
    store.insert("entities", [{"id": "e1", "title": "HARBOUR BOARD", "description": "It met at the quay."}])
    store.replace_table("entities", [{"id": "e2", "title": "LANTERN WHARF", "description": "A new pier."},
                                     {"id": "e3", "title": "港务局", "description": "港务局负责码头。"}])
    assert [r["id"] for r in store.search("entities", "wharf pier")] == ["e2"]
    assert store.search("entities", "harbour quay") == []  # the old row left both indexes
    assert [r["id"] for r in store.search("entities", "港务局")] == ["e3"]
    store.insert("entities", [{"id": "e4", "title": "TANNER QUAY", "description": "Berth 2."}])
    store.update("entities", "e2", description="A pier, rebuilt.")
    store.delete_where("entities", "id = ?", ["e3"])
    assert [r["id"] for r in store.search("entities", "tanner")] == ["e4"]  # the triggers are back
    assert [r["id"] for r in store.search("entities", "rebuilt")] == ["e2"]
    assert store.search("entities", "港务局") == []
    assert not check_workspace(store).problems


# -- drill-down: text units beyond the first few are drawn on request ------------------------

def test_more_source_units_open_on_request(indexed_home, monkeypatch):
    store = Store(indexed_home / "test")
    ent = max(store.rows("entities"), key=lambda e: len(e["text_unit_ids"] or []))
    n = len(ent["text_unit_ids"])
    assert n > 4, "the sample corpus has an entity in more than four text units (the drill-down draws four)"
    monkeypatch.setenv("SENSEMAKER_HOME", str(indexed_home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ws"] = "test"
    at.run()
    at.session_state["drill"] = {"kind": "Entities", "id": ent["human_readable_id"], "sentence": None}
    at.switch_page("../pages/communities.py").run()
    assert not at.exception, at.exception
    opens = [b for b in at.button if b.label == "Open the whole document"]
    assert len(opens) == 4  # the best four units; the rest wait for a click
    more = next(b for b in at.button if b.label.startswith(f"Show {n - 4} more text unit"))
    more.click().run()
    assert not at.exception, at.exception
    assert len([b for b in at.button if b.label == "Open the whole document"]) == min(n, 80)

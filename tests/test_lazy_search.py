"""Lazy search with deterministic fakes: the relevance-test budget is never exceeded (calls
counted), the path over the community hierarchy (rank order, z misses, descent), tests are
tiny and cached, a separate relevance model, claims keep resolvable references, the trace
round-trips, and the offline engine says it is offline."""
from __future__ import annotations

import json
import re

import pytest

from core.verify.verdict import VERDICTS
from core.errors import UserError
from core.llm.client import LLM
from core.query.lazy.params import LazyParams
from core.query.lazy.search import lazy_search
from core.query.lazy.refine import refined_text
from core.query.lazy.trace import LazyTrace
from core.query.methods import METHODS, run_method
from core.query.traces import load_trace
from core.query.types import SearchResult
from core.query.unit_rank import UnitIndex
from core.store.db import Store
from core.tokens import count_tokens
from tests.fake_model import respond
from tests.fakes import FakeChat

# communities: level 0: 0 (units 0-7), 1 (8-15), 2 (16-23); level 1: 3 (0-3), 4 (4-7) under 0,
# 5 (8-11), 6 (12-15) under 1, 7 (16-19), 8 (20-23) under 2; unit 24 is in no community
TREE = {0: (0, -1, [3, 4], range(0, 8)), 1: (0, -1, [5, 6], range(8, 16)), 2: (0, -1, [7, 8], range(16, 24)),
        3: (1, 0, [], range(0, 4)), 4: (1, 0, [], range(4, 8)), 5: (1, 1, [], range(8, 12)),
        6: (1, 1, [], range(12, 16)), 7: (1, 2, [], range(16, 20)), 8: (1, 2, [], range(20, 24))}


def unit_text(i: int) -> str:
    # lantern words fall with i, so units rank 0, 1, 2, ...; units 13 and 21 hold the answer
    lanterns = " ".join([f"The lantern keeper lit lantern {i}."] * (26 - i) + [f"Nothing moved on watch {i}."] * i)
    fact = (f" No harbour fire was seen on watch {i}. The lantern keeper saw the genuine harbour fire of night {i}."
            if i in (13, 21) else f" No harbour fire was seen on watch {i}." * 2)
    return f"Passage {i} of the log. {lanterns}{fact}"


def lazy_store(path) -> Store:
    store = Store(path)
    texts = [unit_text(i) for i in range(25)]
    doc = "\n\n".join(texts)
    store.insert("documents", [{"id": "doc", "title": "log.txt", "text": doc, "source_name": "log.txt",
                                "mime": "text/plain"}])
    pos, units = 0, []
    for i, t in enumerate(texts):
        start = doc.index(t, pos)
        pos = start + len(t)
        units.append({"id": f"tu-{i}", "human_readable_id": i, "document_id": "doc", "ordinal": i, "text": t,
                      "n_tokens": count_tokens(t), "char_start": start, "char_end": pos})
    store.insert("text_units", units)
    store.insert("entities", [{"id": "e-0", "human_readable_id": 0, "title": "LANTERN KEEPER", "type": "person",
                               "description": "The keeper of the lantern.", "text_unit_ids": ["tu-0"],
                               "frequency": 1, "degree": 0}])
    store.insert("communities", [{"id": f"c-{n}", "human_readable_id": n, "community": n, "level": lv,
                                  "parent": p, "children": ch, "title": f"C{n}", "entity_ids": [],
                                  "relationship_ids": [], "text_unit_ids": [f"tu-{u}" for u in us], "size": 1}
                                 for n, (lv, p, ch, us) in TREE.items()])
    return store


QUESTION = "Did the lantern keeper see a harbour fire?"


def genuine(messages):
    """Relevant only when the passage holds the fact; claims and answers from the fake model."""
    last = messages[-1]["content"]
    if last.startswith("Question: ") and "\nDoes the passage help answer" in last:
        return "Yes" if "genuine" in last.split("\nPassage: ", 1)[1] else "No"
    return respond(messages)


def relevance_calls(chat: FakeChat) -> list[list[dict]]:
    return [m for m in chat.calls if "\nDoes the passage help answer" in m[-1]["content"]]


@pytest.mark.parametrize("budget", [1, 2, 7, 20, 500])
def test_the_budget_of_relevance_tests_is_never_exceeded(tmp_path, budget):
    store = lazy_store(tmp_path)
    chat = FakeChat(genuine)
    r = lazy_search(store, QUESTION, LazyParams(budget=budget, z=2, chunks_per_community=3), LLM(chat, store))
    t = LazyTrace.from_dict(r.lazy)
    assert len(relevance_calls(chat)) == len(t.tests) <= budget
    assert r.usage["by_stage"]["lazy_relevance"]["llm_calls"] == len(t.tests)
    assert sum(s.tests for s in t.subqueries) == len(t.tests) <= sum(s.budget for s in t.subqueries) == budget
    if budget >= 75:  # 3 subqueries x 25 units: everything ranked can be tested
        assert {s.stopped for s in t.subqueries} == {"no community left"}
    else:
        assert "budget" in {s.stopped for s in t.subqueries}


def test_path_follows_rank_descends_after_z_misses_and_finds_the_deep_units(tmp_path):
    store = lazy_store(tmp_path)
    chat = FakeChat(genuine)
    r = lazy_search(store, QUESTION, LazyParams(budget=30, subqueries=1, z=2, chunks_per_community=2),
                    LLM(chat, store))
    t = LazyTrace.from_dict(r.lazy)
    first = [v for v in t.visits if v.subquery == 0]
    ranked = UnitIndex(store).rank(refined_text(t.subqueries[0]))
    rank = {int(x.unit["human_readable_id"]): x.rank for x in ranked}
    units_of = {n: sorted((u for u in us if u in rank), key=rank.get) for n, (_, _, _, us) in TREE.items()}
    units_of[-1] = [24] if 24 in rank else []
    top = sorted((n for n in (0, 1, 2, -1) if units_of[n]), key=lambda n: rank[units_of[n][0]])
    # level 0 in the rank of the communities' best units, each testing its best two: two misses
    assert [(v.community, v.level, v.tested) for v in first[:2]] == [(n, 0, units_of[n][:2]) for n in top[:2]]
    assert first[1].descend and not first[0].descend and not first[0].relevant
    # the rest of level 0 is skipped; level 1 (its communities and the leaf group) goes by rank again
    assert all(v.level == 1 or v.community == -1 for v in first[2:])
    assert first[2].community in (3, 4, 5, 6, 7, 8, -1)
    tested = [u for v in first for u in v.tested]
    assert len(tested) == len(set(tested))  # no unit tested twice for one subquery
    assert {13, 21} <= {u for v in first for u in v.relevant}
    assert "[Data: Sources (13)]" in r.answer or "[Data: Sources (21)]" in r.answer
    # the tests of a round went out together: rounds hold the visits' tests
    assert sum(t.rounds) == len(t.tests)


def test_relevance_tests_are_tiny_cached_and_can_use_their_own_model(tmp_path):
    store = lazy_store(tmp_path)
    main, cheap = FakeChat(genuine, model="big"), FakeChat(genuine, model="small")
    params = LazyParams(budget=12)
    r = lazy_search(store, QUESTION, params, LLM(main, store), relevance_llm=LLM(cheap, store))
    assert not relevance_calls(main) and len(relevance_calls(cheap)) == 12
    assert all(len(m) == 1 and count_tokens(m[0]["content"]) < 120 for m in relevance_calls(cheap))
    assert r.usage["by_stage"]["lazy_relevance"]["llm_calls"] == 12  # merged into the query's usage
    assert r.lazy["relevance_model"] == "small" and r.model == "big"
    again = FakeChat(genuine, model="small")
    r2 = lazy_search(store, QUESTION, params, LLM(FakeChat(genuine, model="big"), store),
                     relevance_llm=LLM(again, store))
    assert not again.calls  # every test answered from the cache
    assert r2.lazy["phases"]["relevance"]["cache_hits"] == 12 and r2.answer == r.answer


def test_relevance_tests_ask_for_at_most_two_tokens(tmp_path):
    store = lazy_store(tmp_path)
    caps = []

    class Capped(FakeChat):
        def complete(self, messages, *, json_mode=False, max_tokens=None, temperature=0.0):
            if "\nDoes the passage help answer" in messages[-1]["content"]:
                caps.append(max_tokens)
            return super().complete(messages, json_mode=json_mode, max_tokens=max_tokens)

    lazy_search(store, QUESTION, LazyParams(budget=9), LLM(Capped(genuine), store))
    assert caps and set(caps) <= {1, 2}


def test_every_reference_resolves_to_a_unit_and_carries_a_verdict(tmp_path):
    store = lazy_store(tmp_path)
    r = run_method("lazy", store, QUESTION, LLM(FakeChat(genuine), store), options={"budget": 75})
    assert r.citations and not r.no_data
    for c in r.citations:
        assert c["kind"] == "Sources" and c["resolved"] and not c["dangling"]
        assert c["text_unit_ids"] and c["support"]["verdict"] in VERDICTS
    claims = LazyTrace.from_dict(r.lazy).claims
    read = {u for call in r.lazy["map_calls"] for u in call["units"]}
    assert claims and all(set(c.sources) <= read for c in claims)


def test_claims_citing_nothing_get_their_unit_or_are_dropped(tmp_path):
    store = lazy_store(tmp_path)

    def uncited(messages):
        if "You extract claims from passages" in messages[0]["content"]:
            return json.dumps({"claims": [{"claim": "The lantern keeper saw the genuine harbour fire.", "score": 90},
                                          {"claim": "Zebras sing opera.", "score": 80},
                                          {"claim": "Made up [Data: Sources (999)]", "score": 70}]})
        return genuine(messages)

    r = lazy_search(store, QUESTION, LazyParams(budget=40, subqueries=1), LLM(FakeChat(uncited), store))
    texts = [c.text for c in LazyTrace.from_dict(r.lazy).claims]
    assert texts and all(re.search(r"\[Data: Sources \((13|21)\)\]", t) for t in texts)
    assert not any("Zebras" in t or "999" in t for t in texts)


def test_trace_round_trips_and_is_stored(tmp_path):
    store = lazy_store(tmp_path)
    r = lazy_search(store, QUESTION, LazyParams(budget=75), LLM(FakeChat(genuine), store))
    d = r.to_dict()
    assert SearchResult.from_dict(json.loads(json.dumps(d))).to_dict() == d
    loaded = load_trace(store, r.trace_id)
    assert loaded.lazy == r.lazy and loaded.method == "lazy"
    t = LazyTrace.from_dict(loaded.lazy)
    assert len(t.subqueries) == 3 and t.expanded_question != QUESTION
    assert t.visits and t.tests and t.claims
    assert any(c.selected for c in t.claims)
    assert t.reduce["tokens"] <= t.reduce["budget"]
    assert set(t.phases) == {"refine", "relevance", "claims", "reduce"}
    assert t.phases["refine"]["llm_calls"] == 1 and t.phases["reduce"]["llm_calls"] == 1
    assert t.phases["relevance"]["llm_calls"] == len(t.tests)


def test_offline_lazy_runs_with_lexical_tests_and_sentences_as_claims(tmp_path):
    store = lazy_store(tmp_path)
    r = run_method("lazy", store, "Did the keeper see the genuine fire?", None, options={"budget": 60})
    assert r.engine == "offline" and r.usage["llm_calls"] == 0
    t = LazyTrace.from_dict(r.lazy)
    assert [s.text for s in t.subqueries] == ["Did the keeper see the genuine fire?"]
    assert "offline" in r.params["refine_note"]
    assert all(x.answer.startswith("lexical") for x in t.tests)
    assert {13, 21} <= {x.unit for x in t.tests if x.relevant}
    assert "genuine harbour fire" in r.answer and r.citations
    assert all(c["resolved"] and c["support"] for c in r.citations)


def test_nothing_relevant_says_so_without_an_answer_call(tmp_path):
    store = lazy_store(tmp_path)
    chat = FakeChat(lambda m: "No" if "\nDoes the passage help answer" in m[-1]["content"] else respond(m))
    r = lazy_search(store, QUESTION, LazyParams(budget=10), LLM(chat, store))
    assert r.no_data and "does not answer" in r.answer and not r.citations
    assert not [m for m in chat.calls if "---Claims---" in m[0]["content"]]


def test_bad_input_is_refused_clearly(tmp_path):
    store = lazy_store(tmp_path)
    with pytest.raises(UserError, match="empty"):
        lazy_search(store, "  ", LazyParams())
    with pytest.raises(UserError, match="at least 1"):
        lazy_search(store, QUESTION, LazyParams(budget=0))
    with pytest.raises(UserError, match="no text units"):
        lazy_search(Store(tmp_path / "empty"), QUESTION, LazyParams())


def test_registered_with_the_other_methods():
    assert {"lazy", "basic"} <= set(METHODS) and not METHODS["lazy"].needs_reports

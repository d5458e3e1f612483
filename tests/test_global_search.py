"""Global map-reduce search with a prompt-aware fake model: batch packing, the zero filter,
ordering, the reduce budget, failed batches, the no-data answer, the concurrency limit, seeds,
the batch callback; and the offline engine on a hand-built index, in English and Chinese."""
from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter

import pytest

from core.errors import UserError
from core.llm.client import LLM
from core.query.global_search import global_search
from core.query.types import GlobalParams
from core.store.backends import store_at
from core.store.db import Store
from core.tokens import count_tokens
from tests.fakes import FakeChat
from tests.test_local_search import build_store

WORDS = ("ledger counting house fog lamplighter bell chimes spirit candle window shutter street "
         "knocker staircase fire gruel nightcap bedpost curtain clock").split()


def synthetic_store(path, n: int = 40) -> Store:
    """n reports at level 0 of varied length, ratings 0-9 (report i has rating i % 10)."""
    store = store_at(path)
    rows = []
    for i in range(n):
        words = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(8 + (i * 7) % 30))
        rows.append({"id": f"rep-{i}", "human_readable_id": i, "community": i, "level": 0,
                     "title": f"Community {i}", "summary": f"Report {i} about {words}.",
                     "rating": float(i % 10), "rank": float(i % 10),
                     "findings": [{"summary": f"Finding of {i}", "explanation": words}]})
    store.insert("community_reports", rows)
    return store


def batch_ids(system: str) -> list[int]:
    """The report ids of the table in a map prompt."""
    table = system.split("---Data table---", 1)[1].split("---Answer format---", 1)[0]
    return [int(m) for m in re.findall(r"^(\d+)\|", table, re.M)]


def table_text(system: str) -> str:
    return system.split("---Data table---\n", 1)[1].split("\n\n---Answer format---", 1)[0]


def map_answer(ids: list[int], score=lambda i: (i % 5) * 20) -> str:
    import json
    return json.dumps({"points": [{"description": f"Report {i} holds fact {i} [Data: Reports ({i})]",
                                   "score": score(i)} for i in ids]})


REDUCE_ANSWER = "The facts are many [Data: Reports (1, 2)]."


class MapReduceFake(FakeChat):
    """Answers map prompts with one point per report (score from `score`), reduce prompts with a
    fixed answer; `bad` report ids make their batch answer garbage; tracks calls in flight."""

    def __init__(self, score=lambda i: (i % 5) * 20, bad=(), sleep=0.0):
        self.in_flight = 0
        self.max_in_flight = 0
        self.map_systems: list[str] = []
        self.reduce_systems: list[str] = []
        self._count = threading.Lock()

        def respond(messages):
            system = messages[0]["content"]
            with self._count:
                self.in_flight += 1
                self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                time.sleep(sleep)
                if "---Analyst reports---" in system:
                    self.reduce_systems.append(system)
                    return REDUCE_ANSWER
                ids = batch_ids(system)
                if len(messages) == 2:
                    self.map_systems.append(system)
                if set(ids) & set(bad):
                    return "I cannot answer in JSON, sorry {{{"
                return map_answer(ids, score)
            finally:
                with self._count:
                    self.in_flight -= 1

        super().__init__(respond)


@pytest.fixture
def store(tmp_path, backend):
    return synthetic_store(tmp_path / "ws")


def test_batches_fit_the_budget_and_hold_every_report_once(store):
    fake = MapReduceFake()
    result = global_search(store, "What happens?", GlobalParams(map_max_tokens=300, seed=1), LLM(fake))
    assert len(result.batches) >= 4
    ids = [i for b in result.batches for i in b.report_ids]
    assert sorted(ids) == list(range(40))  # every report in exactly one batch
    for b in result.batches:
        assert 0 < b.context_tokens <= 300
    sent = {tuple(batch_ids(s)): count_tokens(table_text(s)) for s in fake.map_systems}
    for b in result.batches:  # what was actually sent fits, and its count is exact
        assert sent[tuple(b.report_ids)] == b.context_tokens
    assert sorted(batch_ids(s)[0] for s in fake.map_systems) == sorted(b.report_ids[0] for b in result.batches)


def test_zero_scores_are_dropped_and_the_rest_sorted_by_score(store):
    result = global_search(store, "What happens?", GlobalParams(seed=3), LLM(MapReduceFake()))
    kept = result.reduce["selected"] + result.reduce["cut"]
    assert len(kept) == sum(1 for i in range(40) if i % 5)  # every non-zero point, no zero one
    assert all(p.score > 0 for p in kept)
    scores = [p.score for p in kept]
    assert scores == sorted(scores, reverse=True)
    assert result.answer == REDUCE_ANSWER


def test_reduce_budget_selects_the_best_points_and_cuts_the_rest(store):
    fake = MapReduceFake()
    result = global_search(store, "What happens?", GlobalParams(seed=3, reduce_max_tokens=200), LLM(fake))
    selected, cut = result.reduce["selected"], result.reduce["cut"]
    assert selected and cut
    assert result.reduce["tokens"] <= 200
    assert count_tokens(result.reduce["context_text"]) <= 200
    assert len(selected) + len(cut) == 32
    assert min(p.score for p in selected) >= max(p.score for p in cut)
    assert sum(p.tokens for p in selected) == result.reduce["tokens"]
    assert all(p.tokens > count_tokens(p.description) for p in selected + cut)
    sent = fake.reduce_systems[0]
    assert all(p.description in sent for p in selected)
    assert not any(p.description in sent for p in cut)


def test_a_batch_that_cannot_be_parsed_is_shown_as_failed_not_as_zero(store):
    fake = MapReduceFake(bad={7})
    result = global_search(store, "What happens?", GlobalParams(seed=5, map_max_tokens=300), LLM(fake))
    failed = [b for b in result.batches if b.error]
    assert len(failed) == 1 and 7 in failed[0].report_ids
    assert failed[0].points == [] and "{{{" in failed[0].raw_output and failed[0].attempts == 2
    assert all(b.points for b in result.batches if not b.error)
    everything = result.reduce["selected"] + result.reduce["cut"]
    assert not set(failed[0].report_ids) & {i for p in everything for i in p.report_ids}
    assert result.answer == REDUCE_ANSWER
    as_json = result.to_dict()["map"]["batches"]
    assert [b["failed"] for b in as_json].count(True) == 1


def test_no_relevant_point_means_no_reduce_call_and_a_no_data_answer(store):
    fake = MapReduceFake(score=lambda i: 0)
    result = global_search(store, "What is the price of tea in China?", GlobalParams(seed=1), LLM(fake))
    assert result.no_data and "does not answer" in result.answer
    assert fake.reduce_systems == [] and result.citations == []
    assert result.usage["by_stage"].keys() == {"map"}
    # every batch failed: no reduce either, and the answer says why
    fake = MapReduceFake(bad=set(range(40)))
    result = global_search(store, "What happens?", GlobalParams(seed=1), LLM(fake))
    assert fake.reduce_systems == [] and result.error and "failed" in result.answer


def test_map_calls_run_in_parallel_within_the_concurrency_limit(store):
    fake = MapReduceFake(sleep=0.05)
    t = time.perf_counter()
    result = global_search(store, "What happens?", GlobalParams(seed=2, map_max_tokens=250, concurrency=3),
                           LLM(fake))
    elapsed = time.perf_counter() - t
    n = len(result.batches)
    assert n >= 8
    assert fake.max_in_flight == 3
    assert elapsed < 0.05 * n  # not one after the other


def test_seed_is_recorded_and_reproduces_the_batches(store):
    first = global_search(store, "What happens?", GlobalParams(map_max_tokens=300), LLM(MapReduceFake()))
    seed = first.params["seed"]
    assert isinstance(seed, int)
    again = global_search(store, "What happens?", GlobalParams(map_max_tokens=300, seed=seed),
                          LLM(MapReduceFake()))
    assert [b.report_ids for b in again.batches] == [b.report_ids for b in first.batches]
    other = global_search(store, "What happens?", GlobalParams(map_max_tokens=300, seed=seed + 1),
                          LLM(MapReduceFake()))
    assert [b.report_ids for b in other.batches] != [b.report_ids for b in first.batches]


def test_each_batch_goes_to_the_callback_once_as_it_completes(store):
    seen, threads = [], set()

    def on_batch(b):
        seen.append(b)
        threads.add(threading.current_thread().name)

    result = global_search(store, "What happens?", GlobalParams(seed=4, map_max_tokens=300, concurrency=4),
                           LLM(MapReduceFake(sleep=0.01)), on_batch=on_batch)
    assert Counter(b.batch for b in seen) == Counter(range(len(result.batches)))
    assert threads and all(t.startswith("map") for t in threads)  # from the worker threads
    assert {id(b) for b in seen} == {id(b) for b in result.batches}


def test_rating_threshold_and_level_choice(store):
    result = global_search(store, "What happens?", GlobalParams(seed=1, rating_threshold=5),
                           LLM(MapReduceFake()))
    ids = {i for b in result.batches for i in b.report_ids}
    assert ids == {i for i in range(40) if i % 10 >= 5}
    assert result.level == 0 and result.params["rating_threshold"] == 5
    with pytest.raises(UserError, match="levels with reports: 0"):
        global_search(store, "What happens?", GlobalParams(level=2), LLM(MapReduceFake()))
    nothing = global_search(store, "What happens?", GlobalParams(rating_threshold=11), LLM(MapReduceFake()))
    assert nothing.no_data and nothing.batches == [] and "rated 11 or more" in nothing.answer


# ---------------------------------------------------------------------- offline engine

@pytest.fixture
def small(tmp_path, backend):
    return build_store(tmp_path / "small")


def test_offline_global_scores_reports_lexically_and_keeps_the_references(small):
    result = global_search(small, "What did Marley's ghost warn Scrooge about?")
    assert result.engine == "offline" and result.level == 1  # level 1 by default
    assert result.usage["llm_calls"] == 0
    scores = {p.report_ids[0]: p.score for p in result.points}
    assert scores[3] > 0 and 5 not in scores  # the GraphRAG report has nothing about Marley
    best = result.reduce["selected"][0]
    assert best.report_ids == [3] and "three spirits" in best.description
    # the answer is a theme of that report quoting the source sentence, cited by its text unit
    assert "(community report 3)" in result.answer and "three spirits would come [Data: Sources (" in result.answer
    assert result.answer.startswith("1 theme found in 1 community report") and "extractive" in result.answer
    assert result.citations and not any(c["dangling"] for c in result.citations)
    assert '"points"' in result.batches[0].raw_output


def test_offline_global_with_nothing_relevant_says_so(small):
    result = global_search(small, "quantum chromodynamics of gluons", GlobalParams(level=0))
    assert result.no_data and result.points == []
    assert "does not answer" in result.answer and "[Data:" not in result.answer


@pytest.mark.parametrize("question", ["What's the story about?", "What\u2019s the moral of the story?",
                                      "What is the gist of it?", "What lessons does it teach?",
                                      "What happens in this story?"])
def test_offline_global_reads_a_question_about_the_whole_corpus_as_broad(small, question):
    # no report shares a word with these, yet each asks what community reports are for
    result = global_search(small, question)
    assert not result.no_data and result.points, result.answer
    assert result.answer.split(" ")[1] in ("theme", "themes"), result.answer


def test_offline_global_chinese_questions(small):
    broad = global_search(small, "这些文章主要讨论了哪些主题？")
    assert broad.points and all(p.score > 0 for p in broad.points)
    assert 5 in {p.report_ids[0] for p in broad.points}
    # the Chinese report's theme quotes the Chinese document, cited by its text unit
    assert "（社区报告 5）" in broad.answer and broad.answer.startswith("在 ")
    zh = [c for c in broad.citations if c["kind"] == "Sources" and "doc-zh" in c["document_ids"]]
    assert zh and all(c["resolved"] for c in zh)
    specific = global_search(small, "Leiden 算法有什么作用？")
    assert {p.report_ids[0] for p in specific.points} == {5}
    assert "Leiden算法" in specific.answer and "（社区报告 5）" in specific.answer
    none = global_search(small, "量子色动力学是什么？")
    assert none.no_data and "无法回答" in none.answer


def test_budgets_shrink_to_the_models_context_window(store):
    """A small local model served with a 1,800-token window: every map prompt plus its output
    cap fits, the reduce too, and the trace shows the asked and the fitted budgets."""
    fake = MapReduceFake()
    llm = LLM(fake)
    llm.context_window = 1800
    params = GlobalParams(seed=1, map_max_tokens=8000, map_answer_tokens=500, answer_tokens=400)
    result = global_search(store, "What happens?", params, llm)
    assert fake.map_systems and fake.reduce_systems
    for system in fake.map_systems + fake.reduce_systems:
        cap = 500 if system in fake.map_systems else 400
        assert count_tokens(system) + count_tokens("What happens?") + cap <= 1800
    assert len(result.batches) >= 2  # one 8000-token batch would not have fitted
    assert result.params["asked"]["map_max_tokens"] == 8000
    assert result.params["map_max_tokens"] < 1800 - 500
    assert result.params["context_window"] == 1800
    assert sorted(i for b in result.batches for i in b.report_ids) == list(range(40))


def test_without_a_known_window_the_budgets_are_as_asked(store):
    result = global_search(store, "What happens?", GlobalParams(seed=1), LLM(MapReduceFake()))
    assert result.params["map_max_tokens"] == 8000 and "context_window" not in result.params


def test_a_point_repeated_word_for_word_is_kept_once():
    from core.query.global_search import parse_points
    same = {"description": "Mercer leads the squad [Data: Reports (3)]", "score": 80}
    points = parse_points({"points": [same, dict(same), {**same, "description": " mercer  leads the squad [Data: Reports (3)]"},
                                      {"description": "Hayes decodes [Data: Reports (4)]", "score": 60}]}, 0)
    assert [(p.description, p.score) for p in points] == [
        ("Mercer leads the squad [Data: Reports (3)]", 80), ("Hayes decodes [Data: Reports (4)]", 60)]


def test_an_uncited_point_copying_a_report_gets_that_reports_reference(store):
    """Small models copy a finding into a point and leave the reference out; the point gets
    the report it quotes (8+ words in a row), and nothing is attributed on a guess."""
    import json

    def respond(messages):
        system = messages[0]["content"]
        if "---Analyst reports---" in system:
            return REDUCE_ANSWER
        ids = batch_ids(system)
        quoted = store.rows("community_reports", "human_readable_id = ?", [ids[0]])[0]["summary"]
        return json.dumps({"points": [
            {"description": f"In short: {quoted}", "score": 90},
            {"description": "The reports say many things about several subjects in general.", "score": 50},
            {"description": f"Cited already [Data: Reports ({ids[-1]})]", "score": 40}]})

    result = global_search(store, "What happens?", GlobalParams(seed=2, map_max_tokens=400), LLM(FakeChat(respond)))
    for b in result.batches:
        quoting, generic, cited = b.points
        assert quoting.report_ids == [b.report_ids[0]]
        assert quoting.description.endswith(f"[Data: Reports ({b.report_ids[0]})]")
        assert generic.report_ids == [] and "[Data:" not in generic.description
        assert cited.report_ids == [b.report_ids[-1]]


def test_an_answer_paragraph_copying_a_point_without_its_markers_gets_them(store):
    """The 600-token real-model run: the map point cited its records, the reduce answer copied
    the point's words and dropped the marker. The paragraph that copies gets the point's
    markers, a paragraph that copies nothing gets none, and the trace counts what was added."""
    import json
    copied = "the squad's mission is clear and well-defined, making them an important part of the community"

    def respond(messages):
        system = messages[0]["content"]
        if "---Analyst reports---" in system:
            return (f"Hayes leads the squad; {copied.capitalize()}.\n\n"
                    "Nothing more is known about the others in general terms.")
        ids = batch_ids(system)
        return json.dumps({"points": [
            {"description": f"Hayes leads: {copied}. [Data: Reports ({ids[0]}); Entities (3)]", "score": 80}]})

    result = global_search(store, "Who leads?", GlobalParams(seed=1, map_max_tokens=100000), LLM(FakeChat(respond)))
    (batch,) = result.batches
    first, second = result.answer.split("\n\n")
    assert first.endswith(f"community. [Data: Reports ({batch.report_ids[0]}); Entities (3)]")
    assert "[Data:" not in second
    assert result.reduce["attributed_markers"] == 1
    assert [(c["kind"], c["id"]) for c in result.citations] == [("Reports", batch.report_ids[0]), ("Entities", 3)]
    assert result.citations[0]["resolved"]  # the synthetic store has reports but no entities


def test_reports_per_map_call_caps_every_batch_and_is_recorded(store):
    """Small local models answer from the first report of a batch: with map_max_reports=1 every
    report gets its own map call, within the same token budget."""
    fake = MapReduceFake()
    result = global_search(store, "What happens?", GlobalParams(seed=5, map_max_reports=1), LLM(fake))
    assert [len(b.report_ids) for b in result.batches] == [1] * 40
    assert len(fake.map_systems) == 40
    assert sorted(i for b in result.batches for i in b.report_ids) == list(range(40))
    assert result.params["map_max_reports"] == 1
    three = global_search(store, "What happens?", GlobalParams(seed=5, map_max_reports=3), None)
    assert [len(b.report_ids) for b in three.batches] == [3] * 13 + [1]
    with pytest.raises(UserError, match="reports per map call"):
        global_search(store, "What happens?", GlobalParams(map_max_reports=-1), None)


def test_auto_reports_per_map_call_follows_the_models_context_window(store):
    """Auto: a small window (a small local model's) gets one report per map call, a large one
    as many as the budget holds, and the trace says why."""
    small = LLM(MapReduceFake())
    small.context_window = 8192
    result = global_search(store, "What happens?", GlobalParams(seed=1), small)
    assert result.params["map_max_reports"] == 1 and all(len(b.report_ids) == 1 for b in result.batches)
    assert "8,192" in result.params["map_max_reports_why"]
    large = LLM(MapReduceFake())
    large.context_window = 128000
    result = global_search(store, "What happens?", GlobalParams(seed=1), large)
    assert result.params["map_max_reports"] == 0 and max(len(b.report_ids) for b in result.batches) > 1
    assert "as many as the budget holds" in result.params["map_max_reports_why"]
    told = global_search(store, "What happens?", GlobalParams(seed=1, map_max_reports=0), small)
    assert max(len(b.report_ids) for b in told.batches) > 1 and "map_max_reports_why" not in told.params
    offline = global_search(store, "What happens?", GlobalParams(seed=1), None)
    assert offline.params["map_max_reports"] == 0


def _small_model_reduce(first: str, second: str, window: int):
    """A model that maps each level-0 report to a point naming its people, and answers the
    reduce with `first`, or with `second` when reminded of names it left out."""
    import json
    calls = {"reduce": []}

    def respond(messages):
        system = messages[0]["content"]
        if "---Analyst reports---" in system:
            calls["reduce"].append(messages[-1]["content"])
            return second if "Reminder" in messages[-1]["content"] else first
        points = []
        if "Cratchit" in system:
            points.append({"description": "Bob Cratchit is Scrooge's clerk and Tiny Tim his son [Data: Reports (1)]",
                           "score": 90})
        if "Fezziwig" in system:
            points.append({"description": "Scrooge's partner was Marley [Data: Reports (0)]", "score": 80})
        return json.dumps({"points": points})

    llm = LLM(FakeChat(respond))
    llm.context_window = window
    return llm, calls


def test_a_small_models_answer_leaving_out_the_best_points_names_is_asked_again():
    """Qwen 1.5B answered "who are the agents" from one point and dropped the two that named
    Rivera and Mercer. With a small window, names the best points give and the answer does not
    are sent back once; the answer naming more of them is kept, and the trace says so."""
    import tempfile
    from pathlib import Path
    from tests.test_local_search import build_store
    with tempfile.TemporaryDirectory() as tmp:
        store = build_store(Path(tmp) / "ws")
        llm, calls = _small_model_reduce("Scrooge had a partner [Data: Reports (0)].",
                                         "Bob Cratchit and Tiny Tim work for Scrooge [Data: Reports (1)]. "
                                         "Marley was his partner [Data: Reports (0)].", 8192)
        result = global_search(store, "Who are the people?", GlobalParams(seed=1, level=0), llm)
        assert len(calls["reduce"]) == 2
        assert "Bob Cratchit" in calls["reduce"][1] and "Tiny Tim" in calls["reduce"][1]
        assert result.answer.startswith("Bob Cratchit and Tiny Tim")
        left = result.reduce["left_out"]
        assert {"BOB CRATCHIT", "TINY TIM"} <= set(left["names"]) and left["kept"] == "second"
        assert left["still_left_out"] == []

        assert "best-scored points" not in result.answer

        # a second answer naming no more is not kept, and the best point naming them is added to
        # the answer word for word, under a heading that says so; a large window is not asked again
        llm, calls = _small_model_reduce("Scrooge had a partner [Data: Reports (0)].", "Nobody.", 8192)
        result = global_search(store, "Who are the people?", GlobalParams(seed=1, level=0), llm)
        assert result.answer.startswith("Scrooge had a partner") and result.reduce["left_out"]["kept"] == "first"
        assert result.answer.endswith("**Also among the best-scored points** (left out of the model's answer; "
                                      "their own words):\n\n- Bob Cratchit is Scrooge's clerk and Tiny Tim his son "
                                      "[Data: Reports (1)]\n- Scrooge's partner was Marley [Data: Reports (0)]")
        assert result.reduce["left_out"]["points_added"] == 2
        assert ("Reports", 1) in [(c["kind"], c["id"]) for c in result.citations]
        llm, calls = _small_model_reduce("Scrooge had a partner [Data: Reports (0)].", "x", 128000)
        result = global_search(store, "Who are the people?", GlobalParams(seed=1, level=0), llm)
        assert len(calls["reduce"]) == 1 and "left_out" not in result.reduce


def test_a_level_reads_its_communities_and_the_leaves_above_it(tmp_path):
    """A level is the finest partition down to it: community 1 splits into 2 and 3 at level 1,
    community 0 does not split, so level 1 reads 0, 2 and 3, not only 2 and 3 (graphrag's roll-up)."""
    from core.query.levels import level_reports, report_levels
    store = Store(tmp_path / "w")
    tree = {0: (0, -1, ["a"]), 1: (0, -1, ["b", "c"]), 2: (1, 1, ["b"]), 3: (1, 1, ["c"])}
    store.insert("communities", [{"id": f"c-{c}", "human_readable_id": c, "community": c, "level": lv,
                                  "parent": parent, "entity_ids": json.dumps(es), "title": f"C{c}",
                                  "size": len(es)} for c, (lv, parent, es) in tree.items()])
    store.insert("community_reports", [
        {"id": f"rep-{c}", "human_readable_id": c, "community": c, "level": lv, "title": f"Community {c}",
         "summary": f"Report {c} about the lamplighter.", "rating": 5.0, "rank": 5.0,
         "findings": [{"summary": "lamplighter", "explanation": "the lamplighter"}]}
        for c, (lv, _, _) in tree.items()])
    assert report_levels(store) == {0: 2, 1: 3}
    assert [r["id"] for r in level_reports(store, 1)] == ["rep-0", "rep-2", "rep-3"]
    assert [r["id"] for r in level_reports(store, 0)] == ["rep-0", "rep-1"]
    result = global_search(store, "What about the lamplighter?", GlobalParams(level=1, seed=3))
    read = sorted(i for b in result.batches for i in b.report_ids)
    assert read == [0, 2, 3] and result.params["reports_from_levels_above"] == 1

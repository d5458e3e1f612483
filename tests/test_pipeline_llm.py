"""The index pipeline with the LLM engine, driven by a deterministic fake model."""
from __future__ import annotations

import hashlib
import json

import pytest

from core.index.llm_engine import LLMEngine
from core.index.pipeline import run_index
from core.llm.client import LLM
from core.settings import Settings
from core.store.db import Store
from tests.fake_model import respond
from tests.fakes import FakeChat

TEXT = ("Alice Moreno met Bruno Tell in Lisbon in year {n}. Alice Moreno runs the Harbour Trust. "
        "Bruno Tell works for Carla Diaz. Carla Diaz lives in Porto. ")


EXTRA = ["Dario Vance", "Elena Frost", "Fiona Green"]


def _docs(store: Store, n: int = 3, offset: int = 0) -> None:
    rows = []
    for i in range(offset, offset + n):
        text = "".join(TEXT.format(n=1000 * i + k) for k in range(6)) + f"Document {i} mentions {EXTRA[i]}."
        rows.append({"id": f"doc{i}", "title": f"d{i}", "text": text, "status": "new",
                     "sha256": hashlib.sha256(text.encode()).hexdigest(), "n_tokens": 100})
    store.insert("documents", rows)


def _settings(**kw) -> Settings:
    return Settings(**{"engine": "llm", "chunk_size": 60, "chunk_overlap": 10, "concurrency": 4, **kw})


def _first_extraction(messages) -> dict | None:
    """The fake model's answer to a unit's first extraction call as an object; None for any
    other call (gleaning, claims, summaries, reports)."""
    if messages[0]["content"].startswith("-Goal-\nRead the text below") and len(messages) == 1:
        return json.loads(respond(messages).strip("`").removeprefix("json"))
    return None


def _run(store, settings, chat):
    llm = LLM(chat, store)
    return run_index(store, settings, engine=LLMEngine(llm, settings, store.workspace), llm=llm)


def test_full_run_writes_every_table(tmp_path):
    store = Store(tmp_path)
    _docs(store)
    chat = FakeChat(respond)
    summary = _run(store, _settings(), chat)
    assert summary["status"] == "finished"
    c = store.counts()
    assert c["text_units"] >= 6 and c["entities"] >= 4 and c["relationships"] >= 3
    assert c["communities"] >= 1 and c["community_reports"] == c["communities"]
    ent = store.rows("entities", "title = 'ALICE MORENO'")[0]
    assert ent["frequency"] >= 3 and ent["text_unit_ids"]
    rep = store.rows("community_reports")[0]
    assert rep["findings"] and "[Data: Entities (" in rep["findings"][0]["explanation"]
    run = store.rows("runs")[0]
    assert run["status"] == "finished" and run["llm_calls"] == len(chat.calls)


def test_gleaning_round_runs_and_stops_when_nothing_missed(tmp_path):
    store = Store(tmp_path)
    _docs(store, 1)
    chat = FakeChat(respond)
    _run(store, _settings(max_gleanings=3, extract_claims=False), chat)
    gleans = [c for c in chat.calls if "may have been missed" in c[-1]["content"]]
    units = store.count("text_units")
    assert len(gleans) == units  # one round each: the model said nothing was missed


def test_ungrounded_entities_are_rejected_not_added(tmp_path):
    store = Store(tmp_path)
    _docs(store, 1)

    def inventive(messages):
        obj = _first_extraction(messages)
        if obj is None:
            return respond(messages)
        obj["entities"].append({"name": "EXAMPLE-CORP", "type": "organization", "description": "copied"})
        return json.dumps(obj)

    _run(store, _settings(), FakeChat(inventive))
    assert store.count("entities", "title = 'EXAMPLE-CORP'") == 0
    rejected = [r for e in store.rows("extractions") for r in e["rejected"]]
    assert any(r["name"] == "EXAMPLE-CORP" and "does not occur" in r["reason"] for r in rejected)


class Crash(BaseException):
    """Stands in for kill -9: nothing after it runs."""


def test_resume_after_crash_repeats_no_llm_call(tmp_path):
    # the uninterrupted reference run
    ref_store = Store(tmp_path / "ref")
    _docs(ref_store)
    ref = FakeChat(respond)
    _run(ref_store, _settings(concurrency=1), ref)
    ref_calls = len(ref.calls)

    store = Store(tmp_path / "ws")
    _docs(store)
    answered: list[str] = []
    key = lambda messages: json.dumps(messages, sort_keys=True)

    def dying(messages):
        if len(answered) == ref_calls // 2:
            raise Crash()
        answered.append(key(messages))
        return respond(messages)

    with pytest.raises(Crash):
        _run(store, _settings(concurrency=1), FakeChat(dying))
    second = FakeChat(respond)
    summary = _run(Store(tmp_path / "ws"), _settings(concurrency=1), second)
    assert summary["status"] == "finished"
    asked_again = set(answered) & {key(c) for c in second.calls}
    assert not asked_again  # no call answered before the crash was made again
    assert len(answered) + len(second.calls) == ref_calls
    assert store.counts()["entities"] == ref_store.counts()["entities"]
    assert store.counts()["community_reports"] == ref_store.counts()["community_reports"]


def test_adding_documents_reuses_the_cache(tmp_path):
    store = Store(tmp_path)
    _docs(store, 2)
    first = FakeChat(respond)
    _run(store, _settings(), first)
    _docs(store, 1, offset=2)
    second = FakeChat(respond)
    _run(store, _settings(), second)
    extract_calls = [c for c in second.calls if c[0]["content"].startswith("-Goal-\nRead the text below")
                     and len(c) == 1]
    new_units = store.count("text_units", "document_id = 'doc2'")
    assert len(extract_calls) == new_units  # old units were not extracted again
    assert store.count("entities", "title = 'FIONA GREEN'") == 1


def test_unparseable_extraction_is_recorded_as_failed(tmp_path):
    store = Store(tmp_path)
    _docs(store, 1)

    def broken(messages):
        if messages[0]["content"].startswith("-Goal-\nRead the text below"):
            return "I cannot do that."
        return respond(messages)

    summary = _run(store, _settings(), FakeChat(broken))
    assert summary["status"] == "finished with failures"
    failed = store.rows("extractions", "status = 'failed'")
    assert len(failed) == store.count("text_units") and failed[0]["error"]


def test_a_unit_too_long_for_the_context_is_split_not_lost(tmp_path):
    store = Store(tmp_path)
    _docs(store, 1)
    from core.llm.client import ContextOverflowError
    from core.tokens import count_tokens

    def small_context(messages):
        text = messages[0]["content"].split("-Text-\n", 1)[-1]
        if messages[0]["content"].startswith("-Goal-\nRead the text below") and count_tokens(text) > 70:
            raise ContextOverflowError("maximum context length exceeded")
        return respond(messages)

    summary = _run(store, _settings(chunk_size=120, chunk_overlap=0, max_gleanings=0), FakeChat(small_context))
    assert summary["status"] == "finished"
    assert store.count("extractions", "status = 'failed'") == 0
    assert store.count("entities", "title = 'ALICE MORENO'") == 1
    notes = [r for e in store.rows("extractions") for r in e["rejected"] if r["kind"] == "note"]
    assert notes and "in halves" in notes[0]["reason"]


def test_extraction_output_cap_follows_the_input():
    from core.index.llm_engine import extract_cap
    assert extract_cap(100) == 400 and extract_cap(600) == 900 and extract_cap(5000) == 1500


def test_status_shows_a_killed_run_as_interrupted(tmp_path, capsys):
    import subprocess
    import sys
    from core.cli.main import main
    store = Store(tmp_path)
    _docs(store, 1)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    store.insert("runs", [{"id": "r1", "status": "running", "pid": dead.pid, "engine": "x",
                           "started_at": "2026-01-01T00:00:00+00:00", "heartbeat_at": "2026-01-01T00:00:00+00:00"}])
    assert main(["status", "--workspace", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "interrupted" in out and "start indexing again to resume" in out


def test_an_extraction_answer_cut_off_keeps_its_complete_part_and_says_so(tmp_path):
    """An answer stopped by its output cap keeps the objects listed before the cut, and the
    extraction carries a note saying it was cut (before, the loss was silent)."""
    store = Store(tmp_path)
    _docs(store, 1)

    def cut_short(messages):
        obj = _first_extraction(messages)
        if obj is None or len(obj.get("relationships") or []) < 2:
            return respond(messages)
        text = json.dumps(obj)
        return text[:text.index(json.dumps(obj["relationships"][-1])) + 25]  # mid-object

    summary = _run(store, _settings(max_gleanings=0), FakeChat(cut_short))
    assert summary["status"] == "finished" and store.count("extractions", "status = 'failed'") == 0
    rows = store.rows("extractions")
    cut = [e for e in rows if any(r["kind"] == "note" and "cut off" in r["reason"] for r in e["rejected"])]
    assert cut, "no extraction says its answer was cut"
    assert all(e["relationships"] for e in cut)  # the complete part was kept
    assert all("output cap" in r["reason"] for e in cut for r in e["rejected"] if r["kind"] == "note")
    uncut = [e for e in rows if e not in cut]
    assert all(len(e["relationships"]) < 2 for e in uncut)  # only the answers that were cut say so


def test_is_complete_json():
    from core.llm.jsonparse import is_complete_json
    assert is_complete_json('{"a": [1, 2]}') and is_complete_json('Here it is: {"a": 1} done')
    assert is_complete_json('```json\n{"a": 1}\n```')
    assert not is_complete_json('{"entities": [{"name": "A"}, {"name": "B", "ty')
    assert not is_complete_json("no json at all")

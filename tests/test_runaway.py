"""Runaway repetition: the detector (core/llm/runaway.py) on loops of every shape and on the text it
must leave alone, then streaming against a real local HTTP server: a looping model is cut early
and stops generating, the cut answer still gives its entities, usage is counted, and servers
that refuse streaming or stream_options are adapted to once."""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.index.llm_engine import LLMEngine
from core.llm.jsonparse import parse_json
from core.llm.client import LLMError
from core.llm.openai import OpenAIChatClient, make_llm
from core.llm.runaway import MAX_PERIOD, RunawayWatch, find_runaway
from core.settings import load_settings
from core.store.db import Store
from core.tokens import count_tokens
from tests.openai_server import FakeOpenAIServer, Loop

ROOT = Path(__file__).resolve().parents[1]
SECRET = "sk-proj-SECRETkey0123456789abcdefXYZ"
USER = [{"role": "user", "content": "Extract the entities of the harbour report as JSON."}]

ENTITIES = [
    {"name": "ALDERMERE", "type": "geo", "description": "The harbour town where the strike began."},
    {"name": "MAYOR ALEX MERCER", "type": "person", "description": "The mayor who met the union."},
    {"name": "JORDAN HAYES", "type": "person", "description": "The union's negotiator."},
    {"name": "HARBOUR BOARD", "type": "organization", "description": "Runs the port of Aldermere."},
    {"name": "DOCK STRIKE", "type": "event", "description": "The strike at the eastern docks."},
    {"name": "LANTERN WHARF", "type": "geo", "description": "The wharf rebuilt in 2024."},
    {"name": "CALLOWAY CHEMICALS", "type": "organization", "description": "Owns the hose that failed."},
    {"name": "PRIYA NANDAKUMAR", "type": "person", "description": "Wrote to the mayor about the spill."},
    {"name": "CLEARWATER LAB", "type": "organization", "description": "Sampled the harbour water."},
    {"name": "EASTGATE", "type": "geo", "description": "The district beside the docks."},
    {"name": "ST. BRIDE'S HOSPITAL", "type": "organization", "description": "Treated the dockworkers."},
    {"name": "PORT AUTHORITY", "type": "organization", "description": "Filed the incident report."},
]
RELATIONSHIPS = [
    {"source": a["name"], "target": b["name"], "description": f"{a['name']} and {b['name']} are named together.",
     "strength": 5 + i % 4} for i, (a, b) in enumerate(zip(ENTITIES, ENTITIES[1:]))]
# one item differing only in its name, and items of a type repeated: structure shared, never a loop
SIMILAR = [{"name": f"AGENT {n}", "type": "person", "description": "An agent of the harbour board."}
           for n in ("ALEX MERCER", "JORDAN HAYES", "TAYLOR CRUZ", "SAM RIVERA", "ROBIN VALE", "KIM ODA")]


def _grown(text: str, step: int = 5):
    """Every prefix of the text a stream would show, `step` characters apart."""
    return (text[:i] for i in range(1, len(text) + step, step))


# ---- the detector ----------------------------------------------------------------------------

def test_a_phrase_loop_in_prose_is_found_and_one_occurrence_kept():
    good = "The inspectors walked through the plant. They noted the state of "
    text = good + "the facility, " * 30
    r = find_runaway(text)
    assert r is not None and r.period == len("the facility, ") and r.repeats >= 30
    assert text[:r.keep] == good + "the facility,"


def test_the_same_json_object_over_and_over_is_cut_to_the_distinct_items():
    head = json.dumps({"entities": ENTITIES[:4]})[:-2]  # open list, as the model writes it
    loop = head + ", " + ", ".join([json.dumps(ENTITIES[3])] * 12)
    r = find_runaway(loop)
    assert r is not None and r.period == len(json.dumps(ENTITIES[3])) + 2
    assert parse_json(loop[:r.keep]) == {"entities": ENTITIES[:4]}  # the repair closes the list


def test_a_cycle_of_several_lines_and_pretty_printed_objects_is_found():
    cycle = "".join(json.dumps(e, indent=2) + ",\n" for e in ENTITIES[5:8])
    text = '{\n  "entities": [\n' + "".join(json.dumps(e, indent=2) + ",\n" for e in ENTITIES[:5]) + cycle * 4
    r = find_runaway(text)
    assert r is not None and r.period == len(cycle)
    assert parse_json(text[:r.keep])["entities"] == ENTITIES[:8]


def test_endless_whitespace_after_the_json_is_found():
    answer = json.dumps({"entities": ENTITIES[:3]})
    for filler in ("\n", " ", "\n\n  ", "\t"):
        r = find_runaway(answer + filler * 200)
        assert r is not None and parse_json((answer + filler * 200)[:r.keep]) == {"entities": ENTITIES[:3]}


def test_a_chinese_loop_is_found():
    good = "港口管理局在周一发布了事故报告，报告指出"
    text = good + "该设施的管道破裂，" * 25
    r = find_runaway(text)
    assert r is not None and text[:r.keep] == good + "该设施的管道破裂，"


def test_a_long_repeated_paragraph_is_found_up_to_the_longest_period():
    corpus = [(ROOT / "sample_corpus" / name).read_text(encoding="utf-8")
              for name in ("2024-03-14_city_council_minutes.txt", "2024-02-20_waterfront_committee_minutes.txt")]
    words = " ".join(" ".join(corpus).split())
    assert len(words) > MAX_PERIOD
    para = words[:MAX_PERIOD - 10]  # distinct sentences
    assert find_runaway("Minutes. " + para * 3) is not None
    # a long passage (eight entity objects, as Qwen 1.5B cycled through on Operation Dulce) is a
    # loop at its second occurrence; a short one is not yet
    assert find_runaway("Minutes. " + para * 2).period == len(para)
    assert find_runaway("Minutes. " + words[:850] * 2).period == 850
    assert find_runaway("Minutes. " + words[:150] * 2) is None
    assert find_runaway("Minutes. " + words[:1500] + words[:150] * 2) is None


def test_realistic_extraction_json_never_fires_at_any_point_of_its_stream():
    answers = [json.dumps({"entities": ENTITIES, "relationships": RELATIONSHIPS}),
               json.dumps({"entities": ENTITIES, "relationships": RELATIONSHIPS}, indent=2),
               json.dumps({"entities": SIMILAR + ENTITIES}, indent=4),
               json.dumps({"entities": [{"name": e["name"], "type": "organization"} for e in ENTITIES]}),
               json.dumps({"claims": [{"subject": e["name"], "object": None, "type": "MENTION",
                                       "status": "TRUE", "description": "Named in the report.",
                                       "source_text": "as the report says"} for e in ENTITIES]}, indent=2)]
    for answer in answers:
        assert not [p for p in _grown(answer) if find_runaway(p)], answer[:80]


def test_prose_reports_and_chinese_text_never_fire():
    corpus = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "sample_corpus").glob("*.*"))]
    assert any("港" in t or "的" in t for t in corpus)  # the corpus has its Chinese newsletter
    report = ("# Harbour community\n\n| entity | type | mentions |\n|---|---|---|\n"
              + "".join(f"| {e['name']} | {e['type']} | {i + 1} |\n" for i, e in enumerate(ENTITIES))
              + "\n---\n\nHa ha ha, said the mayor. Well, well, well. No, no, no... " + "-" * 60 + "\n")
    for text in corpus + [report]:
        assert not [p for p in _grown(text, 11) if find_runaway(p)], text[:80]


def test_the_watch_checks_only_after_enough_new_text():
    watch = RunawayWatch(every=50)
    text = "x" * 200
    assert watch.check(text[:40]) is None  # too little new text: not even looked at
    assert watch.check(text) is not None
    assert watch.check(text + "x") is None  # one more character: not looked at again


# ---- streaming against a real HTTP server -----------------------------------------------------

LOOP_PREFIX = '{"entities": [' + ", ".join(json.dumps(e) for e in ENTITIES[:3]) + ", "
LOOP_UNIT = json.dumps(ENTITIES[3]) + ", "


def _client(server: FakeOpenAIServer, **changes) -> OpenAIChatClient:
    c = OpenAIChatClient(server.settings(**changes))
    c.backoff_base = 0.01
    return c


def _wait_for(predicate, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_a_looping_model_is_cut_early_and_stops_generating():
    delay, cap = 0.01, 2000
    with FakeOpenAIServer(lambda m, r: Loop(LOOP_PREFIX, LOOP_UNIT), token_delay=delay) as s:
        t = time.monotonic()
        r = _client(s).complete(USER, json_mode=True, max_tokens=cap)
        elapsed = time.monotonic() - t
        call = s.calls[-1]
        assert _wait_for(lambda: call.disconnected), "the server never saw the client go away"
        sent = call.chunks_sent
        time.sleep(0.3)
        assert call.chunks_sent == sent  # it stopped generating
    assert r.cut_reason == "repetition" and r.finish_reason == "runaway"
    assert r.text == LOOP_PREFIX + json.dumps(ENTITIES[3])
    assert call.chunks_planned > 1500 and sent < call.chunks_planned / 5
    # uncut, the answer would take chunks_planned * delay (about 20 s): far less was spent
    assert elapsed < call.chunks_planned * delay / 2
    assert r.completion_tokens >= count_tokens(r.text)  # what was generated, not what was kept


def test_without_streaming_a_looped_answer_is_still_cut_after_the_fact():
    with FakeOpenAIServer(lambda m, r: Loop(LOOP_PREFIX, LOOP_UNIT)) as s:
        r = _client(s, stream=False).complete(USER, json_mode=True, max_tokens=600)
        assert "stream" not in s.calls[0].body
    assert r.cut_reason == "repetition" and r.text == LOOP_PREFIX + json.dumps(ENTITIES[3])
    assert r.completion_tokens == 600  # the server generated (and reported) all of it


def test_the_cut_answer_still_gives_its_entities_through_extraction(tmp_path):
    text = ("Aldermere, 4 March. Mayor Alex Mercer met Jordan Hayes of the dockworkers' union at "
            "Lantern Wharf while the Harbour Board kept the eastern docks closed.")
    ents = [{"name": n, "type": t, "description": f"{n} is named in the report."}
            for n, t in (("Aldermere", "geo"), ("Alex Mercer", "person"), ("Jordan Hayes", "person"),
                         ("Lantern Wharf", "geo"), ("Harbour Board", "organization"))]
    rel = {"source": "Alex Mercer", "target": "Jordan Hayes", "description": "They met.", "strength": 7}
    prefix = '{"entities": ' + json.dumps(ents) + ', "relationships": ['

    def respond(messages, request):
        if "may have been missed" in messages[-1]["content"]:
            return {"entities": [], "relationships": []}
        return Loop(prefix, json.dumps(rel) + ", ")

    with FakeOpenAIServer(respond) as s:
        settings = s.settings(extract_claims=False, max_gleanings=1)
        llm = make_llm(settings, Store(tmp_path))
        out = LLMEngine(llm, settings).extract({"id": "u1", "text": text})
        assert s.count("chat") == 2  # the extraction (cut, used as is) and one gleaning round
    assert [e["title"] for e in out.entities] == [e["name"] for e in ents]
    assert [(r["source"], r["target"]) for r in out.relationships] == [("Alex Mercer", "Jordan Hayes")]
    assert llm.usage.runaway_cuts == 1 and llm.usage.by_stage["extract"]["runaway_cuts"] == 1
    assert llm.usage.as_dict()["runaway_cuts"] == 1
    # the cut answer is cached like any other: a second run asks nothing
    again = make_llm(settings, llm.store)
    first = next(c for c in s.calls if c.endpoint == "chat")
    assert again.chat([{"role": "user", "content": first.body["messages"][0]["content"]}],
                      json_mode=True, max_tokens=first.body["max_tokens"], stage="extract").cached


@pytest.mark.parametrize("server_usage", [True, False])
def test_usage_of_a_streamed_answer_with_and_without_the_servers_figures(server_usage, tmp_path):
    answer = {"entities": ENTITIES[:5]}
    with FakeOpenAIServer(lambda m, r: answer, include_usage=server_usage) as s:
        llm = make_llm(s.settings(), Store(tmp_path))
        r = llm.chat(USER, json_mode=True, max_tokens=400, stage="extract")
        body = s.calls[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert json.loads(r.text) == answer
    if server_usage:  # the server's own count: 4 tokens of chat format per message
        assert r.prompt_tokens == count_tokens(USER[0]["content"]) + 4
    else:
        assert r.prompt_tokens == count_tokens(USER[0]["content"])
    assert r.completion_tokens == count_tokens(r.text)
    assert llm.usage.by_stage["extract"]["completion_tokens"] == r.completion_tokens
    assert llm.usage.runaway_cuts == 0


@pytest.mark.parametrize("streaming, first_status, later", [
    ("no-options", 400, {"stream": True}),   # stream_options refused: streamed without it
    ("reject", 400, {}),                     # streaming refused: whole answers
    ("ignore", 200, {}),                     # stream ignored (a JSON answer): whole answers
])
def test_a_server_refusing_streaming_or_its_options_is_adapted_to_once(streaming, first_status, later):
    with FakeOpenAIServer(lambda m, r: {"entities": ENTITIES[:2]}, streaming=streaming) as s:
        c = _client(s)
        for _ in range(2):
            r = c.complete(USER, json_mode=True, max_tokens=300)
            assert json.loads(r.text) == {"entities": ENTITIES[:2]} and r.completion_tokens > 0
        r = _client(s).complete(USER, max_tokens=300)  # another client of the same endpoint
        statuses = [call.status for call in s.calls]
        bodies = [call.body for call in s.calls]
    assert statuses == [first_status] + [200] * (len(statuses) - 1)
    assert len(statuses) == 4 if first_status == 400 else 3  # one extra request, once
    assert bodies[0]["stream"] is True and "stream_options" in bodies[0]
    for body in bodies[-2:]:
        assert {k: body[k] for k in ("stream", "stream_options") if k in body} == later
    # the refusal was not mistaken for a refusal of response_format
    assert [b.get("response_format") for b in bodies[:-1]] == [{"type": "json_object"}] * (len(bodies) - 1)


def test_streaming_can_be_turned_off_by_the_environment():
    assert load_settings(env={}).stream is True
    settings = load_settings(env={"SENSEMAKER_STREAM": "0"})
    assert settings.stream is False
    with FakeOpenAIServer(lambda m, r: "ok") as s:
        r = OpenAIChatClient(s.settings(stream=settings.stream)).complete(USER)
        assert r.text == "ok" and "stream" not in s.calls[0].body and "stream_options" not in s.calls[0].body


def test_a_connection_dropped_mid_stream_is_retried():
    with FakeOpenAIServer(lambda m, r: {"entities": ENTITIES}) as s:
        s.add_faults("drop")
        r = _client(s).complete(USER, json_mode=True)
        assert json.loads(r.text) == {"entities": ENTITIES}
        assert s.count("chat") == 2 and 0 < s.calls[0].chunks_sent < s.calls[0].chunks_planned
        s.add_faults("drop", "drop", "drop")
        with pytest.raises(LLMError) as info:
            _client(s, max_retries=2).complete(USER)
    assert "dropped in the middle of the answer" in str(info.value) and "after 3 attempts" in str(info.value)


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("fault, check", [
    ("500", lambda r, n: n == 2), ("nochoices", lambda r, n: n == 2), ("drop", lambda r, n: n == 2),
    ("truncate", lambda r, n: r.finish_reason == "length" and n == 1),
    ("think", lambda r, n: r.text.startswith("<think>") and n == 1)])
def test_faults_are_handled_alike_streamed_or_not(stream, fault, check):
    with FakeOpenAIServer(lambda m, r: {"entities": ENTITIES}) as s:
        s.add_faults(fault)
        r = _client(s, stream=stream).complete(USER, json_mode=True)
        assert check(r, s.count("chat")), (r, s.count("chat"))
        assert bool(s.calls[-1].body.get("stream")) is stream


def test_the_cut_is_logged_without_the_key(caplog):
    caplog.set_level(logging.DEBUG)
    with FakeOpenAIServer(lambda m, r: Loop(LOOP_PREFIX, LOOP_UNIT)) as s:
        _client(s, api_key=SECRET).complete(USER, max_tokens=1000)
    cut = [r for r in caplog.records if "fell into a loop" in r.getMessage()]
    assert len(cut) == 1 and cut[0].levelno == logging.WARNING and "test-model" in cut[0].getMessage()
    assert not [r for r in caplog.records if SECRET in r.getMessage() or SECRET[3:] in r.getMessage()]


def test_the_cut_reaches_the_stderr_of_a_run_which_is_its_index_log():
    """A background index run writes its stderr to the workspace's index.log and configures no
    logging: the cut is a warning, so Python's last-resort handler writes it there."""
    code = ("from core.llm.openai import OpenAIChatClient; from core.settings import Settings; "
            "import sys; c = OpenAIChatClient(Settings(engine='llm', llm_base_url=sys.argv[1], "
            "chat_model='test-model', max_retries=0)); "
            "print(c.complete([{'role': 'user', 'content': 'x'}], max_tokens=800).cut_reason)")
    with FakeOpenAIServer(lambda m, r: Loop(LOOP_PREFIX, LOOP_UNIT)) as s:
        env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
        done = subprocess.run([sys.executable, "-c", code, s.url], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "repetition", done.stderr
    assert "fell into a loop" in done.stderr and "generation stopped after" in done.stderr


def test_an_index_run_logs_retries_and_cuts_to_its_stderr(tmp_path):
    """`sensemaker index` (what the app starts in the background, stderr to index.log) shows the
    client's retries as well as its cuts, and never the key."""
    from tests.fake_model import respond
    with FakeOpenAIServer(lambda m, r: respond(m)) as s:
        s.add_faults("429:0.1", "429:0.1")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
        env["OPENAI_API_KEY"] = SECRET
        done = subprocess.run([sys.executable, "-m", "core.cli.main", "index", str(ROOT / "sample_corpus" / "2024-02-20_waterfront_committee_minutes.txt"),
                               "--workspace", str(tmp_path / "ws"), "--engine", "llm", "--base-url", s.url,
                               "--chat-model", "test-model", "--quiet"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("HTTP 429") == 2 and "; retry 1 of 8 in" in done.stderr
    assert SECRET not in done.stderr + done.stdout and SECRET[3:] not in done.stderr

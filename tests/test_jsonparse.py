"""Parsing what real models return, and the one repair retry of chat_json."""
from __future__ import annotations

import json

import pytest

from core.errors import UserError
from core.llm.jsonparse import JSONParseError, chat_json, is_echo, parse_json, strip_think
from core.llm.client import LLM
from core.store.db import Store
from tests.fakes import FakeChat

REPORT = {"title": "Harbour strike", "summary": "Dock workers walk out.", "rating": 7,
          "findings": [{"summary": "Union leads", "explanation": "See [Data: Entities (1, 2)]"}]}


def test_plain_fenced_and_prose_wrapped_json_parse_to_the_same_object():
    text = json.dumps(REPORT)
    assert parse_json(text) == REPORT
    assert parse_json(f"```json\n{text}\n```") == REPORT
    assert parse_json(f"Here is the report:\n```\n{text}\n```\nAnything else?") == REPORT
    assert parse_json(f"Sure! {text} Hope this helps {{not json}}.") == REPORT


def test_trailing_commas_single_quotes_python_literals_and_raw_newlines_are_repaired():
    assert parse_json('{"a": [1, 2, 3,], "b": {"c": 1,},}') == {"a": [1, 2, 3], "b": {"c": 1}}
    assert parse_json("{'name': 'SCROOGE', 'type': 'person'}") == {"name": "SCROOGE", "type": "person"}
    assert parse_json('{"ok": True, "none": None, "no": False}') == {"ok": True, "none": None, "no": False}
    assert parse_json('{"description": "line one\nline two"}') == {"description": "line one\nline two"}
    assert parse_json("{'quote': 'he said \"hi\"'}") == {"quote": 'he said "hi"'}


def test_truncated_json_keeps_complete_elements_and_drops_the_dangling_one():
    full = {"entities": [{"name": "A", "type": "person"}, {"name": "B", "type": "geo"}]}
    text = json.dumps(full)
    cut = text[: text.index('"geo"') - 3]  # stops inside the second entity
    assert parse_json(cut) == {"entities": [{"name": "A", "type": "person"}]}
    assert parse_json('{"entities": [{"name": "A"}, {"name": "B"}') == {"entities": [{"name": "A"}, {"name": "B"}]}
    assert parse_json('["one", "two", "thr') == ["one", "two"]
    assert parse_json('{"a": 1, "b": [1, 2') == {"a": 1, "b": [1]}
    assert parse_json('```json\n{"entities": [') == {"entities": []}


def test_think_blocks_are_removed_before_parsing():
    assert strip_think("<think>hmm {no}</think>\n{\"a\": 1}") == '{"a": 1}'
    assert strip_think("<think>still thinking about [x]\n{\"a\": 1}") == '{"a": 1}'
    assert strip_think("<think>never finished") == ""
    assert strip_think("reasoning without an opening tag</think>{\"a\": 1}") == '{"a": 1}'
    assert parse_json("<think>Let me think {step}.</think>```json\n[1, 2]\n```") == [1, 2]


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("<think>only thoughts</think>", "empty"),
    ("I cannot help with that.", "no JSON"),
    ('{"a": 1 "b": 2}', "malformed"),
])
def test_unusable_answers_raise_a_user_error_that_says_what_was_wrong(text, words):
    with pytest.raises(JSONParseError) as info:
        parse_json(text)
    assert isinstance(info.value, UserError)
    assert words in str(info.value)


def test_echo_detection_flags_a_copy_of_the_input_but_not_an_answer_quoting_it():
    source = ("Marley was dead to begin with. There is no doubt whatever about that. The register "
              "of his burial was signed by the clergyman, the clerk, the undertaker, and the chief "
              "mourner. Scrooge signed it, and Scrooge's name was good upon Change for anything he "
              "chose to put his hand to. Old Marley was as dead as a door-nail.")
    messages = [{"role": "system", "content": "Extract entities as JSON."},
                {"role": "user", "content": source}]
    assert is_echo(source, messages)
    answer = json.dumps({"entities": [
        {"name": "MARLEY", "type": "person", "description": "Marley was dead to begin with."},
        {"name": "SCROOGE", "type": "person", "description": "Scrooge signed the burial register."}]})
    assert not is_echo(answer, messages)


def _llm(respond, tmp_path) -> tuple[LLM, FakeChat]:
    chat = FakeChat(respond)
    return LLM(chat, store=Store(tmp_path)), chat


def test_chat_json_repairs_once_and_shows_the_model_its_parse_error(tmp_path):
    answers = iter(["{broken json", '{"a": 1}'])
    llm, chat = _llm(lambda m: next(answers), tmp_path)
    obj, raw, attempts = chat_json(llm, [{"role": "user", "content": "give json"}], max_tokens=50,
                                   stage="test")
    assert (obj, raw, attempts) == ({"a": 1}, '{"a": 1}', 2)
    retry = chat.calls[1]
    assert [m["role"] for m in retry] == ["user", "assistant", "user"]
    assert retry[1]["content"] == "{broken json"
    assert "malformed" in retry[2]["content"] or "stops" in retry[2]["content"]


def test_a_failed_answer_is_forgotten_so_a_later_run_asks_again(tmp_path):
    llm, chat = _llm(lambda m: "no json here", tmp_path)
    messages = [{"role": "user", "content": "give json"}]
    with pytest.raises(JSONParseError) as info:
        chat_json(llm, messages, max_tokens=50, stage="extract")
    assert info.value.attempts == 2 and info.value.raw == "no json here"
    assert "extract" in str(info.value)
    assert llm.store.count("llm_cache") == 0
    with pytest.raises(JSONParseError):
        chat_json(llm, messages, max_tokens=50, stage="extract")
    assert len(chat.calls) == 4  # nothing unusable was replayed from the cache


def test_a_usable_answer_is_cached_and_not_requested_again(tmp_path):
    llm, chat = _llm(lambda m: '{"a": 1}', tmp_path)
    messages = [{"role": "user", "content": "give json"}]
    chat_json(llm, messages, max_tokens=50, stage="s")
    obj, _, attempts = chat_json(llm, messages, max_tokens=50, stage="s")
    assert obj == {"a": 1} and attempts == 1 and len(chat.calls) == 1


def test_validation_failure_gets_the_repair_retry(tmp_path):
    answers = iter(['{"title": "x"}', json.dumps(REPORT)])
    llm, chat = _llm(lambda m: next(answers), tmp_path)

    def validate(obj):
        if "findings" not in obj:
            raise ValueError("'findings' is missing")

    obj, _, attempts = chat_json(llm, [{"role": "user", "content": "report"}], max_tokens=500,
                                 stage="report", validate=validate)
    assert obj == REPORT and attempts == 2
    assert "'findings' is missing" in chat.calls[1][-1]["content"]


def test_empty_and_echoed_answers_are_retried_once_with_a_reminder(tmp_path):
    source = " ".join(f"word{i} appears in the source text number {i}." for i in range(30))
    messages = [{"role": "system", "content": "Return JSON."}, {"role": "user", "content": source}]
    answers = iter([source, '{"entities": []}'])
    llm, chat = _llm(lambda m: next(answers), tmp_path)
    obj, _, attempts = chat_json(llm, messages, max_tokens=100, stage="extract")
    assert obj == {"entities": []} and attempts == 2
    assert [m["role"] for m in chat.calls[1]] == ["system", "user"]
    assert "repeated the input" in chat.calls[1][-1]["content"]

    answers2 = iter(["", ""])
    llm2, chat2 = _llm(lambda m: next(answers2), tmp_path / "b")
    with pytest.raises(JSONParseError) as info:
        chat_json(llm2, messages, max_tokens=100, stage="extract")
    assert "empty" in str(info.value)
    assert "was empty" in chat2.calls[1][-1]["content"]


def test_json_of_the_asked_shape_that_quotes_its_input_is_an_answer_not_an_echo(tmp_path):
    """A small model's map points restate the report word for word (seen with Qwen 1.5B on
    Operation Dulce: the batch failed twice as an 'echo'). JSON of the asked shape is used."""
    from core.query.global_search import validate_points
    report = ("The Paranormal Military Squad is a group of agents led by Dr. Jordan Hayes, who is known for "
              "their sharp interjections and unwavering dedication to their mission, with Taylor Cruz as "
              "their de facto leader and Alex Mercer beside them at Dulce base.")
    messages = [{"role": "system", "content": f"---Data table---\nid|title|content\n3|Squad|{report}"},
                {"role": "user", "content": "Who are the agents?"}]
    answer = json.dumps({"points": [{"description": f"{report} [Data: Reports (3)]", "score": 80}]})
    llm, chat = _llm(lambda m: answer, tmp_path)
    obj, _, attempts = chat_json(llm, messages, max_tokens=500, stage="map", validate=validate_points)
    assert attempts == 1 and obj["points"][0]["score"] == 80
    # the same copy as prose, not the asked JSON, is still an echo
    answers = iter([report + " " + report, answer])
    llm2, chat2 = _llm(lambda m: next(answers), tmp_path / "b")
    obj, _, attempts = chat_json(llm2, messages, max_tokens=500, stage="map", validate=validate_points)
    assert attempts == 2 and "repeated the input" in chat2.calls[1][-1]["content"]

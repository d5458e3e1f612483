"""The Ask form as a newcomer uses it: pressing the method already chosen keeps it; a question
too long to be one is refused with a message and is never echoed as a giant heading."""
from __future__ import annotations


import pytest

from core.errors import UserError
from core.query.methods import MAX_QUESTION_CHARS, run_method
from core.store.db import Store
from test_app_pages import _app, _ask, _open



def test_pressing_the_chosen_method_again_keeps_it(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    pills = at.get("button_group")[0]
    pills.set_value("local").run()
    assert at.get("button_group")[0].value == "local"
    at.get("button_group")[0].set_value(None).run()  # what a click on the selected pill sends
    assert at.get("button_group")[0].value == "local"
    _ask(at, "Who is Maria Okafor?")
    assert any("local search" in c.value for c in at.caption), [c.value for c in at.caption][:5]


def test_a_huge_question_is_cut_to_the_box_and_its_heading_stays_one_line(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    assert at.text_area(key="ask_question").max_chars == MAX_QUESTION_CHARS
    _ask(at, "What happened at Tanner Quay? " + "word " * 40000)  # the box takes none of it
    assert not at.exception and not [m for m in at.markdown if m.value.startswith("#### What")]
    _ask(at, "What happened at Tanner Quay? " + "and then what " * 130)  # 1,900 characters
    heads = [m.value for m in at.markdown if m.value.startswith("####")]
    assert heads and "Tanner Quay" in heads[0] and len(heads[0]) < 320


def test_the_core_refuses_a_question_longer_than_a_question(home, capsys):
    from core.cli.main import main
    with pytest.raises(UserError, match="at most 2,000 characters; this one has 200,0"):
        run_method("local", Store(home / "test"), "x" * 200_000)
    assert main(["query", "x" * 200_000, "-w", str(home / "test"), "--method", "basic"]) == 2
    assert "at most 2,000 characters" in capsys.readouterr().err


def test_a_question_naming_a_document_says_it_read_only_that_document(home, monkeypatch):
    at = _open(_app(home, monkeypatch), "pages/ask.py")
    at.get("button_group")[0].set_value("basic").run()
    _ask(at, "What does the Calloway memo say about the hose?")
    assert not at.exception
    notes = [c.value for c in at.caption]  # (escaped Markdown: the file name is a document's, untrusted)
    assert any(n.startswith("Read only 2024") and "calloway" in n and "the document the question names" in n
               for n in notes), notes[:8]

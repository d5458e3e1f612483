"""The verifier's judges on real corpus sentences: each verdict kind with the fact that decides
it and the exact source span behind it; key facts (written-out numbers, money, percent); the model
judge through a real local HTTP server (tests/openai_server.py) with exact-quote checking and its
fallback; `sensemaker verify --claims/--text`."""
from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.llm.openai import make_llm
from core.verify import figures
from core.verify.model import judge as model_judge
from core.verify.names import Names
from core.verify.offline import judge
from core.store.db import Store
from tests.fake_model import respond
from tests.openai_server import FakeOpenAIServer
from tests.verify_corpus import CORPORA, assert_exact_highlights, read_doc as _doc, unit_around

CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
MSFT = CORPORA / "msft_earnings_calls" / "TranscriptFY24Q4.txt"


def _unit(doc: str, evidence: str, width: int = 1500) -> dict:
    """A text unit of the document around the evidence, with its span, as an index makes one."""
    return unit_around(doc, evidence, width // 2, width // 2)


def _check(doc: str, claim: str, evidence: str):
    v = judge(f"{claim} [Data: Sources (1)].", [_unit(doc, evidence)], names=Names(texts=[doc]))
    assert_exact_highlights(doc, v)  # the highlight is exact document text, whatever the verdict
    return v


def test_verbatim_and_paraphrase_are_supported():
    doc = _doc(CAROL)
    v = _check(doc, "Scrooge never painted out Old Marley's name",
               "Scrooge never painted out Old Marley's name.")
    assert v.verdict == "supported" and v.best_sentence.startswith("Scrooge never painted out")
    v = _check(doc, "Scrooge kept his eye upon his clerk, who was copying letters in a dismal little cell",
               "that he might keep his eye upon his clerk, who in a dismal little cell beyond")
    assert v.verdict == "supported"


def test_a_changed_number_is_contradicted_with_the_sources_number():
    doc = _doc(CAROL)
    v = _check(doc, "Scrooge grumbles that his clerk earns twenty shillings a week",
               "my clerk, with fifteen shillings a week")
    assert v.verdict == "contradicted"
    (fact,) = [f for f in v.facts if f.kind == "number"]
    assert (fact.text, fact.status, fact.evidence.text) == ("twenty shillings", "contradicted", "fifteen shillings")
    v = _check(doc, "Scrooge replies that Marley has been dead for seven years",
               "'Mr. Marley has been dead these seven years,'")
    assert v.verdict == "supported"


def test_money_and_percent_in_an_earnings_call():
    doc = _doc(MSFT)
    v = _check(doc, "Fourth-quarter revenue was $46.7 billion, up 15%",
               "This quarter, revenue was $64.7 billion, up 15%")
    assert v.verdict == "contradicted" and v.failing.text == "$46.7 billion"
    assert v.failing.evidence.text == "$64.7 billion"
    assert any(f.text == "15%" and f.status == "found" for f in v.facts)


def test_negation_and_antonyms_are_contradicted():
    doc = _doc(CAROL)
    v = _check(doc, "His nephew left the room with an angry word",
               "His nephew left the room without an angry word")
    assert v.verdict == "contradicted" and v.failing.kind == "polarity"
    assert "without" in v.failing.note
    msft = _doc(MSFT)
    v = _check(msft, "Devices revenue increased 11% as Microsoft stayed focused on higher margin premium products",
               "Devices revenue decreased 11%")
    assert v.verdict == "contradicted" and "decreased" in v.failing.note


def test_a_name_in_no_document_is_fabricated():
    doc = _doc(CAROL)
    v = _check(doc, "Scrooge took his melancholy dinner at the Pickwick Arms",
               "Scrooge took his melancholy dinner in his usual melancholy tavern")
    assert v.verdict == "fabricated" and v.fabricated == ["Pickwick Arms"]
    # a name that is in the book, though not in the cited passage, is no fabrication
    v = _check(doc, "Scrooge took his melancholy dinner in his usual tavern, far from Fezziwig",
               "Scrooge took his melancholy dinner in his usual melancholy tavern")
    assert v.verdict != "fabricated"


def test_an_added_fact_is_partial_and_an_added_motive_unsupported():
    doc = _doc(MSFT)
    v = _check(doc, "LinkedIn revenue increased 10%, and LinkedIn's operating margin reached a record high",
               "LinkedIn revenue increased 10%")
    assert v.verdict == "partial" and v.failing.kind == "meaning"
    v = _check(doc, "Headcount rose 3% because Microsoft hired heavily for its AI engineering teams",
               "headcount at the end of June was 3% higher than a year ago")
    assert v.verdict == "unsupported"


@pytest.mark.parametrize("text,value,kind", [
    ("fifteen shillings", 15, "count"), ("eighteen hundred", 1800, "count"), ("$28.5 billion", 28.5e9, "money"),
    ("10%", 10, "percent"), ("a quarter of them", 25, "percent"), ("in 2024", 2024, "year"),
    ("twenty-one days", 21, "count")])
def test_numbers_are_normalised(text, value, kind):
    (n,) = figures.numbers(text)
    assert (n.value, n.kind) == (value, kind)


# -- the model judge ------------------------------------------------------------------------

@pytest.fixture
def llm(tmp_path):
    with FakeOpenAIServer(lambda messages, request: respond(messages)) as server:
        store = Store(tmp_path / "ws")
        yield make_llm(server.settings(stream=False), store), server


def test_model_judge_keeps_a_verdict_it_backs_with_an_exact_quote(llm):
    model, server = llm
    doc = _doc(CAROL)
    unit = _unit(doc, "Scrooge never painted out Old Marley's name.")
    v = model_judge(model, "Scrooge never bothered to paint out Old Marley's name [Data: Sources (1)].", [unit],
                    names=Names(texts=[doc]))
    assert v.judge == "model" and v.verdict == "supported" and server.count("chat") == 1
    assert doc[v.char_start:v.char_end] == v.best_sentence and "painted out" in v.best_sentence
    # cached like every call
    model_judge(model, "Scrooge never bothered to paint out Old Marley's name [Data: Sources (1)].", [unit],
                names=Names(texts=[doc]))
    assert server.count("chat") == 1


def test_model_judge_falls_back_when_its_quote_is_not_in_the_source(llm):
    model, server = llm
    doc = _doc(CAROL)
    unit = _unit(doc, "Scrooge took his melancholy dinner in his usual melancholy tavern")
    v = model_judge(model, "Scrooge took his dinner in a tavern, misquote [Data: Sources (1)].", [unit],
                    names=Names(texts=[doc]))
    assert v.judge == "offline" and "not in the source" in v.reason and server.count("chat") == 1
    # fabricated and hard contradictions never need the model
    before = server.count("chat")
    v = model_judge(model, "Scrooge dined at the Pickwick Arms [Data: Sources (1)].", [unit], names=Names(texts=[doc]))
    assert v.verdict == "fabricated" and server.count("chat") == before


def test_model_judge_does_not_undo_an_offline_contradiction(llm):
    """An entity swap the offline checks contradict with the source's span stays contradicted:
    the model is not asked (a small model quotes the passage and calls the swap supported)."""
    model, server = llm
    doc = _doc(CAROL)
    unit = _unit(doc, "'Mr. Marley has been dead these seven years,' Scrooge replied.")
    before = server.count("chat")
    v = model_judge(model, "Fred replied that Mr. Marley had been dead these seven years [Data: Sources (1)].",
                    [unit], names=Names(texts=[doc]))
    assert v.verdict == "contradicted" and v.judge == "offline" and server.count("chat") == before
    assert v.failing.text == "Fred" and v.failing.evidence.text == "Scrooge"


# -- the CLI: sentences of one's own ----------------------------------------------------------

@pytest.fixture
def workspace(tmp_path):
    from tests.test_resolve import build
    s = Store(tmp_path / "ws")
    build(s)
    return s


def test_cli_checks_a_claims_file(workspace, tmp_path, capsys):
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(c) for c in [
        {"id": "a", "text": "Scrooge refused to give money to the charity collectors [Data: Sources (1)]."},
        {"id": "b", "text": "Scrooge founded a bank in Paris [Data: Sources (0)]."},
    ]) + "\n")
    assert main(["verify", "--workspace", str(workspace.workspace), "--claims", str(claims), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["verdict"]) for r in rows] == [("a", "supported"), ("b", "fabricated")]
    assert rows[0]["evidence"]["text"] == "Scrooge refused to give money to the charity collectors."
    assert rows[0]["evidence"]["source"] == 1  # the number a marker cites, beside the unit's id
    assert rows[1]["fabricated"] == ["Paris"] and any(f["status"] == "absent" for f in rows[1]["facts"])
    assert all({"id", "verdict", "facts", "evidence"} <= set(r) for r in rows)


def test_cli_checks_a_text_and_refuses_a_bad_claims_file(workspace, tmp_path, capsys):
    assert main(["verify", "--workspace", str(workspace.workspace), "--text",
                 "Scrooge refused to give money to the charity collectors [Data: Sources (1)]. "
                 "He founded a bank in Paris [Data: Sources (0)]."]) == 0
    out = capsys.readouterr().out
    assert "1: supported (offline judge)" in out and "2: fabricated (offline judge)" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "text": "ok [Data: Sources (0)]."}\nnot json\n')
    assert main(["verify", "--workspace", str(workspace.workspace), "--claims", str(bad)]) == 2
    assert "claims line 2 is not JSON" in capsys.readouterr().err
    # an empty text is refused with what to give; --strict fails on a fabricated sentence
    assert main(["verify", "--workspace", str(workspace.workspace), "--text", "  "]) == 2
    assert "--text is empty" in capsys.readouterr().err
    assert main(["verify", "--workspace", str(workspace.workspace), "--strict", "--text",
                 "He founded a bank in Paris [Data: Sources (0)]."]) == 1
    assert "strict: 1 fabricated -> exit 1" in capsys.readouterr().err
    assert main(["verify", "--workspace", str(workspace.workspace), "--strict", "--text",
                 "Scrooge refused to give money to the charity collectors [Data: Sources (1)]."]) == 0
    capsys.readouterr()


def test_cli_takes_the_name_the_app_shows_for_a_workspace(workspace, tmp_path, monkeypatch, capsys):
    """`--workspace memo` (the name the app shows) where no folder "memo" is here: the app's
    workspace of that name is used, and stderr says which folder that is."""
    import shutil
    home = tmp_path / "home"
    home.mkdir()
    shutil.copytree(workspace.workspace, home / "memo")
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "--workspace", "memo", "--text",
                 "Scrooge refused to give money to the charity collectors [Data: Sources (1)]."]) == 0
    out = capsys.readouterr()
    assert "1: supported (offline judge)" in out.out
    assert f"workspace 'memo': the app's, {home / 'memo'}" in out.err
    # a name the app does not have either is still refused
    assert main(["verify", "--workspace", "nowhere", "--text", "x"]) == 2
    assert "workspace nowhere does not exist" in capsys.readouterr().err


def test_another_speaker_or_another_name_in_the_same_place_is_contradicted():
    doc = _doc(CAROL)
    # the passage's speaker is Scrooge ("Scrooge replied"); Fred is a name of the book
    v = _check(doc, "Fred replied that Mr. Marley had been dead these seven years",
               "'Mr. Marley has been dead these seven years,' Scrooge replied.")
    assert v.verdict == "contradicted" and v.failing.text == "Fred"
    assert v.failing.evidence.text == "Scrooge"
    v = _check(doc, "Scrooge replied that Mr. Marley had been dead these seven years",
               "'Mr. Marley has been dead these seven years,' Scrooge replied.")
    assert v.verdict == "supported"
    msft = _doc(MSFT)
    # a transcript's speaker label governs what follows it
    v = _check(msft, "Amy Hood said that they primarily start right now from the demand side",
               "I think I would say we primarily start right now from the demand side.")
    assert v.verdict == "contradicted" and v.failing.evidence.text.upper() == "SATYA NADELLA"
    v = _check(msft, "Satya Nadella said that they primarily start right now from the demand side",
               "I think I would say we primarily start right now from the demand side.")
    assert v.verdict != "contradicted"
    # another name where the sentence puts its own: "Founder of the Feast" is Mr. Scrooge's
    v = _check(doc, "'I'll give you Mr. Fezziwig, the Founder of the Feast!'",
               "'I'll give you Mr. Scrooge, the Founder of the\nFeast!'")
    assert v.verdict == "contradicted" and v.failing.evidence.text == "Mr. Scrooge"


def test_a_reversed_comparison_and_a_comparative_antonym_are_contradicted():
    doc = _doc(CAROL)
    v = _check(doc, "Being only light, it was less alarming than a dozen ghosts",
               "being only light, was more alarming than a dozen ghosts")
    assert v.verdict == "contradicted" and v.failing.kind == "polarity"
    msft = _doc(MSFT)
    v = _check(msft, "Other income and expense was negative $675 million, less favorable than anticipated",
               "other income and expense was negative $675 million, more favorable than anticipated")
    assert v.verdict == "contradicted"
    assert figures.same_number(figures.numbers("in 2023")[0], figures.numbers("in 2024")[0]) is False
    assert figures.same_number(figures.numbers("$28.47 billion")[0], figures.numbers("$28.5 billion")[0])


def test_an_affiliation_is_not_the_speaker():
    """"Thomas Whitlock of Calloway Chemicals said": Whitlock speaks, Calloway Chemicals is his firm."""
    text = ("Maria Okafor told the Port Authority that Calloway Chemicals had not replaced the hose.\n"
            "Thomas Whitlock of Calloway Chemicals said the hose was replaced in January.\n")
    unit = {"id": "u1", "text": text, "char_start": 0, "char_end": len(text)}
    v = judge("Thomas Whitlock of Calloway Chemicals said the hose was replaced in January [Data: Sources (1)].", [unit])
    assert v.verdict == "supported"
    v = judge("Maria Okafor of Calloway Chemicals said the hose was replaced in January [Data: Sources (1)].", [unit])
    assert v.verdict == "contradicted" and v.failing.text == "Maria Okafor"


def test_a_quotation_of_several_sentences_is_one_claim(workspace, capsys):
    """Full stops inside a quotation do not cut the claim: the sentences before the marker were
    two "unsupported: it cites nothing" (a newcomer's 8-sentence memo counted 10)."""
    from core.store.db import Store
    from core.verify.text import check_text
    store = Store(workspace.workspace)
    text = ('Scrooge said: "Are there no prisons? And the Union workhouses? Are they still in operation?" '
            '[Data: Sources (1)]. He went home.')
    results = check_text(store, text)
    assert [r["sentence"][:14] for r in results] == ["Scrooge said: ", "He went home."], results
    assert results[1]["failing"] == "it cites nothing"

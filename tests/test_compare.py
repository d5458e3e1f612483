"""Comparisons: counterbalancing (each pair judged in both orders), the win-rate arithmetic on a
fixed fake judge, position bias, the A/A check, caching of the judge, files, the CLI."""
from __future__ import annotations

import json
import re

import pytest

from core.cli.main import main
from core.compare.judge import CRITERIA, Judgement, judge_pair
from core.compare.questions import load_assertions, load_questions
from core.compare.run import CompareSpec, load_run, run_comparison
from core.compare.stats import aa_check, position_bias, sign_test, wilson, win_rates
from core.errors import UserError
from core.llm.client import LLM
from core.store.db import Store
from tests.conftest import build_workspace, sample_files
from tests.fakes import FakeChat


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    return build_workspace(tmp_path_factory.mktemp("cmp"), "cmp", sample_files(3))


def answers_in(prompt: str) -> tuple[str, str]:
    a1 = prompt.split("---Answer 1---", 1)[1].split("---Answer 2---", 1)[0].strip()
    a2 = prompt.split("---Answer 2---", 1)[1].split("---Answer format---", 1)[0].strip()
    return a1, a2


def verdicts(winner_of):
    """A fake judge: winner_of(answer_1, answer_2) -> 1, 2 or 0 for every criterion."""
    def respond(messages):
        p = messages[0]["content"]
        a1, a2 = answers_in(p)
        crits = re.findall(r"^- (\w+):", p.split("---Criteria---", 1)[1].split("---Question---", 1)[0], re.M)
        return json.dumps({c: {"winner": winner_of(a1, a2), "reason": "fixed"} for c in crits})
    return respond


def test_every_pair_is_judged_in_both_orders_for_every_trial():
    chat = FakeChat(verdicts(lambda a1, a2: 1))
    js = judge_pair(LLM(chat), "Q?", ("x", "answer X"), ("y", "answer Y"), trials=3)
    shown = [answers_in(m[0]["content"]) for m in chat.calls]
    assert len(chat.calls) == 6
    assert shown.count(("answer X", "answer Y")) == 3 and shown.count(("answer Y", "answer X")) == 3
    trials = [re.search(r"Trial (\d+)", m[0]["content"]).group(1) for m in chat.calls]
    assert sorted(trials) == ["1", "1", "2", "2", "3", "3"]
    assert len(js) == 6 * len(CRITERIA)
    # a judge that always says "answer 1" gives each method exactly half: the order cancels it
    for s in win_rates(js):
        assert (s.wins, s.losses, s.rate) == (3, 3, 0.5)
    bias = position_bias(js)
    assert bias["share_first"] == 1.0 and bias["biased"]


def test_win_rate_arithmetic_on_a_fixed_judge():
    # x wins whenever its answer is the longer one: x's answer is longer on comprehensiveness...
    def winner(a1, a2):
        return 1 if "longer" in a1 else 2
    js = judge_pair(LLM(FakeChat(verdicts(winner))), "Q?", ("x", "a longer answer"), ("y", "short"), trials=2,
                    criteria=["comprehensiveness"])
    [s] = win_rates(js)
    assert (s.a, s.b, s.wins, s.losses, s.ties, s.n, s.rate) == ("x", "y", 4, 0, 0, 4, 1.0)
    assert s.p_value == 0.125 and not s.significant  # 4 of 4 is not enough at 5%
    # hand-made verdicts: 3 wins, 1 loss, 2 ties -> (3 + 1) / 6
    base = dict(question="q", a="x", b="y", order="ab", trial=0, criterion="diversity")
    hand = [Judgement(**base, winner=w) for w in ("x", "x", "x", "y", "tie", "tie")]
    [h] = win_rates(hand)
    assert h.rate == round(4 / 6, 4) and h.p_value == 0.625
    assert (h.questions, h.questions_won, h.questions_lost, h.p_questions) == (1, 1, 0, 1.0)  # one question
    many = [Judgement(**{**base, "question": f"q{i}"}, winner="x" if i < 9 else "y") for i in range(10)]
    [m] = win_rates(many)
    assert (m.questions_won, m.questions_lost) == (9, 1) and m.p_questions == pytest.approx(0.0215, abs=1e-4)
    low, high = wilson(4, 6)
    assert (h.low, h.high) == (round(low, 4), round(high, 4)) and low < 0.5 < high
    assert round(wilson(8, 10)[0], 3) == 0.490 and round(wilson(8, 10)[1], 3) == 0.943  # textbook values
    assert sign_test(9, 1) == pytest.approx(0.021484375)


def test_aa_check_passes_near_half_and_fails_when_one_run_always_wins():
    base = dict(question="q", a="global", b="global (run 2)", trial=0, criterion="diversity")
    even = [Judgement(**base, order=o, winner=w) for o, w in
            (("ab", "global"), ("ba", "global (run 2)"), ("ab", "tie"), ("ba", "tie"))]
    assert aa_check(even, "global", "global (run 2)")["ok"] is True
    lopsided = [Judgement(**base, order=o, winner="global") for o in ("ab", "ba") * 6]
    check = aa_check(lopsided, "global", "global (run 2)")
    assert check["ok"] is False and "FAILED" in check["message"] and check["rate"] == 1.0


def test_a_comparison_run_writes_its_files_and_a_rerun_costs_no_judge_call(ws, tmp_path):
    store = Store(ws)
    chat = FakeChat(verdicts(lambda a1, a2: 1 if len(a1) > len(a2) else (2 if len(a2) > len(a1) else 0)))
    judge = LLM(chat, store=store)
    qs = ["What are the main conflicts?", "Who is Maria Okafor?"]
    spec = CompareSpec(methods=["global", "local"], trials=2)
    s = run_comparison(store, qs, spec, None, None, judge, tmp_path / "run")
    # 2 questions x (global-local + the A/A pair) x 2 orders x 2 trials; a pair of identical
    # answers reads the same in both orders, so its second order is the same call (cached)
    _, answers, _ = load_run(tmp_path / "run")
    text = {(a["question"], a["method"]): a["answer"] for a in answers}
    same = sum(1 for q in qs if text[(q, "global")] == text[(q, "global (run 2)")])
    assert len(chat.calls) == 2 * 2 * 2 * 2 - 2 * same
    assert len({m[0]["content"] for m in chat.calls}) == len(chat.calls)  # no call made twice
    assert s["judgements"] == 16 * len(CRITERIA)
    assert {(w["a"], w["b"]) for w in s["win_rates"]} == {("global", "local")}
    assert len(s["win_rates"]) == len(CRITERIA)
    assert s["aa"]["ok"] is not None and s["cost"]["global"]["answers"] == 2
    summary, answers, judgements = load_run(tmp_path / "run")
    assert summary == json.loads(json.dumps(summary)) and len(answers) == 6 and len(judgements) == s["judgements"]
    assert all(a["answer"] for a in answers) and "Win rates" in (tmp_path / "run" / "summary.md").read_text()
    calls = len(chat.calls)
    again = run_comparison(store, qs, spec, None, None, judge, tmp_path / "run2")
    assert len(chat.calls) == calls  # every verdict came from the cache
    assert again["judge_cost"]["cache_hits"] == 16 and again["judge_cost"]["llm_calls"] == 0
    assert again["win_rates"] == s["win_rates"]


def test_offline_judge_is_symmetric_in_the_order(ws, tmp_path):
    s = run_comparison(Store(ws), ["What are the main conflicts?"], CompareSpec(methods=["global", "local", "ts"]),
                       out_dir=tmp_path / "off")
    assert s["judge"]["engine"] == "offline" and s["position_bias"]["share_first"] == 0.5
    assert s["aa"]["ok"] is True


def test_assertions_score_the_share_of_facts_each_answer_states(ws, tmp_path):
    f = tmp_path / "facts.jsonl"
    f.write_text(json.dumps({"question": "Who is Maria Okafor?",
                             "assertions": ["Maria Okafor is the Harbour Master", "Okafor owns a bakery in Lisbon"]}) + "\n")
    s = run_comparison(Store(ws), ["Who is Maria Okafor?"], CompareSpec(methods=["local", "global"], aa=False),
                       assertions=load_assertions(f))
    local = s["assertions"]["local"]
    assert local["total"] == 2 and local["stated"] == 1


def test_question_files_text_csv_and_bad_input(tmp_path):
    t = tmp_path / "q.txt"
    t.write_text("# comment\nWhat is it?\n\nWho is she?\nWhat is it?\n")
    assert load_questions(t) == ["What is it?", "Who is she?"]
    c = tmp_path / "q.csv"
    c.write_text("question_id,question\n1,\"What, overall, happened?\"\n2,Who won?\n")
    assert load_questions(c, limit=1) == ["What, overall, happened?"]
    pub = tmp_path / "published.csv"  # the podcast corpus's questions file has question_text
    pub.write_text("\ufeffquestion_text,question_id\nWhat recurring topics do tech leaders emphasize?,524c\n",
                   encoding="utf-8")
    assert load_questions(pub) == ["What recurring topics do tech leaders emphasize?"]
    bad = tmp_path / "bad.csv"
    bad.write_text("id,text\n1,x\n")
    with pytest.raises(UserError, match="question"):
        load_questions(bad)
    with pytest.raises(UserError, match="unknown method"):
        run_comparison(None, ["q"], CompareSpec(methods=["global", "nonsense"]))


def test_compare_cli_prints_the_summary_as_json(ws, tmp_path, capsys):
    code = main(["compare", "-w", str(ws), "--methods", "global,local", "--question", "What are the main conflicts?",
                 "--out", str(tmp_path / "cli"), "--engine", "offline", "--trials", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["methods"] == ["global", "local"]
    w = out["win_rates"][0]
    assert {"a", "b", "criterion", "rate", "low", "high", "p_value"} <= set(w)
    assert set(out["cost"]["global"]) >= {"llm_calls", "prompt_tokens", "completion_tokens"}
    assert "ok" in out["aa"] and (tmp_path / "cli" / "judgements.jsonl").exists()
    assert main(["compare", "-w", str(ws), "--methods", "global", "--question", "q", "--out", str(tmp_path / "x"),
                 "--engine", "offline", "--no-aa"]) == 2


def test_the_judge_on_another_endpoint_through_the_openai_client(ws, tmp_path, capsys, monkeypatch):
    """Answers offline, verdicts from a model on its own endpoint (the local OpenAI test server
    answering with the prompt-aware fake model): one call per pair, order and trial."""
    from tests.fake_model import respond
    from tests.openai_server import TEST_KEY, FakeOpenAIServer
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    with FakeOpenAIServer(lambda messages, request: respond(messages), transient_faults=()) as server:
        code = main(["compare", "-w", str(ws), "--methods", "global,local", "--question", "Who is Maria Okafor?",
                     "--out", str(tmp_path / "judged"), "--engine", "offline", "--judge", "llm",
                     "--judge-base-url", server.url, "--judge-model", server.models[0], "--json"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["judge"]["engine"] == "llm" and out["judge"]["model"] == server.models[0]
        assert server.count("chat") == out["judge_cost"]["llm_calls"] <= (1 + 1) * 2 * 2
        assert out["judge_errors"] == 0 and len(out["win_rates"]) == len(CRITERIA)
        reasons = [json.loads(l)["reason"] for l in (tmp_path / "judged" / "judgements.jsonl").read_text().splitlines()]
        assert all("distinct words" in r for r in reasons)  # the fake judge's own reasons


def test_the_offline_judge_scores_what_the_question_asks_for_not_length():
    from core.compare.judge import offline_verdicts
    long_off_topic = " ".join(
        f"GraphRAG builds a knowledge graph with the Leiden algorithm and writes community reports "
        f"about Microsoft Research, OpenAI and Azure deployments, theme {i} [Data: Sources ({i})]."
        for i in range(1, 9))
    two_metrics = ("The key metrics are Comprehensiveness and Diversity, which the evaluation scores "
                   "for each answer [Data: Sources (20)].")
    v = offline_verdicts("What are the key metrics?", ("long", long_off_topic), ("short", two_metrics),
                         ["comprehensiveness", "diversity", "empowerment", "directness"])
    assert all(v[c][0] in ("short", "tie") for c in v), v
    assert v["comprehensiveness"][0] == "short" and v["diversity"][0] == "short"
    same = offline_verdicts("What are the key metrics?", ("a", two_metrics), ("a2", two_metrics),
                            ["comprehensiveness", "diversity", "empowerment", "directness"])
    assert all(w == "tie" for w, _ in same.values())  # the A/A check

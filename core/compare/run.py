"""A comparison run: every question answered by every method, every pair of answers judged
(both orders, N trials), the first method answered a second time for the A/A check, and
everything written into one folder:

    answers.jsonl      one line per question and method: answer, references and their verdicts,
                       cost (calls, tokens, cache hits, seconds, money), trace id, error
    judgements.jsonl   one line per verdict (question, pair, order, trial, criterion, winner, reason)
    summary.json       win rates per pair and criterion with 95% intervals and p-values, cost per
                       method and of the judge, the A/A check, the judge's position bias, assertions
    summary.md         the same as tables to read

Answers use a seed derived from the question, so a rerun asks the same calls and every one of
them (answers and verdicts) comes from the cache: a rerun costs nothing.
"""
from __future__ import annotations

import hashlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Callable

from core.compare.assertions import score_answer
from core.compare.judge import CRITERIA, Judgement, judge_pair
from core.compare.stats import aa_check, position_bias, win_rates
from core.errors import UserError
from core.query.methods import METHODS, run_method
from core.query.traces import usage_delta, usage_snapshot

AA_SUFFIX = " (run 2)"


@dataclass
class CompareSpec:
    methods: list[str]
    trials: int = 2
    criteria: list[str] = field(default_factory=lambda: list(CRITERIA))
    aa: bool = True
    """Answer one method twice (another seed) and judge it against itself."""
    aa_method: str | None = None
    """The method of the A/A check (None: the first); it must be one of the methods."""

    @property
    def aa_of(self) -> str:
        return self.aa_method or self.methods[0]
    options: dict[str, Any] = field(default_factory=dict)
    """Options every method gets (unknown keys are ignored by the others)."""
    concurrency: int = 8
    """Judge calls in flight."""


def check_spec(spec: CompareSpec) -> None:
    unknown = [m for m in spec.methods if m not in METHODS]
    if unknown:
        raise UserError(f"unknown method {', '.join(unknown)}: choose from {', '.join(METHODS)}")
    if spec.aa and spec.aa_of not in spec.methods:
        raise UserError(f"the A/A method {spec.aa_of} must be one of the compared methods")
    if len(set(spec.methods)) < 2 and not spec.aa:
        raise UserError("compare needs at least two different methods")
    if len(spec.methods) != len(set(spec.methods)):
        raise UserError("each method may be named once")
    if spec.trials < 1:
        raise UserError("trials must be at least 1")
    bad = [c for c in spec.criteria if c not in CRITERIA]
    if bad:
        raise UserError(f"unknown criterion {', '.join(bad)}: choose from {', '.join(CRITERIA)}")


def question_seed(question: str) -> int:
    return int(hashlib.sha1(question.encode("utf-8")).hexdigest()[:8], 16) % (2 ** 31)


def answer_one(store, method: str, question: str, llm, settings, options: dict, seed: int, label: str) -> dict:
    before = usage_snapshot(llm)
    t = time.perf_counter()
    row: dict[str, Any] = {"question": question, "method": label, "base_method": method}
    try:
        result = run_method(method, store, question, llm, settings, {**options, "seed": seed})
    except UserError as exc:
        row.update(answer="", error=str(exc), references=[], verdicts={}, trace_id=None,
                   usage=usage_delta(before, llm), seconds=round(time.perf_counter() - t, 3))
        return row
    verdicts: dict[str, int] = {}
    refs = []
    for c in result.citations:
        v = (c.get("support") or {}).get("verdict") or ("dangling" if c.get("dangling") else "unjudged")
        verdicts[v] = verdicts.get(v, 0) + 1
        refs.append({"kind": c.get("kind"), "id": c.get("id"), "verdict": v})
    row.update(answer=result.answer, error=result.error, references=refs, verdicts=verdicts,
               trace_id=result.trace_id, engine=result.engine, model=result.model,
               route=(result.params or {}).get("route"), usage=result.usage or usage_delta(before, llm),
               seconds=round(time.perf_counter() - t, 3))
    return row


def run_comparison(store, questions: list[str], spec: CompareSpec, llm=None, settings=None, judge_llm=None,
                   out_dir: str | Path | None = None, assertions: dict[str, list[str]] | None = None,
                   on_progress: Callable[[str], None] | None = None) -> dict:
    """Answer, judge and summarise; write the files into out_dir when given. judge_llm=None: the
    offline judge."""
    check_spec(spec)
    if not questions:
        raise UserError("no questions to compare on")
    say = on_progress or (lambda msg: None)
    t0 = time.perf_counter()
    answers: list[dict] = []
    for qi, q in enumerate(questions, 1):
        seed = question_seed(q)
        for m in spec.methods:
            say(f"question {qi}/{len(questions)}: {m}")
            answers.append(answer_one(store, m, q, llm, settings, spec.options, seed, m))
        if spec.aa:
            say(f"question {qi}/{len(questions)}: {spec.aa_of} again (A/A)")
            answers.append(answer_one(store, spec.aa_of, q, llm, settings, spec.options, seed + 1,
                                      spec.aa_of + AA_SUFFIX))
    t1 = time.perf_counter()
    judge_before = usage_snapshot(judge_llm)
    jobs = []
    for q in questions:
        got = {a["method"]: a for a in answers if a["question"] == q and not (a["error"] and not a["answer"])}
        labels = [m for m in spec.methods if m in got]
        pairs = list(combinations(labels, 2))
        aa_label = spec.aa_of + AA_SUFFIX
        if spec.aa and spec.aa_of in got and aa_label in got:
            pairs.append((spec.aa_of, aa_label))
        for a, b in pairs:
            jobs.append((q, (a, got[a]["answer"]), (b, got[b]["answer"])))
    say(f"judging {len(jobs)} pairs in both orders, {spec.trials} trial(s) each")
    workspace = getattr(store, "workspace", None)
    with ThreadPoolExecutor(max_workers=max(1, spec.concurrency), thread_name_prefix="judge") as pool:
        results = list(pool.map(lambda job: judge_pair(judge_llm, job[0], job[1], job[2], spec.trials,
                                                       spec.criteria, workspace), jobs))
    judgements: list[Judgement] = [j for r in results for j in r]
    t2 = time.perf_counter()
    summary = summarise(questions, spec, answers, judgements, judge_llm, usage_delta(judge_before, judge_llm),
                        assertions)
    summary["seconds"] = {"answers": round(t1 - t0, 3), "judge": round(t2 - t1, 3), "total": round(t2 - t0, 3)}
    if out_dir is not None:
        write_run(Path(out_dir), answers, judgements, summary)
    return summary


def _cost(rows: list[dict]) -> dict:
    out = {"answers": len(rows), "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cache_hits": 0,
           "cost": 0.0, "seconds": 0.0, "errors": 0}
    for r in rows:
        u = r.get("usage") or {}
        for k in ("llm_calls", "prompt_tokens", "completion_tokens", "cache_hits"):
            out[k] += int(u.get(k, 0) or 0)
        out["cost"] += float(u.get("cost", 0) or 0)
        out["seconds"] += float(r.get("seconds") or 0)
        out["errors"] += 1 if r.get("error") else 0
    out["cost"], out["seconds"] = round(out["cost"], 6), round(out["seconds"], 3)
    return out


def summarise(questions, spec: CompareSpec, answers, judgements, judge_llm, judge_usage, assertions=None) -> dict:
    main = [j for j in judgements if not j.b.endswith(AA_SUFFIX)]
    aa_label = spec.aa_of + AA_SUFFIX
    labels = list(spec.methods) + ([aa_label] if spec.aa else [])
    summary: dict[str, Any] = {
        "questions": len(questions), "methods": list(spec.methods),
        "judge": {"engine": "offline" if judge_llm is None else "llm",
                  "model": None if judge_llm is None else judge_llm.model,
                  "trials": spec.trials, "orders": 2, "criteria": list(spec.criteria)},
        "win_rates": [s.to_dict() for s in win_rates(main)],
        "cost": {m: _cost([a for a in answers if a["method"] == m]) for m in labels},
        "judge_cost": {k: judge_usage.get(k, 0) for k in ("llm_calls", "cache_hits", "prompt_tokens",
                                                            "completion_tokens", "cost")},
        "judgements": len(judgements),
        "judge_errors": sum(1 for j in judgements if j.error),
        "position_bias": position_bias(judgements),
        "aa": aa_check(judgements, spec.aa_of, aa_label) if spec.aa else
        {"ok": None, "message": "no A/A comparison was run"},
        "errors": [{"question": a["question"], "method": a["method"], "error": a["error"]}
                   for a in answers if a.get("error")],
    }
    if spec.aa:
        text = {(a["question"], a["method"]): a.get("answer") for a in answers}
        same = sum(1 for q in questions if text.get((q, spec.aa_of)) is not None
                   and text.get((q, spec.aa_of)) == text.get((q, aa_label)))
        summary["aa"]["identical_answers"] = same
        if same:
            summary["aa"]["message"] += (f" In {same} of {len(questions)} question(s) the second run gave the very "
                                         "same answer (a deterministic method or model), where the A/A pair only "
                                         "tests that the judge agrees with itself across the two orders.")
    if assertions:
        per: dict[str, dict] = {}
        for a in answers:
            facts = assertions.get(a["question"].strip())
            if not facts or a["method"] == aa_label:
                continue
            s = score_answer(a["answer"], facts)
            a["assertions"] = s
            m = per.setdefault(a["method"], {"stated": 0, "total": 0})
            m["stated"] += s["stated"]
            m["total"] += s["total"]
        for m in per.values():
            m["share"] = round(m["stated"] / m["total"], 4) if m["total"] else None
        summary["assertions"] = per
    return summary


def write_run(out: Path, answers: list[dict], judgements: list[Judgement], summary: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "answers.jsonl", "w", encoding="utf-8") as f:
        for a in answers:
            f.write(json.dumps(a, ensure_ascii=False, default=str) + "\n")
    with open(out / "judgements.jsonl", "w", encoding="utf-8") as f:
        for j in judgements:
            f.write(json.dumps(j.to_dict(), ensure_ascii=False) + "\n")
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    (out / "summary.md").write_text(summary_markdown(summary), encoding="utf-8")


def load_run(folder: str | Path) -> tuple[dict, list[dict], list[dict]]:
    """(summary, answers, judgements) of a saved run."""
    p = Path(folder)
    if not (p / "summary.json").is_file():
        raise UserError(f"no comparison run in {p} (summary.json is missing)")
    summary = json.loads((p / "summary.json").read_text(encoding="utf-8"))

    def lines(name):
        f = p / name
        return [json.loads(l) for l in f.read_text(encoding="utf-8").splitlines() if l.strip()] if f.exists() else []
    return summary, lines("answers.jsonl"), lines("judgements.jsonl")


def summary_markdown(s: dict) -> str:
    j = s["judge"]
    out = [f"# Comparison: {', '.join(s['methods'])}", "",
           f"{s['questions']} question(s); judge: {j['model'] or 'offline (features, no model)'}, "
           f"{j['trials']} trial(s) x 2 orders; {s['judgements']} verdicts.", "",
           "## Win rates (row method against column method; ties count half)", "",
           "| a | b | criterion | a wins | b wins | ties | win rate of a | 95% interval | p | significant | "
           "questions a/b won | p over questions |",
           "|---|---|---|---:|---:|---:|---:|---|---:|---|---|---:|"]
    for w in s["win_rates"]:
        out.append(f"| {w['a']} | {w['b']} | {w['criterion']} | {w['wins']} | {w['losses']} | {w['ties']} | "
                   f"{w['rate']:.0%} | {w['low']:.0%}-{w['high']:.0%} | {w['p_value']:.3f} | "
                   f"{'yes' if w['significant'] else 'no'} | {w.get('questions_won', 0)}/{w.get('questions_lost', 0)} "
                   f"of {w.get('questions', 0)} | {w.get('p_questions', 1.0):.3f} |")
    out += ["", "## Cost per method", "", "| method | answers | LLM calls | prompt tokens | completion tokens | "
            "cache hits | seconds | cost |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for m, c in s["cost"].items():
        out.append(f"| {m} | {c['answers']} | {c['llm_calls']} | {c['prompt_tokens']} | {c['completion_tokens']} | "
                   f"{c['cache_hits']} | {c['seconds']:.1f} | {c['cost']:.4f} |")
    jc = s["judge_cost"]
    out += ["", f"Judge: {jc.get('llm_calls', 0)} model calls and {jc.get('cache_hits', 0)} verdicts from the cache, "
            f"{jc.get('prompt_tokens', 0)} prompt + {jc.get('completion_tokens', 0)} completion tokens.", "",
            f"**{s['aa']['message']}**", ""]
    pb = s["position_bias"]
    out.append(f"Position bias: the answer shown first won {pb['first_wins']} and the second "
               f"{pb['second_wins']} of the decisive verdicts (p = {pb['p_value']:.3f})"
               + (": the judge prefers a position; counterbalancing cancels it in the win rates." if pb["biased"] else "."))
    if s.get("assertions"):
        out += ["", "## Assertions stated", "", "| method | stated | of | share |", "|---|---:|---:|---:|"]
        for m, a in s["assertions"].items():
            out.append(f"| {m} | {a['stated']} | {a['total']} | {a['share']:.0%} |")
    for e in s.get("errors", []):
        out.append(f"\n- {e['method']} failed on \"{e['question']}\": {e['error']}")
    return "\n".join(out) + "\n"

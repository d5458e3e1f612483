"""`sensemaker compare`: several search methods on the same questions, judged pairwise."""
from __future__ import annotations

import argparse
import json
import sys

from core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("compare", help="answer questions with several methods and judge the answers pairwise")
    c.add_argument("--workspace", "-w", required=True, help="workspace folder")
    c.add_argument("--methods", required=True, help="comma-separated, e.g. global,local (2-4 methods)")
    g = c.add_mutually_exclusive_group(required=True)
    g.add_argument("--questions", metavar="FILE",
                   help="one question a line, or a CSV with a question column, or JSONL with a question field")
    g.add_argument("--question", help="compare on this one question")
    c.add_argument("--limit", type=int, help="only the first N questions of the file")
    c.add_argument("--out", required=True, metavar="DIR", help="folder for answers, judgements and the summary")
    c.add_argument("--trials", type=int, default=2, help="judge trials per pair and order (default 2)")
    c.add_argument("--criteria", help="comma-separated subset of comprehensiveness,diversity,empowerment,directness")
    c.add_argument("--assertions", metavar="FILE", help="expected facts per question (JSONL or CSV) to score answers by")
    c.add_argument("--no-aa", action="store_true", help="skip the A/A check (a method against a second run of itself)")
    c.add_argument("--aa-method", help="the method of the A/A check (default: the first of --methods)")
    c.add_argument("--engine", choices=["offline", "llm"], help="engine answering (default: llm when configured)")
    c.add_argument("--judge", choices=["offline", "llm"],
                   help="offline: a judge of measurable features; llm: a model (default: the answering engine's)")
    c.add_argument("--judge-model", help="the judge's model name (default: the chat model)")
    c.add_argument("--judge-base-url", help="the judge's OpenAI-compatible endpoint (default: the answering one)")
    c.add_argument("--json", action="store_true", help="also print the summary as one JSON object")
    c.set_defaults(func=cmd_compare)


def cmd_compare(args) -> int:
    from core.cli.query import _llm, _open
    from core.compare.questions import load_assertions, load_questions
    from core.compare.run import CompareSpec, run_comparison
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if not 1 <= len(methods) <= 4:
        raise UserError("give 2 to 4 methods, e.g. --methods global,local")
    questions = [args.question.strip()] if args.question else load_questions(args.questions, args.limit)
    assertions = load_assertions(args.assertions) if args.assertions else None
    store = _open(args.workspace)
    llm, settings = _llm(args, store)
    from core.compare.saved import judge_llm
    judge = judge_llm(settings, store, args.judge, args.judge_model, args.judge_base_url)
    spec = CompareSpec(methods=methods, trials=args.trials, aa=not args.no_aa, aa_method=args.aa_method,
                       criteria=[c.strip() for c in args.criteria.split(",")] if args.criteria else
                       CompareSpec(methods=methods).criteria)
    quiet = args.json or not sys.stderr.isatty()

    def say(message: str) -> None:
        sys.stderr.write(f"\r{message[:70]:<70}")

    summary = run_comparison(store, questions, spec, llm, settings, judge, args.out, assertions,
                             on_progress=None if quiet else say)
    if not quiet:
        sys.stderr.write("\n")
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, default=str))
    else:
        from core.compare.run import summary_markdown
        print(summary_markdown(summary))
        print(f"written to {args.out}: answers.jsonl, judgements.jsonl, summary.json, summary.md")
    return 0

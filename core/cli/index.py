"""`sensemaker index`, `status` and `app`."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="add documents to a workspace and index it (resumes an interrupted run)")
    p.add_argument("paths", nargs="*", help="files or folders to add (.txt .md .rst .pdf .docx .html .csv .jsonl)")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder (created if missing)")
    p.add_argument("--engine", choices=["offline", "llm"], help="default: llm when an endpoint or key is set")
    p.add_argument("--chat-model", help="chat model name (default: SENSEMAKER_CHAT_MODEL or the setting)")
    p.add_argument("--embedding-model", help="embedding model name (default: none, full-text search)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL)")
    p.add_argument("--concurrency", type=int, help="model calls in flight (default: the setting, 8)")
    p.add_argument("--text-column", help="column holding the text in .csv/.jsonl files")
    p.add_argument("--replace", action="store_true",
                   help="a file whose title matches a document already indexed replaces it (only changed "
                        "text units are extracted again); without it such a file is skipped")
    p.add_argument("--reindex", action="store_true",
                   help="index every document again with the current engine and settings (keeps the "
                        "documents and the LLM cache; says what it will cost first)")
    p.add_argument("--run-id", help=argparse.SUPPRESS)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the run summary as JSON")
    p.set_defaults(func=cmd_index)

    _report_command(sub, "status", "counts per table and the last runs of a workspace", cmd_status)
    _report_command(sub, "check", "verify a workspace's integrity: references, orphans, full-text indexes",
                    cmd_check)

    m = sub.add_parser("merges", help="entity merges made by entity resolution; undo one")
    m.add_argument("--workspace", "-w", required=True, help="workspace folder")
    m.add_argument("--undo", metavar="NAME_OR_ID", help="undo this merge and rebuild the graph")
    m.set_defaults(func=cmd_merges)

    a = sub.add_parser("app", help="start the web app (indexes the sample corpus on first start)")
    a.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    a.add_argument("--no-sample", action="store_true", help="do not create the sample workspace")
    a.set_defaults(func=cmd_app)


def _report_command(sub: argparse._SubParsersAction, name: str, help: str, func) -> None:
    """A command that reads one workspace and prints a report of it (`status`, `check`)."""
    p = sub.add_parser(name, help=help)
    p.add_argument("--workspace", "-w", required=True, help="workspace folder")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=func)


def _open(workspace: str, create: bool):
    from core.cli.acting import open_store
    path = Path(workspace)
    from core.store.backends import has_store
    if not create and not has_store(path):
        raise UserError(f"no workspace at {path} (index some documents into it first)")
    return open_store(path, "index" if create else "browse")


class Bar:
    """A one-line progress bar on stderr."""

    def __init__(self, quiet: bool):
        self.quiet = quiet or not sys.stderr.isatty() and os.environ.get("SENSEMAKER_PROGRESS") != "1"
        self.last_stage = None

    def __call__(self, p) -> None:
        if self.quiet:
            return
        if p.stage != self.last_stage and self.last_stage is not None:
            sys.stderr.write("\n")
        self.last_stage = p.stage
        frac = p.done / p.total if p.total else 1.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(f"\r{p.stage:<12} [{bar:<30}] {p.done}/{p.total} {p.message[:50]:<50}")
        sys.stderr.flush()


def _log_client_events() -> None:
    """Retries, fallbacks learnt and runaway cuts (logged by core.llm.openai) go to stderr, which
    is index.log for a run started from the app. Never the key: the client does not log it."""
    import logging
    log = logging.getLogger("core")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)


def cmd_index(args) -> int:
    from core.index.pipeline import run_index
    from core.ingest.documents import ingest_paths
    from core.settings import load_settings, save_settings

    _log_client_events()
    store = _open(args.workspace, create=True)
    settings = load_settings(args.workspace, engine=args.engine, chat_model=args.chat_model,
                             embedding_model=args.embedding_model, llm_base_url=args.base_url,
                             concurrency=args.concurrency)
    if args.engine == "llm" and not (settings.llm_base_url or settings.api_key):
        raise UserError("the llm engine needs an endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL "
                        "(a local OpenAI-compatible server), or use --engine offline")
    if args.paths:
        missing = [p for p in args.paths if not Path(p).exists()]
        if missing:
            raise UserError(f"no such file or folder: {', '.join(missing)}")
        rep = ingest_paths(store, [Path(p) for p in args.paths], max_bytes=int(settings.max_file_mb * 1e6),
                           text_column=args.text_column, near_duplicate=settings.near_duplicate_threshold)
        print(f"added {len(rep.added)} documents, {len(rep.duplicates)} duplicates skipped, "
              f"{len(rep.rejected)} rejected", file=sys.stderr)
        for r in rep.rejected:
            print(f"  rejected: {r.reason}", file=sys.stderr)
        if rep.same_title and args.replace:
            from core.cli.change_output import replace_from_report
            for line in replace_from_report(store, rep, settings):
                print(line, file=sys.stderr)
        for d in rep.same_title if not args.replace else []:
            print(f"  skipped: {d['title']} has the title of a document already indexed, with other text; "
                  "add --replace to replace it", file=sys.stderr)
    if not store.count("documents"):
        raise UserError("the workspace has no documents to index")
    if args.reindex:
        _reindex(store, settings)
    save_settings(args.workspace, settings)
    bar = Bar(args.quiet)
    summary = run_index(store, settings, on_progress=bar, run_id=args.run_id)
    if not bar.quiet:
        sys.stderr.write("\n")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        c, u = summary["counts"], summary["usage"]
        print(f"{summary['status']}: {c['documents']} documents, {c['text_units']} text units, "
              f"{c['entities']} entities, {c['relationships']} relationships, {c['claims']} claims, "
              f"{c['communities']} communities, {c['community_reports']} reports "
              f"(engine {summary['engine']}, {u.get('llm_calls', 0)} LLM calls, {u.get('cache_hits', 0)} cache hits)")
        if summary["error"]:
            print(summary["error"], file=sys.stderr)
        from core.cli.change_output import print_changes
        print_changes(summary)
    for event in summary["counts"].get("server_events") or []:
        print(f"model server: {event}", file=sys.stderr)
    if summary["status"] == "finished with failures":
        _print_failures(store)
    return 0 if summary["status"] == "finished" else 1


def _print_failures(store, first: int = 3) -> None:
    """How many items failed and the first reasons (the exit status is 1: a script can tell)."""
    from core.index.background import failed_items
    items = failed_items(store)
    units = sum(i["kind"] == "text unit" for i in items)
    print(f"{len(items)} item{'s' * (len(items) != 1)} failed ({units} text unit{'s' * (units != 1)}, "
          f"{len(items) - units} other); they are kept as failed and the next run retries them:",
          file=sys.stderr)
    for i in items[:first]:
        print(f"  {i['kind']} {i['item']}: {i['error']}", file=sys.stderr)
    if len(items) > first:
        print(f"  ... and {len(items) - first} more (sensemaker status -w WORKSPACE)", file=sys.stderr)


def _reindex(store, settings) -> None:
    """Say what indexing everything again costs, then drop the old index (documents stay)."""
    from core.index.reindex import reindex_estimate, reset_for_reindex
    est = reindex_estimate(store, settings)
    cost = "free (offline engine, no model calls)" if est["engine"] == "offline" else (
        f"~{est['llm_calls']:,} LLM calls, ~{est['prompt_tokens'] + est['completion_tokens']:,} tokens, "
        f"~${est['cost']:.2f} with {est.get('model')} at most (calls in the LLM cache are free)")
    print(f"re-indexing {store.count('documents')} documents ({est['chunks']} chunks): {cost}",
          file=sys.stderr)
    dropped = reset_for_reindex(store)
    print(f"dropped the old index: {dropped['entities']} entities, {dropped['relationships']} "
          f"relationships, {dropped['community_reports']} reports; documents and LLM cache kept",
          file=sys.stderr)


def cmd_status(args) -> int:
    from core.index.pipeline import last_runs

    from core.index.background import current_run

    store = _open(args.workspace, create=False)
    current_run(store)  # a run whose process died is shown as interrupted, not running
    counts = store.counts()
    levels = store.distinct("communities", "level")
    runs = last_runs(store, 5)
    if args.json:
        print(json.dumps({"counts": counts, "levels": levels, "runs": runs}, indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"workspace {Path(args.workspace).resolve()}")
    for table in ("documents", "text_units", "entities", "relationships", "claims", "communities",
                  "community_reports", "embeddings", "query_traces"):
        print(f"  {table:<18} {counts[table]:>8}")
    print(f"  community levels   {', '.join(map(str, levels)) or '-'}")
    print("last runs:")
    for r in runs:
        print(f"  {r['started_at']}  {r['status']:<22} engine={r['engine']} llm_calls={r['llm_calls'] or 0} "
              f"tokens={(r['prompt_tokens'] or 0) + (r['completion_tokens'] or 0)} cache_hits={r['cache_hits'] or 0}"
              + (f"  error: {r['error']}" if r.get("error") else ""))
    return 0


def cmd_check(args) -> int:
    from core.store.check import check_workspace

    res = check_workspace(_open(args.workspace, create=False))
    if args.json:
        print(json.dumps({"ok": res.ok, "checked": res.checked, "problems": res.problems}, indent=2))
    else:
        for p in res.problems[:200]:
            print(f"{p['table']} {p['row'] if p['row'] is not None else ''}: {p['problem']}")
        print(res.summary())
    return 0 if res.ok else 1


def cmd_merges(args) -> int:
    from core.index.entity_resolution import undo_merge
    from core.index.pipeline import run_index
    from core.settings import load_settings

    store = _open(args.workspace, create=False)
    if args.undo:
        row = undo_merge(store, args.undo)
        print(f"undid the merge of {row['merged']} into {row['into']}; rebuilding the graph", file=sys.stderr)
        run_index(store, load_settings(args.workspace))
    for r in store.rows("entity_merges", order_by="merged"):
        print(f"{r['status']:<7} {r['merged']} -> {r['into']}  ({r['reason']})")
    return 0


def cmd_app(args) -> int:
    from core.index.background import ensure_sample_workspace
    from core.store.workspace import workspaces_root

    root = workspaces_root()
    root.mkdir(parents=True, exist_ok=True)
    if not args.no_sample:
        print(f"preparing the sample workspace in {root} ...", file=sys.stderr)
        ensure_sample_workspace(root)
    app = Path(__file__).resolve().parents[2] / "app.py"
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(args.port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    env = dict(os.environ, SENSEMAKER_HOME=str(root))  # the app runs in the repo: same root
    from core.cli.auth_config import secrets_files
    files = secrets_files(env, root, app.parent, args.port)
    if files:  # SENSEMAKER_OIDC_*: sign-in required (pages/components/auth.py)
        for f in files:
            cmd += ["--secrets.files", f]
    if args.no_sample:
        env["SENSEMAKER_NO_SAMPLE"] = "1"  # the app itself skips the sample too
    return _serve(cmd, cwd=app.parent, env=env)


def _serve(cmd: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Run Streamlit in the place of this process where the system allows it (POSIX), so the
    pid a user or a service manager holds is the server's and SIGTERM stops the server; else
    as a child that is terminated when this process is."""
    if hasattr(os, "execve") and os.name == "posix":
        os.chdir(cwd)
        os.execve(cmd[0], cmd, env)  # does not return
    proc = subprocess.Popen(cmd, cwd=str(cwd), env=env)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        return proc.wait()

"""`sensemaker remove`: take documents out of an indexed workspace, recomputing only what they
touched; and the change summary every index run prints (`index`, `remove`, `index --replace`)."""
from __future__ import annotations

import argparse
import json
import sys

from core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("remove", help="remove documents (by title, file name or id) and everything only they "
                                      "supported; the graph, communities and reports are updated")
    p.add_argument("documents", nargs="+", metavar="DOC", help="document title, file name or id")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder")
    p.add_argument("--dry-run", action="store_true", help="say what would go, change nothing")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the run summary (with its changes) as JSON")
    p.set_defaults(func=cmd_remove)


def cmd_remove(args) -> int:
    from core.cli.change_output import print_changes
    from core.cli.index import Bar, _log_client_events
    from core.index.lifecycle import find_documents, pending_change, remove_documents, removal_preview
    from core.index.pipeline import run_index
    from core.settings import load_settings

    from core.store.backends import has_store
    if not has_store(args.workspace):
        raise UserError(f"no workspace at {args.workspace}")
    from core.cli.acting import open_store
    store = open_store(args.workspace, "remove")
    docs, missing = find_documents(store, args.documents)
    if args.dry_run:
        if missing:
            raise UserError(f"no document named {', '.join(repr(m) for m in missing)} in this workspace")
        p = removal_preview(store, [d["id"] for d in docs])
        print(f"would remove {p['documents']} documents: {p['text_units']} text units, {p['entities']} entities "
              f"and {p['relationships']} relationships only they support, {p['claims']} claims; "
              f"{p['entities_kept']} entities they mention stay (supported elsewhere)")
        return 0
    _log_client_events()
    gone = remove_documents(store, args.documents)
    if gone["titles"]:
        print(f"removed {', '.join(gone['titles'])}: {gone['text_units']} text units, {gone['entities']} entities, "
              f"{gone['relationships']} relationships; updating the graph", file=sys.stderr)
    elif pending_change(store):
        print("finishing the removal that was interrupted", file=sys.stderr)
    bar = Bar(args.quiet)
    summary = run_index(store, load_settings(args.workspace), on_progress=bar, operation="remove")
    if not bar.quiet:
        sys.stderr.write("\n")
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print(f"{summary['status']}: {summary['counts']['documents']} documents left")
        print_changes(summary)
    return 0 if summary["status"] in ("finished", "finished with failures") else 1

"""`sensemaker import-graphrag DIR --workspace W [--replace]` and
`sensemaker export --workspace W --format graphml|parquet|csv --out DIR`."""
from __future__ import annotations

import argparse
import sys

from core.interop.export import FORMATS, export_workspace
from core.interop.graphrag_import import check_source, import_graphrag
from core.errors import UserError
from core.cli.acting import open_store
from core.store.backends import has_store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import-graphrag", help="open a Microsoft GraphRAG index (its output folder)")
    p.add_argument("source", metavar="DIR", help="graphrag output folder (entities.parquet, ...)")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder to import into")
    p.add_argument("--replace", action="store_true",
                   help="replace the index the workspace already holds")
    p.set_defaults(func=run_import)

    p = sub.add_parser("export", help="export a workspace as GraphML, graphrag parquet or CSV")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder")
    p.add_argument("--format", required=True, choices=FORMATS)
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    p.add_argument("--no-questions", action="store_true",
                   help="leave out the questions asked and their answers (CSV: query_traces, llm_cache)")
    p.set_defaults(func=run_export)


def _progress(stage: str, done: int, total: int, message: str) -> None:
    print(f"  {stage} {done}/{total} {message}", file=sys.stderr)


def run_import(args: argparse.Namespace) -> int:
    check_source(args.source)  # before the workspace folder is created
    report = import_graphrag(args.source, open_store(args.workspace, "index"), on_progress=_progress,
                             replace=args.replace)
    print(f"imported {report.source} into {args.workspace} (run {report.run_id})")
    for table, n in report.counts.items():
        print(f"  {table:<18} {n}")
    for m in report.messages:
        print(f"  - {m}")
    for w in report.warnings:
        print(f"  ! {w}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    if not has_store(args.workspace):
        raise UserError(f"no workspace at {args.workspace} (nothing to export)")
    paths = export_workspace(open_store(args.workspace, "export"), args.format, args.out, on_progress=_progress,
                             questions=not args.no_questions)
    print(f"wrote {len(paths)} {args.format} file(s) to {args.out}")
    for p in paths:
        print(f"  {p}")
    return 0

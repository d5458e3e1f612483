"""`sensemaker verify --workspace DIR [--json]`: check the citations of every community report.

Prints the dangling references, the findings their cited sources do not support, and a summary
line. Exit code 0 whatever it finds (it is a report); 2 when the workspace does not exist.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import UserError
from core.query.verify import verify_reports
from core.store.db import DB_FILE, Store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check every report's citations: dangling references and "
                                      "findings their sources do not support")
    p.add_argument("--workspace", required=True, help="workspace folder")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_verify)


def open_workspace(path: str) -> Store:
    folder = Path(path)
    if not folder.is_dir():
        raise UserError(f"workspace {path} does not exist")
    if not (folder / DB_FILE).is_file():
        raise UserError(f"{path} is not a Sensemaker workspace (no {DB_FILE}); index or import "
                        "a corpus into it first")
    return Store(folder)


def _one_line(text: str, width: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def run_verify(args: argparse.Namespace) -> int:
    store = open_workspace(args.workspace)
    result = verify_reports(store)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    out = sys.stdout
    if result.dangling:
        print(f"dangling references ({len(result.dangling)}):", file=out)
        for d in result.dangling:
            print(f"  report {d['report']} finding {d['finding']}: {d['kind']} ({d['id']}) does "
                  f"not exist  in {_one_line(d['marker'], 100)}", file=out)
    if result.unsupported:
        print(f"unsupported findings ({result.unsupported_count}):", file=out)
        for u in result.unsupported:
            print(f"  report {u['report']} finding {u['finding']} (score {u['score']:.2f}): "
                  f"{_one_line(u['sentence'])}", file=out)
            if u["best_sentence"]:
                print(f"      closest source sentence: {_one_line(u['best_sentence'], 140)}",
                      file=out)
    print(result.summary(), file=out)
    return 0

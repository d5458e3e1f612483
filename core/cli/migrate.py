"""`sensemaker migrate --workspace W --to postgresql://...`: move a workspace's tables from its
SQLite file into the team's PostgreSQL database (core.store.migrate)."""
from __future__ import annotations

import argparse
import os
import sys

from core.cli.acting import open_store
from core.errors import UserError
from core.store.backends import database_url, has_store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("migrate", help="move a workspace's tables from SQLite into PostgreSQL")
    p.add_argument("--workspace", "-w", required=True, help="workspace folder (or the app's workspace name)")
    p.add_argument("--to", metavar="URL", default=None,
                   help="the PostgreSQL database, postgresql://user:password@host:5432/db "
                        "(default: SENSEMAKER_DATABASE_URL)")
    p.set_defaults(func=run_migrate)


def run_migrate(args: argparse.Namespace) -> int:
    from core.store.migrate import KEPT, migrate_to_postgres
    url = args.to or database_url(os.environ)
    if not url:
        raise UserError("say where to: --to postgresql://user:password@host:5432/database "
                        "(or set SENSEMAKER_DATABASE_URL)")
    if not has_store(args.workspace):
        raise UserError(f"no workspace at {args.workspace}")
    store = open_store(args.workspace, "delete")
    copied = migrate_to_postgres(store, url, on_progress=lambda t, i, n: print(f"  {i}/{n} {t}", file=sys.stderr))
    rows = sum(copied.values())
    print(f"moved {rows} rows in {len([t for t, n in copied.items() if n])} tables of {args.workspace} into PostgreSQL; "
          f"the SQLite file is kept as {KEPT}")
    if database_url(os.environ) != url:
        print("open it with SENSEMAKER_DATABASE_URL set to that database (the app and every command)")
    return 0

"""`sensemaker worker`: run the index jobs the app queues in team mode (core.index.jobs)."""
from __future__ import annotations

import argparse
import logging
import os
import sys

from core.errors import UserError
from core.store.backends import database_url


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worker", help="run queued index runs (team mode: SENSEMAKER_DATABASE_URL)")
    p.add_argument("--name", default=None, help="the worker's name in logs (default: host-pid)")
    p.add_argument("--stalled-after", type=float, default=30.0, metavar="SECONDS",
                   help="a job whose worker sent no heartbeat for this long goes to another worker (default 30)")
    p.set_defaults(func=run_worker)


def run_worker(args: argparse.Namespace) -> int:
    from core.index.jobs import serve
    url = database_url(os.environ)
    if not url:
        raise UserError("a worker runs the team's queued index runs: set SENSEMAKER_DATABASE_URL=postgresql://... "
                        "to the team database (and the model endpoint as for `sensemaker index`)")
    from core.store.postgres import check_database
    check_database(url)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("procrastinate").setLevel(logging.WARNING)
    print(f"worker {args.name or ''} waiting for index runs (Ctrl+C stops after the run in hand)".replace("  ", " "),
          file=sys.stderr)
    serve(url, name=args.name, stalled_after=args.stalled_after)
    return 0

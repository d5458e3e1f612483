"""`sensemaker token create|list|revoke`: API tokens the command line acts with (SENSEMAKER_TOKEN).
A user makes their own (in the app's sidebar, or here with SENSEMAKER_TOKEN or SENSEMAKER_USER
naming them); whoever runs commands on the server itself (the local user) may make one for any
user with --user."""
from __future__ import annotations

import argparse
import os
import sys

from core.cli.acting import acting_user
from core.errors import UserError
from core.store.team import open_team
from core.store.workspace import workspaces_root


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("token", help="API tokens the command line acts with (SENSEMAKER_TOKEN)")
    p.add_argument("action", choices=["create", "list", "revoke"])
    p.add_argument("handle", nargs="?", help="revoke: the token's handle, as `token list` shows it")
    p.add_argument("--name", default="command line", help="create: what the token is for (a machine, a script)")
    p.add_argument("--user", default=None, help="the user (the local user only: for another user)")
    p.set_defaults(func=run_token)


def run_token(args: argparse.Namespace) -> int:
    root = workspaces_root(os.environ)
    who = acting_user(root=root)
    user = args.user or (None if who.local else who.id)
    if user is None:
        raise UserError("say whose token: --user SUBJECT-OR-EMAIL (as the team's sign-in names them)")
    if not who.local and user != who.id:
        raise UserError(f"you act as {who.id}: you may manage only your own tokens")
    team = open_team(root)
    if args.action == "create":
        token = team.add_token(user, args.name, who.email if not who.local else (user if "@" in user else None))
        print(token)
        print(f"a token acting as {user} ({args.name}); shown once, keep it secret. Use it as "
              "SENSEMAKER_TOKEN=... sensemaker COMMAND", file=sys.stderr)
    elif args.action == "list":
        for t in team.tokens_of(user):
            print(f"{t['id']}  {t['name']}  created {t['created_at']}  last used {t['last_used_at'] or 'never'}")
    else:
        if not args.handle:
            raise UserError("say which token: sensemaker token revoke HANDLE (`sensemaker token list` shows them)")
        if not team.revoke_token(user, args.handle):
            raise UserError(f"no token {args.handle!r} of {user} (`sensemaker token list` shows them)")
        print(f"revoked {args.handle}")
    return 0

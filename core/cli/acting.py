"""Who the command line acts as. Without SENSEMAKER_USER or SENSEMAKER_TOKEN it is the local user,
who owns every workspace, as always. With SENSEMAKER_TOKEN (an API token a user made in the app,
or with `sensemaker token create`), the user the token belongs to; with SENSEMAKER_USER (a subject
or e-mail address the team's sign-in gives; for whoever runs commands on the server itself), that
user. A command then opens its workspace for them: their role there (core.store.access) decides
what it may do, and what it does goes into the workspace's audit log."""
from __future__ import annotations

import os
from pathlib import Path

from core.access import LOCAL, Principal
from core.errors import UserError
from core.store.backends import store_at
from core.store.db import Store


def acting_user(env=os.environ, root: str | Path | None = None) -> Principal:
    token = (env.get("SENSEMAKER_TOKEN") or "").strip()
    if token:
        from core.store.team import open_team
        from core.store.workspace import workspaces_root
        found = open_team(Path(root) if root is not None else workspaces_root(env), env).token_user(token)
        if found is None:
            raise UserError("SENSEMAKER_TOKEN is not a token of this team: it was revoked or mistyped "
                            "(make a new one in the app's sidebar, or with `sensemaker token create`)")
        return Principal(found[0], found[1] or found[0], found[1])
    user = (env.get("SENSEMAKER_USER") or "").strip()
    if not user:
        return LOCAL
    return Principal(user, user, user if "@" in user else None)


def open_store(path: str | Path, action: str = "browse") -> Store:
    """The workspace's store, for the acting user (Forbidden, a UserError, when their role in it
    does not allow `action`)."""
    path = Path(path)
    who = acting_user(root=path.resolve().parent)
    if who.local:
        return store_at(path)
    from core.store.access import Access
    acc = Access.for_root(path.resolve().parent)
    store = acc.open_for(who, path.name, path, action)
    acc.log(who, path.name, action, "command line")
    return store

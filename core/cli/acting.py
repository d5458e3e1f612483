"""Who the command line acts as. Without SENSEMAKER_USER it is the local user, who owns every
workspace, as always. With SENSEMAKER_USER set (a subject or e-mail address the team's sign-in
gives), a command opens its workspace for that user: their role there (core.store.access) decides
what the command may do, and what it does goes into the workspace's audit log."""
from __future__ import annotations

import os
from pathlib import Path

from core.access import LOCAL, Principal
from core.store.backends import store_at
from core.store.db import Store


def acting_user(env=os.environ) -> Principal:
    user = (env.get("SENSEMAKER_USER") or "").strip()
    if not user:
        return LOCAL
    return Principal(user, user, user if "@" in user else None)


def open_store(path: str | Path, action: str = "browse") -> Store:
    """The workspace's store, for the acting user (Forbidden, a UserError, when their role in it
    does not allow `action`)."""
    path = Path(path)
    who = acting_user()
    if who.local:
        return store_at(path)
    from core.store.access import Access
    acc = Access.for_root(path.resolve().parent)
    store = acc.open_for(who, path.name, path, action)
    acc.log(who, path.name, action, "command line")
    return store

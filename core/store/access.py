"""Roles per workspace, enforced on the Store a core entry point is given.

A Store opened for a signed-in user (`open_for`) carries that Principal and the user's role in its
workspace; the core entry points that read or write a workspace call `require(store, action)`
first, so a viewer's store refuses to index whatever the screen showed. A Store opened any other
way (the CLI, tests, an app without login) is the local user's, who owns every workspace, as
Sensemaker always was. Roles: viewer (browse, ask, verify, export), editor (also upload, index,
remove, replace), owner (also rename, delete, share and read the audit log). Who holds which
role, and the audit log, live in the team database (core.store.team)."""
from __future__ import annotations

import os
from pathlib import Path

from core.access import LOCAL, Principal
from core.errors import UserError
from core.store.backends import store_at
from core.store.db import Store
from core.store.team import ROLES, TeamStore, open_team

ACTIONS = {"browse": "viewer", "ask": "viewer", "verify": "viewer", "export": "viewer",
           "upload": "editor", "index": "editor", "remove": "editor", "replace": "editor",
           "rename": "owner", "delete": "owner", "share": "owner", "audit": "owner"}
_WORDS = {"browse": "open", "ask": "ask questions of", "verify": "check texts against", "export": "export",
          "upload": "add documents to", "index": "index", "remove": "remove documents from",
          "replace": "replace documents of", "rename": "rename", "delete": "delete", "share": "share",
          "audit": "read the audit log of"}


class Forbidden(UserError):
    """The signed-in user's role in the workspace does not allow what was asked."""


def _rank(role: str | None) -> int:
    return ROLES.index(role) if role in ROLES else -1


class Access:
    """Who may do what where: the team database's roles, and the administrators named by
    SENSEMAKER_ADMINS (subjects or e-mail addresses), who own every workspace."""

    def __init__(self, team: TeamStore, admins: frozenset[str] = frozenset()):
        self.team = team
        self.admins = admins

    @classmethod
    def for_root(cls, root: str | Path, env=os.environ) -> "Access":
        admins = frozenset(a.strip().lower() for a in (env.get("SENSEMAKER_ADMINS") or "").split(",") if a.strip())
        return cls(open_team(root, env), admins)

    def role(self, who: Principal, workspace: str) -> str | None:
        if who.local or who.id.lower() in self.admins or (who.email or "").lower() in self.admins:
            return "owner"
        ids = [who.id] + ([who.email] if who.email else [])
        return max((self.team.role(workspace, i) for i in ids), key=_rank, default=None)

    def require(self, who: Principal, workspace: str, action: str) -> None:
        """Forbidden unless who's role in the workspace allows the action."""
        check(who, workspace, self.role(who, workspace), action)

    def may(self, who: Principal, workspace: str, action: str) -> bool:
        return _rank(self.role(who, workspace)) >= _rank(ACTIONS[action])

    def visible(self, who: Principal, names: list[str]) -> list[str]:
        return [n for n in names if self.role(who, n) is not None]

    def open_for(self, who: Principal, workspace: str, path: Path, action: str = "browse") -> Store:
        """The workspace's Store, carrying who uses it and their role; Forbidden when they may
        not do `action` there (a workspace they hold no role in: they may not see it)."""
        role = self.role(who, workspace)
        check(who, workspace, role, action)
        store = store_at(path)
        store.principal, store.role = who, role
        return store

    def refresh(self, store: Store, workspace: str) -> None:
        """Read the user's role again (an owner may have changed it since the store was opened)."""
        who = getattr(store, "principal", LOCAL)
        store.role = self.role(who, workspace)

    def created(self, who: Principal, workspace: str) -> None:
        if not who.local:
            self.team.grant(workspace, who.id, "owner", by=who.id)
            self.log(who, workspace, "create")

    def share(self, who: Principal, workspace: str, user_id: str, role: str | None) -> None:
        """Give user_id this role in the workspace (None: take every role away); owners only."""
        self.require(who, workspace, "share")
        user_id = (user_id or "").strip()
        if not user_id:
            raise UserError("name the user to share with: the subject or e-mail address their sign-in gives")
        if role is None:
            self.team.revoke(workspace, user_id)
        else:
            self.team.grant(workspace, user_id, role, by=who.id)
        self.log(who, workspace, "share", f"{user_id}: {role or 'no role'}")

    def log(self, who: Principal, workspace: str | None, action: str, detail: str = "") -> None:
        if not who.local:
            self.team.log(who.id, workspace, action, detail)

    def audit(self, who: Principal, workspace: str) -> list[dict]:
        self.require(who, workspace, "audit")
        return self.team.audit(workspace)


def check(who: Principal, workspace: str, role: str | None, action: str) -> None:
    if _rank(role) >= _rank(ACTIONS[action]):
        return
    if role is None:
        raise Forbidden(f"You ({who.label}) may not see workspace \"{workspace}\": ask one of its owners to share it.")
    raise Forbidden(f"You ({who.label}) may not {_WORDS[action]} workspace \"{workspace}\": your role there is "
                    f"{role}, and that needs {ACTIONS[action]}. An owner of the workspace can change your role.")


def require(store: Store, action: str) -> None:
    """Called first by each core entry point that reads or writes a workspace: Forbidden unless
    the store's user may do `action` there (a store opened without a user is the local user's)."""
    who = getattr(store, "principal", LOCAL)
    if who.local:
        return
    check(who, Path(store.workspace).name, getattr(store, "role", None), action)

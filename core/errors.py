"""The base of every error a user can cause or fix (bad file, bad setting, unreachable model...).
Its message is shown as it is, in the CLI and in the app; anything else is a bug."""
from __future__ import annotations


class UserError(Exception):
    """An error whose message is written for the user."""


def user_message(exc: BaseException) -> str | None:
    if isinstance(exc, (UserError, FileNotFoundError, PermissionError)):
        return str(exc) or exc.__class__.__name__
    return None

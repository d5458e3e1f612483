"""Login settings for `sensemaker app` from the environment: SENSEMAKER_OIDC_METADATA_URL (the
provider's /.well-known/openid-configuration), SENSEMAKER_OIDC_CLIENT_ID and _CLIENT_SECRET,
optionally SENSEMAKER_OIDC_REDIRECT_URI (default http://localhost:PORT/oauth2callback) and
SENSEMAKER_OIDC_COOKIE_SECRET (default: one generated once and kept in the workspaces folder).
They become the [auth] section Streamlit's st.login reads, in a file only the owner may read,
passed with the secrets files Streamlit would read anyway (.streamlit/secrets.toml beside the app
and in the home folder)."""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from core.errors import UserError

_REQUIRED = ("SENSEMAKER_OIDC_METADATA_URL", "SENSEMAKER_OIDC_CLIENT_ID", "SENSEMAKER_OIDC_CLIENT_SECRET")


def secrets_files(env: dict[str, str], root: Path, app_dir: Path, port: int) -> list[str] | None:
    """The secrets files to start Streamlit with, or None when no SENSEMAKER_OIDC_* is set."""
    if not any(env.get(k) for k in _REQUIRED):
        return None
    missing = [k for k in _REQUIRED if not env.get(k)]
    if missing:
        raise UserError(f"login is half configured: set {', '.join(missing)} too (or none of the "
                        "SENSEMAKER_OIDC_* variables, for an app without login)")
    cookie = env.get("SENSEMAKER_OIDC_COOKIE_SECRET") or _kept_secret(root / ".auth_cookie_secret")
    values = {"redirect_uri": env.get("SENSEMAKER_OIDC_REDIRECT_URI") or f"http://localhost:{port}/oauth2callback",
              "cookie_secret": cookie, "client_id": env["SENSEMAKER_OIDC_CLIENT_ID"],
              "client_secret": env["SENSEMAKER_OIDC_CLIENT_SECRET"],
              "server_metadata_url": env["SENSEMAKER_OIDC_METADATA_URL"]}
    path = root / ".auth_secrets.toml"
    body = "[auth]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())  # a JSON string is a TOML string
    _write_private(path, body)
    defaults = [app_dir / ".streamlit" / "secrets.toml", Path.home() / ".streamlit" / "secrets.toml"]
    return [str(p) for p in defaults if p.is_file()] + [str(path)]


def _kept_secret(path: Path) -> str:
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    value = secrets.token_urlsafe(32)
    _write_private(path, value)
    return value


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)

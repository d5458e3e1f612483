"""Sign-in (issue 36, first part) under Streamlit's AppTest: without a login configured the app
runs as the one local user and the sidebar says so; with an [auth] section and nobody signed in,
only the sign-in screen is drawn, whichever page a link opens. The sign-in itself, against a real
OpenID provider, is tests/test_browser_login.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import build_workspace
from core.access import from_claims
from core.cli.auth_config import secrets_files
from core.errors import UserError

APP = str(Path(__file__).resolve().parent / "app_entry.py")


def _app(home: Path, monkeypatch) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    build_workspace(home, "harbour-inquiry", [("note.txt", b"Maria Okafor inspected Berth 2.\n")])
    return AppTest.from_file(APP, default_timeout=60)


def _texts(at: AppTest) -> str:
    return " ".join(str(getattr(e, "value", "")) for e in [*at.caption, *at.markdown, *at.sidebar.caption])


def test_without_login_the_app_is_the_local_users_and_says_so(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch)
    at.run()
    assert not at.exception
    assert "Local user: no login is configured" in " ".join(c.value for c in at.sidebar.caption)
    assert at.sidebar.selectbox[0].value == "harbour-inquiry"


def test_with_login_configured_nobody_sees_a_workspace_before_signing_in(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch)
    at.secrets["auth"] = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "x" * 32,
                          "client_id": "sensemaker", "client_secret": "s",
                          "server_metadata_url": "http://localhost:1/.well-known/openid-configuration"}
    at.query_params["ws"] = "harbour-inquiry"
    at.run()
    assert not at.exception
    assert [b.label for b in at.button] == ["Sign in"]
    assert not at.sidebar.selectbox and "harbour-inquiry" not in _texts(at)


def test_the_signed_in_user_is_named_by_the_providers_claims():
    who = from_claims({"sub": "u-17", "email": "alice@example.org", "name": "Alice Analyst"})
    assert (who.id, who.label, who.local) == ("u-17", "Alice Analyst (alice@example.org)", False)
    with pytest.raises(ValueError, match="no subject"):
        from_claims({"name": "nobody"})


def test_login_settings_from_the_environment_are_all_or_nothing(tmp_path):
    assert secrets_files({}, tmp_path, tmp_path, 8501) is None
    with pytest.raises(UserError, match="SENSEMAKER_OIDC_CLIENT_SECRET"):
        secrets_files({"SENSEMAKER_OIDC_METADATA_URL": "http://idp/.well-known/openid-configuration",
                       "SENSEMAKER_OIDC_CLIENT_ID": "sensemaker"}, tmp_path, tmp_path, 8501)
    env = {"SENSEMAKER_OIDC_METADATA_URL": "http://idp/.well-known/openid-configuration",
           "SENSEMAKER_OIDC_CLIENT_ID": "sensemaker", "SENSEMAKER_OIDC_CLIENT_SECRET": 'a"b'}
    (path,) = secrets_files(env, tmp_path, tmp_path, 8600)
    text = Path(path).read_text()
    assert 'client_secret = "a\\"b"' in text and 'redirect_uri = "http://localhost:8600/oauth2callback"' in text
    cookie = (tmp_path / ".auth_cookie_secret").read_text()
    assert len(cookie) >= 32 and secrets_files(env, tmp_path, tmp_path, 8600) and \
        (tmp_path / ".auth_cookie_secret").read_text() == cookie  # kept across restarts

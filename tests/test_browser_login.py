"""Team mode (issue 36): with SENSEMAKER_OIDC_* set, `sensemaker app` requires signing in with
OpenID Connect (Streamlit's st.login), here against a real local provider (oidc-provider-mock):
before signing in the app shows nothing of any workspace, after it the workspaces the user holds
a role in and who is signed in, and signing out closes them again. A viewer sees no upload, index
or remove control (core refuses them too: tests/test_access.py), and a forged link to a workspace
they hold no role in says so and shows nothing of it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import build_workspace
from tests.app_server import running_sign_in_app

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium", allow_module_level=True)

from oidc_provider_mock import User, run_server_in_thread  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

SENTINEL = "harbour-inquiry"
SECRET = "board-minutes"  # nobody shares it with bob
HOME: dict = {}


@pytest.fixture(scope="module")
def provider():
    alice = User(sub="alice", claims={"email": "alice@example.org", "name": "Alice Analyst"})
    bob = User(sub="bob", claims={"email": "bob@example.org", "name": "Bob Reader"})
    with run_server_in_thread(port=0, user_claims=[alice, bob]) as server:
        yield f"http://localhost:{server.server_port}"


@pytest.fixture(scope="module")
def app(provider, tmp_path_factory):
    home = tmp_path_factory.mktemp("login-home")
    build_workspace(home, SENTINEL, [("note.txt", b"Maria Okafor inspected Berth 2 at Tanner Quay.\n")])
    build_workspace(home, SECRET, [("minutes.txt", b"The board agreed the budget in closed session.\n")])
    from core.store.team import TeamStore
    team = TeamStore(home)
    team.grant(SENTINEL, "alice", "owner", by="setup")
    team.grant(SENTINEL, "bob@example.org", "viewer", by="alice")
    oidc = {"SENSEMAKER_OIDC_METADATA_URL": f"{provider}/.well-known/openid-configuration",
            "SENSEMAKER_OIDC_CLIENT_ID": "sensemaker", "SENSEMAKER_OIDC_CLIENT_SECRET": "not-a-secret"}
    HOME["path"] = home
    with running_sign_in_app(home, oidc) as url:
        secrets = home / ".auth_secrets.toml"
        assert secrets.stat().st_mode & 0o077 == 0, "the login secrets file is readable by others"
        yield url


@pytest.fixture()
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(30_000)
        yield page
        browser.close()


def _sign_in(page, app: str, user: str) -> None:
    """From the sign-in screen: the provider's one-click user, and back into the app."""
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/oauth2/authorize**")
    page.get_by_role("button", name=user).click()
    page.wait_for_url(app + "/**")
    _settle(page)


def _settle(page) -> None:
    page.wait_for_timeout(300)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=60_000)


def test_nothing_shows_before_signing_in_and_the_workspaces_after(app, page):
    for path in ("/", f"/ask?ws={SENTINEL}", f"/corpus?ws={SENTINEL}"):  # deep links too
        page.goto(app + path)
        _settle(page)
        expect(page.get_by_role("button", name="Sign in")).to_be_visible()
        assert SENTINEL not in page.content()
    _sign_in(page, app, "alice")
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text("Signed in as Alice Analyst (alice@example.org)")).to_be_visible()
    expect(sidebar.get_by_role("combobox").first).to_be_visible()  # the workspace picker
    assert SENTINEL in page.content()
    sidebar.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/oauth2/end_session**")  # the provider's own sign-out page
    page.goto(app + f"/ask?ws={SENTINEL}")
    _settle(page)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert SENTINEL not in page.content()


def test_a_viewer_reads_without_controls_and_a_forged_link_shows_nothing(app, page):
    page.goto(app + f"/corpus?ws={SENTINEL}")
    _settle(page)
    _sign_in(page, app, "bob")
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("Your role in this workspace is viewer")).to_be_visible()
    assert page.get_by_text("Drop files here").count() == 0 and page.get_by_text("Remove documents").count() == 0
    assert page.get_by_role("button", name="Rename or delete").count() == 0
    assert SECRET not in page.locator('[data-testid="stSidebar"]').inner_text()
    # a forged link to the workspace nobody shared with bob
    page.goto(app + f"/corpus?ws={SECRET}")
    _settle(page)
    expect(main.get_by_text(f'This link opens workspace "{SECRET}", which you may not see')).to_be_visible()
    assert "closed session" not in page.content() and "minutes.txt" not in page.content()
    page.goto(app + f"/ask?ws={SECRET}")
    _settle(page)
    expect(main.get_by_text("which you may not see")).to_be_visible()



def _cli(args: list[str], token: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENSEMAKER_"))}
    env.update(SENSEMAKER_HOME=str(HOME["path"]), SENSEMAKER_TOKEN=token)
    return subprocess.run([sys.executable, "-m", "core.cli.main", *args], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[1], timeout=300)


def test_a_token_made_in_the_app_lets_the_command_line_act_as_its_user_until_revoked(app, page):
    page.goto(app + "/")
    _settle(page)
    _sign_in(page, app, "bob")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Command-line token").click()
    sidebar.get_by_role("button", name="Make a token").click()
    _settle(page)
    token = sidebar.locator("pre code").first.inner_text().strip()
    assert token.startswith("smk_")
    home = HOME["path"]
    asked = _cli(["query", "-w", str(home / SENTINEL), "--method", "basic", "What did Maria Okafor inspect?"], token)
    assert asked.returncode == 0 and "Berth 2" in asked.stdout, asked.stderr
    note = home / "more.txt"
    note.write_text("Another note.\n")
    refused = _cli(["index", "-w", str(home / SENTINEL), str(note)], token)  # bob is a viewer
    assert refused.returncode != 0 and "may not index" in refused.stderr
    hidden = _cli(["status", "-w", str(home / SECRET)], token)
    assert hidden.returncode != 0 and "may not see" in hidden.stderr and "closed session" not in hidden.stdout
    page.reload()
    _settle(page)
    sidebar.get_by_text("Command-line token").click()
    expect(sidebar.get_by_text("used 20", exact=False)).to_be_visible()  # when the CLI last used it
    sidebar.get_by_role("button", name="Revoke").first.click()
    _settle(page)
    gone = _cli(["query", "-w", str(home / SENTINEL), "--method", "basic", "What did Maria Okafor inspect?"], token)
    assert gone.returncode != 0 and "not a token of this team" in gone.stderr

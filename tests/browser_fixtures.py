"""The app served over a small indexed workspace, for the browser tests that need nothing more
(test_browser_compare, test_browser_lazy). Import the fixture into a test module:
`from browser_fixtures import SAMPLE_WS, sample_app_url  # noqa: F401`."""
from __future__ import annotations

import pytest

from app_server import running_app
from conftest import build_workspace, sample_files

SAMPLE_WS = "harbour"


@pytest.fixture(scope="module")
def sample_app_url(tmp_path_factory):
    """The app on a free port; its home holds one workspace, SAMPLE_WS: three sample documents
    indexed offline. Module scope: each test module that imports it gets its own app."""
    home = tmp_path_factory.mktemp("sample-app-home")
    build_workspace(home, SAMPLE_WS, sample_files(3))
    with running_app(home) as (url, _):
        yield url

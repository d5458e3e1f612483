"""End to end in headless Chromium: a two-method comparison on the Compare page (offline
answers, offline judge): both answers side by side with working reference chips, the verdicts,
the A/A line and the win-rate heatmap of the saved run."""
from __future__ import annotations

import pytest

from browser_fixtures import SAMPLE_WS, sample_app_url  # noqa: F401
from core.query.methods import METHODS
from test_browser_e2e import _nav, _open_first_chip, _settle, browser_page  # noqa: F401

pytestmark = pytest.mark.browser

from playwright.sync_api import expect  # noqa: E402


def test_two_method_comparison_in_the_browser(sample_app_url, browser_page):
    page = browser_page
    page.goto(f"{sample_app_url}/?ws={SAMPLE_WS}")
    _settle(page)
    expect(page.get_by_text(f"Workspace {SAMPLE_WS}", exact=False).first).to_be_visible(timeout=90_000)
    _nav(page, "Compare")
    expect(page.get_by_role("heading", name="Compare")).to_be_visible(timeout=60_000)
    box = page.get_by_placeholder("One question, answered by every method")
    expect(box).to_be_visible(timeout=60_000)
    box.fill("What are the main conflicts in the city?")
    # two methods are chosen to begin with: global and lazy (local before issue 20's lazy)
    first, second = METHODS["global"].label, METHODS["lazy" if "lazy" in METHODS else "local"].label
    form = page.locator('[data-testid="stForm"]')
    expect(form.get_by_text(first)).to_be_visible()
    expect(form.get_by_text(second)).to_be_visible()
    page.get_by_role("button", name="Compare").click()
    _settle(page)
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_role("heading", name=first)).to_be_visible(timeout=60_000)
    expect(main.get_by_role("heading", name=second)).to_be_visible()
    expect(main.get_by_text("The judge's verdicts")).to_be_visible()
    assert "A/A check passed" in main.inner_text()
    expect(page.locator(".js-plotly-plot .heatmaplayer").first).to_be_attached(timeout=30_000)
    page.step("compared")
    columns = main.locator('[data-testid="stColumn"]').filter(has=page.locator("details.sm-ev"))
    assert columns.count() >= 1
    _open_first_chip(page, columns.first)  # an answer's evidence opens in place, in its column
    page.step("compare-evidence")
    assert page.dialogs == [] and not page.errors

"""In headless Chromium: a lazy question on the Ask page (offline engine) shows its trace
(subqueries, the visited community path, the tests, the claims) and one of its citations is
followed to the highlighted source text, in place and in the evidence viewer, down to the
whole document."""
from __future__ import annotations

import re

import pytest

from browser_fixtures import SAMPLE_WS, sample_app_url  # noqa: F401
from test_browser_e2e import _open_first_chip, _open_in_viewer, _settle, browser_page  # noqa: F401

pytestmark = pytest.mark.browser

from playwright.sync_api import expect  # noqa: E402


def test_lazy_question_and_a_citation_to_its_source(sample_app_url, browser_page):
    page = browser_page
    page.goto(f"{sample_app_url}/ask?ws={SAMPLE_WS}")
    _settle(page)
    expect(page.get_by_role("heading", name="Ask")).to_be_visible()
    # the method switch shows short names since Auto became the default (issue 21)
    page.locator('[data-testid="stButtonGroup"]').get_by_text("Lazy", exact=True).click()
    _settle(page)
    page.get_by_placeholder("What happened, who was involved").fill(
        "What happened at Tanner Quay and who was responsible?")
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    expect(page.get_by_text("1. Refine: subqueries")).to_be_visible()
    expect(page.get_by_text("2. Match: communities visited, in order")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Subquery 1: \d"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"All \d+ relevance tests \(\d+ yes\)"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"\d+ claims calls · \d+ claims · \d+ in the answer's context"))).to_be_visible()
    page.step("lazy-answered")
    main = page.locator('[data-testid="stMain"]')
    label = _open_first_chip(page, main)
    assert label.startswith("Source ")
    panel = main.locator("details.sm-ev[open]").first
    mark = panel.locator("mark").first.inner_text().strip()
    assert mark and panel.locator(".sm-verdict").first.is_visible()
    page.step("lazy-evidence")
    dialog = _open_in_viewer(page, main, label)
    assert dialog.locator("mark").first.inner_text().strip() == mark
    dialog.get_by_role("button", name="Open the whole document").first.click()
    _settle(page)
    doc = page.frame_locator('[data-testid="stDialog"] iframe').first
    expect(doc.locator("mark.chunk")).to_have_count(1)
    page.step("lazy-document")
    assert page.dialogs == [] and not page.errors

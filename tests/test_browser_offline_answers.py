"""In headless Chromium, on the Operation Dulce novella from ../shared/corpora indexed offline: a
themes question shows at least three titled themes, each with a citation whose evidence opens with
the quoted sentence highlighted; "Who is Alex Mercer?" opens with who he is."""
from __future__ import annotations

import re

import pytest

from app_server import running_app
from conftest import build_workspace
from test_browser_e2e import ARGS, CHROMIUM, _open_first_chip, _settle
from test_offline_answers import DULCE

pytestmark = pytest.mark.browser

if not DULCE.exists():
    pytest.skip("../shared/corpora is not available", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("dulce-home")
    build_workspace(home, "dulce", [(DULCE.name, DULCE.read_bytes())])
    with running_app(home) as (url, _):
        yield url


def test_themes_and_who_is_in_the_browser(app_url):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(30_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(f"{app_url}/ask?ws=dulce")
            _settle(page)
            page.get_by_placeholder("What are the main themes").fill("What are the main themes of the story?")
            page.get_by_role("button", name="Ask").click()
            _settle(page)
            main = page.locator('[data-testid="stMain"]')
            # the answer is written after the script run ends ("Answering with ..."): on a loaded
            # machine that takes more than expect's 5 s
            expect(main.get_by_text(re.compile(r"\d+ themes found in \d+ community report"))).to_be_visible(timeout=90_000)
            titles = main.locator("ol li > p > strong, ol li > strong")
            expect(titles.nth(2)).to_be_visible()
            assert len({t.strip() for t in titles.all_inner_texts()}) >= 3
            _open_first_chip(page, main)  # its evidence: the quoted sentence, highlighted
            page.get_by_role("radio", name=re.compile("Local")).or_(
                page.get_by_role("button", name=re.compile("^Local"))).first.click()
            _settle(page)
            page.get_by_placeholder("What do we know").fill("Who is Alex Mercer?")
            page.get_by_role("button", name="Ask").click()
            _settle(page)
            first = main.locator('[data-testid="stMarkdownContainer"] p', has_text="unfailingly determined").first
            expect(first).to_be_visible(timeout=90_000)
            assert first.inner_text().startswith("Agent Alex Mercer, unfailingly determined on paper")
            assert not errors
        finally:
            browser.close()

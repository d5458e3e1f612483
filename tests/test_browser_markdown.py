"""In headless Chromium, a newcomer's Markdown documents: uploaded and indexed offline in the
browser, their headings are no node of the community graph, a list question gets the page's own
list, a how-to question the command the page gives, and a question about what the documents never name says so first."""
from __future__ import annotations

import re

import pytest

from app_server import running_app
from test_browser_e2e import _nav, _new_workspace, _settle, browser_page  # noqa: F401
from test_structure import PAGE

pytestmark = pytest.mark.browser

from playwright.sync_api import expect  # noqa: E402

SECOND = """# Harbourline operations

## CORE BENEFITS

Harbourline cuts berth waits for Tidewater Labs, and Ines Okafor reports the savings to the Port of
Rotterdam each month.

## Deployment

Tidewater Labs runs Harbourline on Docker at the Port of Rotterdam.

## Install Harbourline

```sh
python -m pip install harbourline
```
"""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("markdown-home")
    with running_app(home) as (url, _):
        yield url


def _graph_labels(page) -> list[str]:
    frame = next(f for f in page.frames if f != page.main_frame and f.evaluate("() => !!window.smNetwork"))
    return frame.evaluate("() => window.smNetwork.body.data.nodes.get().map(n => String(n.label))")


def _ask(page, question: str) -> None:
    box = page.locator('[data-testid="stTextArea"] textarea').first
    box.fill(question)
    page.get_by_role("button", name="Ask").click()
    _settle(page)


def test_markdown_pages_structure_lists_and_what_they_do_not_mention(app_url, browser_page):
    page = browser_page
    page.goto(app_url)
    _settle(page)
    _new_workspace(page, "harbourline docs")
    page.locator('input[type="file"]').set_input_files([
        {"name": "harbourline.md", "mimeType": "text/markdown", "buffer": PAGE.encode()},
        {"name": "operations.md", "mimeType": "text/markdown", "buffer": SECOND.encode()},
    ])
    _settle(page)
    expect(page.get_by_text("Added 2 documents", exact=False)).to_be_visible()
    page.get_by_role("button", name="Index the corpus").click()
    expect(page.get_by_text("Everything is indexed", exact=False)).to_be_visible(timeout=120_000)
    _settle(page)

    _nav(page, "Communities")
    expect(page.get_by_role("heading", name="Communities")).to_be_visible()
    expect(page.frame_locator("iframe").first.locator("#sm-graph[data-ready='1']")).to_have_count(1)
    labels = {label.upper() for label in _graph_labels(page)}
    assert labels and not labels & {"PROBLEM STATEMENT", "SUPPORTED STORES", "CORE BENEFITS",
                                     "DEPLOYMENT", "HARBOURLINE OPERATIONS"}, labels
    assert "TIDEWATER LABS" in labels

    _nav(page, "Ask")
    main = page.locator('[data-testid="stMain"]')
    _ask(page, "Which stores does Harbourline keep its schedules in?")
    items = main.locator("li", has_text=re.compile(r"^(ChromaDB|Neo4j|Redis), for "))
    expect(items.nth(2)).to_be_visible(timeout=90_000)
    assert [t.split(",")[0] for t in items.all_inner_texts()] == ["ChromaDB", "Neo4j", "Redis"]

    # a how-to question gets the command the page gives, shown as code
    _ask(page, "How do I install it?")
    expect(main.locator("code", has_text="python -m pip install harbourline").first).to_be_visible(timeout=90_000)

    _ask(page, "What did the Cedar Grove Clinic report about Harbourline?")
    expect(main.get_by_text("The documents do not mention Cedar Grove Clinic.", exact=False)
           ).to_be_visible(timeout=90_000)
    assert not page.errors and not page.dialogs, (page.errors, page.dialogs)

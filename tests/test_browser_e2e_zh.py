"""End to end in headless Chromium on a Chinese article (issue 10): upload, index offline, a
community graph whose node labels are Chinese, a Chinese global question with its map scores,
and a citation down to the highlighted Chinese sentence.

Chinese glyphs need a CJK font in the browser's system (Debian: fonts-noto-cjk); without one
they render as boxes, which this test cannot see (it reads text, not pixels). Screenshots go to
test-artifacts/ on failure, and of every step with SENSEMAKER_E2E_SHOTS=1."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app_server import running_app
from test_browser_e2e import _graph_nodes, _nav, _new_workspace, _settle, browser_page  # noqa: F401

pytestmark = pytest.mark.browser

from playwright.sync_api import expect  # noqa: E402

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
ARTICLE = CORPORA / "graphrag_articles_zh" / "article_4.txt"
CJK = re.compile(r"[\u4e00-\u9fff]")
QUESTION = "这些文章主要讨论了哪些主题？"
CHIP = re.compile(r"^(Report|Entity|Relationship|Claim|Source) \d+\b")
LABELS = "() => window.smNetwork.body.data.nodes.get().map(n => String(n.label))"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    if not ARTICLE.is_file():
        pytest.skip(f"Chinese corpus absent: {ARTICLE}")
    home = tmp_path_factory.mktemp("e2e-zh-home")
    with running_app(home) as (url, _):
        yield url


def test_chinese_article_upload_index_graph_ask_and_cite(app_url, browser_page):
    page = browser_page
    page.goto(app_url)
    _settle(page)

    _new_workspace(page, "中文 文章")
    expect(page.get_by_text("Workspace 中文-文章", exact=False)).to_be_visible()

    page.locator('input[type="file"]').set_input_files([
        {"name": "图谱文章.txt", "mimeType": "text/plain", "buffer": ARTICLE.read_bytes()}])
    _settle(page)
    expect(page.get_by_text("Added 1 document: 图谱文章.txt")).to_be_visible()
    page.get_by_role("button", name="Index the corpus").click()
    expect(page.get_by_text("Everything is indexed", exact=False)).to_be_visible(timeout=120_000)
    _settle(page)
    page.step("zh-indexed")

    # communities: the graph's node labels are Chinese where the names are
    _nav(page, "Communities")
    assert _graph_nodes(page) >= 3
    frame = page.locator("iframe").first.element_handle().content_frame()
    labels = frame.evaluate(LABELS)
    assert any(CJK.search(label) for label in labels), labels
    page.step("zh-communities")

    # a Chinese global question: batches and scores, then a citation down to a Chinese sentence
    _nav(page, "Ask")
    page.get_by_placeholder("What are the main themes").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Point scores · \d+ in the answer's context"))).to_be_visible()
    expect(page.locator(".js-plotly-plot .barlayer .point").first).to_be_attached(timeout=30_000)
    expect(page.get_by_role("button", name=QUESTION)).to_be_visible()  # in past questions
    page.step("zh-answered")
    main = page.locator('[data-testid="stMain"]')
    chip = main.locator("details.sm-ev > summary").filter(has_text=CHIP).first
    chip.click()  # the chip's evidence opens in place
    mark = main.locator("details.sm-ev[open] mark").first
    expect(mark).to_be_visible(timeout=30_000)
    assert CJK.search(mark.inner_text()), mark.inner_text()
    # the highlight is exactly one sentence of the article
    from core.textutil import split_sentences
    text = ARTICLE.read_text(encoding="utf-8")
    assert mark.inner_text().strip() in [text[a:b] for a, b in split_sentences(text)]
    page.step("zh-evidence")
    assert page.dialogs == [] and not page.errors

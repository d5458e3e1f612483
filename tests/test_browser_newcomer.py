"""The app as a newcomer meets it (issue 19), in headless Chromium: reload keeps the workspace and
the selection on every page, a graph node opens its evidence, an answer downloads as Markdown
with its evidence, and at 1,024 px no label of the default view is cut.

With SENSEMAKER_SCREENSHOTS=DIR (`make screenshots`) it also saves the pictures of the three
pages the README shows."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from app_server import open_select, running_app, select_option
from conftest import build_workspace, sample_files

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
QUESTION = "What happened at Tanner Quay and who was responsible?"

if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

# every text of the default view that the browser cuts with "...", and the value shown in a
# select box (a text input, cut without a mark)
CUT_LABELS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stMain"] *, [data-testid="stSidebar"] *')) {
    const cs = getComputedStyle(el);
    const combo = el.tagName === 'INPUT' && el.getAttribute('role') === 'combobox';
    if (!combo && cs.textOverflow !== 'ellipsis') continue;
    const text = (combo ? el.value : el.textContent).trim();
    if (!text || !el.getBoundingClientRect().width || (el.checkVisibility && !el.checkVisibility())) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push((el.getAttribute('data-testid') || el.tagName) + ': ' + text.slice(0, 60));
  }
  return out;
}"""


HOME: Path | None = None  # the module's app home, for tests that read its workspaces


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("newcomer-home")
    build_workspace(home, "harbour", sample_files(4))
    build_workspace(home, "other", sample_files(1))
    # a workspace with a document not indexed yet: the Corpus page shows the run estimate's tiles
    build_workspace(home, "pending", sample_files(2))
    from core.ingest.documents import ingest_files
    from core.store.db import Store
    ingest_files(Store(home / "pending"), sample_files(3)[2:], max_bytes=50_000_000)
    global HOME
    HOME = home
    with running_app(home) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _page(browser, width: int, height: int = 1000) -> Page:
    page = browser.new_page(viewport={"width": width, "height": height}, accept_downloads=True)
    page.set_default_timeout(30_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _settle(page: Page) -> None:
    """Wait until the page's title is drawn and Streamlit has finished running the script."""
    page.wait_for_timeout(400)
    expect(page.locator('[data-testid="stMain"] h1').first).to_be_visible(timeout=60_000)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=120_000)


def _workspace(page: Page) -> str:
    return page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"] '
                        'input[role="combobox"]').first.input_value()


def _graph_frame(page: Page):
    page.locator("iframe").first.scroll_into_view_if_needed()  # the frame loads when in view
    frame = page.frame_locator("iframe").first
    expect(frame.locator("#sm-graph[data-ready='1']")).to_have_count(1, timeout=30_000)
    return frame


def _shoot(page: Page, name: str) -> None:
    out = os.environ.get("SENSEMAKER_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / f"{name}.png"))


def test_reload_keeps_workspace_and_selection(app_url, browser):
    page = _page(browser, 1500)
    page.goto(f"{app_url}/?ws=other")
    _settle(page)
    page.locator('[data-testid="stTopNavLink"]', has_text="Communities").first.click()
    _settle(page)
    assert "ws=other" in page.url  # the top navigation keeps the workspace in the address
    page.reload()
    _settle(page)
    assert "other" in _workspace(page)
    # a community picked in the level box survives a reload
    page.goto(f"{app_url}/communities?ws=harbour")
    _settle(page)
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Level 0 community").first
    option = open_select(page, box, 1)
    picked = option.inner_text().split(" \u00b7 ")[0]
    option.click()
    _settle(page)
    heading = page.locator('[data-testid="stMain"] h3').first
    expect(heading).to_have_text(picked)
    assert "c=" in page.url
    page.reload()
    _settle(page)
    expect(page.locator('[data-testid="stMain"] h3').first).to_have_text(picked)
    assert "harbour" in _workspace(page)
    # an open question survives a reload
    page.locator('[data-testid="stTopNavLink"]', has_text="Ask").first.click()
    _settle(page)
    page.get_by_placeholder("What are the main themes").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    assert "q=" in page.url and "ws=harbour" in page.url
    page.reload()
    _settle(page)
    expect(page.locator('[data-testid="stMain"] h4').filter(has_text=QUESTION).first).to_be_visible()
    assert not page.errors


def test_node_click_shows_its_evidence_and_the_answer_downloads(app_url, browser, tmp_path):
    page = _page(browser, 1500, 1100)
    page.goto(f"{app_url}/communities?ws=harbour")
    _settle(page)
    frame = _graph_frame(page)
    iframe = page.locator("iframe").first
    iframe.scroll_into_view_if_needed()
    spot = iframe.element_handle().content_frame().evaluate("""() => {
        const net = window.smNetwork, id = net.body.data.nodes.getIds()[0];
        const r = document.getElementById("sm-graph").getBoundingClientRect();
        const p = net.canvasToDOM(net.getPositions([id])[id]);
        return {x: r.left + p.x, y: r.top + p.y, label: net.body.data.nodes.get(id).label};
    }""")
    box = iframe.bounding_box()
    page.mouse.click(box["x"] + spot["x"], box["y"] + spot["y"])
    side = frame.locator("#sm-side")
    expect(side).to_have_attribute("data-entity", spot["label"], timeout=5_000)
    expect(side.locator("blockquote mark").first).to_be_visible()  # a source sentence, its name marked
    expect(frame.locator("div.vis-tooltip")).not_to_be_visible()   # no tooltip left over the graph
    _shoot(page, "communities")  # the report beside the graph and a node's evidence under it
    # labels drawn at the default zoom never overlap
    boxes = iframe.element_handle().content_frame().evaluate("() => window.smLabels.map(l => l.b)")
    assert boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"])
    # an answer, downloaded
    page.locator('[data-testid="stTopNavLink"]', has_text="Ask").first.click()
    _settle(page)
    page.get_by_placeholder("What are the main themes").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    # the question just asked is listed under Past questions (drawn after the answer)
    expect(page.locator('[data-testid="stSidebar"] button', has_text=QUESTION[:30]).first).to_be_visible()
    _shoot(page, "ask")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the answer").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert path.suffix == ".md" and text.startswith(f"# {QUESTION}")
    assert "## Evidence" in text and "verdict: **" in text and "\n  > " in text
    page.locator('[data-testid="stTopNavLink"]', has_text="Corpus").first.click()
    _settle(page)
    _shoot(page, "corpus")
    assert not page.errors


def test_nothing_is_cut_at_1024_px(app_url, browser):
    page = _page(browser, 1024, 900)
    cut = {}
    for path, ws in (("/", "harbour"), ("/", "pending"), ("/communities", "harbour"), ("/ask", "harbour")):
        page.goto(f"{app_url}{path}?ws={ws}")
        _settle(page)
        if path == "/communities":
            _graph_frame(page)
            labels = int(page.frame_locator("iframe").first.locator("#sm-graph")
                         .get_attribute("data-labels"))
            assert labels >= 5  # the graph is wide enough to name its entities
            legend = page.frame_locator("iframe").first.locator("#sm-legend > span").all_inner_texts()
            from core.store.db import Store
            titles = {f"C{r['community']} \u00b7 {r['title']}"
                      for r in Store(HOME / "harbour").rows("community_reports", select="community, title")}
            assert legend and all(t.strip() in titles for t in legend if t.strip().startswith("C")), legend
            page.locator('[data-testid="stMain"] h1').first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        if ws == "pending":  # the estimate's four tiles are on the page
            expect(page.locator('[data-testid="stMetricLabel"]').filter(has_text="LLM calls")).to_have_count(1)
        found = page.evaluate(CUT_LABELS)
        if found:
            cut[f"{path}?ws={ws}"] = found
    assert not cut, cut


def test_another_workspace_opens_with_an_empty_question_box(app_url, browser):
    """A question typed in one workspace is not left in the box of the next one (the browser
    sent the box's text back after the switch; AppTest does not show this)."""
    page = _page(browser, 1024)
    page.goto(f"{app_url}/ask?ws=harbour")
    _settle(page)
    box = page.get_by_placeholder("What are the main themes")
    box.fill(QUESTION)
    page.keyboard.press("Tab")
    _settle(page)
    picker = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    select_option(page, picker, "other")
    _settle(page)
    assert "other" in _workspace(page)
    expect(page.locator("textarea").first).to_have_value("")
    assert not page.errors

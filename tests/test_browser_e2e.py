"""End to end in headless Chromium: the app on a free port with a temporary SENSEMAKER_HOME.

A user creates a workspace, uploads files (one is rejected with its reason), indexes them with
the offline engine, sees the community graph, asks a global question, sees the map scores, clicks
a citation and reads the highlighted source text in place, then in the evidence viewer down to
the whole document. A second session opens a workspace full of
hostile names (`<img src=x onerror=alert(1)>`): no dialog fires and no hostile element appears.

Screenshots go to test-artifacts/ when a step fails (and of every step with
SENSEMAKER_E2E_SHOTS=1)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from app_server import ROOT, running_app, select_option
from conftest import HOSTILE, HOSTILE_TEXT, HostileEngine, build_workspace

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run"]
CHIP = re.compile(r"^(Report|Entity|Relationship|Claim|Source) \d+\b")
DOCUMENT = (
    "Harbour inquiry notes.\n"
    "Maria Okafor, the Harbour Master, inspected Berth 2 at Tanner Quay on Monday.\n"
    "Maria Okafor told the Port Authority that Calloway Chemicals had not replaced the hose.\n"
    "Thomas Whitlock of Calloway Chemicals said the hose was replaced in January.\n"
    "The Port Authority asked Thomas Whitlock for the maintenance log of Berth 2.\n"
    "Mayor Helen Varga asked Maria Okafor and the Port Authority for a report.\n"
    f"A note pinned to the board read {HOSTILE} and nobody knew who wrote it.\n"
    "Calloway Chemicals and the Port Authority will meet Mayor Helen Varga at Tanner Quay.\n"
)

# an answer whose second sentence its source contradicts (the note is one text unit: Sources (0))
FLAGGED_ANSWER = ("Thomas Whitlock of Calloway Chemicals said the hose was replaced in January "
                  "[Data: Sources (0)]. Maria Okafor, the Harbour Master, inspected Berth 7 at Tanner "
                  "Quay on Monday [Data: Sources (0)].")

# where a node whose label contains the given text is drawn, in the graph frame's coordinates
NODE_SPOT = """(text) => {
    const net = window.smNetwork, nodes = net.body.data.nodes;
    const id = nodes.getIds().find(i => String(nodes.get(i).label).includes(text));
    const rect = document.getElementById("sm-graph").getBoundingClientRect();
    const p = net.canvasToDOM(net.getPositions([id])[id]);
    return {x: rect.left + p.x, y: rect.top + p.y};
}"""

if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium "
                "(.ci/run installs it: apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("e2e-home")
    build_workspace(home, "hostile", [("hostile.txt", HOSTILE_TEXT.encode())], engine=HostileEngine())
    with running_app(home) as (url, _):
        yield url


@pytest.fixture(scope="module")
def flagged_url(tmp_path_factory):
    """An app whose workspace holds the harbour note and a stored answer it contradicts."""
    from core.query.traces import save_trace
    from core.query.types import SearchResult
    from core.store.db import Store
    home = tmp_path_factory.mktemp("e2e-flagged")
    store = Store(build_workspace(home, "flagged", [("harbour-notes.txt", DOCUMENT.encode())]))
    save_trace(store, SearchResult(method="local", question="What did the Harbour Master inspect?",
                                   answer=FLAGGED_ANSWER))
    store.close()
    with running_app(home) as (url, _):
        yield url


@pytest.fixture
def browser_page(request):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(30_000)
        page.dialogs = []
        page.errors = []
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.step = lambda name: _shot(page, request.node.name, name, always=False)
        try:
            yield page
        finally:
            report = getattr(request.node, "rep_call", None)
            if report is not None and report.failed:
                _shot(page, request.node.name, "failure", always=True)
            browser.close()


def _shot(page: Page, test: str, step: str, always: bool) -> None:
    if always or os.environ.get("SENSEMAKER_E2E_SHOTS") == "1":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{test}-{step}.png"), full_page=True)


def _settle(page: Page) -> None:
    """Wait until Streamlit has finished running the script."""
    page.wait_for_timeout(300)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=120_000)


def _new_workspace(page: Page, name: str) -> None:
    """Create a workspace from the sidebar's New workspace popover."""
    page.get_by_role("button", name="New workspace").click()
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Create").click()
    _settle(page)


def _nav(page: Page, name: str) -> None:
    page.locator('[data-testid="stTopNavLink"]', has_text=name).first.click()
    _settle(page)


def _graph_nodes(page: Page) -> int:
    frame = page.frame_locator("iframe").first
    graph = frame.locator("#sm-graph[data-ready='1']")
    expect(graph).to_have_count(1, timeout=30_000)
    expect(frame.locator("#sm-graph canvas")).to_have_count(1)
    return int(graph.get_attribute("data-nodes"))


def _open_first_chip(page: Page, within) -> str:
    """Click the first reference chip: its evidence opens in place, in the browser alone (no
    rerun), with the supporting sentence highlighted. Returns the chip's label."""
    chip = within.locator("details.sm-ev > summary").filter(has_text=CHIP).first
    label = CHIP.match(chip.inner_text().strip()).group(0)  # "Entity 5" (then its verdict)
    chip.click()
    panel = within.locator("details.sm-ev[open]").first
    expect(panel.locator("summary")).to_contain_text(label)
    expect(panel.locator("mark").first).to_be_visible(timeout=5_000)
    # the app's style sheet applies (the browser's sanitizer drops one that looks like markup)
    assert panel.evaluate("e => getComputedStyle(e.parentElement).display") == "flex"
    return label


def pick_option(page: Page, box, label: str) -> None:
    """Choose label in a Streamlit select box."""
    select_option(page, box, label)


def _open_in_viewer(page: Page, within, label: str):
    """The reference in the evidence viewer: the drill-down dialog, down to the source text."""
    pick_option(page, within.locator('[data-testid="stSelectbox"]').filter(has_text="Evidence viewer").first,
                label)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    expect(dialog.locator("mark").first).to_be_visible(timeout=30_000)
    return dialog


def test_upload_index_browse_ask_and_verify(app_url, browser_page):
    page = browser_page
    page.goto(app_url)
    _settle(page)
    expect(page.get_by_text("Create or pick a workspace", exact=False).or_(
        page.get_by_role("heading", name="Corpus"))).to_be_visible(timeout=60_000)  # a fresh server

    # a new workspace from the sidebar
    _new_workspace(page, "harbour inquiry")
    expect(page.get_by_role("heading", name="Corpus")).to_be_visible()
    expect(page.get_by_text("Workspace harbour-inquiry", exact=False)).to_be_visible()

    # upload: one good file, one rejected with its reason
    page.locator('input[type="file"]').set_input_files([
        {"name": "harbour-notes.txt", "mimeType": "text/plain", "buffer": DOCUMENT.encode()},
        {"name": "empty.txt", "mimeType": "text/plain", "buffer": b""},
    ])
    _settle(page)
    expect(page.get_by_text("Added 1 document: harbour-notes.txt")).to_be_visible()
    expect(page.get_by_text("Not added: empty.txt: the file is empty")).to_be_visible()
    page.step("uploaded")

    # index offline, in the background; the page shows the run, then that all is indexed
    page.get_by_role("button", name="Index the corpus").click()
    expect(page.get_by_text("Everything is indexed", exact=False)).to_be_visible(timeout=120_000)
    _settle(page)
    page.step("indexed")
    expect(page.get_by_text("Run history")).to_be_visible()

    # communities: a graph with nodes
    _nav(page, "Communities")
    expect(page.get_by_role("heading", name="Communities")).to_be_visible()
    assert _graph_nodes(page) >= 3
    page.step("communities")

    # ask a global question: map batches and scores, then a citation down to the source text
    _nav(page, "Ask")
    page.locator('[data-testid="stMain"]').get_by_text("Global", exact=True).click()  # the default is auto
    _settle(page)
    page.get_by_placeholder("What are the main themes").fill(
        "What did Maria Okafor find at Berth 2 and what did Calloway Chemicals say?")
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Point scores · \d+ in the answer's context"))).to_be_visible()
    bars = page.locator(".js-plotly-plot .barlayer .point")
    expect(bars.first).to_be_attached(timeout=30_000)
    expect(page.get_by_role("button", name=re.compile("What did Maria Okafor find"))).to_be_visible()
    page.step("answered")
    main = page.locator('[data-testid="stMain"]')
    label = _open_first_chip(page, main)
    panel = main.locator("details.sm-ev[open]").first
    mark = panel.locator("mark").first.inner_text().strip()
    assert mark and panel.locator(".sm-verdict").first.is_visible()
    # the highlight is exactly one sentence of the document (DOCUMENT's lines are its sentences)
    assert mark in _sentences(DOCUMENT), mark
    page.step("evidence")
    dialog = _open_in_viewer(page, main, label)
    expect(dialog.get_by_text(label, exact=False).first).to_be_visible()
    assert dialog.locator("mark").first.inner_text().strip() == mark  # the same sentence
    dialog.get_by_role("button", name="Open the whole document").first.click()
    _settle(page)
    doc = page.frame_locator('[data-testid="stDialog"] iframe').first
    expect(doc.locator("mark.chunk")).to_have_count(1)
    # the chunk highlight is the unit's span (the note is one chunk: the whole document), the
    # sentence highlight inside it the same sentence as in the panel
    assert " ".join(doc.locator("mark.chunk").inner_text().split()) == " ".join(DOCUMENT.split())
    assert doc.locator("mark.sent").inner_text().strip() == mark
    page.step("document")
    assert page.dialogs == [] and not page.errors


def _sentences(text: str) -> list[str]:
    from core.textutil import split_sentences
    return [text[a:b] for a, b in split_sentences(text)]


def test_an_answers_flagged_sentence_leads_to_its_failing_fact(flagged_url, browser_page):
    """A stored answer says "Berth 7" where its source says Berth 2: the sentence is marked where
    it stands with the failing fact, and Check a text on the same page gives the same verdict,
    its chip showing a sentence of the source highlighted exactly."""
    page = browser_page
    page.goto(f"{flagged_url}/ask?ws=flagged")
    _settle(page)
    page.get_by_role("button", name="What did the Harbour Master inspect?").click()
    _settle(page)
    main = page.locator('[data-testid="stMain"]')
    why = main.get_by_text(re.compile("contradicted: number .7"))
    expect(why.first).to_be_visible(timeout=30_000)
    # the marked sentence is the wrong one, not the right one
    marked = main.get_by_text(re.compile(r"inspected Berth 7 at Tanner Quay"))
    expect(marked.first).to_be_visible()
    page.step("flagged-answer")
    # Check a text: the same sentence, its verdict and failing fact, its chip's evidence
    page.get_by_text("Check a text").click()
    page.get_by_role("textbox", name="Your text, with [Data: ...] markers").fill(FLAGGED_ANSWER)
    page.get_by_role("button", name="Check").click()
    _settle(page)
    flag = main.locator(".sm-flag.contradicted").first
    expect(flag).to_be_visible(timeout=30_000)  # the check's verdicts come after a rerun on a loaded machine
    assert "Berth 7" in flag.inner_text()
    expect(main.locator(".sm-flag-why.contradicted").first).to_contain_text("number")
    chip = main.locator("details.sm-ev > summary", has_text="Source 0").first  # the check's, above the answer
    chip.click()
    panel = main.locator("details.sm-ev[open]").first
    mark = panel.locator("mark").first.inner_text().strip()
    # one chip per reference, judged for the first sentence citing it: its highlight is exactly
    # the document's sentence that one copies
    assert mark in _sentences(DOCUMENT) and mark.startswith("Thomas Whitlock of Calloway")
    page.step("flagged-check")
    assert page.dialogs == [] and not page.errors


def test_hostile_names_fire_no_dialog(app_url, browser_page):
    page = browser_page
    page.goto(f"{app_url}/communities?ws=hostile")
    _settle(page)
    expect(page.get_by_role("heading", name="Communities")).to_be_visible()
    assert _graph_nodes(page) >= 2
    expect(page.get_by_text(HOSTILE, exact=False).first).to_be_visible()  # shown as text
    frame = page.frame_locator("iframe").first
    # hover the hostile node: its description shows as text in the tooltip
    graph = page.locator("iframe").first
    graph.scroll_into_view_if_needed()
    tooltip = frame.locator("div.vis-tooltip")
    for _ in range(3):  # the frame may still be settling: measure again and move again
        box = graph.bounding_box()
        spot = graph.element_handle().content_frame().evaluate(NODE_SPOT, "IMG")
        page.mouse.move(box["x"] + spot["x"] - 30, box["y"] + spot["y"] - 30)
        page.mouse.move(box["x"] + spot["x"], box["y"] + spot["y"], steps=8)
        try:
            expect(tooltip).to_be_visible(timeout=4_000)
            break
        except AssertionError:
            continue
    expect(tooltip).to_be_visible()
    assert HOSTILE in tooltip.inner_text()
    page.step("hostile-hover")
    frame.locator("#sm-find").fill("acme")
    frame.locator("#sm-find").press("Enter")
    page.step("hostile-communities")
    _open_first_chip(page, page.locator('[data-testid="stMain"]'))
    page.step("hostile-evidence")
    page.keyboard.press("Escape")
    _nav(page, "Ask")
    page.get_by_placeholder("What are the main themes").fill("What is in the harbour records?")
    page.get_by_role("button", name="Ask").click()
    _settle(page)
    expect(page.get_by_text("How this answer was made")).to_be_visible()
    _open_first_chip(page, page.locator('[data-testid="stMain"]'))
    page.step("hostile-ask")
    assert page.dialogs == []
    assert not [e for e in page.errors if "alert" in e.lower()]
    for frame in page.frames:
        assert frame.locator('img[src="x"], img[src="X"]').count() == 0

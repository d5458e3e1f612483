"""How long a fresh browser takes to open the app's pages, against Streamlit's own empty page in
the same run (the share of a load that is Streamlit itself: its JS bundles, the websocket, one
script run).

A Christmas Carol is indexed offline into a temporary workspace; the app (`streamlit run app.py`)
and a one-line Streamlit app run side by side. Each load is a new browser context (empty HTTP
cache, as a first visit), timed from the request until the page's content is on screen and the
script has finished (no status widget):
- empty: its heading;
- Communities (/communities?ws=carol): the heading, the community's graph drawn in its frame;
- Ask (/ask?ws=carol): the question box.
Where the Communities page's time goes is printed from the browser's own timeline (the HTML, the
JS bundles at DOMContentLoaded) and the server's CPU seconds for the load.

    .venv/bin/python bench/page_time.py [--reps 7] [--app-dir DIR]   # writes bench/results/page_time.json
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _common import CORPORA, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.settings import Settings
from core.store.db import Store
from tests.app_server import running_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync"]
EMPTY_APP = 'import streamlit as st\n\nst.title("Empty")\n'
_TIMELINE = """() => { const n = performance.getEntriesByType("navigation")[0];
  return {html_ms: n.responseEnd, dom_ms: n.domContentLoadedEventEnd}; }"""


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


def _done(page) -> None:
    from playwright.sync_api import expect
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0)


def load_empty(page, url: str) -> float:
    from playwright.sync_api import expect
    t = time.perf_counter()
    page.goto(url)
    expect(page.get_by_role("heading", name="Empty")).to_be_visible()
    _done(page)
    return time.perf_counter() - t


SPLITS: dict[str, list[float]] = {"heading": [], "graph_drawn": []}


def load_communities(page, url: str) -> float:
    from playwright.sync_api import expect
    t = time.perf_counter()
    page.goto(f"{url}/communities?ws=carol")
    expect(page.get_by_role("heading", name="Communities")).to_be_visible()
    SPLITS["heading"].append(time.perf_counter() - t)
    expect(page.frame_locator("iframe").first.locator("#sm-graph[data-ready='1']")).to_have_count(1)
    SPLITS["graph_drawn"].append(time.perf_counter() - t)
    _done(page)
    return time.perf_counter() - t


def load_ask(page, url: str) -> float:
    from playwright.sync_api import expect
    t = time.perf_counter()
    page.goto(f"{url}/ask?ws=carol")
    expect(page.locator('[data-testid="stTextArea"] textarea').first).to_be_visible()
    _done(page)
    return time.perf_counter() - t


def carol_home(root: Path) -> Path:
    store = Store(root / "carol")
    report = ingest_paths(store, [CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"],
                          max_bytes=50_000_000)
    assert report.added, report.rejected
    run_index(store, Settings(engine="offline"))
    return root


def main() -> None:
    from playwright.sync_api import sync_playwright
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--app-dir", type=Path, default=None,
                    help="time the app of another checkout (e.g. a git worktree of an earlier commit)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sm-pagetime-") as tmp:
        home = carol_home(Path(tmp) / "home")
        empty_dir = Path(tmp) / "empty"
        empty_dir.mkdir()
        (empty_dir / "app.py").write_text(EMPTY_APP, encoding="utf-8")
        times: dict[str, list[float]] = {"empty": [], "communities": [], "ask": []}
        cpu: list[float] = []
        timeline: list[dict] = []
        app_dir = args.app_dir or Path(__file__).resolve().parents[1]
        with running_app(home, cwd=app_dir) as (url, proc), running_app(empty_dir, cwd=empty_dir) as (empty_url, _), \
                sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for rep in range(args.reps + 1):  # the first round warms the servers up and is not counted
                for name, load, where in (("empty", load_empty, empty_url), ("communities", load_communities, url),
                                          ("ask", load_ask, url)):
                    ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
                    page = ctx.new_page()
                    page.set_default_timeout(120_000)
                    before = _cpu(proc.pid)
                    seconds = load(page, where)
                    if rep:
                        times[name].append(seconds)
                        if name == "communities":
                            cpu.append(_cpu(proc.pid) - before)
                            timeline.append(page.evaluate(_TIMELINE))
                    ctx.close()
            browser.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"fresh-browser load, median of {args.reps} (seconds):")
    for k in ("empty", "communities", "ask"):
        print(f"  {k:<12} {med[k]:.2f}   ({med[k] / med['empty']:.2f}x Streamlit's empty page)"
              f"   all: {', '.join(f'{t:.2f}' for t in times[k])}")
    html = statistics.median(t["html_ms"] for t in timeline) / 1000
    dom = statistics.median(t["dom_ms"] for t in timeline) / 1000
    split = {k: statistics.median(v[1:]) for k, v in SPLITS.items()}  # the warm-up round left out
    print(f"communities: HTML {html:.2f} s, JS bundles loaded (DOMContentLoaded) {dom:.2f} s, heading "
          f"{split['heading']:.2f} s, graph drawn {split['graph_drawn']:.2f} s, script done "
          f"{med['communities']:.2f} s; server CPU per load {statistics.median(cpu):.2f} s")
    write_result("page_time", {"reps": args.reps, "median_seconds": med, "all_seconds": times,
                               "ratio_to_empty": {k: round(v / med["empty"], 2) for k, v in med.items()},
                               "communities_html_seconds": html, "communities_dom_seconds": dom,
                               "communities_server_cpu_seconds": statistics.median(cpu),
                               "communities_heading_seconds": split["heading"],
                               "communities_graph_drawn_seconds": split["graph_drawn"]})


if __name__ == "__main__":
    main()

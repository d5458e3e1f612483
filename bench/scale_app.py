"""The app on the 100k-entity synthetic workspace of bench/scale_graph.py. Targets (issue 8): the
communities page loads under 2 s, a community graph renders under 2 s (capped, with
search-to-focus), the citation drill-down opens under 200 ms; and the app process's memory.

    .venv/bin/python bench/scale_app.py [--dir /tmp/sensemaker-scale] [--baseline /tmp/sm-small] [--no-browser]

1. core/viz.community_graph on the largest community, with the rows it needs fetched by id.
2. Streamlit AppTest (the page script run in this process, no browser): the communities page,
   the page again (a rerun), a sub-community picked, a finding's citation chip clicked (the
   drill-down dialog).
3. Headless Chromium: the largest community's graph page alone until its layout is stable; then
   the real app (`streamlit run app.py`): the communities page from the first request until its
   graph has stabilised, a citation chip until the evidence dialog shows its source text, the
   server's CPU seconds for each, and its resident memory (VmRSS, VmHWM of /proc/<pid>/status).
   Again with Streamlit's file watcher off, and (--baseline) on a small workspace, which shows
   the part of a page load that does not depend on the workspace's size.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

from _common import ROOT, peak_rss_mb, write_result

from core.store import Store
from tests.app_server import running_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PAGE, GRAPH, DRILL = 2.0, 2.0, 0.2


def _ratio(seconds: float, target: float) -> float:
    return round(seconds / target, 3)


def apptest(home: Path) -> dict:
    from streamlit.testing.v1 import AppTest

    os.environ.update(SENSEMAKER_HOME=str(home), SENSEMAKER_NO_SAMPLE="1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        os.environ.pop(var, None)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["ws"] = "ws"
    t = time.perf_counter()
    at.run()
    first = time.perf_counter() - t
    loads = []
    for i in range(3):
        t = time.perf_counter()
        if i == 0:
            at.switch_page("pages/communities.py").run()
        else:
            at.run()
        loads.append(time.perf_counter() - t)
        assert not at.exception, at.exception
    assert at.title[0].value == "Communities", [t.value for t in at.title]
    t = time.perf_counter()
    at.selectbox[1].select_index(1).run()
    sub = time.perf_counter() - t
    chips = [b for b in at.button_group if str(b.key).startswith(("find_", "sum_"))]
    t = time.perf_counter()
    chips[0].set_value(chips[0].options[0]).run()
    drill = time.perf_counter() - t
    assert not at.exception, at.exception
    assert "<mark>" in "\n".join(h.proto.body for h in at.get("html")), "the drill-down shows no source text"
    return {"app_start_seconds": round(first, 3), "communities_page_seconds": [round(x, 3) for x in loads],
            "communities_page_median": round(statistics.median(loads), 3),
            "page_ratio_to_target": _ratio(statistics.median(loads), PAGE),
            "sub_community_seconds": round(sub, 3), "drill_down_rerun_seconds": round(drill, 3),
            "drill_ratio_to_target": _ratio(drill, DRILL), "peak_rss_mb_in_this_process": round(peak_rss_mb())}


def graph(ws: Path) -> dict:
    from core.viz import community_graph

    store = Store(ws)
    c = store.rows("communities", order_by="size desc", limit=1)[0]
    times = []
    for _ in range(3):
        t = time.perf_counter()
        ents = store.by_ids("entities", c["entity_ids"])
        rels = store.by_ids("relationships", c["relationship_ids"])
        fetched = time.perf_counter() - t
        view = community_graph(ents, rels, max_nodes=120, height=520)
        times.append((time.perf_counter() - t, fetched))
    total, fetched = min(times)
    return {"community": c["community"], "level": c["level"], "entities": c["size"],
            "relationships": len(c["relationship_ids"]), "shown": view.shown, "edges_drawn": view.edges,
            "html_kb": round(len(view.html) / 1024), "capped_note": view.note, "seconds": round(total, 3),
            "fetch_seconds": round(fetched, 3), "ratio_to_target": _ratio(total, GRAPH)}


def graph_in_browser(ws: Path) -> dict:
    """The largest community's graph page alone in headless Chromium: from loading the page to
    the layout stabilised and fitted (data-ready), the browser's share of a graph render."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from core.viz import community_graph

    store = Store(ws)
    c = store.rows("communities", order_by="size desc", limit=1)[0]
    view = community_graph(store.by_ids("entities", c["entity_ids"]), store.by_ids("relationships", c["relationship_ids"]),
                           max_nodes=120, height=520)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = Path(tmp) / "graph.html"
        page_file.write_text(view.html, encoding="utf-8")
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        times = []
        for _ in range(3):
            page = b.new_page(viewport={"width": 800, "height": 700})
            t = time.perf_counter()
            page.goto(page_file.as_uri())
            page.wait_for_selector("#sm-graph[data-ready='1']", state="attached", timeout=120_000)
            times.append(round(time.perf_counter() - t, 3))
            page.close()
        b.close()
    return {"nodes": view.shown, "edges": view.edges, "seconds": times, "median": statistics.median(times),
            "ratio_to_target": _ratio(statistics.median(times), GRAPH)}


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used: on a shared machine a steadier figure than
    wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss(pid: int) -> dict:
    status = Path(f"/proc/{pid}/status").read_text()
    get = lambda k: int(re.search(rf"^{k}:\s+(\d+) kB", status, re.M).group(1)) / 1024  # noqa: E731
    return {"rss_mb": round(get("VmRSS")), "hwm_mb": round(get("VmHWM"))}


def browser(home: Path, ws: str = "ws", watcher: str | None = None) -> dict:
    """watcher: Streamlit's server.fileWatcherType (None: as configured, i.e. "auto")."""
    from playwright.sync_api import expect, sync_playwright

    out: dict = {}
    extra = ["--server.fileWatcherType", watcher] if watcher else []
    with running_app(home, extra) as (url, proc):
        out["idle"] = _rss(proc.pid)
        expect.set_options(timeout=120_000)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            loads = []
            for i in range(3):  # a new browser session each time: the first request of a user
                page = b.new_page(viewport={"width": 1440, "height": 1000})
                page.set_default_timeout(120_000)
                cpu = _cpu(proc.pid)
                t = time.perf_counter()
                page.goto(f"{url}/communities?ws={ws}")
                expect(page.get_by_role("heading", name="Communities")).to_be_visible()
                frame = page.frame_locator("iframe").first
                expect(frame.locator("#sm-graph[data-nodes]")).to_have_count(1)
                shown = time.perf_counter() - t
                expect(frame.locator("#sm-graph[data-ready='1']")).to_have_count(1)
                ready = time.perf_counter() - t
                expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0)
                done = time.perf_counter() - t
                loads.append({"graph_frame_seconds": round(shown, 3), "graph_ready_seconds": round(ready, 3),
                              "script_done_seconds": round(done, 3), "server_cpu_seconds": round(_cpu(proc.pid) - cpu, 2),
                              "nodes": int(frame.locator("#sm-graph").get_attribute("data-nodes"))})
                if i < 2:
                    page.close()
            out["page_loads"] = loads
            out["after_page_loads"] = _rss(proc.pid)
            chip = page.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button').filter(
                has_text=re.compile(r"^(Report|Entity|Relationship|Claim|Source) \d+$")).first
            cpu = _cpu(proc.pid)
            t = time.perf_counter()
            chip.click()
            dialog = page.get_by_role("dialog")
            expect(dialog.locator("mark").first).to_be_visible()
            out["drill_down_seconds"] = round(time.perf_counter() - t, 3)
            expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0)
            out["drill_down_server_cpu_seconds"] = round(_cpu(proc.pid) - cpu, 2)
            out["after_drill_down"] = _rss(proc.pid)
            # what a user does most: open the page from another page of an app already open
            # (no new browser session, so no Streamlit start-up in the browser)
            page.keyboard.press("Escape")
            navs = []
            for _ in range(3):
                page.get_by_role("link", name="Corpus").first.click()
                expect(page.get_by_role("heading", name="Corpus")).to_be_visible()
                expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0)
                t = time.perf_counter()
                page.get_by_role("link", name="Communities").first.click()
                expect(page.get_by_role("heading", name="Communities")).to_be_visible()
                frame = page.frame_locator("iframe").first
                expect(frame.locator("#sm-graph[data-ready='1']")).to_have_count(1)
                expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0)
                navs.append(round(time.perf_counter() - t, 3))
            out["navigate_to_communities_seconds"] = navs
            b.close()
    med = lambda k: statistics.median(x[k] for x in out["page_loads"])  # noqa: E731
    out["page_ratio_to_target"] = _ratio(med("script_done_seconds"), PAGE)
    out["graph_ratio_to_target"] = _ratio(med("graph_ready_seconds"), GRAPH)
    out["navigate_ratio_to_target"] = _ratio(statistics.median(out["navigate_to_communities_seconds"]), PAGE)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/sensemaker-scale")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--only", default="", help="apptest, graph or browser")
    ap.add_argument("--baseline", default="", help="a small workspace root (e.g. scale_graph.py --entities 5000 "
                    "--dir /tmp/sm-small): the same browser loads there show the fixed cost of the app and browser")
    args = ap.parse_args()
    home = Path(args.dir)
    ws = home / "ws"
    if not (ws / "sensemaker.db").exists():
        sys.exit(f"no workspace at {ws}: run bench/scale_graph.py first")
    store = Store(ws)
    counts = {t: store.count(t) for t in ("entities", "relationships", "communities", "community_reports")}
    result: dict = {"workspace": str(ws), "counts": counts, "load_average_at_start": os.getloadavg(),
                    "cores": os.cpu_count()}
    phases = [args.only] if args.only else ["graph", "apptest"] + ([] if args.no_browser else ["browser"])
    if "graph" in phases:
        g = result["graph"] = graph(ws)
        print(f"community graph of the largest community ({g['entities']} entities, {g['relationships']} "
              f"relationships; {g['shown']} drawn): {g['seconds']:.3f} s (fetch {g['fetch_seconds']:.3f} s; "
              f"target 2 s, ratio {g['ratio_to_target']:.2f})", flush=True)
    if "apptest" in phases:
        a = result["apptest"] = apptest(home)
        print(f"AppTest: communities page {a['communities_page_median']:.2f} s (runs {a['communities_page_seconds']}; "
              f"target 2 s, ratio {a['page_ratio_to_target']:.2f}); a sub-community {a['sub_community_seconds']:.2f} s; "
              f"drill-down rerun {a['drill_down_rerun_seconds']:.3f} s (target 0.2 s, ratio "
              f"{a['drill_ratio_to_target']:.2f})", flush=True)
    if "browser" in phases:
        g = result["graph_in_chromium"] = graph_in_browser(ws)
        print(f"Chromium, the graph page alone ({g['nodes']} nodes, {g['edges']} edges): stable after "
              f"{g['seconds']} s (target 2 s, ratio {g['ratio_to_target']:.2f})", flush=True)
        b = result["browser"] = browser(home)
        for x in b["page_loads"]:
            print(f"Chromium: communities page graph frame {x['graph_frame_seconds']:.2f} s, graph stabilised "
                  f"{x['graph_ready_seconds']:.2f} s, script done {x['script_done_seconds']:.2f} s ({x['nodes']} nodes)")
        print(f"  page ratio {b['page_ratio_to_target']:.2f}, graph ratio {b['graph_ratio_to_target']:.2f}; "
              f"drill-down dialog {b['drill_down_seconds']:.2f} s", flush=True)
        print(f"  from the Corpus page of an open app to the Communities page with its graph laid out: "
              f"{b['navigate_to_communities_seconds']} s (target 2 s, ratio {b['navigate_ratio_to_target']:.2f})",
              flush=True)
        print(f"  server CPU per page load {[x['server_cpu_seconds'] for x in b['page_loads']]} s, "
              f"per drill-down {b['drill_down_server_cpu_seconds']} s", flush=True)
        print(f"  app process memory: idle {b['idle']}, after 3 page loads {b['after_page_loads']}, "
              f"after the drill-down {b['after_drill_down']}", flush=True)
        w = result["browser_no_file_watcher"] = browser(home, watcher="none")
        print(f"  the same with server.fileWatcherType=none: page done "
              f"{statistics.median(x['script_done_seconds'] for x in w['page_loads']):.2f} s (median), drill-down "
              f"{w['drill_down_seconds']:.2f} s, server CPU per load {[x['server_cpu_seconds'] for x in w['page_loads']]} s,"
              f" per drill-down {w['drill_down_server_cpu_seconds']} s", flush=True)
        if args.baseline:
            base = Path(args.baseline)
            n = Store(base / "ws").count("entities")
            x = result["browser_baseline_no_file_watcher"] = {"entities": n, **browser(base, watcher="none")}
            med = statistics.median(y["script_done_seconds"] for y in x["page_loads"])
            print(f"  baseline workspace of {n} entities: page done {med:.2f} s (median), drill-down "
                  f"{x['drill_down_seconds']:.2f} s, server CPU per load "
                  f"{[y['server_cpu_seconds'] for y in x['page_loads']]} s", flush=True)
    result["load_average_at_end"] = os.getloadavg()
    name = "scale_app"
    prev = Path(__file__).parent / "results" / f"{name}.json"
    if prev.exists() and args.only:
        import json
        result = {**json.loads(prev.read_text()), **result}
    print(f"  -> {write_result(name, result)}")


if __name__ == "__main__":
    main()

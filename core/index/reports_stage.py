"""Stage 5: communities -> community reports, deepest level first so higher levels can use the
reports of their sub-communities. A report that fails (unparseable after the repair retry) is
returned as a failure with its error, never written as an empty report."""
from __future__ import annotations

import hashlib
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

from core.index.community_reuse import report_key, successors, writer_signature
from core.engine import IndexEngine
from core.errors import UserError
from core.index.progress import Progress, ProgressFn, check, noop
from core.index.report_context import LineCosts, build_report_input
from core.llm.client import FatalLLMError
from core.settings import Settings
from core.store.db import Store, now


def report_id(community_id: str) -> str:
    """A report's id follows its community's (which changes with the community's members)."""
    return "rep-" + hashlib.sha256(community_id.encode()).hexdigest()[:16]


def full_content(report: dict[str, Any]) -> str:
    lines = [f"# {report['title']}", "", report.get("summary") or "", ""]
    for f in report.get("findings") or []:
        lines += [f"## {f.get('summary', '')}", "", f.get("explanation", ""), ""]
    return "\n".join(lines).strip()


def run_reports(store: Store, engine: IndexEngine, settings: Settings, on_progress: ProgressFn = noop,
                cancel: threading.Event | None = None, communities: list[dict] | None = None) -> dict[str, Any]:
    """Write the report of every community. Given `communities` (new rows not yet written), they
    are written with their reports in one transaction: until then readers keep the previous
    communities and reports, which belong together (a reader never sees a report beside another
    version of its community, nor a re-index without reports)."""
    new = communities is not None
    if communities is not None:
        communities = sorted(communities, key=lambda c: (-c["level"], c["community"]))
    else:
        communities = store.rows("communities", order_by="level desc, community")
    entities = {e["id"]: e for e in store.rows("entities", select="id, human_readable_id, title, description, degree")}
    rels = {r["id"]: r for r in store.rows("relationships",
                                           select="id, human_readable_id, source, target, description, combined_degree, inferred")}
    claims_by_subject: dict[str, list[dict]] = {}
    for c in store.rows("claims", select="id, human_readable_id, subject, type, status, description"):
        claims_by_subject.setdefault(c["subject"], []).append(c)
    members = {c["community"]: {entities[i]["title"] for i in c["entity_ids"] if i in entities} for c in communities}
    reports: dict[int, dict[str, Any]] = {}
    failures: list[dict[str, Any]] = []
    total, done = len(communities), 0
    lock = threading.Lock()
    costs = LineCosts()
    on_progress(Progress("reports", 0, total, f"{total} community reports to write"))

    # a model with a small window gets a smaller context (LLMEngine.report_budget)
    budget = getattr(engine, "report_budget", lambda wanted: wanted)(settings.report_max_tokens)

    # a report whose inputs did not change since it was written is kept as it is (community_reuse)
    old_by_key = {r["input_key"]: r for r in store.rows("community_reports", "input_key is not null")}
    writer = writer_signature(engine.name, settings, store.workspace, ("community_report", "community_report_names"))
    keys: dict[int, str] = {}
    kept = 0

    def write(c: dict) -> None:
        nonlocal done, kept
        check(cancel)
        ents = [entities[i] for i in c["entity_ids"] if i in entities]
        rs = [rels[i] for i in c["relationship_ids"] if i in rels]
        cl = [x for e in ents for x in claims_by_subject.get(e["title"], [])]
        key = report_key(c, ents, rs, cl, [keys.get(k, "failed") for k in c["children"]], writer, budget)
        old = old_by_key.get(key)
        if old is not None:
            with lock:
                keys[c["community"]] = key
                reports[c["community"]] = {**old, "id": report_id(c["id"]), "human_readable_id": c["community"],
                                           "community": c["community"], "level": c["level"]}
                kept += 1
                done += 1
                on_progress(Progress("reports", done, total, f"{old['title']} (unchanged, kept)"))
            return
        subs = [reports[k] for k in c["children"] if k in reports]
        inp = build_report_input(c, ents, rs, cl, subs, members, budget, costs)
        try:
            rep = engine.write_report(inp)
        except FatalLLMError:
            raise
        except UserError as exc:
            with lock:
                failures.append({"community": c["community"], "error": str(exc)})
                done += 1
                on_progress(Progress("reports", done, total, f"community {c['community']} failed: {exc}"))
            return
        inferred = sum(bool(r.get("inferred")) for r in rs)
        if inferred:  # said in the report itself: its links are not the model's statements
            note = (f"(Built on inferred links: {inferred} of the {len(rs)} relationships in this community "
                    f"join entities named in the same sentence; the model stated no relationship between them.)")
            rep = {**rep, "summary": f"{rep.get('summary') or ''} {note}".strip()}
        row = {"id": report_id(c["id"]),
               "human_readable_id": c["community"], "community": c["community"], "level": c["level"],
               "title": rep["title"], "summary": rep.get("summary", ""), "rating": float(rep.get("rating") or 0),
               "rating_explanation": rep.get("rating_explanation", ""), "findings": rep.get("findings") or [],
               "full_content": full_content(rep), "rank": float(rep.get("rating") or 0), "engine": engine.name,
               "input_key": key}
        with lock:
            keys[c["community"]] = key
            reports[c["community"]] = row
            done += 1
            on_progress(Progress("reports", done, total, rep["title"]))

    workers = 1 if engine.name == "offline" else max(1, settings.concurrency)
    if workers == 1:
        for c in communities:  # deepest level first
            write(c)
    else:
        _write_when_children_done(communities, write, workers)
    titles = {k: v["title"] for k, v in reports.items()}
    with store.atomic():  # the communities, their reports and titles land together
        if new:  # where each old community whose number went is now (a stored answer is led there)
            moved = successors(communities, store.rows("communities", select="community, level, entity_ids"))
            if moved:
                store.upsert("community_successors", [{**m, "at": now()} for m in moved])
            store.replace_table("communities", sorted(communities, key=lambda c: (c["level"], c["community"])),
                                keep_hrids=False)
        store.replace_table("community_reports", [reports[k] for k in sorted(reports)], keep_hrids=False)
        store.update_rows("communities", [{"community": k, "title": t} for k, t in titles.items()], key="community")
    return {"reports": len(reports), "failed": failures, "kept": kept, "written": len(reports) - kept}


def _write_when_children_done(communities: list[dict], write, workers: int) -> None:
    """Schedule each report as soon as its sub-communities' reports are done (no barrier
    between levels, so the model is never idle while work is available)."""
    by_id = {c["community"]: c for c in communities}
    waiting = {c["community"]: len([k for k in c["children"] if k in by_id]) for c in communities}
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = set()

        def submit(c: dict) -> None:
            pending.add(pool.submit(run, c))

        def run(c: dict) -> dict:
            write(c)
            return c

        for c in communities:
            if waiting[c["community"]] == 0:
                submit(c)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                pending.discard(f)
                c = f.result()
                parent = c["parent"]
                if parent in by_id:
                    with lock:
                        waiting[parent] -= 1
                        ready = waiting[parent] == 0
                    if ready:
                        submit(by_id[parent])

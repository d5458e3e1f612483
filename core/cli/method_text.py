"""`sensemaker query`'s account of how a DRIFT, TS or routed (auto) answer was made."""
from __future__ import annotations


def route_line(result) -> list[str]:
    r = (result.params or {}).get("route")
    return [f"- auto chose {r['reason']} (override with --method)"] if r else []


def method_lines(result, engine: str) -> list[str] | None:
    """Lines for the methods query.render_text does not describe itself; None for the others."""
    if result.method == "drift":
        d = (result.context or {}).get("drift", {})
        p = result.params or {}
        nodes = d.get("nodes", [])
        folds = [n for n in nodes if n["depth"] == 0]
        follow = [n for n in nodes if n["depth"] > 0]
        red = d.get("reduce", {})
        out = [f"- DRIFT search ({engine}): {len(d.get('top_reports', []))} reports ranked by "
               f"{d.get('report_ranking')} read in {len(folds)} primer folds; {p.get('k_followups')} follow-ups "
               f"per round, depth {p.get('depth')} ({p.get('defaults')})"]
        for r in d.get("rounds", []):
            out.append(f"- round {r['depth']}: {r['asked']} follow-ups answered by local search"
                       + (f", {r['waiting']} left waiting" if r.get("waiting") else ""))
        best = sorted(follow, key=lambda n: -(n.get("score") or 0))[:3]
        for n in best:
            out.append(f"  - [{n.get('score') or 0:g}] {n['query']}")
        out.append(f"- reduce: {len(red.get('selected', []))} intermediate answers ({red.get('tokens', 0)} of "
                   f"{red.get('budget')} tokens), {len(red.get('cut', []))} cut by the budget")
        return out
    if result.method == "ts":
        p = result.params or {}
        sel, cut = result.reduce.get("selected", []), result.reduce.get("cut", [])
        return [f"- TS: map-reduce over {p.get('text_units', 0)} source passages ({engine}), seed {p.get('seed')}, "
                f"in {len(result.batches)} batches ({len(result.failed_batches)} failed)",
                f"- {len(sel) + len(cut)} points scored above 0; {len(sel)} went into the reduce context "
                f"({result.reduce.get('tokens', 0)} of {result.reduce.get('budget')} tokens), {len(cut)} cut"]
    return None

"""What a community report is written from: the community's elements ranked by degree and
packed to a token budget, with sub-community reports substituted when the elements do not fit
(the method of Edge et al. 2024, section 3.1.4)."""
from __future__ import annotations

import csv
import io
from typing import Any, Callable

from core.engine import ReportInput
from core.tokens import count_tokens


def _csv_rows(header: list[str], rows: list[list[Any]]) -> list[str]:
    out = []
    for r in [header] + rows:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(["" if v is None else v for v in r])
        out.append(buf.getvalue())
    return out


def _entity_line(e: dict) -> list[Any]:
    return [e["human_readable_id"], e["title"], e.get("description") or "", e.get("degree") or 0]


def _rel_line(r: dict) -> list[Any]:
    return [r["human_readable_id"], r["source"], r["target"], r.get("description") or "", r.get("combined_degree") or 0]


def _claim_line(c: dict) -> list[Any]:
    return [c["human_readable_id"], c["subject"], c.get("type") or "", c.get("status") or "", c.get("description") or ""]


def _report_line(r: dict) -> list[Any]:
    findings = "; ".join(f.get("summary", "") for f in (r.get("findings") or []) if isinstance(f, dict))
    return [r["community"], r["title"], r.get("summary") or "", findings]


ENT_H = ["id", "entity", "description", "degree"]
REL_H = ["id", "source", "target", "description", "combined_degree"]
CLM_H = ["id", "entity", "type", "status", "description"]
REP_H = ["id", "title", "summary", "findings"]


def render_context(entities, relationships, claims, sub_reports) -> str:
    parts = []
    if sub_reports:
        parts += ["-----Reports-----"] + _csv_rows(REP_H, [_report_line(r) for r in sub_reports])
    parts += ["-----Entities-----"] + _csv_rows(ENT_H, [_entity_line(e) for e in entities])
    if relationships:
        parts += ["-----Relationships-----"] + _csv_rows(REL_H, [_rel_line(r) for r in relationships])
    if claims:
        parts += ["-----Claims-----"] + _csv_rows(CLM_H, [_claim_line(c) for c in claims])
    return "\n".join(parts)


_LINES = {"entity": _entity_line, "relationship": _rel_line, "claim": _claim_line}


def line_cost(kind: str, row: dict) -> int:
    """Tokens of an element's context line, plus 2 for the separators."""
    return count_tokens(",".join(map(str, _LINES[kind](row)))) + 2


class LineCosts:
    """line_cost remembered by (kind, id): an element enters the context of its community at
    every level (and is tried again when sub-community reports replace elements), but its line
    never changes, so one index run counts it once."""

    def __init__(self) -> None:
        self._memo: dict[tuple[str, str], int] = {}

    def __call__(self, kind: str, row: dict) -> int:
        key = (kind, row["id"])
        n = self._memo.get(key)
        if n is None:
            n = self._memo[key] = line_cost(kind, row)
        return n


def pack_elements(entities: list[dict], relationships: list[dict], claims_by_subject: dict[str, list[dict]],
                  budget: int, cost_of: Callable[[str, dict], int] = line_cost
                  ) -> tuple[list[dict], list[dict], list[dict], bool]:
    """Add relationships by combined degree with their end entities and their claims until the
    budget is spent; then entities without relationships by degree. Returns (entities,
    relationships, claims, everything_fit)."""
    by_title = {e["title"]: e for e in entities}
    used = 60  # headers
    ents: dict[str, dict] = {}
    rels: list[dict] = []
    clms: list[dict] = []
    fit = True

    def add_entity(e: dict) -> bool:
        nonlocal used
        extra = claims_by_subject.get(e["title"], [])
        n = cost_of("entity", e) + sum(cost_of("claim", c) for c in extra)
        if used + n > budget:
            return False
        used += n
        ents[e["title"]] = e
        clms.extend(extra)
        return True

    for r in sorted(relationships, key=lambda r: (-(r.get("combined_degree") or 0), r["human_readable_id"])):
        ends = [by_title[t] for t in (r["source"], r["target"]) if t in by_title and t not in ents]
        n = cost_of("relationship", r)
        if used + n > budget:
            fit = False
            break
        ok = all(add_entity(e) for e in ends)
        if not ok:
            fit = False
            break
        used += n
        rels.append(r)
    if fit:
        for e in sorted(entities, key=lambda e: (-(e.get("degree") or 0), e["human_readable_id"])):
            if e["title"] not in ents and not add_entity(e):
                fit = False
                break
    return list(ents.values()), rels, clms, fit


def build_report_input(community: dict, entities: list[dict], relationships: list[dict], claims: list[dict],
                       sub_reports: list[dict], sub_members: dict[int, set[str]], budget: int,
                       cost_of: Callable[[str, dict], int] = line_cost) -> ReportInput:
    """Leaf communities: elements. Higher communities: elements if they fit, otherwise the
    largest sub-community reports replace their members' elements until the rest fits.
    cost_of: an element's line tokens (a LineCosts shared by one run counts each line once)."""
    claims_by_subject: dict[str, list[dict]] = {}
    for c in claims:
        claims_by_subject.setdefault(c["subject"], []).append(c)
    ents, rels, clms, fit = pack_elements(entities, relationships, claims_by_subject, budget, cost_of)
    used_reports: list[dict] = []
    if not fit and sub_reports:
        remaining_titles = {e["title"] for e in entities}
        spent = 0
        for rep in sorted(sub_reports, key=lambda r: -len(sub_members.get(r["community"], ()))):
            cost = count_tokens(",".join(map(str, _report_line(rep)))) + 2
            if spent + cost > budget * 0.9:
                break
            used_reports.append(rep)
            spent += cost
            remaining_titles -= sub_members.get(rep["community"], set())
            rest_e = [e for e in entities if e["title"] in remaining_titles]
            rest_r = [r for r in relationships if r["source"] in remaining_titles and r["target"] in remaining_titles]
            ents, rels, clms, fit = pack_elements(rest_e, rest_r, claims_by_subject, budget - spent, cost_of)
            if fit:
                break
    text = render_context(ents, rels, clms, used_reports)
    return ReportInput(community=community["community"], level=community["level"], entities=ents,
                       relationships=rels, claims=clms, sub_reports=used_reports, context_text=text)

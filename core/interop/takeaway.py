"""What an analyst takes away from the app: an answer or a community report as Markdown with
every citation resolved to the quoted source sentence and its verdict, a community's subgraph
as GraphML, the whole workspace as the CLI's exports in one zip.

Verdicts come through `verdict()` alone (today core.text.support.judge, the lexical check), so a
better verifier replaces one function."""
from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from core.text.citations import sentences_with_citations, strip_citations
from core.store.references import Resolved, Resolver
from core.text.support import judge
from core.query.types import SearchResult
from core.store.db import Store
from core.store.access import require

SINGULAR = {"Reports": "Report", "Entities": "Entity", "Relationships": "Relationship",
            "Claims": "Claim", "Sources": "Source"}


def verdict(sentence: str, resolved: Resolved) -> tuple[str, str, str | None]:
    """(verdict, the source sentence that best supports it, its text unit id) for a sentence
    citing one resolved reference. The one place the download asks for a verdict."""
    s = judge(sentence, resolved.text_units, resolved.record_texts())
    return s.verdict, s.best_sentence, s.text_unit_id


def _one_line(text: str) -> str:
    return " ".join(str(text or "").split())


def _quote(text: str) -> str:
    return "> " + _one_line(text).replace("\n", " ")


def evidence_section(store: Store, text: str, resolver: Resolver | None = None) -> list[str]:
    """Markdown lines: for each sentence of text carrying citations, the sentence, then each of
    its references with title, verdict and the quoted source sentence (document and source
    numbered as the app numbers them)."""
    resolver = resolver or Resolver(store)
    rows = sentences_with_citations(text)
    resolver.prefetch(r for _, _, cites in rows for c in cites for r in c.refs)
    docs: dict[str, str] = {}
    lines: list[str] = []
    for n, (sentence, _, cites) in enumerate(rows, 1):
        claim = _one_line(strip_citations(sentence, cites))
        lines += ["", f"**{n}.** {claim}", ""]
        for c in cites:
            for ref in c.refs:
                label = f"{SINGULAR.get(ref.kind, ref.kind)} {ref.id}" if ref.id is not None \
                    else f"{ref.kind} +more"
                res = resolver.resolve(ref)
                if res.record is None:
                    why = "not in this workspace (dangling)" if res.dangling else "not listed (+more)"
                    lines.append(f"- {label}: {why}; unverified")
                    continue
                found, best, unit_id = verdict(sentence, res)
                lines.append(f"- {label} \u00b7 {_one_line(res.title)} \u00b7 verdict: **{found}**")
                if best:
                    unit = next((u for u in res.text_units if u.get("id") == unit_id), None)
                    where = ""
                    if unit is not None:
                        doc_id = unit.get("document_id")
                        if doc_id not in docs:
                            row = store.get("documents", doc_id) if doc_id else None
                            docs[doc_id] = (row or {}).get("title") or ""
                        where = f" (Source {unit.get('human_readable_id')}, {docs[doc_id]})"
                    lines.append(f"  {_quote(best)}{where}")
    return lines


def answer_markdown(store: Store, result: SearchResult) -> str:
    """An answer as Markdown: question, how it was made, the answer as written, its evidence."""
    require(store, 'export')
    engine = "offline engine" if result.engine == "offline" else f"LLM {result.model}"
    head = [f"# {_one_line(result.question)}", "",
            f"*{result.method} search \u00b7 {engine}"
            + (f" \u00b7 level {result.level}" if result.level is not None else "")
            + (f" \u00b7 {result.created_at}" if getattr(result, "created_at", None) else "")
            + f" \u00b7 workspace {store.workspace.name}*", "", "## Answer", "",
            (result.answer or "").strip() or "(no answer)"]
    ev = evidence_section(store, result.answer or "")
    if ev:
        head += ["", "## Evidence", "", "Each cited sentence, each reference it cites, the "
                 "verdict of the support check and the source sentence that best supports it."]
        head += ev
    return "\n".join(head).rstrip() + "\n"


def report_markdown(store: Store, report: dict[str, Any]) -> str:
    """A community report as Markdown with its evidence."""
    require(store, 'export')
    findings = [f for f in (report.get("findings") or []) if isinstance(f, dict)]
    out = [f"# {_one_line(report.get('title') or 'Community ' + str(report.get('community')))}", "",
           f"*community {report.get('community')} \u00b7 level {report.get('level')} \u00b7 "
           f"rating {float(report.get('rating') or 0):.1f} / 10 \u00b7 workspace {store.workspace.name}*",
           "", (report.get("summary") or "").strip()]
    if report.get("rating_explanation"):
        out += ["", "## Why this rating", "", report["rating_explanation"].strip()]
    if findings:
        out += ["", "## Findings"]
    for f in findings:
        out += ["", f"### {_one_line(f.get('summary') or 'Finding')}", "", (f.get("explanation") or "").strip()]
    texts = "\n\n".join([report.get("summary") or ""] + [f.get("explanation") or "" for f in findings])
    ev = evidence_section(store, texts)
    if ev:
        out += ["", "## Evidence"] + ev
    return "\n".join(out).rstrip() + "\n"


def community_graphml(store: Store, community: dict[str, Any]) -> bytes:
    """The subgraph of one community's entities (with the workspace export's attributes)."""
    require(store, 'export')
    import networkx as nx

    from core.interop.export import build_graph
    wanted = {e["title"] for e in store.by_ids("entities", community.get("entity_ids") or [])}
    sub = build_graph(store).subgraph(wanted).copy()
    sub.graph["community"] = int(community["community"])
    buf = io.BytesIO()
    nx.write_graphml(sub, buf)
    return buf.getvalue()


def workspace_zip(store: Store, fmt: str, questions: bool = True) -> bytes:
    """The CLI's `export --format fmt` of the whole workspace, as one zip (questions=False: the
    questions asked and their answers left out)."""
    require(store, 'export')
    from core.interop.export import export_workspace
    buf = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="sensemaker-export-") as tmp:
        paths = export_workspace(store, fmt, tmp, questions=questions)
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for p in paths:
                z.write(p, Path(p).relative_to(tmp).as_posix())
    return buf.getvalue()

"""Check the citations of every community report in a workspace.

For each finding of each report (findings as stored: a JSON list of {summary, explanation}, as
our engines and Microsoft GraphRAG write them; a report without findings is read from the `## `
sections of its full_content), every sentence that carries a citation is judged against the
union of the text units of all the references in that sentence (core.query.support.judge), and
every reference to an id that does not exist is listed as dangling.

A finding's verdict is the worst verdict of its cited sentences: it is supported only if every
cited claim in it is. A sentence whose references are all dangling or "+more" has nothing to be
judged against and counts as unsupported. Findings with no citation at all are counted apart
("without citations"), not judged.

What to expect (measured): the offline engine's extractive reports of the sample corpus come out
129 of 129 findings supported. Microsoft GraphRAG's own index of A Christmas Carol: 847 findings,
5 supported, 173 weak, 669 unsupported, 9 dangling references (entity ids above the 529 that
exist). Its findings carry one marker, on the paragraph's last sentence, and that sentence is
usually interpretation ("...underscores the narrative's movement from solitude to engagement")
that the cited text does not say in words; the check is lexical (see core.query.support).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Callable

from core.query.citations import sentences_with_citations, strip_citations
from core.query.resolve import Resolver
from core.query.support import judge

_RANK = {"unsupported": 0, "weak": 1, "supported": 2}
_SECTION = re.compile(r"^##\s+(.+)$", re.M)


@dataclass
class VerifyResult:
    reports_checked: int = 0
    findings_checked: int = 0
    dangling: list[dict] = field(default_factory=list)
    unsupported: list[dict] = field(default_factory=list)
    weak_count: int = 0
    supported_count: int = 0
    uncited_count: int = 0

    @property
    def unsupported_count(self) -> int:
        return len(self.unsupported)

    def summary(self) -> str:
        line = (f"verified {self.reports_checked} reports, {self.findings_checked} findings: "
                f"{self.supported_count} supported, {self.weak_count} weak, "
                f"{self.unsupported_count} unsupported, {len(self.dangling)} dangling "
                f"reference{'' if len(self.dangling) == 1 else 's'}")
        if self.uncited_count:
            line += f", {self.uncited_count} without citations"
        return line

    def to_dict(self) -> dict:
        d = asdict(self)
        d["unsupported_count"] = self.unsupported_count
        d["summary"] = self.summary()
        return d


def report_findings(report: dict) -> list[dict]:
    """A report's findings as [{summary, explanation}], whatever form they were stored in."""
    findings = report.get("findings")
    if isinstance(findings, str):
        try:
            findings = json.loads(findings)
        except json.JSONDecodeError:
            findings = None
    out = []
    if isinstance(findings, (list, tuple)):
        for f in findings:
            if isinstance(f, dict):
                out.append({"summary": str(f.get("summary") or ""),
                            "explanation": str(f.get("explanation") or "")})
            elif isinstance(f, str):
                out.append({"summary": "", "explanation": f})
    if out:
        return out
    content = report.get("full_content") or ""
    heads = list(_SECTION.finditer(content))
    for h, nxt in zip(heads, heads[1:] + [None]):
        body = content[h.end():nxt.start() if nxt else len(content)].strip()
        out.append({"summary": h.group(1).strip(), "explanation": body})
    return out


def verify_reports(store, on_progress: Callable[[int, int, str], None] | None = None) -> VerifyResult:
    """Verify every report's findings (see the module docstring)."""
    reports = store.rows("community_reports", select="id, human_readable_id, community, title, "
                                                     "findings, full_content")
    result = VerifyResult(reports_checked=len(reports))
    resolver = Resolver(store)
    parsed = []
    for rep in reports:
        for number, f in enumerate(report_findings(rep), start=1):
            text = f"{f['summary']}\n\n{f['explanation']}" if f["summary"] else f["explanation"]
            parsed.append((rep, number, sentences_with_citations(text)))
    resolver.prefetch(r for _, _, sents in parsed for _, _, cites in sents
                      for c in cites for r in c.refs)
    total = len(parsed)
    for done, (rep, number, sents) in enumerate(parsed, start=1):
        result.findings_checked += 1
        if not sents:
            result.uncited_count += 1
            continue
        worst = None
        for sentence, _span, cites in sents:
            units: dict[str, dict] = {}
            record_texts: list[str] = []
            for c in cites:
                for ref in c.refs:
                    res = resolver.resolve(ref)
                    if res.dangling:
                        result.dangling.append({"report": rep["human_readable_id"], "finding": number,
                                                "marker": c.marker, "kind": ref.kind, "id": ref.id})
                    if res.record is None:
                        continue
                    for u in res.text_units:
                        units.setdefault(u["id"], u)
                    record_texts += res.record_texts()
            if units or record_texts:
                sup = judge(sentence, list(units.values()), record_texts)
                verdict, score, best = sup.verdict, sup.score, sup.best_sentence
            else:
                verdict, score, best = "unsupported", 0.0, ""
            if worst is None or _RANK[verdict] < _RANK[worst[0]]:
                worst = (verdict, score, sentence, best)
        verdict, score, sentence, best = worst
        if verdict == "supported":
            result.supported_count += 1
        elif verdict == "weak":
            result.weak_count += 1
        else:
            result.unsupported.append({
                "report": rep["human_readable_id"], "title": rep.get("title") or "",
                "finding": number, "sentence": strip_citations(sentence).strip(),
                "verdict": verdict, "score": score, "best_sentence": best})
        if on_progress and (done % 50 == 0 or done == total):
            on_progress(done, total, f"report {rep['human_readable_id']}")
    return result

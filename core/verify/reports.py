"""Check the citations of every community report in a workspace.

For each finding of each report (findings as stored: a JSON list of {summary, explanation}, as
our engines and Microsoft GraphRAG write them; a report without findings is read from the `## `
sections of its full_content), every sentence that carries a citation is judged against the
union of the text units of all the references in that sentence (the offline judge unless another
is given: core.verify.judges), and every reference to an id that does not exist is listed as
dangling. Names are looked up in the whole workspace once (core.verify.names).

A finding's verdict is the worst verdict of its cited sentences. A sentence whose references are
all dangling or "+more" has nothing to be judged against and counts as unsupported. Findings
with no citation at all are counted apart ("without citations"), not judged.

Each report gets a trust line: its findings per verdict and the names it gives that no document
holds. `reports` lists them least supported first: a report with fabricated findings before one
with contradicted findings, then by the share of findings supported (partial counting half).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Callable

from core.text.citations import sentences_with_citations, strip_citations
from core.store.references import Resolver
from core.verify.names import Names
from core.verify.absent import fabricated_names
from core.verify.decide import names_absent, said_elsewhere, unverifiable
from core.verify.judges import make_judge, policy_for
from core.verify.verdict import FLAGGED, RANK, VERDICTS, Verdict

_SECTION = re.compile(r"^##\s+(.+)$", re.M)

Judge = Callable[..., Verdict]


@dataclass
class ReportTrust:
    report: int
    title: str
    community: int | None
    counts: dict[str, int]
    fabricated: list[str] = field(default_factory=list)
    uncited: int = 0

    @property
    def judged(self) -> int:
        return sum(self.counts.values())

    @property
    def trust(self) -> float:
        """Supported findings plus half the partial ones, over the findings judged."""
        n = self.judged
        return round((self.counts.get("supported", 0) + 0.5 * self.counts.get("partial", 0)) / n, 3) if n else 1.0

    def line(self) -> str:
        return trust_line(self.counts, self.fabricated)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["trust"] = self.trust
        d["line"] = self.line()
        return d


def trust_line(counts: dict[str, int], fabricated: list[str]) -> str:
    """`9 findings: 3 supported, 4 partial, 1 unsupported, 1 fabricated (names Lila Chen)`"""
    n = sum(counts.values())
    parts = [f"{counts[v]} {v}" for v in reversed(VERDICTS) if counts.get(v)]
    line = f"{n} finding{'' if n == 1 else 's'} checked: " + (", ".join(parts) if parts else "none")
    if fabricated:
        line += "; in no document: " + ", ".join(fabricated)
    return line


def order_key(t: ReportTrust) -> tuple:
    n = max(1, t.judged)
    return (-t.counts.get("fabricated", 0) / n, -t.counts.get("contradicted", 0) / n, t.trust, t.report)


@dataclass
class VerifyResult:
    reports_checked: int = 0
    findings_checked: int = 0
    dangling: list[dict] = field(default_factory=list)
    unsupported: list[dict] = field(default_factory=list)  # every flagged finding (see FLAGGED)
    counts: dict[str, int] = field(default_factory=lambda: {v: 0 for v in VERDICTS})
    uncited_count: int = 0
    reports: list[ReportTrust] = field(default_factory=list)
    judge: str = "offline"

    @property
    def supported_count(self) -> int:
        return self.counts["supported"]

    @property
    def partial_count(self) -> int:
        return self.counts["partial"]

    @property
    def unsupported_count(self) -> int:
        return self.counts["unsupported"]

    @property
    def flagged_count(self) -> int:
        return len(self.unsupported)

    def summary(self) -> str:
        c = self.counts
        line = (f"verified {self.reports_checked} reports, {self.findings_checked} findings: "
                f"{c['supported']} supported, {c['partial']} partial, {c['unsupported']} unsupported, "
                f"{c['contradicted']} contradicted, {c['fabricated']} fabricated, {len(self.dangling)} "
                f"dangling reference{'' if len(self.dangling) == 1 else 's'}")
        if self.uncited_count:
            line += f", {self.uncited_count} without citations"
        return line + f" ({self.judge} judge)"

    def to_dict(self) -> dict:
        return {"reports_checked": self.reports_checked, "findings_checked": self.findings_checked,
                "counts": dict(self.counts), "uncited_count": self.uncited_count,
                "dangling": self.dangling, "flagged": self.unsupported, "judge": self.judge,
                "reports": [r.to_dict() for r in self.reports], "summary": self.summary()}


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


def missing_text(missing: list[str]) -> str:
    """ "Sources (9998) is not in this workspace": the references no record answers."""
    return f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in this workspace"


def judge_sentence(resolver: Resolver, sentence: str, cites, judge: Judge, names: Names,
                   on_dangling: Callable[[object, object], None] | None = None) -> Verdict:
    """One cited sentence judged against the union of its references' text units."""
    units: dict[str, dict] = {}
    record_texts: list[str] = []
    removed: list[str] = []
    rewritten = False
    led: list[str] = []  # reports rewritten since, judged by the report standing for each now
    gone: list[str] = []  # the references no record answers
    for c in cites:
        for ref in c.refs:
            res = resolver.resolve(ref)
            if res.dangling:
                gone.append(f"{ref.kind} ({ref.id})")
                if on_dangling:
                    on_dangling(c, ref)
            if res.record is None:
                if res.removed:
                    removed.append(res.removed)
                rewritten |= res.rewritten
                continue
            if res.successor is not None:
                led.append(f"Report {res.successor} for Report {ref.id}")
            for u in res.text_units:
                units.setdefault(u["id"], u)
            record_texts += res.record_texts()
    titles = list(dict.fromkeys(removed))
    # a cited passage that went with a replaced document (its title is back): the sentence is
    # checked against the document's new version too, and the verdict says so when that is all
    newer = new_versions(resolver.store, titles) if titles else []
    if not units and not record_texts:
        if newer:
            v = judge(sentence, newer, [], names=names)
            v.reason = (f"checked against the new version of {', '.join(titles)} (the cited passage "
                        f"was replaced)" + (f"; {v.reason}" if v.reason else ""))
            return v
        if titles:  # a saved answer whose sources went with a removed document
            return unverifiable(f"its sources were removed with {', '.join(titles)}")
        if rewritten:
            return unverifiable("the report it cites was rewritten when documents were removed or replaced; ask again")
        return unverifiable(missing_text(list(dict.fromkeys(gone))) if gone else "nothing it cites exists")
    for u in newer:
        units.setdefault(u["id"], u)
    v = judge(sentence, list(units.values()), record_texts, names=names)
    if v.verdict == "contradicted":
        _said_elsewhere(resolver.store, sentence, v, set(units))
    if led:
        v.reason = (f"checked against {', '.join(dict.fromkeys(led))} (its community was recomputed "
                    f"when documents changed)" + (f"; {v.reason}" if v.reason else ""))
    return v


def _said_elsewhere(store, sentence: str, v: Verdict, cited: set[str]) -> None:
    """A sentence the workspace's text units say word for word (each piece of it, where words are
    left out) is not contradicted by the documents, whatever the cited text's nearest sentence
    says: it is unsupported by the cited text, and the verdict names the sources that say it (an
    offline finding quoting one unit and citing the relationships around it: its chips showed
    "contradicted")."""
    from core.text.support import claim_text
    from core.verify.offline import holds_quote, quote_pieces
    pieces = quote_pieces(claim_text(sentence))
    if len(" ".join(pieces).split()) < 6:
        return
    holders = []
    for piece in pieces:
        words = re.findall(r"[^\W_]+", piece)[:12]
        try:
            rows = store.units_with(" ".join(words)) if words else []
        except Exception:
            return
        holder = next((r for r in rows if holds_quote(r["text"] or "", piece)), None)
        if holder is None:
            return
        holders.append(holder)
    if all(h["id"] in cited for h in holders):
        return  # (the cited text holds it: the judge saw that)
    said = ", ".join(dict.fromkeys(str(h["human_readable_id"]) for h in holders if h["id"] not in cited))
    said_elsewhere(v, said)


def new_versions(store, titles: list[str], limit: int = 120) -> list[dict]:
    """The text units of the documents now holding these titles (a replaced document's new
    version), in document order; [] when none does (the document was removed)."""
    return store.units_of_titles(titles, limit)


def verify_reports(store, on_progress: Callable[[int, int, str], None] | None = None,
                   judge: Judge | None = None, judge_name: str = "offline") -> VerifyResult:
    """Verify every report's findings (see the module docstring)."""
    policy = policy_for(store)
    judge = judge or make_judge("offline", policy=policy)
    reports = store.rows("community_reports", select="id, human_readable_id, community, title, "
                                                     "findings, full_content")
    result = VerifyResult(reports_checked=len(reports), judge=judge_name)
    resolver = Resolver(store)
    names = Names(store)
    parsed = []
    findings_text: dict[tuple[int, int], str] = {}
    for rep in reports:
        for number, f in enumerate(report_findings(rep), start=1):
            text = f"{f['summary']}\n\n{f['explanation']}" if f["summary"] else f["explanation"]
            parsed.append((rep, number, sentences_with_citations(text)))
            findings_text[(rep["human_readable_id"], number)] = text
    resolver.prefetch(r for _, _, sents in parsed for _, _, cites in sents
                      for c in cites for r in c.refs)
    trust: dict[int, ReportTrust] = {}
    total = len(parsed)
    for done, (rep, number, sents) in enumerate(parsed, start=1):
        hrid = rep["human_readable_id"]
        t = trust.setdefault(hrid, ReportTrust(hrid, rep.get("title") or "", rep.get("community"),
                                               {v: 0 for v in VERDICTS}))
        result.findings_checked += 1
        if not sents:
            result.uncited_count += 1
            t.uncited += 1
            continue
        worst = None

        def dangling(c, ref, number=number, hrid=hrid):
            result.dangling.append({"report": hrid, "finding": number, "marker": c.marker,
                                    "kind": ref.kind, "id": ref.id})

        for sentence, _span, cites in sents:
            v = judge_sentence(resolver, sentence, cites, judge, names, dangling)
            for name in v.fabricated:
                if name not in t.fabricated:
                    t.fabricated.append(name)
            if worst is None or RANK[v.verdict] < RANK[worst[0].verdict]:
                worst = (v, sentence)
        v, sentence = worst
        if v.verdict != "fabricated":
            # a name no document holds, in any sentence of the finding (GraphRAG's findings cite
            # on their last sentence only): the finding is fabricated
            extra = fabricated_names(f"{findings_text[(hrid, number)]}", names)
            if extra:
                v = names_absent(extra, policy)
                sentence = next((s for s, _, _ in sentences_with_citations(findings_text[(hrid, number)])
                                 if extra[0] in s), sentence)
                for name in extra:
                    if name not in t.fabricated:
                        t.fabricated.append(name)
        result.counts[v.verdict] += 1
        t.counts[v.verdict] += 1
        if v.verdict in FLAGGED:
            fail = v.failing
            result.unsupported.append({
                "report": hrid, "title": rep.get("title") or "", "finding": number,
                "sentence": strip_citations(sentence).strip(), "verdict": v.verdict,
                "score": v.score, "best_sentence": v.best_sentence,
                "failing": fail.describe() if fail else v.reason, "fabricated": v.fabricated})
        if on_progress and (done % 50 == 0 or done == total):
            on_progress(done, total, f"report {hrid}")
    for rep in reports:
        trust.setdefault(rep["human_readable_id"], ReportTrust(
            rep["human_readable_id"], rep.get("title") or "", rep.get("community"), {v: 0 for v in VERDICTS}))
    result.reports = sorted(trust.values(), key=order_key)
    return result


def report_trust(store, report: dict, resolver: Resolver | None = None, names: Names | None = None,
                 judge: Judge | None = None) -> tuple[ReportTrust, list[Verdict | None]]:
    """One report's trust line and each finding's worst verdict (None: no citation), for the
    communities page."""
    policy = policy_for(store)
    judge = judge or make_judge("offline", policy=policy)
    resolver = resolver or Resolver(store)
    names = names or Names(store)
    t = ReportTrust(report.get("human_readable_id"), report.get("title") or "", report.get("community"),
                    {v: 0 for v in VERDICTS})
    out: list[Verdict | None] = []
    findings = report_findings(report)
    sents_per = []
    for f in findings:
        text = f"{f['summary']}\n\n{f['explanation']}" if f["summary"] else f["explanation"]
        sents_per.append(sentences_with_citations(text))
    resolver.prefetch(r for sents in sents_per for _, _, cites in sents for c in cites for r in c.refs)
    for sents in sents_per:
        if not sents:
            t.uncited += 1
            out.append(None)
            continue
        worst = None
        for sentence, _span, cites in sents:
            v = judge_sentence(resolver, sentence, cites, judge, names)
            for name in v.fabricated:
                if name not in t.fabricated:
                    t.fabricated.append(name)
            if worst is None or RANK[v.verdict] < RANK[worst.verdict]:
                worst = v
        if worst.verdict != "fabricated":
            text = " ".join(s for s, _, _ in sents)
            extra = fabricated_names(text, names)
            if extra:
                worst = names_absent(extra, policy)
                for name in extra:
                    if name not in t.fabricated:
                        t.fabricated.append(name)
        t.counts[worst.verdict] += 1
        out.append(worst)
    return t, out

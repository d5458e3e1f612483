"""Verdicts as the analyst sees them (widgets layer): a chip's badge with the failing fact, the
answer's sentences marked where their citations are unsupported, contradicted or fabricated, a
report's trust line. Every string is escaped; document text never becomes markup.

The judge is core.verify's offline judge unless a page passes another; the badge says which."""
from __future__ import annotations

import html

from core.text.citations import Citation, Ref, sentences_with_citations, uncited_spans
from core.store.references import Resolver
from core.verify.decide import unverifiable
from core.verify.names import Names
from core.verify.reports import judge_sentence, new_versions, trust_line
from core.verify.verdict import FLAGGED, HELP, Verdict
from pages.components import state as ui

MARK_LABEL = {"unsupported": "not in its sources", "contradicted": "contradicted by its sources",
              "fabricated": "names what no document holds"}


def names_for(resolver: Resolver) -> Names:
    """One name lookup per resolver (a page), so a name is searched once."""
    names = getattr(resolver, "_sm_names", None)
    if names is None:
        names = Names(getattr(resolver, "store", None))
        resolver._sm_names = names
    return names


def _judge(resolver: Resolver):
    return getattr(resolver, "_sm_judge", None)


def set_judge(resolver: Resolver, judge, name: str) -> None:
    """Make every verdict drawn with this resolver come from judge (called like the offline one)."""
    resolver._sm_judge = (judge, name)


def _judge_fn(resolver: Resolver):
    """The judge the page set for this resolver (set_judge), else the offline one."""
    judge = _judge(resolver)
    if judge and judge[0] is not None:
        return judge[0]
    from core.verify.offline import judge as fn
    return fn


def chip_verdict(resolver: Resolver, kind: str, id: int, sentence: str) -> Verdict | None:
    """The verdict of a sentence against one reference (None: nothing to judge against). A
    source whose document was replaced is judged against the new version, as the sentence is
    (core.verify.reports.judge_sentence says so in the reason)."""
    cache = getattr(resolver, "_sm_chip", None)
    if cache is None:
        cache = resolver._sm_chip = {}
    key = (kind, id, sentence)
    if key not in cache:
        res = resolver.resolve(Ref(kind, id))
        if res.record is None and res.removed and new_versions(resolver.store, [res.removed], limit=1):
            cache[key] = judge_sentence(resolver, sentence, [Citation("", 0, 0, [Ref(kind, id)])],
                                        _judge_fn(resolver), names_for(resolver))
        elif res.record is None or (not res.text_units and not res.record_texts()):
            cache[key] = None
        else:
            cache[key] = _judge_fn(resolver)(sentence, res.text_units[:80], res.record_texts(),
                                             names=names_for(resolver))
    return cache[key]


def sentence_flags(resolver: Resolver, text: str, uncited: bool = False) -> list[tuple[int, int, Verdict]]:
    """(start, end, verdict) of every sentence of text whose citations, taken together, do not
    support it (unsupported, contradicted or fabricated); with uncited, a sentence that cites
    nothing too (a draft memo's claim with no marker is no checked claim)."""
    sents = sentences_with_citations(text)
    resolver.prefetch(r for _, _, cites in sents for c in cites for r in c.refs)
    fn = _judge_fn(resolver)
    out = []
    for sentence, (s, e), cites in sents:
        refs = [r for c in cites for r in c.refs if r.id is not None]
        if not refs:
            continue
        v = judge_sentence(resolver, sentence, cites, fn, names_for(resolver))
        if v.verdict in FLAGGED:
            out.append((s, e, v))
    if uncited:
        out += [(s, e, unverifiable("it cites nothing")) for s, e in uncited_spans(text, sents)]
        out.sort(key=lambda f: f[0])
    return out


def failing_text(v: Verdict) -> str:
    fail = v.failing
    if fail is not None:
        return fail.describe()
    return v.reason or HELP.get(v.verdict, "")


def badge_html(v: Verdict | dict | None, with_fact: bool = True) -> str:
    """`<span class="sm-verdict contradicted">contradicted</span> number “twenty”: ...`"""
    if v is None:
        return ""
    if isinstance(v, dict):
        verdict, why, judge = v.get("verdict"), v.get("failing") or v.get("reason") or "", v.get("judge", "offline")
    else:
        verdict, why, judge = v.verdict, failing_text(v) if v.verdict != "supported" else "", v.judge
    out = (f'<span class="sm-verdict {html.escape(str(verdict))}" title="{html.escape(judge)} judge">'
           f'{html.escape(str(verdict))}</span>')
    if with_fact and why and verdict != "supported":
        out += f' <span class="sm-fail">{html.escape(why)}</span>'
    return out


def flag_open(v: Verdict) -> str:
    return (f'<span class="sm-flag {v.verdict}" title="{html.escape(MARK_LABEL.get(v.verdict, v.verdict))}: '
            f'{html.escape(failing_text(v))}">')


def shown_verdict(v: Verdict) -> str:
    """The verdict's word on the page: "source removed" for a sentence whose sources went with a
    removed document (nothing was checked, so "unsupported" would say too much)."""
    return "source removed" if v.reason.startswith("its sources were removed with") else v.verdict


def flag_close(v: Verdict) -> str:
    return (f'</span> <span class="sm-flag-why {v.verdict}">\u26a0 {html.escape(shown_verdict(v))}: '
            f'{html.escape(failing_text(v))}</span>')


def flag_markdown(v: Verdict) -> tuple[str, str]:
    """Streamlit markdown that marks a sentence: a coloured background and a badge with why."""
    colour = "red" if v.verdict in ("contradicted", "fabricated") else "orange"
    return f":{colour}-background[", f"] :{colour}-badge[\u26a0 {ui.md(shown_verdict(v))}: {ui.md(failing_text(v))}]"


def trust_html(counts: dict[str, int], fabricated: list[str], judge: str = "offline") -> str:
    """A report's trust line: its findings per verdict and the names no document holds."""
    parts = [f'<span class="sm-verdict {v}">{counts[v]} {v}</span>'
             for v in ("supported", "partial", "unsupported", "contradicted", "fabricated") if counts.get(v)]
    n = sum(counts.values())
    line = (f'<div class="sm-trust" title="{html.escape(trust_line(counts, fabricated))}">'
            f'Trust ({html.escape(judge)} judge): {n} finding{"" if n == 1 else "s"} checked {"".join(parts)}')
    if fabricated:
        line += (' <span class="sm-fail">in no document: '
                 + html.escape(", ".join(fabricated)) + "</span>")
    return line + "</div>"

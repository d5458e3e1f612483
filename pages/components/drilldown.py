"""The drill-down shared by the communities and ask pages, in a dialog:
record (report, entity, relationship, claim, source) -> its text units, each with the sentence
that best supports the cited claim highlighted and the support verdict -> the whole document with
the chunk highlighted.

Every piece of document or model text is escaped before it becomes HTML (html.escape) or
markdown (ui.md / ui.safe_markdown)."""
from __future__ import annotations

import html
import re
from typing import Any

import streamlit as st

from core.text.citations import Ref
from core.store.references import Resolved, Resolver, resolve
from core.text.support import claim_text
from core.verify.names import Names
from core.verify.offline import judge as _judge_offline
from core.verify.verdict import HELP as VERDICT_HELP, Verdict as Support
from core.store.db import Store
from pages.components import state as ui

SINGULAR = {"Reports": "Report", "Entities": "Entity", "Relationships": "Relationship",
            "Claims": "Claim", "Sources": "Source"}
SHOW_UNITS = 4
MAX_JUDGED = 80
DOC_WINDOW = 200_000
CONTEXT_CHARS = 420
PANEL_CONTEXT_CHARS = 200  # a chip's panel: the highlighted sentence in view without scrolling


def ref_label(kind: str, id: int | None) -> str:
    return f"{SINGULAR.get(kind, kind)} {id}" if id is not None else f"{kind} +more"


def open_ref(kind: str, id: int | None, sentence: str | None = None) -> None:
    """Open the drill-down on a reference (call from a widget callback or before show())."""
    st.session_state["drill"] = {"kind": kind, "id": id, "sentence": sentence}
    st.session_state["drill_back"] = []
    st.session_state.pop("drill_doc", None)


def _go(kind: str, id: int, sentence: str | None = None) -> None:
    here = st.session_state.get("drill")
    if here:
        st.session_state.setdefault("drill_back", []).append(here)
    st.session_state["drill"] = {"kind": kind, "id": id, "sentence": sentence}
    st.session_state.pop("drill_doc", None)


def _back() -> None:
    if st.session_state.get("drill_doc"):
        st.session_state.pop("drill_doc", None)
        return
    trail = st.session_state.get("drill_back") or []
    if trail:
        st.session_state["drill"] = trail.pop()


def close() -> None:
    for k in ("drill", "drill_back", "drill_doc"):
        st.session_state.pop(k, None)


def show(store: Store) -> None:
    """Render the drill-down dialog when a reference is open."""
    if st.session_state.get("drill"):
        _dialog(store)


@st.dialog("Evidence", width="large", on_dismiss=close)
def _dialog(store: Store) -> None:
    render(store)


def render(store: Store) -> None:
    d = st.session_state.get("drill")
    if not d:
        return
    if st.session_state.get("drill_back") or st.session_state.get("drill_doc"):
        st.button("Back", icon=":material/arrow_back:", on_click=_back, key="drill_back_btn")
    doc = st.session_state.get("drill_doc")
    if doc:
        render_document(store, doc)
        return
    res = resolve(store, Ref(d["kind"], d["id"]))
    label = ref_label(d["kind"], d["id"])
    if res.more:
        st.info(f"{label}: the text says there are more {d['kind'].lower()} without listing "
                "them, so there is nothing to open.")
        return
    if res.dangling and res.successor is not None:  # a report rewritten since: the one standing for it
        st.info(f"{label} was rewritten when documents changed; {ref_label(d['kind'], res.successor)} "
                "now stands for its community.", icon=":material/update:")
        label = ref_label(d["kind"], res.successor)
    elif res.dangling and res.removed:
        from pages.components.verdicts import chip_verdict
        sentence = d.get("sentence")
        sup = chip_verdict(Resolver(store), d["kind"], d["id"], sentence) if sentence else None
        if sup is None:
            st.info(f"{label} was removed with the document {res.removed}: the passage it cited is no "
                    "longer in the workspace.", icon=":material/delete:")
            return
        st.info(f"{label} went with the old version of {res.removed}, which was replaced; the sentence "
                "is checked against the new version.", icon=":material/swap_horiz:")
        st.markdown("**Cited for**")
        st.html(f'<div class="sm-quote">{html.escape(claim_text(sentence))}</div>')
        st.html(new_version_html(store, sup, res.removed))
        unit = store.get("text_units", sup.text_unit_id) if sup.text_unit_id else None
        if unit:
            st.button("Open the new version", icon=":material/description:", key="drill_new_version",
                      on_click=_open_doc, args=({"document_id": unit["document_id"], "start": unit.get("char_start"),
                                                 "end": unit.get("char_end"), "mark_start": sup.char_start,
                                                 "mark_end": sup.char_end, "unit": unit.get("human_readable_id")},))
        return
    elif res.dangling:
        st.error(f"{label} does not exist in this workspace: the text cites an id that is not "
                 "there. Treat the sentence that cites it as unverified.", icon=":material/link_off:")
        return
    st.markdown(f"### {ui.md(label)} \u00b7 {ui.md(res.title)}")
    sentence = d.get("sentence")
    claim = sentence or _default_claim(res)
    if sentence:
        st.markdown("**Cited for**")
        st.html(f'<div class="sm-quote">{html.escape(claim_text(sentence))}</div>')
    _record(res)
    _members(res)
    _sources(store, res, claim, bool(sentence))


def _default_claim(res: Resolved) -> str:
    texts = res.record_texts()
    return texts[0][:600] if texts else ""


def _record(res: Resolved) -> None:
    r = res.record or {}
    if res.kind == "Reports":
        st.caption(f"Community {r.get('community')} \u00b7 level {r.get('level')} \u00b7 "
                   f"rating {float(r.get('rating') or 0):.1f}")
        st.markdown(ui.safe_markdown(r.get("summary") or ""))
        findings = [f for f in (r.get("findings") or []) if isinstance(f, dict)]
        if findings:
            with st.expander(f"Findings ({len(findings)})"):
                for f in findings:
                    st.markdown(f"**{ui.md(f.get('summary') or '')}**")
                    st.markdown(ui.safe_markdown(f.get("explanation") or ""))
    elif res.kind == "Entities":
        st.caption(ui.md(f"{r.get('type') or 'entity'} \u00b7 degree {r.get('degree') or 0} \u00b7 "
                         f"mentioned in {len(r.get('text_unit_ids') or [])} text units"))
        st.markdown(ui.safe_markdown(r.get("description") or ""))
    elif res.kind == "Relationships":
        st.caption(f"weight {float(r.get('weight') or 0):g}")
        st.markdown(ui.safe_markdown(r.get("description") or ""))
    elif res.kind == "Claims":
        st.caption(ui.md(f"{r.get('type') or 'claim'} \u00b7 status {r.get('status') or '-'}"
                         + (f" \u00b7 {r.get('start_date')}" if r.get("start_date") else "")))
        st.markdown(ui.safe_markdown(r.get("description") or ""))
        if r.get("source_text"):
            st.html(f'<div class="sm-quote">{html.escape(str(r["source_text"]))}</div>')


def _members(res: Resolved) -> None:
    if res.kind != "Reports" or not res.members:
        return
    options = [(k, i) for k in ("Entities", "Relationships", "Claims")
               for i in (res.members.get(k) or [])[:40]]
    if not options:
        return
    key = f"drill_members_{res.kind}_{res.id}"

    def picked() -> None:
        choice = st.session_state.get(key)
        st.session_state[key] = None
        if choice:
            _go(choice[0], choice[1])

    st.pills("Members of this community", options, format_func=lambda o: ref_label(*o),
             key=key, on_change=picked)


def judge(claim: str, units: list[dict], texts: list[str], store=None) -> Support:
    return _judge_offline(claim, units, texts, names=Names(store) if store is not None else None)


def facts_html(v: Support) -> str:
    """The key facts of a verdict, each with what the source says (escaped)."""
    if not v.facts:
        return ""
    items = []
    for f in v.facts:
        ev = f' — source: “{html.escape(f.evidence.text[:160])}”' if f.evidence and f.evidence.text else ""
        items.append(f'<li class="sm-fact {html.escape(f.status.replace(" ", "-"))}">'
                     f"{html.escape(f.describe())}{ev}</li>")
    return f'<ul class="sm-facts">{"".join(items)}</ul>'


def _judged(res: Resolved, claim: str, store=None) -> list[tuple[dict, Support]]:
    units = res.text_units[:MAX_JUDGED]
    texts = res.record_texts()
    names = Names(store) if store is not None else None
    out = [(u, _judge_offline(claim, [u], texts, names=names)) for u in units]
    out.sort(key=lambda p: (-p[1].score, p[0].get("document_id") or "", p[0].get("ordinal") or 0))
    return out


def verdict_meta(v, what: str, across: str) -> str:
    """"Verdict for the cited sentence (offline judge): partial — the cited text says part of it ·
    word match: 40% of its terms around one sentence, 60% across 3 source text units". The verdict
    and what it means first; the shares are the word match behind it, no confidence."""
    return (f'<div class="sm-meta">Verdict for {html.escape(what)} ({html.escape(v.judge)} judge): '
            f'<span class="sm-verdict {html.escape(v.verdict)}">{html.escape(v.verdict)}</span> \u2014 '
            f'{html.escape(VERDICT_HELP.get(v.verdict, ""))} \u00b7 word match: {v.score:.0%} of its terms '
            f'around one sentence, {v.coverage:.0%} across {html.escape(across)}</div>')


def _sources(store: Store, res: Resolved, claim: str, from_text: bool) -> None:
    units = res.text_units
    st.markdown(f"#### Source text ({len(units)} text unit{'s' if len(units) != 1 else ''})")
    if not units:
        st.caption("No text units are linked to this record.")
        return
    if claim:
        overall = judge(claim, units[:MAX_JUDGED], res.record_texts(), store)
        what = "the cited sentence" if from_text else "its description"
        st.html(verdict_meta(overall, what, "the sources") + facts_html(overall))
    docs = {d["id"]: d for d in res.documents}
    judged = _judged(res, claim, store) if claim else [(u, Support("unsupported", 0.0)) for u in units]
    for i, (unit, sup) in enumerate(judged[:SHOW_UNITS]):
        _unit(unit, sup, docs.get(unit.get("document_id")), f"{res.kind}{res.id}_{i}")
    rest = judged[SHOW_UNITS:]
    if rest:
        label = (f"{len(rest)} more text unit{'s' if len(rest) != 1 else ''}"
                 + (f" (of {len(units)}; the first {MAX_JUDGED} were ranked)" if len(units) > MAX_JUDGED else ""))
        key = f"drill_more_{res.kind}_{res.id}"
        # drawn on request: up to 76 excerpts with their buttons would make every drill-down
        # slower to open (a click inside the dialog reruns the dialog only)
        if not st.session_state.get(key):
            st.button(f"Show {label}", key=f"{key}_btn", icon=":material/expand_more:",
                      on_click=lambda: st.session_state.__setitem__(key, True))
            return
        st.markdown(f"**{ui.md(label[0].upper() + label[1:])}**")
        for i, (unit, sup) in enumerate(rest, start=SHOW_UNITS):
            _unit(unit, sup, docs.get(unit.get("document_id")), f"{res.kind}{res.id}_{i}")


# a backslash before punctuation in a document converted from Markdown ("\\*" as a scene break)
# is shown as the character it stands for
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")


def shown(text: str) -> str:
    """Document text as escaped HTML, Markdown's backslash escapes shown as their characters."""
    return html.escape(_MD_ESCAPE.sub(r"\1", text))


def highlighted(text: str, start: int | None, end: int | None, cls: str = "") -> str:
    """Escaped text with text[start:end] in a <mark>."""
    if start is None or end is None or not (0 <= start < end <= len(text)):
        return shown(text)
    attr = f' class="{cls}"' if cls else ""
    return (shown(text[:start]) + f"<mark{attr}>" + shown(text[start:end]) + "</mark>"
            + shown(text[end:]))


def excerpt(text: str, start: int | None, end: int | None, around: int = CONTEXT_CHARS) -> str:
    """Escaped HTML of a text unit: the highlighted sentence with some text on either side (cut
    at line or word boundaries, "..." where cut), or the whole unit when nothing is highlighted."""
    if start is None or end is None or not (0 <= start < end <= len(text)):
        return highlighted(text, None, None)
    lo, hi = max(0, start - around), min(len(text), end + around)
    if lo > 0:
        nl = text.rfind("\n", lo, start)
        lo = nl + 1 if nl >= 0 else (text.find(" ", lo, start) + 1 or lo)
    if hi < len(text):
        nl = text.find("\n", end, hi)
        hi = nl if nl >= 0 else (text.rfind(" ", end, hi) if text.rfind(" ", end, hi) > 0 else hi)
    body = highlighted(text[lo:hi], start - lo, end - lo)
    return ("… " if lo > 0 else "") + body + (" …" if hi < len(text) else "")


def _unit(unit: dict, sup: Support, doc: dict | None, key: str) -> None:
    text = unit.get("text") or ""
    here = sup.text_unit_id == unit.get("id")
    title = (doc or {}).get("title") or "document"
    # one number for a passage: the Source number citations use (the chunk's place in its
    # document was a second number for the same thing)
    meta = f'Source {unit.get("human_readable_id")} \u00b7 {html.escape(str(title))}'
    if here:
        meta += f' <span class="sm-verdict {sup.verdict}">{sup.verdict} {sup.score:.0%}</span>'
    st.html(f'<div class="sm-meta">{meta}</div><div class="sm-source">'
            f'{excerpt(text, sup.unit_start if here else None, sup.unit_end if here else None)}</div>')
    if doc is not None:
        st.button("Open the whole document", key=f"doc_{key}", icon=":material/description:",
                  on_click=_open_doc, args=({"document_id": doc["id"], "start": unit.get("char_start"),
                                             "end": unit.get("char_end"),
                                             "mark_start": sup.char_start if here else None,
                                             "mark_end": sup.char_end if here else None,
                                             "unit": unit.get("human_readable_id")},))


def evidence_html(res: Resolved, sentence: str, sup: Support | None = None) -> str:
    """One reference's evidence as escaped HTML, for the panel its chip opens in the page
    (a <details> element, so it opens in the browser without a rerun): the record's title, the
    support verdict for the citing sentence, and the source text unit that supports it best
    with that sentence highlighted, as the dialog shows them first."""
    label = ref_label(res.kind, res.id if res.successor is None else res.successor)
    if res.dangling and res.record is None and (res.removed or res.rewritten):
        return ""  # the chip says where it went (removed, replaced, rewritten): no "does not exist"
    if res.dangling and res.record is None:
        return (f'<div class="sm-ev-warn">{html.escape(label)} does not exist in this workspace: '
                "the text cites an id that is not there. Treat the sentence that cites it as "
                "unverified.</div>")
    out = [f'<div class="sm-ev-title">{html.escape(label)} \u00b7 {html.escape(res.title)}</div>']
    units = res.text_units
    if not units:
        out.append('<div class="sm-meta">No text units are linked to this record.</div>')
        return "".join(out)
    if sup is None:
        sup = judge(sentence, units[:MAX_JUDGED], res.record_texts())
    out.append(verdict_meta(sup, "the cited sentence",
                            f'{len(units)} source text unit{"s" if len(units) != 1 else ""}') + facts_html(sup))
    unit = next((u for u in units if u.get("id") == sup.text_unit_id), None)
    if unit is None:
        out.append('<div class="sm-meta">No sentence of its sources shares the cited sentence\'s '
                   "terms; the evidence viewer lists them.</div>")
        return "".join(out)
    doc = next((d for d in res.documents if d.get("id") == unit.get("document_id")), None)
    out.append(f'<div class="sm-meta">Source {html.escape(str(unit.get("human_readable_id")))} \u00b7 '
               f'{html.escape(str((doc or {}).get("title") or "document"))}</div>')
    out.append(f'<div class="sm-source">'
               f'{excerpt(unit.get("text") or "", sup.unit_start, sup.unit_end, PANEL_CONTEXT_CHARS)}</div>')
    return "".join(out)


def new_version_html(store: Store, sup: Support | None, title: str) -> str:
    """A replaced source's evidence in its document's new version: the verdict against it, its
    facts and the new version's best sentence highlighted (escaped, like evidence_html)."""
    if sup is None:
        return ""
    out = [f'<div class="sm-meta">Verdict for the cited sentence against the new version '
           f'({html.escape(sup.judge)} judge): <span class="sm-verdict {sup.verdict}">{sup.verdict}</span> '
           f'\u2014 {html.escape(VERDICT_HELP.get(sup.verdict, ""))}</div>{facts_html(sup)}']
    unit = store.get("text_units", sup.text_unit_id) if sup.text_unit_id else None
    if unit is None:
        out.append('<div class="sm-meta">No sentence of the new version shares the cited sentence\'s terms.</div>')
        return "".join(out)
    out.append(f'<div class="sm-meta">In the new version: Source {html.escape(str(unit.get("human_readable_id")))} '
               f'\u00b7 {html.escape(title)}</div>')
    out.append(f'<div class="sm-source">'
               f'{excerpt(unit.get("text") or "", sup.unit_start, sup.unit_end, PANEL_CONTEXT_CHARS)}</div>')
    return "".join(out)


def _open_doc(doc: dict[str, Any]) -> None:
    st.session_state["drill_doc"] = doc


_DOC_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<style>
body {{ margin: 0; font-family: "Source Serif Pro", Georgia, serif; font-size: 15px; line-height: 1.6;
  color: #1f2933; }}
#doc {{ white-space: pre-wrap; padding: 12px 16px; height: {inner}px; overflow-y: auto;
  border: 1px solid #e4e7eb; border-radius: 8px; box-sizing: border-box; }}
mark.chunk {{ background: #e0ecff; padding: 2px 0; }}
mark.sent {{ background: #fff1a8; }}
.gap {{ color: #8a94a3; font-style: italic; }}
</style></head><body><div id="doc">{body}</div>
<script>var m = document.querySelector("mark.chunk"); if (m) {{ m.scrollIntoView({{block: "center"}}); }}</script>
</body></html>"""


def document_html(text: str, start: int, end: int, mark_start: int | None = None,
                  mark_end: int | None = None, height: int = 520) -> str:
    """The document as an escaped HTML page with the chunk (and its supporting sentence)
    highlighted, scrolled to the chunk. Very long documents are cut to a window around it."""
    lo, hi = 0, len(text)
    if len(text) > DOC_WINDOW:
        lo = max(0, start - DOC_WINDOW // 2)
        hi = min(len(text), max(end, lo + DOC_WINDOW))
    parts = []
    if lo > 0:
        parts.append(f'<div class="gap">[{lo:,} characters before this point are not shown]</div>')
    parts.append(shown(text[lo:start]))
    chunk = text[start:end]
    if mark_start is not None and mark_end is not None and start <= mark_start < mark_end <= end:
        inner = highlighted(chunk, mark_start - start, mark_end - start, "sent")
    else:
        inner = shown(chunk)
    parts.append(f'<mark class="chunk">{inner}</mark>')
    parts.append(shown(text[end:hi]))
    if hi < len(text):
        parts.append(f'<div class="gap">[{len(text) - hi:,} more characters are not shown]</div>')
    return _DOC_PAGE.format(body="".join(parts), inner=height - 8)


def render_document(store: Store, doc: dict[str, Any]) -> None:
    row = store.get("documents", doc["document_id"])
    if row is None:
        st.error("This document is no longer in the workspace.")
        return
    text = row.get("text") or ""
    start = int(doc.get("start") or 0)
    end = int(doc.get("end") or start)
    st.markdown(f"### {ui.md(row.get('title') or 'Document')}")
    st.caption(ui.md(f"{row.get('source_name') or ''} \u00b7 {row.get('n_tokens') or 0:,} tokens "
                     f"\u00b7 Source {doc.get('unit')} is highlighted in blue, the supporting "
                     "sentence in yellow"))
    st.iframe(document_html(text, start, end, doc.get("mark_start"), doc.get("mark_end")),
              height=530)

"""Text with citation markers, rendered as escaped markdown with an inline badge per marker and,
under each paragraph, its references as chips that open their evidence in place.

A chip carries its verdict (core.verify) and, unless supported, the fact that fails; a sentence
whose citations together do not support it is marked where it stands (pages/components/verdicts).
A chip's panel (the record, the verdict with its key facts, the source text with the supporting
sentence highlighted) is computed with the page and written as a <details> element, so opening it is the
browser's work alone: through a rerun of the page it took 0.8-1 s in Chromium. Every string in
it is escaped (html.escape); document text never becomes markup. The evidence viewer (a select
box of the same references, one per answer or report) opens the drill-down dialog: the record,
every source text unit and the whole document.
"""
from __future__ import annotations

import html
import re
import streamlit as st

from core.text.citations import Ref, parse_citations, sentences_with_citations, strip_citations
from core.store.references import Resolver
from core.store.db import Store
from pages.components import drilldown as drill
from pages.components import state as ui
from pages.components import verdicts as ui_verdicts

_PARA = re.compile(r"\n\s*\n")


def badge_text(refs) -> str:
    """`Reports 1, 3; Entities 5, +more` for a marker's references."""
    by_kind: dict[str, list[str]] = {}
    for r in refs:
        by_kind.setdefault(r.kind, []).append(str(r.id) if r.id is not None else "+more")
    return "; ".join(f"{k} {', '.join(v)}" for k, v in by_kind.items())


def _stop_after(text: str, end: int) -> int:
    """The end of the punctuation right after a marker (".", ",", ";", ":", "!", "?"), which is
    shown before the badge instead of after it."""
    stop = end
    while stop < len(text) and text[stop] in ".,;:!?" and stop - end < 3:
        stop += 1
    return stop


def _flag_points(text: str, flags) -> dict[int, list[str]]:
    """Where a flagged sentence's mark opens ("o<i>") and closes ("c<i>"): around the sentence's
    words, before its first citation marker."""
    points: dict[int, list[str]] = {}
    cites = parse_citations(text)
    for i, (s, e, _v) in enumerate(flags or []):
        close = next((c.start for c in cites if s <= c.start < e), e)
        while close > s and text[close - 1] == " ":
            close -= 1
        if close > s:
            points.setdefault(s, []).append(f"o{i}")
            points.setdefault(close, []).insert(0, f"c{i}")
    return points


def _insert_points(text: str, points: dict[int, list[str]], lo: int, hi: int) -> str:
    """text[lo:hi] with the mark points in it (those at hi only when they close a mark)."""
    out, last = [], lo
    for at in sorted(p for p in points if lo <= p <= hi):
        here = points[at] if at < hi or hi == len(text) else [t for t in points[at] if t[0] == "c"]
        if at == lo and lo > 0 and at != hi:
            here = [t for t in here if t[0] == "o"]  # a close at lo was written with the segment before
        out.append(text[last:at])
        out.extend(f"\x01{t}\x01" for t in here)
        last = at
    out.append(text[last:hi])
    return "".join(out)


def _with_badges(text: str, flags=None) -> str:
    """Escaped markdown of text, each citation marker replaced by a grey badge; each flagged
    sentence (start, end, verdict) marked with a coloured background and a badge saying why."""
    cites = parse_citations(text)
    points = _flag_points(text, flags)
    out, last, badges = [], 0, []
    for c in cites:
        stop = _stop_after(text, c.end)  # "claim [Data: ...]." reads "claim. [badge]", not "[badge] ."
        out.append(_insert_points(text, points, last, c.start).rstrip(" ") + text[c.end:stop])
        out.append(f"\x00{len(badges)}\x00")
        badges.append(badge_text(c.refs))
        last = stop
    out.append(_insert_points(text, points, last, len(text)))
    rendered = ui.safe_markdown("".join(out))
    for i, b in enumerate(badges):
        rendered = rendered.replace(f"\x00{i}\x00", f" :gray-badge[{ui.md(b)}]")
    for i, (_s, _e, v) in enumerate(flags or []):
        opening, closing = ui_verdicts.flag_markdown(v)
        rendered = rendered.replace(f"\x01o{i}\x01", opening).replace(f"\x01c{i}\x01", closing)
    return rendered


_BOLD = re.compile(r"\*\*([^*\n]{1,300}?)\*\*")
_LINE_ITEM = re.compile(r"\n(?=\s{0,6}(?:#{1,6} |[-*] |\d{1,3}\. |> ))")


def inline_html(text: str) -> str:
    """Model-written text as escaped HTML: **bold** kept (as <strong>), a line break before a
    line that starts a list item, heading or quote, other line breaks joined as markdown joins
    them; every other character is text."""
    out, last = [], 0
    for b in _BOLD.finditer(text):
        out.append(html.escape(text[last:b.start()]))
        out.append(f"<strong>{html.escape(b.group(1))}</strong>")
        last = b.end()
    out.append(html.escape(text[last:]))
    return _LINE_ITEM.sub("<br>", "".join(out).strip()).replace("\n", " ")


def paragraph_html(para: str, flags=None) -> str:
    """A paragraph as escaped HTML, each citation marker replaced by a grey badge; each flagged
    sentence (start, end, verdict) in a coloured mark followed by why."""
    points = _flag_points(para, flags)
    out, last = [], 0
    for c in parse_citations(para):
        stop = _stop_after(para, c.end)
        out.append(inline_html(_insert_points(para, points, last, c.start).rstrip(" ") + para[c.end:stop]))
        gap = " " if para[stop:stop + 1].isspace() else ""  # inline_html strips the next piece
        out.append(f' <span class="sm-badge">{html.escape(badge_text(c.refs))}</span>{gap}')
        last = stop
    out.append(inline_html(_insert_points(para, points, last, len(para))))
    body = "".join(out)
    for i, (_s, _e, v) in enumerate(flags or []):
        body = body.replace(f"\x01o{i}\x01", ui_verdicts.flag_open(v)).replace(
            f"\x01c{i}\x01", ui_verdicts.flag_close(v))
    return f'<p class="sm-para">{body}</p>'


def cited_html(store: Store, text: str, resolver: Resolver, mark: bool = True, uncited: bool = False) -> str:
    """cited_text as one piece of escaped HTML (one element for the browser to draw instead of
    two per paragraph): paragraphs with badges, each followed by its chips and their evidence;
    uncited: a sentence that cites nothing is marked too (Check a text)."""
    parts = []
    for para in (p for p in _PARA.split(text or "") if p.strip()):
        parts.append(paragraph_html(para, ui_verdicts.sentence_flags(resolver, para, uncited) if mark else None))
        options = chip_options(store, para, resolver)
        if options:
            parts.append(chips_html(resolver, options))
    return "".join(parts)


def chip_options(store: Store, text: str, resolver: Resolver | None = None
                 ) -> list[tuple[str, int, str, bool]]:
    """(kind, id, sentence, exists) for every distinct reference in text, in order; a reference
    cited again by another sentence gets a chip of its own for that sentence when its verdict
    there is not "supported" (each flagged sentence's evidence and failing fact can be opened)."""
    resolver = resolver or Resolver(store)
    sentences = sentences_with_citations(text)
    resolver.prefetch(r for _, _, cites in sentences for c in cites for r in c.refs)
    seen: dict[tuple, tuple[str, int, str, bool]] = {}
    for sentence, _, cites in sentences:
        for c in cites:
            for r in c.refs:
                if r.id is None or (r.kind, r.id, sentence) in seen:
                    continue
                exists = not resolver.resolve(Ref(r.kind, r.id)).dangling
                if (r.kind, r.id) in seen:
                    v = ui_verdicts.chip_verdict(resolver, r.kind, r.id, sentence) if exists else None
                    if v is None or v.verdict == "supported":
                        continue
                    seen[(r.kind, r.id, sentence)] = (r.kind, r.id, sentence, exists)
                    continue
                seen[(r.kind, r.id)] = (r.kind, r.id, sentence, exists)
    return list(seen.values())


def chip_label(kind: str, id: int, exists: bool, removed: bool = False, sentence: str = "",
               now: int | None = None) -> str:
    """`Source 91`; for a later sentence citing it again, `Source 91 · “Operating expenses de…”`;
    a report whose community was recomputed (now: the report standing for it) `Report 12
    (rewritten: now Report 130)`."""
    if not exists and now is not None:
        label = f"{drill.ref_label(kind, id)} (rewritten: now {drill.ref_label(kind, now)})"
    else:
        label = drill.ref_label(kind, id) + ("" if exists else " (source removed)" if removed else " (missing)")
    if sentence:
        words = " ".join(strip_citations(sentence).split())
        cut = words[:28] + ("\u2026" if len(words) > 28 else "")
        label += f" \u00b7 \u201c{cut}\u201d"
    return label


def _labels(options: list[tuple[str, int, str, bool]], resolver: Resolver) -> list[tuple[str, object, int | None]]:
    """(label, resolved reference, the report standing for it now) of each chip, as both the chips
    and the evidence viewer show them: a reference's second chip (another sentence) names its
    sentence; a removed source says removed (replaced, when its document has a new version), a
    rewritten report names the report standing for it now."""
    again: set[tuple[str, int]] = set()
    out = []
    for kind, id, sentence, exists in options:
        res = resolver.resolve(Ref(kind, id))
        now = None if exists else res.successor
        label = chip_label(kind, id, exists, bool(res.removed), sentence if (kind, id) in again else "", now)
        again.add((kind, id))
        if res.removed and replaced(resolver, res.removed):
            label = label.replace("(source removed)", "(source replaced)")
        elif not res.removed and now is None and res.rewritten:
            label = label.replace("(missing)", "(rewritten since)")
        out.append((label, res, now))
    return out


def chips_html(resolver: Resolver, options: list[tuple[str, int, str, bool]]) -> str:
    """The chips of a paragraph as <details> elements, each with its evidence panel."""
    parts = []
    for (kind, id, sentence, exists), (label, res, now) in zip(options, _labels(options, resolver)):
        verdict = ui_verdicts.chip_verdict(resolver, kind, id, sentence) if exists or now is not None or res.removed else None
        body = drill.evidence_html(res, sentence, verdict)
        if res.removed and replaced(resolver, res.removed):  # its document has a new version
            body = (f"<p>Source replaced: {html.escape(res.removed)} has a new version, in which this passage "
                    "changed; the sentence's verdict is checked against the new version.</p>") + body \
                + drill.new_version_html(resolver.store, verdict, res.removed)
        elif res.removed:  # removed with its document: say so, not "missing"
            body = f"<p>Source removed: it went with the document {html.escape(res.removed)}.</p>" + body
        elif now is not None:  # its community was recomputed: the report standing for it now
            body = (f"<p>Report rewritten: documents were removed or replaced since this answer and its "
                    f"community was recomputed. {drill.ref_label(kind, now)} "
                    f"(\u201c{html.escape(res.title)}\u201d) now stands for it: its community took most "
                    f"of the old one's entities. The sentence is checked against "
                    f"{drill.ref_label(kind, now)}.</p>") + body
        elif res.rewritten:  # a report of a community recomputed after a removal or replacement
            body = ("<p>Report rewritten: documents were removed or replaced since this answer, the "
                    "communities were recomputed and this report is no longer there under this number. "
                    "Ask again for an answer from the current reports.</p>") + body
        flagged = f" {verdict.verdict}" if verdict is not None and verdict.verdict != "supported" else ""
        badge = (f' <span class="sm-chip-verdict{flagged}">{html.escape(_chip_badge(verdict))}</span>'
                 if verdict is not None else "")
        # where it comes from, on hover: the document(s) of a source, the title of a record
        where = ", ".join(dict.fromkeys(str(d.get("title") or "") for d in res.documents[:3] if d)) \
            if res.kind == "Sources" else res.title if res.record else ""
        tip = f' title="{html.escape(where, quote=True)}"' if where else ""
        parts.append(f'<details class="sm-ev{"" if exists else " missing"}{flagged}">'
                     f"<summary{tip}>{html.escape(label)}{badge}</summary>"
                     f'<div class="sm-ev-body">{body}</div></details>')
    return f'<div class="sm-chips">{"".join(parts)}</div>'


def replaced(resolver: Resolver, title: str) -> bool:
    """Does a document of this title exist now (the one the row went with was replaced)?"""
    try:
        return bool(resolver.store.count("documents", "title = ?", [title]))
    except Exception:
        return False


def _chip_badge(v) -> str:
    """`contradicted: number “twenty”` (the verdict and, unless supported, the failing fact)."""
    if v.verdict == "supported":
        return "supported"
    fail = v.failing
    if fail is None:
        return v.verdict
    what = f"{fail.kind} \u201c{fail.text if len(fail.text) <= 40 else fail.text[:37] + '...'}\u201d"
    return f"{v.verdict}: {what}"


def viewer(options: list[tuple[str, int, str, bool]], key: str, resolver: Resolver) -> None:
    """The evidence viewer of an answer or a report: a reference picked here opens the
    drill-down dialog (its record, every source text unit, the whole document)."""
    by_label = {label: (kind, id, sentence)
                for (label, _, _), (kind, id, sentence, exists) in zip(_labels(options, resolver), options)}

    def picked() -> None:
        choice = st.session_state.get(key)
        st.session_state[key] = None
        if choice in by_label:
            drill.open_ref(*by_label[choice])

    st.selectbox("Evidence viewer", list(by_label), index=None, key=key, on_change=picked,
                 placeholder="Evidence viewer: record, every source, whole document",
                 label_visibility="collapsed")


def cited_text(store: Store, text: str, resolver: Resolver | None = None,
               viewer_key: str | None = None) -> int:
    """Paragraphs of text with badges, each followed by its chips (with their evidence), and,
    with viewer_key, the evidence viewer of the references. Returns the number of chips."""
    resolver = resolver or Resolver(store)
    total = 0
    for para in (p for p in _PARA.split(text or "") if p.strip()):
        st.markdown(_with_badges(para, ui_verdicts.sentence_flags(resolver, para)))
        options = chip_options(store, para, resolver)
        if options:
            total += len(options)
            st.html(chips_html(resolver, options))
    if viewer_key:
        options = chip_options(store, text or "", resolver)
        if options:
            viewer(options, viewer_key, resolver)
    return total

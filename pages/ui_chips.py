"""Text with citation markers, rendered as escaped markdown with an inline badge per marker and,
under each paragraph, its references as clickable chips that open the drill-down."""
from __future__ import annotations

import re

import streamlit as st

from core.query.citations import parse_citations, sentences_with_citations
from core.schema import CITABLE
from core.store import Store
from pages import ui_drilldown as drill
from pages import ui_state as ui

_PARA = re.compile(r"\n\s*\n")


def badge_text(refs) -> str:
    """`Reports 1, 3; Entities 5, +more` for a marker's references."""
    by_kind: dict[str, list[str]] = {}
    for r in refs:
        by_kind.setdefault(r.kind, []).append(str(r.id) if r.id is not None else "+more")
    return "; ".join(f"{k} {', '.join(v)}" for k, v in by_kind.items())


def _with_badges(text: str) -> str:
    """Escaped markdown of text, each citation marker replaced by a grey badge."""
    cites = parse_citations(text)
    out, last, badges = [], 0, []
    for c in cites:
        out.append(text[last:c.start].rstrip(" "))
        out.append(f"\x00{len(badges)}\x00")
        badges.append(badge_text(c.refs))
        last = c.end
    out.append(text[last:])
    rendered = ui.safe_markdown("".join(out))
    for i, b in enumerate(badges):
        rendered = rendered.replace(f"\x00{i}\x00", f" :gray-badge[{ui.md(b)}]")
    return rendered


def chip_options(store: Store, text: str) -> list[tuple[str, int, str, bool]]:
    """(kind, id, sentence, exists) for every distinct reference in text, in order."""
    seen: dict[tuple[str, int], tuple[str, int, str, bool]] = {}
    for sentence, _, cites in sentences_with_citations(text):
        for c in cites:
            for r in c.refs:
                if r.id is None or (r.kind, r.id) in seen:
                    continue
                exists = store.by_hrid(CITABLE[r.kind], r.id) is not None
                seen[(r.kind, r.id)] = (r.kind, r.id, sentence, exists)
    return list(seen.values())


def chips(store: Store, text: str, key: str, label: str = "References") -> int:
    """The references of text as clickable chips; returns how many."""
    options = chip_options(store, text)
    if not options:
        return 0
    by_label = {}
    for kind, id, sentence, exists in options:
        name = drill.ref_label(kind, id) + ("" if exists else " (missing)")
        by_label[name] = (kind, id, sentence)

    def picked() -> None:
        choice = st.session_state.get(key)
        st.session_state[key] = None
        if choice in by_label:
            drill.open_ref(*by_label[choice])

    st.pills(label, list(by_label), key=key, on_change=picked, label_visibility="collapsed")
    return len(options)


def cited_text(store: Store, text: str, key: str) -> int:
    """Paragraphs of text with badges, each followed by its chips. Returns the number of chips."""
    total = 0
    for i, para in enumerate(p for p in _PARA.split(text or "") if p.strip()):
        st.markdown(_with_badges(para))
        total += chips(store, para, f"{key}_{i}")
    return total

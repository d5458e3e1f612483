"""What a replacement will change, before it is made: the paragraphs of the new version that differ
from the indexed text (edited, added, removed), and the text units it re-chunks into: how many
keep their text (and their extractions) and how many are new and will be extracted again.

Shown by the Corpus page's replace prompt and printed by `sensemaker index --replace`. Nothing
here writes to the store; the texts stay plain strings (a caller renders them escaped)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from core.index.chunk_stage import unit_rows
from core.store.db import Store
from core.textutil import paragraph_spans

@dataclass
class ParagraphChange:
    kind: str  # "edited", "added", "removed"
    old: str
    new: str


@dataclass
class ReplacePreview:
    title: str
    units_before: int
    units_kept: int
    units_new: int  # extracted again
    units_gone: int
    changes: list[ParagraphChange] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        out = {"edited": 0, "added": 0, "removed": 0}
        for c in self.changes:
            out[c.kind] += 1
        return out

    def summary(self) -> str:
        """"2 paragraphs differ (1 edited, 1 added); 2 of the new version's 41 text units are new
        and extracted again, 39 keep their text and extractions; 2 of the indexed version's units
        go." """
        n = len(self.changes)
        if n == 0:
            return "The new version's paragraphs are the same as the indexed ones (only spacing differs)."
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items() if v)
        return (f"{n} paragraph{'s differ' if n != 1 else ' differs'} ({parts}); {self.units_new} of the new "
                f"version's {self.units_kept + self.units_new} text units "
                f"{'is' if self.units_new == 1 else 'are'} new and extracted again, {self.units_kept} keep "
                f"their text and extractions" + (f"; {self.units_gone} of the indexed version's units "
                f"{'goes' if self.units_gone == 1 else 'go'}" if self.units_gone else "") + ".")

    def to_dict(self) -> dict:
        return {"title": self.title, "units_before": self.units_before, "units_kept": self.units_kept,
                "units_new": self.units_new, "units_gone": self.units_gone, "paragraphs": self.counts}


def paragraphs(text: str) -> list[str]:
    """The paragraphs, their whitespace folded (a change of spacing alone is no change)."""
    text = text or ""
    return [" ".join(text[a:b].split()) for a, b in paragraph_spans(text) if text[a:b].strip()]


def paragraph_changes(old: str, new: str) -> list[ParagraphChange]:
    """The paragraphs that differ, in document order: a replaced run pairs its paragraphs one to
    one as edits, the rest of the run as added or removed."""
    a, b = paragraphs(old), paragraphs(new)
    out: list[ParagraphChange] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        olds, news = a[i1:i2], b[j1:j2]
        for k in range(max(len(olds), len(news))):
            o = olds[k] if k < len(olds) else ""
            n = news[k] if k < len(news) else ""
            out.append(ParagraphChange("edited" if o and n else "added" if n else "removed", o, n))
    return out


def preview_replacement(store: Store, old_id: str, new_text: str, settings) -> ReplacePreview:
    """What replacing document old_id by new_text changes (units as replace_document makes them)."""
    doc = store.get("documents", old_id) or {}
    before = {r["id"] for r in store.rows("text_units", "document_id = ?", [old_id], select="id")}
    after = {r["id"] for r in unit_rows(old_id, new_text, settings)}
    return ReplacePreview(str(doc.get("title") or old_id), len(before), len(before & after),
                          len(after - before), len(before - after),
                          paragraph_changes(str(doc.get("text") or ""), new_text))


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """(op, words) runs of a paragraph edit: "=" kept, "-" removed, "+" added."""
    a, b = old.split(), new.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("=", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", " ".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", " ".join(b[j1:j2])))
    return out

